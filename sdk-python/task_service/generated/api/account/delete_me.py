from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.delete_account_request import DeleteAccountRequest
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    *,
    body: DeleteAccountRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/me",
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
    body: DeleteAccountRequest,
) -> Response[Any | Error]:
    """Close the account

     Deletes the account for good, with its tasks, connector accounts and their stored credentials,
    sync jobs, API tokens, sessions (refresh tokens) and the apps it authorised. Every token of the
    account answers 401 `UNAUTHENTICATED` from then on, on every instance, access tokens not yet
    expired included; a sync job running for it stops. The email can be registered again.

    Needs a session of the first-party app (a token from `/auth/login` or `/auth/register`; others get
    403 `WEB_SESSION_REQUIRED`) and the account's password, checked through the login lockout: a
    wrong one is 401 `INVALID_CREDENTIALS` and counts as a failed login, and a locked email gets 429
    `ACCOUNT_LOCKED`. So a stolen access token alone cannot close an account.

    Args:
        body (DeleteAccountRequest): The account password again, so a stolen access token alone
            cannot delete the account.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error]
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
    body: DeleteAccountRequest,
) -> Any | Error | None:
    """Close the account

     Deletes the account for good, with its tasks, connector accounts and their stored credentials,
    sync jobs, API tokens, sessions (refresh tokens) and the apps it authorised. Every token of the
    account answers 401 `UNAUTHENTICATED` from then on, on every instance, access tokens not yet
    expired included; a sync job running for it stops. The email can be registered again.

    Needs a session of the first-party app (a token from `/auth/login` or `/auth/register`; others get
    403 `WEB_SESSION_REQUIRED`) and the account's password, checked through the login lockout: a
    wrong one is 401 `INVALID_CREDENTIALS` and counts as a failed login, and a locked email gets 429
    `ACCOUNT_LOCKED`. So a stolen access token alone cannot close an account.

    Args:
        body (DeleteAccountRequest): The account password again, so a stolen access token alone
            cannot delete the account.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: DeleteAccountRequest,
) -> Response[Any | Error]:
    """Close the account

     Deletes the account for good, with its tasks, connector accounts and their stored credentials,
    sync jobs, API tokens, sessions (refresh tokens) and the apps it authorised. Every token of the
    account answers 401 `UNAUTHENTICATED` from then on, on every instance, access tokens not yet
    expired included; a sync job running for it stops. The email can be registered again.

    Needs a session of the first-party app (a token from `/auth/login` or `/auth/register`; others get
    403 `WEB_SESSION_REQUIRED`) and the account's password, checked through the login lockout: a
    wrong one is 401 `INVALID_CREDENTIALS` and counts as a failed login, and a locked email gets 429
    `ACCOUNT_LOCKED`. So a stolen access token alone cannot close an account.

    Args:
        body (DeleteAccountRequest): The account password again, so a stolen access token alone
            cannot delete the account.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: DeleteAccountRequest,
) -> Any | Error | None:
    """Close the account

     Deletes the account for good, with its tasks, connector accounts and their stored credentials,
    sync jobs, API tokens, sessions (refresh tokens) and the apps it authorised. Every token of the
    account answers 401 `UNAUTHENTICATED` from then on, on every instance, access tokens not yet
    expired included; a sync job running for it stops. The email can be registered again.

    Needs a session of the first-party app (a token from `/auth/login` or `/auth/register`; others get
    403 `WEB_SESSION_REQUIRED`) and the account's password, checked through the login lockout: a
    wrong one is 401 `INVALID_CREDENTIALS` and counts as a failed login, and a locked email gets 429
    `ACCOUNT_LOCKED`. So a stolen access token alone cannot close an account.

    Args:
        body (DeleteAccountRequest): The account password again, so a stolen access token alone
            cannot delete the account.

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
        )
    ).parsed
