from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.refresh_request import RefreshRequest
from ...models.token_pair import TokenPair
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
        "url": "/auth/refresh",
        "cookies": cookies,
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | TokenPair | None:
    if response.status_code == 200:
        response_200 = TokenPair.from_dict(response.json())

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
) -> Response[Error | TokenPair]:
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
) -> Response[Error | TokenPair]:
    """Exchange a refresh token for a new pair

     Rotates the refresh token: the one presented stops working and a new pair is returned. Presenting
    an already rotated token again answers 401 `REFRESH_TOKEN_REUSED` and revokes its whole family.
    Spends the refresh budget only, never the account budget. Lockout does not block refresh.

    Reuse interval: within `REFRESH_REUSE_INTERVAL_SECONDS` (default 5, 0 turns it off) of its
    rotation, a rotated token presented again gets a new pair of the same session (a refresh token
    of its own) instead of the revocation, so parallel refreshes from several tabs or processes all
    succeed; after it, reuse detection as above. The trade-off: a stolen token replayed within those
    seconds of the rightful rotation also gets a pair, undetected; it is detected from then on, and
    signing out or closing the account revokes every token of the session.

    The refresh budget is keyed by the account only while the token (the body's, or the refresh
    cookie's) is one a refresh would honour; refusals of unknown, revoked, expired or rotated tokens
    are counted by client IP, so replaying a dead token never spends the budget of the account's
    live sessions.

    Cookie session: with no `refreshToken` in the body, the token is read from the refresh cookie
    (`__Host-refresh` when `PUBLIC_URL` is https, `refresh` over plain http) set by a sign-in with
    `"session": "cookie"`, only on a `Content-Type: application/json` request whose `Origin` is
    `PUBLIC_URL`'s (else 403 `ORIGIN_NOT_ALLOWED`); the answer then has no `refreshToken` and the next
    token comes as the cookie. The `Origin` rule applies only when the cookie is the token's source.
    With neither a `refreshToken` nor a refresh cookie, 400 `VALIDATION_FAILED` with a detail on
    `/body/refreshToken`.

    Args:
        field_host_refresh (str | Unset):
        refresh (str | Unset):
        body (RefreshRequest): The refresh token of the last token pair; it works once.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TokenPair]
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
) -> Error | TokenPair | None:
    """Exchange a refresh token for a new pair

     Rotates the refresh token: the one presented stops working and a new pair is returned. Presenting
    an already rotated token again answers 401 `REFRESH_TOKEN_REUSED` and revokes its whole family.
    Spends the refresh budget only, never the account budget. Lockout does not block refresh.

    Reuse interval: within `REFRESH_REUSE_INTERVAL_SECONDS` (default 5, 0 turns it off) of its
    rotation, a rotated token presented again gets a new pair of the same session (a refresh token
    of its own) instead of the revocation, so parallel refreshes from several tabs or processes all
    succeed; after it, reuse detection as above. The trade-off: a stolen token replayed within those
    seconds of the rightful rotation also gets a pair, undetected; it is detected from then on, and
    signing out or closing the account revokes every token of the session.

    The refresh budget is keyed by the account only while the token (the body's, or the refresh
    cookie's) is one a refresh would honour; refusals of unknown, revoked, expired or rotated tokens
    are counted by client IP, so replaying a dead token never spends the budget of the account's
    live sessions.

    Cookie session: with no `refreshToken` in the body, the token is read from the refresh cookie
    (`__Host-refresh` when `PUBLIC_URL` is https, `refresh` over plain http) set by a sign-in with
    `"session": "cookie"`, only on a `Content-Type: application/json` request whose `Origin` is
    `PUBLIC_URL`'s (else 403 `ORIGIN_NOT_ALLOWED`); the answer then has no `refreshToken` and the next
    token comes as the cookie. The `Origin` rule applies only when the cookie is the token's source.
    With neither a `refreshToken` nor a refresh cookie, 400 `VALIDATION_FAILED` with a detail on
    `/body/refreshToken`.

    Args:
        field_host_refresh (str | Unset):
        refresh (str | Unset):
        body (RefreshRequest): The refresh token of the last token pair; it works once.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TokenPair
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
) -> Response[Error | TokenPair]:
    """Exchange a refresh token for a new pair

     Rotates the refresh token: the one presented stops working and a new pair is returned. Presenting
    an already rotated token again answers 401 `REFRESH_TOKEN_REUSED` and revokes its whole family.
    Spends the refresh budget only, never the account budget. Lockout does not block refresh.

    Reuse interval: within `REFRESH_REUSE_INTERVAL_SECONDS` (default 5, 0 turns it off) of its
    rotation, a rotated token presented again gets a new pair of the same session (a refresh token
    of its own) instead of the revocation, so parallel refreshes from several tabs or processes all
    succeed; after it, reuse detection as above. The trade-off: a stolen token replayed within those
    seconds of the rightful rotation also gets a pair, undetected; it is detected from then on, and
    signing out or closing the account revokes every token of the session.

    The refresh budget is keyed by the account only while the token (the body's, or the refresh
    cookie's) is one a refresh would honour; refusals of unknown, revoked, expired or rotated tokens
    are counted by client IP, so replaying a dead token never spends the budget of the account's
    live sessions.

    Cookie session: with no `refreshToken` in the body, the token is read from the refresh cookie
    (`__Host-refresh` when `PUBLIC_URL` is https, `refresh` over plain http) set by a sign-in with
    `"session": "cookie"`, only on a `Content-Type: application/json` request whose `Origin` is
    `PUBLIC_URL`'s (else 403 `ORIGIN_NOT_ALLOWED`); the answer then has no `refreshToken` and the next
    token comes as the cookie. The `Origin` rule applies only when the cookie is the token's source.
    With neither a `refreshToken` nor a refresh cookie, 400 `VALIDATION_FAILED` with a detail on
    `/body/refreshToken`.

    Args:
        field_host_refresh (str | Unset):
        refresh (str | Unset):
        body (RefreshRequest): The refresh token of the last token pair; it works once.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TokenPair]
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
) -> Error | TokenPair | None:
    """Exchange a refresh token for a new pair

     Rotates the refresh token: the one presented stops working and a new pair is returned. Presenting
    an already rotated token again answers 401 `REFRESH_TOKEN_REUSED` and revokes its whole family.
    Spends the refresh budget only, never the account budget. Lockout does not block refresh.

    Reuse interval: within `REFRESH_REUSE_INTERVAL_SECONDS` (default 5, 0 turns it off) of its
    rotation, a rotated token presented again gets a new pair of the same session (a refresh token
    of its own) instead of the revocation, so parallel refreshes from several tabs or processes all
    succeed; after it, reuse detection as above. The trade-off: a stolen token replayed within those
    seconds of the rightful rotation also gets a pair, undetected; it is detected from then on, and
    signing out or closing the account revokes every token of the session.

    The refresh budget is keyed by the account only while the token (the body's, or the refresh
    cookie's) is one a refresh would honour; refusals of unknown, revoked, expired or rotated tokens
    are counted by client IP, so replaying a dead token never spends the budget of the account's
    live sessions.

    Cookie session: with no `refreshToken` in the body, the token is read from the refresh cookie
    (`__Host-refresh` when `PUBLIC_URL` is https, `refresh` over plain http) set by a sign-in with
    `"session": "cookie"`, only on a `Content-Type: application/json` request whose `Origin` is
    `PUBLIC_URL`'s (else 403 `ORIGIN_NOT_ALLOWED`); the answer then has no `refreshToken` and the next
    token comes as the cookie. The `Origin` rule applies only when the cookie is the token's source.
    With neither a `refreshToken` nor a refresh cookie, 400 `VALIDATION_FAILED` with a detail on
    `/body/refreshToken`.

    Args:
        field_host_refresh (str | Unset):
        refresh (str | Unset):
        body (RefreshRequest): The refresh token of the last token pair; it works once.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TokenPair
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            field_host_refresh=field_host_refresh,
            refresh=refresh,
        )
    ).parsed
