from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.refresh_request import RefreshRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: RefreshRequest,
    field_host_refresh: str | Unset = UNSET,
    refresh: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    cookies = {}
    if field_host_refresh is not UNSET:
        cookies["__Host-refresh"] = field_host_refresh

    if refresh is not UNSET:
        cookies["refresh"] = refresh

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/auth/logout",
        "cookies": cookies,
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | None:
    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

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
) -> Response[Any | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: RefreshRequest,
    field_host_refresh: str | Unset = UNSET,
    refresh: str | Unset = UNSET,
) -> Response[Any | Error]:
    """Sign out

     Revokes the refresh token's whole family. Also 204 for an unknown or already revoked token, so a
    retry is
    safe. Access tokens already issued to the session stay valid until they expire
    (`JWT_ACCESS_EXPIRES`).

    Cookie session: with no `refreshToken` in the body, the refresh cookie's token is revoked (on the
    same `Content-Type` and `Origin` terms as `/auth/refresh`) and the cookie is cleared (`Max-Age=0`).

    Args:
        field_host_refresh (str | Unset):
        refresh (str | Unset):
        body (RefreshRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error]
    """

    kwargs = _get_kwargs(
        body=body,
        field_host_refresh=field_host_refresh,
        refresh=refresh,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: RefreshRequest,
    field_host_refresh: str | Unset = UNSET,
    refresh: str | Unset = UNSET,
) -> Any | Error | None:
    """Sign out

     Revokes the refresh token's whole family. Also 204 for an unknown or already revoked token, so a
    retry is
    safe. Access tokens already issued to the session stay valid until they expire
    (`JWT_ACCESS_EXPIRES`).

    Cookie session: with no `refreshToken` in the body, the refresh cookie's token is revoked (on the
    same `Content-Type` and `Origin` terms as `/auth/refresh`) and the cookie is cleared (`Max-Age=0`).

    Args:
        field_host_refresh (str | Unset):
        refresh (str | Unset):
        body (RefreshRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error
    """

    return sync_detailed(
        client=client,
        body=body,
        field_host_refresh=field_host_refresh,
        refresh=refresh,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: RefreshRequest,
    field_host_refresh: str | Unset = UNSET,
    refresh: str | Unset = UNSET,
) -> Response[Any | Error]:
    """Sign out

     Revokes the refresh token's whole family. Also 204 for an unknown or already revoked token, so a
    retry is
    safe. Access tokens already issued to the session stay valid until they expire
    (`JWT_ACCESS_EXPIRES`).

    Cookie session: with no `refreshToken` in the body, the refresh cookie's token is revoked (on the
    same `Content-Type` and `Origin` terms as `/auth/refresh`) and the cookie is cleared (`Max-Age=0`).

    Args:
        field_host_refresh (str | Unset):
        refresh (str | Unset):
        body (RefreshRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error]
    """

    kwargs = _get_kwargs(
        body=body,
        field_host_refresh=field_host_refresh,
        refresh=refresh,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: RefreshRequest,
    field_host_refresh: str | Unset = UNSET,
    refresh: str | Unset = UNSET,
) -> Any | Error | None:
    """Sign out

     Revokes the refresh token's whole family. Also 204 for an unknown or already revoked token, so a
    retry is
    safe. Access tokens already issued to the session stay valid until they expire
    (`JWT_ACCESS_EXPIRES`).

    Cookie session: with no `refreshToken` in the body, the refresh cookie's token is revoked (on the
    same `Content-Type` and `Origin` terms as `/auth/refresh`) and the cookie is cleared (`Max-Age=0`).

    Args:
        field_host_refresh (str | Unset):
        refresh (str | Unset):
        body (RefreshRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            field_host_refresh=field_host_refresh,
            refresh=refresh,
        )
    ).parsed
