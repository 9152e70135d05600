from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.connector_account import ConnectorAccount
from ...models.connector_type import ConnectorType
from ...models.error import Error
from ...models.github_credentials import GithubCredentials
from ...models.ical_credentials import IcalCredentials
from ...types import Response


def _get_kwargs(
    type_: ConnectorType,
    *,
    body: GithubCredentials | IcalCredentials,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/connectors/{type_}/accounts".format(
            type_=quote(str(type_), safe=""),
        ),
    }

    if isinstance(body, GithubCredentials):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ConnectorAccount | Error | None:
    if response.status_code == 200:
        response_200 = ConnectorAccount.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = ConnectorAccount.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = Error.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = Error.from_dict(response.json())

        return response_500

    if response.status_code == 502:
        response_502 = Error.from_dict(response.json())

        return response_502

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ConnectorAccount | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    type_: ConnectorType,
    *,
    client: AuthenticatedClient,
    body: GithubCredentials | IcalCredentials,
) -> Response[ConnectorAccount | Error]:
    """Connect (or re-authorise) an external account

     Verifies the credentials with the provider. The same external account already connected -> 200 and
    its credentials are replaced (always allowed, also at the cap). A new one below
    `CONNECTOR_ACCOUNTS_MAX_PER_TYPE` -> 201; beyond it 403 `QUOTA_EXCEEDED` (exact under concurrency).
    `github` takes `{ token, baseUrl? }`; `ical` takes `{ url }` (`webcal://` means https).
    Scope `connectors:write`.

    - `github`: the token is checked with `GET {baseUrl}/user`; a sync reads the issues assigned to
      the user (`GET /issues?filter=assigned&state=all`, every page); pull requests, which that
      endpoint also lists, are left out.
    - `ical`: the feed is downloaded and parsed; user info in the URL is sent as HTTP Basic credentials.

    Answers: 400 `VALIDATION_FAILED` when the body is the other type's (e.g. `{ url }` for `github`)
    or when the address resolves to a loopback, private, link-local or other non-public address (the
    server only connects to public internet addresses, also after redirects; `details` names the
    field); 422 `CONNECTOR_AUTH_FAILED` when the provider refuses the credentials, or the address does
    not serve what the type needs (no feed there, not an iCalendar feed, over 10 MiB, no GitHub API);
    502 `CONNECTOR_UNAVAILABLE` when the provider cannot be reached within 10 s, answers with a server
    error or its rate limit is used up.

    Args:
        type_ (ConnectorType): A kind of external account: `github` (issues assigned to the user)
            or `ical` (VTODOs of a calendar feed). An open list (`x-open-enum`): a minor version may
            add a type; a client shows one it does not know by its name.
        body (GithubCredentials | IcalCredentials): The credentials of the connector type in the
            path.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConnectorAccount | Error]
    """

    kwargs = _get_kwargs(
        type_=type_,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    type_: ConnectorType,
    *,
    client: AuthenticatedClient,
    body: GithubCredentials | IcalCredentials,
) -> ConnectorAccount | Error | None:
    """Connect (or re-authorise) an external account

     Verifies the credentials with the provider. The same external account already connected -> 200 and
    its credentials are replaced (always allowed, also at the cap). A new one below
    `CONNECTOR_ACCOUNTS_MAX_PER_TYPE` -> 201; beyond it 403 `QUOTA_EXCEEDED` (exact under concurrency).
    `github` takes `{ token, baseUrl? }`; `ical` takes `{ url }` (`webcal://` means https).
    Scope `connectors:write`.

    - `github`: the token is checked with `GET {baseUrl}/user`; a sync reads the issues assigned to
      the user (`GET /issues?filter=assigned&state=all`, every page); pull requests, which that
      endpoint also lists, are left out.
    - `ical`: the feed is downloaded and parsed; user info in the URL is sent as HTTP Basic credentials.

    Answers: 400 `VALIDATION_FAILED` when the body is the other type's (e.g. `{ url }` for `github`)
    or when the address resolves to a loopback, private, link-local or other non-public address (the
    server only connects to public internet addresses, also after redirects; `details` names the
    field); 422 `CONNECTOR_AUTH_FAILED` when the provider refuses the credentials, or the address does
    not serve what the type needs (no feed there, not an iCalendar feed, over 10 MiB, no GitHub API);
    502 `CONNECTOR_UNAVAILABLE` when the provider cannot be reached within 10 s, answers with a server
    error or its rate limit is used up.

    Args:
        type_ (ConnectorType): A kind of external account: `github` (issues assigned to the user)
            or `ical` (VTODOs of a calendar feed). An open list (`x-open-enum`): a minor version may
            add a type; a client shows one it does not know by its name.
        body (GithubCredentials | IcalCredentials): The credentials of the connector type in the
            path.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConnectorAccount | Error
    """

    return sync_detailed(
        type_=type_,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    type_: ConnectorType,
    *,
    client: AuthenticatedClient,
    body: GithubCredentials | IcalCredentials,
) -> Response[ConnectorAccount | Error]:
    """Connect (or re-authorise) an external account

     Verifies the credentials with the provider. The same external account already connected -> 200 and
    its credentials are replaced (always allowed, also at the cap). A new one below
    `CONNECTOR_ACCOUNTS_MAX_PER_TYPE` -> 201; beyond it 403 `QUOTA_EXCEEDED` (exact under concurrency).
    `github` takes `{ token, baseUrl? }`; `ical` takes `{ url }` (`webcal://` means https).
    Scope `connectors:write`.

    - `github`: the token is checked with `GET {baseUrl}/user`; a sync reads the issues assigned to
      the user (`GET /issues?filter=assigned&state=all`, every page); pull requests, which that
      endpoint also lists, are left out.
    - `ical`: the feed is downloaded and parsed; user info in the URL is sent as HTTP Basic credentials.

    Answers: 400 `VALIDATION_FAILED` when the body is the other type's (e.g. `{ url }` for `github`)
    or when the address resolves to a loopback, private, link-local or other non-public address (the
    server only connects to public internet addresses, also after redirects; `details` names the
    field); 422 `CONNECTOR_AUTH_FAILED` when the provider refuses the credentials, or the address does
    not serve what the type needs (no feed there, not an iCalendar feed, over 10 MiB, no GitHub API);
    502 `CONNECTOR_UNAVAILABLE` when the provider cannot be reached within 10 s, answers with a server
    error or its rate limit is used up.

    Args:
        type_ (ConnectorType): A kind of external account: `github` (issues assigned to the user)
            or `ical` (VTODOs of a calendar feed). An open list (`x-open-enum`): a minor version may
            add a type; a client shows one it does not know by its name.
        body (GithubCredentials | IcalCredentials): The credentials of the connector type in the
            path.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConnectorAccount | Error]
    """

    kwargs = _get_kwargs(
        type_=type_,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    type_: ConnectorType,
    *,
    client: AuthenticatedClient,
    body: GithubCredentials | IcalCredentials,
) -> ConnectorAccount | Error | None:
    """Connect (or re-authorise) an external account

     Verifies the credentials with the provider. The same external account already connected -> 200 and
    its credentials are replaced (always allowed, also at the cap). A new one below
    `CONNECTOR_ACCOUNTS_MAX_PER_TYPE` -> 201; beyond it 403 `QUOTA_EXCEEDED` (exact under concurrency).
    `github` takes `{ token, baseUrl? }`; `ical` takes `{ url }` (`webcal://` means https).
    Scope `connectors:write`.

    - `github`: the token is checked with `GET {baseUrl}/user`; a sync reads the issues assigned to
      the user (`GET /issues?filter=assigned&state=all`, every page); pull requests, which that
      endpoint also lists, are left out.
    - `ical`: the feed is downloaded and parsed; user info in the URL is sent as HTTP Basic credentials.

    Answers: 400 `VALIDATION_FAILED` when the body is the other type's (e.g. `{ url }` for `github`)
    or when the address resolves to a loopback, private, link-local or other non-public address (the
    server only connects to public internet addresses, also after redirects; `details` names the
    field); 422 `CONNECTOR_AUTH_FAILED` when the provider refuses the credentials, or the address does
    not serve what the type needs (no feed there, not an iCalendar feed, over 10 MiB, no GitHub API);
    502 `CONNECTOR_UNAVAILABLE` when the provider cannot be reached within 10 s, answers with a server
    error or its rate limit is used up.

    Args:
        type_ (ConnectorType): A kind of external account: `github` (issues assigned to the user)
            or `ical` (VTODOs of a calendar feed). An open list (`x-open-enum`): a minor version may
            add a type; a client shows one it does not know by its name.
        body (GithubCredentials | IcalCredentials): The credentials of the connector type in the
            path.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConnectorAccount | Error
    """

    return (
        await asyncio_detailed(
            type_=type_,
            client=client,
            body=body,
        )
    ).parsed
