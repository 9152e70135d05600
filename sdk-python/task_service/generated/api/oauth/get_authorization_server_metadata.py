from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.authorization_server_metadata import AuthorizationServerMetadata
from ...models.error import Error
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/.well-known/oauth-authorization-server",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AuthorizationServerMetadata | Error | None:
    if response.status_code == 200:
        response_200 = AuthorizationServerMetadata.from_dict(response.json())

        return response_200

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = Error.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[AuthorizationServerMetadata | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[AuthorizationServerMetadata | Error]:
    """OAuth 2.0 authorisation server metadata (RFC 8414)

     The issuer is `PUBLIC_URL` when set, else the address the request came to; every endpoint is
    under it. Only the `authorization_code` (PKCE with `S256`) and `refresh_token` grants, public
    clients only (`token_endpoint_auth_methods_supported: [none]`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuthorizationServerMetadata | Error]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
) -> AuthorizationServerMetadata | Error | None:
    """OAuth 2.0 authorisation server metadata (RFC 8414)

     The issuer is `PUBLIC_URL` when set, else the address the request came to; every endpoint is
    under it. Only the `authorization_code` (PKCE with `S256`) and `refresh_token` grants, public
    clients only (`token_endpoint_auth_methods_supported: [none]`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuthorizationServerMetadata | Error
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[AuthorizationServerMetadata | Error]:
    """OAuth 2.0 authorisation server metadata (RFC 8414)

     The issuer is `PUBLIC_URL` when set, else the address the request came to; every endpoint is
    under it. Only the `authorization_code` (PKCE with `S256`) and `refresh_token` grants, public
    clients only (`token_endpoint_auth_methods_supported: [none]`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuthorizationServerMetadata | Error]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
) -> AuthorizationServerMetadata | Error | None:
    """OAuth 2.0 authorisation server metadata (RFC 8414)

     The issuer is `PUBLIC_URL` when set, else the address the request came to; every endpoint is
    under it. Only the `authorization_code` (PKCE with `S256`) and `refresh_token` grants, public
    clients only (`token_endpoint_auth_methods_supported: [none]`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuthorizationServerMetadata | Error
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
