from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.webhook_delivery_list import WebhookDeliveryList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    webhook_id: UUID,
    *,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["cursor"] = cursor

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/webhooks/{webhook_id}/deliveries".format(
            webhook_id=quote(str(webhook_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | WebhookDeliveryList | None:
    if response.status_code == 200:
        response_200 = WebhookDeliveryList.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = Error.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | WebhookDeliveryList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    webhook_id: UUID,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> Response[Error | WebhookDeliveryList]:
    """The webhook's delivery log

     Newest first, paged: follow `nextCursor` until it is null. What the receiver answered is kept only
    as its status code; `lastError` is a short reason of ours, never the receiver's body. Scope
    `webhooks:manage`.

    Args:
        webhook_id (UUID):
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WebhookDeliveryList]
    """

    kwargs = _get_kwargs(
        webhook_id=webhook_id,
        limit=limit,
        cursor=cursor,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    webhook_id: UUID,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> Error | WebhookDeliveryList | None:
    """The webhook's delivery log

     Newest first, paged: follow `nextCursor` until it is null. What the receiver answered is kept only
    as its status code; `lastError` is a short reason of ours, never the receiver's body. Scope
    `webhooks:manage`.

    Args:
        webhook_id (UUID):
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WebhookDeliveryList
    """

    return sync_detailed(
        webhook_id=webhook_id,
        client=client,
        limit=limit,
        cursor=cursor,
    ).parsed


async def asyncio_detailed(
    webhook_id: UUID,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> Response[Error | WebhookDeliveryList]:
    """The webhook's delivery log

     Newest first, paged: follow `nextCursor` until it is null. What the receiver answered is kept only
    as its status code; `lastError` is a short reason of ours, never the receiver's body. Scope
    `webhooks:manage`.

    Args:
        webhook_id (UUID):
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WebhookDeliveryList]
    """

    kwargs = _get_kwargs(
        webhook_id=webhook_id,
        limit=limit,
        cursor=cursor,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    webhook_id: UUID,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> Error | WebhookDeliveryList | None:
    """The webhook's delivery log

     Newest first, paged: follow `nextCursor` until it is null. What the receiver answered is kept only
    as its status code; `lastError` is a short reason of ours, never the receiver's body. Scope
    `webhooks:manage`.

    Args:
        webhook_id (UUID):
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WebhookDeliveryList
    """

    return (
        await asyncio_detailed(
            webhook_id=webhook_id,
            client=client,
            limit=limit,
            cursor=cursor,
        )
    ).parsed
