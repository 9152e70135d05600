from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.o_auth_client_registration import OAuthClientRegistration
from ...models.o_auth_client_registration_request import OAuthClientRegistrationRequest
from ...models.o_auth_error import OAuthError
from ...types import Response


def _get_kwargs(
    *,
    body: OAuthClientRegistrationRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/oauth/register",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | OAuthClientRegistration | OAuthError | None:
    if response.status_code == 201:
        response_201 = OAuthClientRegistration.from_dict(response.json())

        return response_201

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
) -> Response[Error | OAuthClientRegistration | OAuthError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: OAuthClientRegistrationRequest,
) -> Response[Error | OAuthClientRegistration | OAuthError]:
    """Dynamic client registration (RFC 7591)

     Public clients only: `token_endpoint_auth_method` must be `none` (or absent); no secret is issued.
    `grant_types` may list `authorization_code` and `refresh_token` only, `response_types` `code` only;
    anything else is 400 `invalid_client_metadata`, as is an unknown scope in `scope`.

    Redirect URIs (RFC 8252): `https` with a host; `http` on a loopback host (`127.0.0.1`, `[::1]`,
    `localhost`), where the port in authorisation requests may differ from the registered one; or a
    private-use scheme in reverse-domain form (`com.example.app:/callback`). None may carry a
    fragment or user information. Anything else is 400 `invalid_redirect_uri`. `application_type`
    (OpenID Connect Dynamic Client Registration) narrows them: `native` takes loopback http and
    private-use schemes only, `web` https only (another value is `invalid_client_metadata`); when
    absent, the registration answers with the type its redirect URIs make (`web` when all are https,
    else `native`).

    Clients that can host a metadata document need not register: a `client_id` that is an https URL
    is a Client ID Metadata Document (`client_id_metadata_document_supported`), see `/oauth/authorize`.

    `scope`, when registered, bounds what the client may ask for and is what it gets when an
    authorisation request names no scope; without it, all four scopes. A body that does not match the
    schema (malformed JSON and NUL characters included) is 400 `invalid_client_metadata` as well.

    The CLI (`taskctl`) is built in: `client_id=taskctl`, redirect URIs `http://127.0.0.1/callback`
    and `http://[::1]/callback` (any port), all four scopes.

    Args:
        body (OAuthClientRegistrationRequest): RFC 7591 client metadata. What the schema states is
            refused with `invalid_client_metadata`, as the
            server's own checks are; `redirect_uris` are checked by the server only (see the
            operation), so
            their refusals keep RFC 7591's `invalid_redirect_uri`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | OAuthClientRegistration | OAuthError]
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
    body: OAuthClientRegistrationRequest,
) -> Error | OAuthClientRegistration | OAuthError | None:
    """Dynamic client registration (RFC 7591)

     Public clients only: `token_endpoint_auth_method` must be `none` (or absent); no secret is issued.
    `grant_types` may list `authorization_code` and `refresh_token` only, `response_types` `code` only;
    anything else is 400 `invalid_client_metadata`, as is an unknown scope in `scope`.

    Redirect URIs (RFC 8252): `https` with a host; `http` on a loopback host (`127.0.0.1`, `[::1]`,
    `localhost`), where the port in authorisation requests may differ from the registered one; or a
    private-use scheme in reverse-domain form (`com.example.app:/callback`). None may carry a
    fragment or user information. Anything else is 400 `invalid_redirect_uri`. `application_type`
    (OpenID Connect Dynamic Client Registration) narrows them: `native` takes loopback http and
    private-use schemes only, `web` https only (another value is `invalid_client_metadata`); when
    absent, the registration answers with the type its redirect URIs make (`web` when all are https,
    else `native`).

    Clients that can host a metadata document need not register: a `client_id` that is an https URL
    is a Client ID Metadata Document (`client_id_metadata_document_supported`), see `/oauth/authorize`.

    `scope`, when registered, bounds what the client may ask for and is what it gets when an
    authorisation request names no scope; without it, all four scopes. A body that does not match the
    schema (malformed JSON and NUL characters included) is 400 `invalid_client_metadata` as well.

    The CLI (`taskctl`) is built in: `client_id=taskctl`, redirect URIs `http://127.0.0.1/callback`
    and `http://[::1]/callback` (any port), all four scopes.

    Args:
        body (OAuthClientRegistrationRequest): RFC 7591 client metadata. What the schema states is
            refused with `invalid_client_metadata`, as the
            server's own checks are; `redirect_uris` are checked by the server only (see the
            operation), so
            their refusals keep RFC 7591's `invalid_redirect_uri`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | OAuthClientRegistration | OAuthError
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: OAuthClientRegistrationRequest,
) -> Response[Error | OAuthClientRegistration | OAuthError]:
    """Dynamic client registration (RFC 7591)

     Public clients only: `token_endpoint_auth_method` must be `none` (or absent); no secret is issued.
    `grant_types` may list `authorization_code` and `refresh_token` only, `response_types` `code` only;
    anything else is 400 `invalid_client_metadata`, as is an unknown scope in `scope`.

    Redirect URIs (RFC 8252): `https` with a host; `http` on a loopback host (`127.0.0.1`, `[::1]`,
    `localhost`), where the port in authorisation requests may differ from the registered one; or a
    private-use scheme in reverse-domain form (`com.example.app:/callback`). None may carry a
    fragment or user information. Anything else is 400 `invalid_redirect_uri`. `application_type`
    (OpenID Connect Dynamic Client Registration) narrows them: `native` takes loopback http and
    private-use schemes only, `web` https only (another value is `invalid_client_metadata`); when
    absent, the registration answers with the type its redirect URIs make (`web` when all are https,
    else `native`).

    Clients that can host a metadata document need not register: a `client_id` that is an https URL
    is a Client ID Metadata Document (`client_id_metadata_document_supported`), see `/oauth/authorize`.

    `scope`, when registered, bounds what the client may ask for and is what it gets when an
    authorisation request names no scope; without it, all four scopes. A body that does not match the
    schema (malformed JSON and NUL characters included) is 400 `invalid_client_metadata` as well.

    The CLI (`taskctl`) is built in: `client_id=taskctl`, redirect URIs `http://127.0.0.1/callback`
    and `http://[::1]/callback` (any port), all four scopes.

    Args:
        body (OAuthClientRegistrationRequest): RFC 7591 client metadata. What the schema states is
            refused with `invalid_client_metadata`, as the
            server's own checks are; `redirect_uris` are checked by the server only (see the
            operation), so
            their refusals keep RFC 7591's `invalid_redirect_uri`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | OAuthClientRegistration | OAuthError]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: OAuthClientRegistrationRequest,
) -> Error | OAuthClientRegistration | OAuthError | None:
    """Dynamic client registration (RFC 7591)

     Public clients only: `token_endpoint_auth_method` must be `none` (or absent); no secret is issued.
    `grant_types` may list `authorization_code` and `refresh_token` only, `response_types` `code` only;
    anything else is 400 `invalid_client_metadata`, as is an unknown scope in `scope`.

    Redirect URIs (RFC 8252): `https` with a host; `http` on a loopback host (`127.0.0.1`, `[::1]`,
    `localhost`), where the port in authorisation requests may differ from the registered one; or a
    private-use scheme in reverse-domain form (`com.example.app:/callback`). None may carry a
    fragment or user information. Anything else is 400 `invalid_redirect_uri`. `application_type`
    (OpenID Connect Dynamic Client Registration) narrows them: `native` takes loopback http and
    private-use schemes only, `web` https only (another value is `invalid_client_metadata`); when
    absent, the registration answers with the type its redirect URIs make (`web` when all are https,
    else `native`).

    Clients that can host a metadata document need not register: a `client_id` that is an https URL
    is a Client ID Metadata Document (`client_id_metadata_document_supported`), see `/oauth/authorize`.

    `scope`, when registered, bounds what the client may ask for and is what it gets when an
    authorisation request names no scope; without it, all four scopes. A body that does not match the
    schema (malformed JSON and NUL characters included) is 400 `invalid_client_metadata` as well.

    The CLI (`taskctl`) is built in: `client_id=taskctl`, redirect URIs `http://127.0.0.1/callback`
    and `http://[::1]/callback` (any port), all four scopes.

    Args:
        body (OAuthClientRegistrationRequest): RFC 7591 client metadata. What the schema states is
            refused with `invalid_client_metadata`, as the
            server's own checks are; `redirect_uris` are checked by the server only (see the
            operation), so
            their refusals keep RFC 7591's `invalid_redirect_uri`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | OAuthClientRegistration | OAuthError
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
