from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.webhook_delivery import WebhookDelivery
from ...types import Response


def _get_kwargs(
    webhook_id: UUID,
    delivery_id: UUID,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver".format(
            webhook_id=quote(str(webhook_id), safe=""),
            delivery_id=quote(str(delivery_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | WebhookDelivery | None:
    if response.status_code == 202:
        response_202 = WebhookDelivery.from_dict(response.json())

        return response_202

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
) -> Response[Error | WebhookDelivery]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    webhook_id: UUID,
    delivery_id: UUID,
    *,
    client: AuthenticatedClient,
) -> Response[Error | WebhookDelivery]:
    """Send a delivery's event again

     Queues a new delivery of the same event (the same `webhook-id`, so a receiver that keeps ids
    ignores a copy it already has), signed with the current secret and retried on the usual schedule.
    Scope `webhooks:manage`.

    Args:
        webhook_id (UUID):
        delivery_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WebhookDelivery]
    """

    kwargs = _get_kwargs(
        webhook_id=webhook_id,
        delivery_id=delivery_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    webhook_id: UUID,
    delivery_id: UUID,
    *,
    client: AuthenticatedClient,
) -> Error | WebhookDelivery | None:
    """Send a delivery's event again

     Queues a new delivery of the same event (the same `webhook-id`, so a receiver that keeps ids
    ignores a copy it already has), signed with the current secret and retried on the usual schedule.
    Scope `webhooks:manage`.

    Args:
        webhook_id (UUID):
        delivery_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WebhookDelivery
    """

    return sync_detailed(
        webhook_id=webhook_id,
        delivery_id=delivery_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    webhook_id: UUID,
    delivery_id: UUID,
    *,
    client: AuthenticatedClient,
) -> Response[Error | WebhookDelivery]:
    """Send a delivery's event again

     Queues a new delivery of the same event (the same `webhook-id`, so a receiver that keeps ids
    ignores a copy it already has), signed with the current secret and retried on the usual schedule.
    Scope `webhooks:manage`.

    Args:
        webhook_id (UUID):
        delivery_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WebhookDelivery]
    """

    kwargs = _get_kwargs(
        webhook_id=webhook_id,
        delivery_id=delivery_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    webhook_id: UUID,
    delivery_id: UUID,
    *,
    client: AuthenticatedClient,
) -> Error | WebhookDelivery | None:
    """Send a delivery's event again

     Queues a new delivery of the same event (the same `webhook-id`, so a receiver that keeps ids
    ignores a copy it already has), signed with the current secret and retried on the usual schedule.
    Scope `webhooks:manage`.

    Args:
        webhook_id (UUID):
        delivery_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WebhookDelivery
    """

    return (
        await asyncio_detailed(
            webhook_id=webhook_id,
            delivery_id=delivery_id,
            client=client,
        )
    ).parsed
