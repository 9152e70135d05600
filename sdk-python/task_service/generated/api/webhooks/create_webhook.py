from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.webhook_create import WebhookCreate
from ...models.webhook_created import WebhookCreated
from ...types import Response


def _get_kwargs(
    *,
    body: WebhookCreate,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/webhooks",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | WebhookCreated | None:
    if response.status_code == 201:
        response_201 = WebhookCreated.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())

        return response_415

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
) -> Response[Error | WebhookCreated]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: WebhookCreate,
) -> Response[Error | WebhookCreated]:
    """Subscribe a URL to events

     The events listed (see this document's `webhooks` section) are POSTed to `url`, signed as Standard
    Webhooks has it with the `secret` of this response, shown only here (`whsec_` + base64 of 32 random
    bytes). `url` must be https and reach a public address: loopback, private, link-local and other
    special addresses are refused (400), and so are credentials in the URL. With
    `CONNECTOR_ALLOW_PRIVATE_NETWORKS=true` private addresses are allowed and a loopback URL may be
    plain http (local development). At most `WEBHOOKS_MAX_PER_ACCOUNT` (default 10) per account:
    beyond, 403 `QUOTA_EXCEEDED` with `quota: webhooks` (exact under concurrency). A webhook made by
    an OAuth app is deleted when that app's authorisation is withdrawn. Scope `webhooks:manage`.

    Args:
        body (WebhookCreate): A new webhook: where to POST and which events.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WebhookCreated]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: WebhookCreate,
) -> Error | WebhookCreated | None:
    """Subscribe a URL to events

     The events listed (see this document's `webhooks` section) are POSTed to `url`, signed as Standard
    Webhooks has it with the `secret` of this response, shown only here (`whsec_` + base64 of 32 random
    bytes). `url` must be https and reach a public address: loopback, private, link-local and other
    special addresses are refused (400), and so are credentials in the URL. With
    `CONNECTOR_ALLOW_PRIVATE_NETWORKS=true` private addresses are allowed and a loopback URL may be
    plain http (local development). At most `WEBHOOKS_MAX_PER_ACCOUNT` (default 10) per account:
    beyond, 403 `QUOTA_EXCEEDED` with `quota: webhooks` (exact under concurrency). A webhook made by
    an OAuth app is deleted when that app's authorisation is withdrawn. Scope `webhooks:manage`.

    Args:
        body (WebhookCreate): A new webhook: where to POST and which events.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WebhookCreated
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: WebhookCreate,
) -> Response[Error | WebhookCreated]:
    """Subscribe a URL to events

     The events listed (see this document's `webhooks` section) are POSTed to `url`, signed as Standard
    Webhooks has it with the `secret` of this response, shown only here (`whsec_` + base64 of 32 random
    bytes). `url` must be https and reach a public address: loopback, private, link-local and other
    special addresses are refused (400), and so are credentials in the URL. With
    `CONNECTOR_ALLOW_PRIVATE_NETWORKS=true` private addresses are allowed and a loopback URL may be
    plain http (local development). At most `WEBHOOKS_MAX_PER_ACCOUNT` (default 10) per account:
    beyond, 403 `QUOTA_EXCEEDED` with `quota: webhooks` (exact under concurrency). A webhook made by
    an OAuth app is deleted when that app's authorisation is withdrawn. Scope `webhooks:manage`.

    Args:
        body (WebhookCreate): A new webhook: where to POST and which events.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WebhookCreated]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: WebhookCreate,
) -> Error | WebhookCreated | None:
    """Subscribe a URL to events

     The events listed (see this document's `webhooks` section) are POSTed to `url`, signed as Standard
    Webhooks has it with the `secret` of this response, shown only here (`whsec_` + base64 of 32 random
    bytes). `url` must be https and reach a public address: loopback, private, link-local and other
    special addresses are refused (400), and so are credentials in the URL. With
    `CONNECTOR_ALLOW_PRIVATE_NETWORKS=true` private addresses are allowed and a loopback URL may be
    plain http (local development). At most `WEBHOOKS_MAX_PER_ACCOUNT` (default 10) per account:
    beyond, 403 `QUOTA_EXCEEDED` with `quota: webhooks` (exact under concurrency). A webhook made by
    an OAuth app is deleted when that app's authorisation is withdrawn. Scope `webhooks:manage`.

    Args:
        body (WebhookCreate): A new webhook: where to POST and which events.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WebhookCreated
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
