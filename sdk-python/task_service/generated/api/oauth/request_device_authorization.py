from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.device_authorization_request import DeviceAuthorizationRequest
from ...models.device_authorization_response import DeviceAuthorizationResponse
from ...models.error import Error
from ...models.o_auth_error import OAuthError
from ...types import Response


def _get_kwargs(
    *,
    body: DeviceAuthorizationRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/oauth/device_authorization",
    }

    _kwargs["data"] = body.to_dict()
    headers["Content-Type"] = "application/x-www-form-urlencoded"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DeviceAuthorizationResponse | Error | OAuthError | None:
    if response.status_code == 200:
        response_200 = DeviceAuthorizationResponse.from_dict(response.json())

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
) -> Response[DeviceAuthorizationResponse | Error | OAuthError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: DeviceAuthorizationRequest,
) -> Response[DeviceAuthorizationResponse | Error | OAuthError]:
    """Device authorization request (RFC 8628), for the CLI on machines without a browser

     Starts the device authorization grant: the client shows `user_code` and `verification_uri` (or
    `verification_uri_complete`) to the person, who approves it on `GET /oauth/device` from any
    browser, while the client polls `POST /oauth/token` with
    `grant_type=urn:ietf:params:oauth:grant-type:device_code` no faster than every `interval` seconds.

    Only clients allowed this grant (the built-in `taskctl`) may ask: an unknown `client_id` is 401
    `invalid_client`, another client 400 `unauthorized_client`. `scope` is as on `GET /oauth/authorize`
    (all the client's scopes when absent; unknown names are `invalid_scope`). The device code lives
    600 s and works once; user codes are 8 letters from `BCDFGHJKLMNPQRSTVWXZ`, shown as `BCDF-GHJK`,
    and accepted in any case, with or without the dash. Spends a strict budget of its own (by client
    IP).

    Args:
        body (DeviceAuthorizationRequest): RFC 8628 section 3.1. The schema states what every
            refusal of it shares (`invalid_request`); which client
            may ask (`invalid_client`, `unauthorized_client`) and which scopes it gets
            (`invalid_scope`, RFC 6749
            section 5.2, also for a malformed scope) are checked by the server.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeviceAuthorizationResponse | Error | OAuthError]
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
    body: DeviceAuthorizationRequest,
) -> DeviceAuthorizationResponse | Error | OAuthError | None:
    """Device authorization request (RFC 8628), for the CLI on machines without a browser

     Starts the device authorization grant: the client shows `user_code` and `verification_uri` (or
    `verification_uri_complete`) to the person, who approves it on `GET /oauth/device` from any
    browser, while the client polls `POST /oauth/token` with
    `grant_type=urn:ietf:params:oauth:grant-type:device_code` no faster than every `interval` seconds.

    Only clients allowed this grant (the built-in `taskctl`) may ask: an unknown `client_id` is 401
    `invalid_client`, another client 400 `unauthorized_client`. `scope` is as on `GET /oauth/authorize`
    (all the client's scopes when absent; unknown names are `invalid_scope`). The device code lives
    600 s and works once; user codes are 8 letters from `BCDFGHJKLMNPQRSTVWXZ`, shown as `BCDF-GHJK`,
    and accepted in any case, with or without the dash. Spends a strict budget of its own (by client
    IP).

    Args:
        body (DeviceAuthorizationRequest): RFC 8628 section 3.1. The schema states what every
            refusal of it shares (`invalid_request`); which client
            may ask (`invalid_client`, `unauthorized_client`) and which scopes it gets
            (`invalid_scope`, RFC 6749
            section 5.2, also for a malformed scope) are checked by the server.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeviceAuthorizationResponse | Error | OAuthError
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: DeviceAuthorizationRequest,
) -> Response[DeviceAuthorizationResponse | Error | OAuthError]:
    """Device authorization request (RFC 8628), for the CLI on machines without a browser

     Starts the device authorization grant: the client shows `user_code` and `verification_uri` (or
    `verification_uri_complete`) to the person, who approves it on `GET /oauth/device` from any
    browser, while the client polls `POST /oauth/token` with
    `grant_type=urn:ietf:params:oauth:grant-type:device_code` no faster than every `interval` seconds.

    Only clients allowed this grant (the built-in `taskctl`) may ask: an unknown `client_id` is 401
    `invalid_client`, another client 400 `unauthorized_client`. `scope` is as on `GET /oauth/authorize`
    (all the client's scopes when absent; unknown names are `invalid_scope`). The device code lives
    600 s and works once; user codes are 8 letters from `BCDFGHJKLMNPQRSTVWXZ`, shown as `BCDF-GHJK`,
    and accepted in any case, with or without the dash. Spends a strict budget of its own (by client
    IP).

    Args:
        body (DeviceAuthorizationRequest): RFC 8628 section 3.1. The schema states what every
            refusal of it shares (`invalid_request`); which client
            may ask (`invalid_client`, `unauthorized_client`) and which scopes it gets
            (`invalid_scope`, RFC 6749
            section 5.2, also for a malformed scope) are checked by the server.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeviceAuthorizationResponse | Error | OAuthError]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: DeviceAuthorizationRequest,
) -> DeviceAuthorizationResponse | Error | OAuthError | None:
    """Device authorization request (RFC 8628), for the CLI on machines without a browser

     Starts the device authorization grant: the client shows `user_code` and `verification_uri` (or
    `verification_uri_complete`) to the person, who approves it on `GET /oauth/device` from any
    browser, while the client polls `POST /oauth/token` with
    `grant_type=urn:ietf:params:oauth:grant-type:device_code` no faster than every `interval` seconds.

    Only clients allowed this grant (the built-in `taskctl`) may ask: an unknown `client_id` is 401
    `invalid_client`, another client 400 `unauthorized_client`. `scope` is as on `GET /oauth/authorize`
    (all the client's scopes when absent; unknown names are `invalid_scope`). The device code lives
    600 s and works once; user codes are 8 letters from `BCDFGHJKLMNPQRSTVWXZ`, shown as `BCDF-GHJK`,
    and accepted in any case, with or without the dash. Spends a strict budget of its own (by client
    IP).

    Args:
        body (DeviceAuthorizationRequest): RFC 8628 section 3.1. The schema states what every
            refusal of it shares (`invalid_request`); which client
            may ask (`invalid_client`, `unauthorized_client`) and which scopes it gets
            (`invalid_scope`, RFC 6749
            section 5.2, also for a malformed scope) are checked by the server.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeviceAuthorizationResponse | Error | OAuthError
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
