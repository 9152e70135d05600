from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.o_auth_error import OAuthError
from ...models.o_auth_revoke_request import OAuthRevokeRequest
from ...types import Response


def _get_kwargs(
    *,
    body: OAuthRevokeRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/oauth/revoke",
    }

    _kwargs["data"] = body.to_dict()
    headers["Content-Type"] = "application/x-www-form-urlencoded"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | OAuthError | None:
    if response.status_code == 200:
        response_200 = cast(Any, None)
        return response_200

    if response.status_code == 400:
        response_400 = OAuthError.from_dict(response.json())

        return response_400

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
) -> Response[Any | Error | OAuthError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: OAuthRevokeRequest,
) -> Response[Any | Error | OAuthError]:
    """Token revocation (RFC 7009)

     A refresh token revokes its whole family; an access token revokes the family it was issued with
    (the access token itself stays valid until its `exp`, at most `JWT_ACCESS_EXPIRES` seconds).
    When `client_id` is given, only tokens issued to that client are revoked. Unknown, expired or
    already revoked tokens answer 200 as well (RFC 7009 section 2.2); a missing `token` is 400
    `invalid_request`.

    Args:
        body (OAuthRevokeRequest): RFC 7009 revocation: the token to revoke and, optionally, a
            hint of its type and the client.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | OAuthError]
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
    body: OAuthRevokeRequest,
) -> Any | Error | OAuthError | None:
    """Token revocation (RFC 7009)

     A refresh token revokes its whole family; an access token revokes the family it was issued with
    (the access token itself stays valid until its `exp`, at most `JWT_ACCESS_EXPIRES` seconds).
    When `client_id` is given, only tokens issued to that client are revoked. Unknown, expired or
    already revoked tokens answer 200 as well (RFC 7009 section 2.2); a missing `token` is 400
    `invalid_request`.

    Args:
        body (OAuthRevokeRequest): RFC 7009 revocation: the token to revoke and, optionally, a
            hint of its type and the client.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | OAuthError
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: OAuthRevokeRequest,
) -> Response[Any | Error | OAuthError]:
    """Token revocation (RFC 7009)

     A refresh token revokes its whole family; an access token revokes the family it was issued with
    (the access token itself stays valid until its `exp`, at most `JWT_ACCESS_EXPIRES` seconds).
    When `client_id` is given, only tokens issued to that client are revoked. Unknown, expired or
    already revoked tokens answer 200 as well (RFC 7009 section 2.2); a missing `token` is 400
    `invalid_request`.

    Args:
        body (OAuthRevokeRequest): RFC 7009 revocation: the token to revoke and, optionally, a
            hint of its type and the client.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | OAuthError]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: OAuthRevokeRequest,
) -> Any | Error | OAuthError | None:
    """Token revocation (RFC 7009)

     A refresh token revokes its whole family; an access token revokes the family it was issued with
    (the access token itself stays valid until its `exp`, at most `JWT_ACCESS_EXPIRES` seconds).
    When `client_id` is given, only tokens issued to that client are revoked. Unknown, expired or
    already revoked tokens answer 200 as well (RFC 7009 section 2.2); a missing `token` is 400
    `invalid_request`.

    Args:
        body (OAuthRevokeRequest): RFC 7009 revocation: the token to revoke and, optionally, a
            hint of its type and the client.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | OAuthError
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
