from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.protected_resource_metadata import ProtectedResourceMetadata
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/.well-known/oauth-protected-resource",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | ProtectedResourceMetadata | None:
    if response.status_code == 200:
        response_200 = ProtectedResourceMetadata.from_dict(response.json())

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
) -> Response[Error | ProtectedResourceMetadata]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | ProtectedResourceMetadata]:
    """OAuth 2.0 protected resource metadata (RFC 9728), for MCP clients

     Named by the `resource_metadata` parameter of every 401's `WWW-Authenticate` header: the resource
    is this API (its base URL) and its authorisation server is the issuer of
    `/.well-known/oauth-authorization-server`. Bearer tokens go in the `Authorization` header only.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ProtectedResourceMetadata]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
) -> Error | ProtectedResourceMetadata | None:
    """OAuth 2.0 protected resource metadata (RFC 9728), for MCP clients

     Named by the `resource_metadata` parameter of every 401's `WWW-Authenticate` header: the resource
    is this API (its base URL) and its authorisation server is the issuer of
    `/.well-known/oauth-authorization-server`. Bearer tokens go in the `Authorization` header only.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ProtectedResourceMetadata
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | ProtectedResourceMetadata]:
    """OAuth 2.0 protected resource metadata (RFC 9728), for MCP clients

     Named by the `resource_metadata` parameter of every 401's `WWW-Authenticate` header: the resource
    is this API (its base URL) and its authorisation server is the issuer of
    `/.well-known/oauth-authorization-server`. Bearer tokens go in the `Authorization` header only.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ProtectedResourceMetadata]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
) -> Error | ProtectedResourceMetadata | None:
    """OAuth 2.0 protected resource metadata (RFC 9728), for MCP clients

     Named by the `resource_metadata` parameter of every 401's `WWW-Authenticate` header: the resource
    is this API (its base URL) and its authorisation server is the issuer of
    `/.well-known/oauth-authorization-server`. Bearer tokens go in the `Authorization` header only.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ProtectedResourceMetadata
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
