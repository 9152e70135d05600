from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.o_auth_error import OAuthError
from ...models.o_auth_token_request import OAuthTokenRequest
from ...models.o_auth_token_response import OAuthTokenResponse
from ...types import Response


def _get_kwargs(
    *,
    body: OAuthTokenRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/oauth/token",
    }

    _kwargs["data"] = body.to_dict()
    headers["Content-Type"] = "application/x-www-form-urlencoded"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | OAuthError | OAuthTokenResponse | None:
    if response.status_code == 200:
        response_200 = OAuthTokenResponse.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = OAuthError.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = OAuthError.from_dict(response.json())

        return response_401

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

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
) -> Response[Error | OAuthError | OAuthTokenResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: OAuthTokenRequest,
) -> Response[Error | OAuthError | OAuthTokenResponse]:
    """Token endpoint (RFC 6749)

     `authorization_code`, `refresh_token` and the device grant only (anything else:
    `unsupported_grant_type`).
    Public clients: send `client_id`, never a secret (a client that authenticates otherwise gets 401
    `invalid_client`).

    `authorization_code`: `code`, `redirect_uri` (the one of the authorisation request), `client_id`
    and `code_verifier` (PKCE `S256`, required) are required. A code lives 60 s and works once; a
    failed exchange (wrong verifier, wrong redirect URI, another client's `client_id`) uses it up too,
    and presenting a used code
    again revokes every token it issued.

    `refresh_token`: `refresh_token` and `client_id`; `scope` may narrow the new access token to part
    of the grant (the refresh token keeps the grant). Every use rotates the refresh token; presenting
    a rotated one again revokes its whole family, except within `REFRESH_REUSE_INTERVAL_SECONDS` of
    its rotation, when it gets a new pair of the same grant (see `POST /auth/refresh` for the trade-
    off).

    `urn:ietf:params:oauth:grant-type:device_code` (RFC 8628 section 3.4, for clients allowed it:
    `taskctl`):
    `device_code` and `client_id`. Until the person decides, 400 `authorization_pending`; polling
    faster than `interval` seconds, 400 `slow_down` (and the interval grows by 5 s); denied,
    `access_denied`; past its 600 s, `expired_token`; a used or unknown code, `invalid_grant`.

    Errors are RFC 6749 section 5.2 bodies (`error`, `error_description`), 400 except `invalid_client`
    (401);
    a form that does not match the schema is `invalid_request`. Spends the strict sign-in budget of this
    endpoint (by client IP); its 429s use the common error body.

    Args:
        body (OAuthTokenRequest): RFC 6749 section 4.1.3 and section 6. The schema states what
            every refusal of it shares (`invalid_request`); the
            values with an error code of their own (`unsupported_grant_type`, `invalid_scope`,
            `invalid_target`,
            `invalid_grant`, `invalid_client`) are checked by the server.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | OAuthError | OAuthTokenResponse]
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
    body: OAuthTokenRequest,
) -> Error | OAuthError | OAuthTokenResponse | None:
    """Token endpoint (RFC 6749)

     `authorization_code`, `refresh_token` and the device grant only (anything else:
    `unsupported_grant_type`).
    Public clients: send `client_id`, never a secret (a client that authenticates otherwise gets 401
    `invalid_client`).

    `authorization_code`: `code`, `redirect_uri` (the one of the authorisation request), `client_id`
    and `code_verifier` (PKCE `S256`, required) are required. A code lives 60 s and works once; a
    failed exchange (wrong verifier, wrong redirect URI, another client's `client_id`) uses it up too,
    and presenting a used code
    again revokes every token it issued.

    `refresh_token`: `refresh_token` and `client_id`; `scope` may narrow the new access token to part
    of the grant (the refresh token keeps the grant). Every use rotates the refresh token; presenting
    a rotated one again revokes its whole family, except within `REFRESH_REUSE_INTERVAL_SECONDS` of
    its rotation, when it gets a new pair of the same grant (see `POST /auth/refresh` for the trade-
    off).

    `urn:ietf:params:oauth:grant-type:device_code` (RFC 8628 section 3.4, for clients allowed it:
    `taskctl`):
    `device_code` and `client_id`. Until the person decides, 400 `authorization_pending`; polling
    faster than `interval` seconds, 400 `slow_down` (and the interval grows by 5 s); denied,
    `access_denied`; past its 600 s, `expired_token`; a used or unknown code, `invalid_grant`.

    Errors are RFC 6749 section 5.2 bodies (`error`, `error_description`), 400 except `invalid_client`
    (401);
    a form that does not match the schema is `invalid_request`. Spends the strict sign-in budget of this
    endpoint (by client IP); its 429s use the common error body.

    Args:
        body (OAuthTokenRequest): RFC 6749 section 4.1.3 and section 6. The schema states what
            every refusal of it shares (`invalid_request`); the
            values with an error code of their own (`unsupported_grant_type`, `invalid_scope`,
            `invalid_target`,
            `invalid_grant`, `invalid_client`) are checked by the server.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | OAuthError | OAuthTokenResponse
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: OAuthTokenRequest,
) -> Response[Error | OAuthError | OAuthTokenResponse]:
    """Token endpoint (RFC 6749)

     `authorization_code`, `refresh_token` and the device grant only (anything else:
    `unsupported_grant_type`).
    Public clients: send `client_id`, never a secret (a client that authenticates otherwise gets 401
    `invalid_client`).

    `authorization_code`: `code`, `redirect_uri` (the one of the authorisation request), `client_id`
    and `code_verifier` (PKCE `S256`, required) are required. A code lives 60 s and works once; a
    failed exchange (wrong verifier, wrong redirect URI, another client's `client_id`) uses it up too,
    and presenting a used code
    again revokes every token it issued.

    `refresh_token`: `refresh_token` and `client_id`; `scope` may narrow the new access token to part
    of the grant (the refresh token keeps the grant). Every use rotates the refresh token; presenting
    a rotated one again revokes its whole family, except within `REFRESH_REUSE_INTERVAL_SECONDS` of
    its rotation, when it gets a new pair of the same grant (see `POST /auth/refresh` for the trade-
    off).

    `urn:ietf:params:oauth:grant-type:device_code` (RFC 8628 section 3.4, for clients allowed it:
    `taskctl`):
    `device_code` and `client_id`. Until the person decides, 400 `authorization_pending`; polling
    faster than `interval` seconds, 400 `slow_down` (and the interval grows by 5 s); denied,
    `access_denied`; past its 600 s, `expired_token`; a used or unknown code, `invalid_grant`.

    Errors are RFC 6749 section 5.2 bodies (`error`, `error_description`), 400 except `invalid_client`
    (401);
    a form that does not match the schema is `invalid_request`. Spends the strict sign-in budget of this
    endpoint (by client IP); its 429s use the common error body.

    Args:
        body (OAuthTokenRequest): RFC 6749 section 4.1.3 and section 6. The schema states what
            every refusal of it shares (`invalid_request`); the
            values with an error code of their own (`unsupported_grant_type`, `invalid_scope`,
            `invalid_target`,
            `invalid_grant`, `invalid_client`) are checked by the server.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | OAuthError | OAuthTokenResponse]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: OAuthTokenRequest,
) -> Error | OAuthError | OAuthTokenResponse | None:
    """Token endpoint (RFC 6749)

     `authorization_code`, `refresh_token` and the device grant only (anything else:
    `unsupported_grant_type`).
    Public clients: send `client_id`, never a secret (a client that authenticates otherwise gets 401
    `invalid_client`).

    `authorization_code`: `code`, `redirect_uri` (the one of the authorisation request), `client_id`
    and `code_verifier` (PKCE `S256`, required) are required. A code lives 60 s and works once; a
    failed exchange (wrong verifier, wrong redirect URI, another client's `client_id`) uses it up too,
    and presenting a used code
    again revokes every token it issued.

    `refresh_token`: `refresh_token` and `client_id`; `scope` may narrow the new access token to part
    of the grant (the refresh token keeps the grant). Every use rotates the refresh token; presenting
    a rotated one again revokes its whole family, except within `REFRESH_REUSE_INTERVAL_SECONDS` of
    its rotation, when it gets a new pair of the same grant (see `POST /auth/refresh` for the trade-
    off).

    `urn:ietf:params:oauth:grant-type:device_code` (RFC 8628 section 3.4, for clients allowed it:
    `taskctl`):
    `device_code` and `client_id`. Until the person decides, 400 `authorization_pending`; polling
    faster than `interval` seconds, 400 `slow_down` (and the interval grows by 5 s); denied,
    `access_denied`; past its 600 s, `expired_token`; a used or unknown code, `invalid_grant`.

    Errors are RFC 6749 section 5.2 bodies (`error`, `error_description`), 400 except `invalid_client`
    (401);
    a form that does not match the schema is `invalid_request`. Spends the strict sign-in budget of this
    endpoint (by client IP); its 429s use the common error body.

    Args:
        body (OAuthTokenRequest): RFC 6749 section 4.1.3 and section 6. The schema states what
            every refusal of it shares (`invalid_request`); the
            values with an error code of their own (`unsupported_grant_type`, `invalid_scope`,
            `invalid_target`,
            `invalid_grant`, `invalid_client`) are checked by the server.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | OAuthError | OAuthTokenResponse
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
