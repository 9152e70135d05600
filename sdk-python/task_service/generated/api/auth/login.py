from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.login_request import LoginRequest
from ...models.token_pair import TokenPair
from ...types import Response


def _get_kwargs(
    *,
    body: LoginRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/auth/login",
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
    body: LoginRequest,
) -> Response[Error | TokenPair]:
    """Sign in with email and password

     Returns a token pair for the first-party client `web`. An unknown email and a wrong password get
    the same 401 after the same work. `LOGIN_MAX_FAILED_ATTEMPTS` consecutive failures lock the email
    for `LOGIN_LOCKOUT_MINUTES`; the failure that reaches the maximum is still a 401, and from the next
    attempt on every login gets 429 `ACCOUNT_LOCKED` with `Retry-After` (seconds until unlock), even
    with the right password. Attempts during the lock do not extend it; after it the counter starts
    again from 0. Spends the strict sign-in budget of this endpoint (by client IP).

    With `"session": "cookie"` (the first-party web app, same origin only) the refresh token is not
    in the body: it is set as an `HttpOnly`, `SameSite=Strict` cookie (`Set-Cookie`) that
    `/auth/refresh` and `/auth/logout` read, and the request must be `Content-Type: application/json`
    with an `Origin` equal to `PUBLIC_URL`'s (else 403 `ORIGIN_NOT_ALLOWED`). See docs/signing-in.md.

    Args:
        body (LoginRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TokenPair]
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
    client: AuthenticatedClient | Client,
    body: LoginRequest,
) -> Error | TokenPair | None:
    """Sign in with email and password

     Returns a token pair for the first-party client `web`. An unknown email and a wrong password get
    the same 401 after the same work. `LOGIN_MAX_FAILED_ATTEMPTS` consecutive failures lock the email
    for `LOGIN_LOCKOUT_MINUTES`; the failure that reaches the maximum is still a 401, and from the next
    attempt on every login gets 429 `ACCOUNT_LOCKED` with `Retry-After` (seconds until unlock), even
    with the right password. Attempts during the lock do not extend it; after it the counter starts
    again from 0. Spends the strict sign-in budget of this endpoint (by client IP).

    With `"session": "cookie"` (the first-party web app, same origin only) the refresh token is not
    in the body: it is set as an `HttpOnly`, `SameSite=Strict` cookie (`Set-Cookie`) that
    `/auth/refresh` and `/auth/logout` read, and the request must be `Content-Type: application/json`
    with an `Origin` equal to `PUBLIC_URL`'s (else 403 `ORIGIN_NOT_ALLOWED`). See docs/signing-in.md.

    Args:
        body (LoginRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TokenPair
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: LoginRequest,
) -> Response[Error | TokenPair]:
    """Sign in with email and password

     Returns a token pair for the first-party client `web`. An unknown email and a wrong password get
    the same 401 after the same work. `LOGIN_MAX_FAILED_ATTEMPTS` consecutive failures lock the email
    for `LOGIN_LOCKOUT_MINUTES`; the failure that reaches the maximum is still a 401, and from the next
    attempt on every login gets 429 `ACCOUNT_LOCKED` with `Retry-After` (seconds until unlock), even
    with the right password. Attempts during the lock do not extend it; after it the counter starts
    again from 0. Spends the strict sign-in budget of this endpoint (by client IP).

    With `"session": "cookie"` (the first-party web app, same origin only) the refresh token is not
    in the body: it is set as an `HttpOnly`, `SameSite=Strict` cookie (`Set-Cookie`) that
    `/auth/refresh` and `/auth/logout` read, and the request must be `Content-Type: application/json`
    with an `Origin` equal to `PUBLIC_URL`'s (else 403 `ORIGIN_NOT_ALLOWED`). See docs/signing-in.md.

    Args:
        body (LoginRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TokenPair]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: LoginRequest,
) -> Error | TokenPair | None:
    """Sign in with email and password

     Returns a token pair for the first-party client `web`. An unknown email and a wrong password get
    the same 401 after the same work. `LOGIN_MAX_FAILED_ATTEMPTS` consecutive failures lock the email
    for `LOGIN_LOCKOUT_MINUTES`; the failure that reaches the maximum is still a 401, and from the next
    attempt on every login gets 429 `ACCOUNT_LOCKED` with `Retry-After` (seconds until unlock), even
    with the right password. Attempts during the lock do not extend it; after it the counter starts
    again from 0. Spends the strict sign-in budget of this endpoint (by client IP).

    With `"session": "cookie"` (the first-party web app, same origin only) the refresh token is not
    in the body: it is set as an `HttpOnly`, `SameSite=Strict` cookie (`Set-Cookie`) that
    `/auth/refresh` and `/auth/logout` read, and the request must be `Content-Type: application/json`
    with an `Origin` equal to `PUBLIC_URL`'s (else 403 `ORIGIN_NOT_ALLOWED`). See docs/signing-in.md.

    Args:
        body (LoginRequest):

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
        )
    ).parsed
