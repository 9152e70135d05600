from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.o_auth_authorization_form import OAuthAuthorizationForm
from ...types import Response


def _get_kwargs(
    *,
    body: OAuthAuthorizationForm,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/oauth/authorize",
    }

    _kwargs["data"] = body.to_dict()
    headers["Content-Type"] = "application/x-www-form-urlencoded"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | str | None:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 303:
        response_303 = cast(Any, None)
        return response_303

    if response.status_code == 400:
        response_400 = response.text
        return response_400

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())

        return response_415

    if response.status_code == 429:
        response_429 = response.text
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
) -> Response[Any | Error | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: OAuthAuthorizationForm,
) -> Response[Any | Error | str]:
    """The consent page's form (sign-in and decision)

     Sent by the page of `GET /oauth/authorize`: its parameters (hidden fields), `csrf_token` and the
    `oauth_csrf` cookie, then `email`, `password` and `decision`. A missing, stale (over 10 minutes)
    or mismatched CSRF token, or one bound to other parameters, answers 400 with an HTML error page.
    The parameters are checked again as in `GET /oauth/authorize`.

    `decision=deny` redirects with `error=access_denied` without signing in. `decision=allow` signs in
    through the same lockout as `POST /auth/login` and spends the same strict sign-in budget (by
    client IP): a wrong email or password shows the page again (200: a form, not HTTP
    authentication), a locked email shows it with the time to wait (429, `Retry-After`). Signed in, it
    redirects (303) with a one-time `code`
    (valid 60 s), `state` and `iss`, and records the app among the account's authorisations.

    Args:
        body (OAuthAuthorizationForm): The sign-in and consent form of `GET /oauth/authorize`,
            posted back with the authorisation request's parameters.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | str]
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
    body: OAuthAuthorizationForm,
) -> Any | Error | str | None:
    """The consent page's form (sign-in and decision)

     Sent by the page of `GET /oauth/authorize`: its parameters (hidden fields), `csrf_token` and the
    `oauth_csrf` cookie, then `email`, `password` and `decision`. A missing, stale (over 10 minutes)
    or mismatched CSRF token, or one bound to other parameters, answers 400 with an HTML error page.
    The parameters are checked again as in `GET /oauth/authorize`.

    `decision=deny` redirects with `error=access_denied` without signing in. `decision=allow` signs in
    through the same lockout as `POST /auth/login` and spends the same strict sign-in budget (by
    client IP): a wrong email or password shows the page again (200: a form, not HTTP
    authentication), a locked email shows it with the time to wait (429, `Retry-After`). Signed in, it
    redirects (303) with a one-time `code`
    (valid 60 s), `state` and `iss`, and records the app among the account's authorisations.

    Args:
        body (OAuthAuthorizationForm): The sign-in and consent form of `GET /oauth/authorize`,
            posted back with the authorisation request's parameters.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | str
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: OAuthAuthorizationForm,
) -> Response[Any | Error | str]:
    """The consent page's form (sign-in and decision)

     Sent by the page of `GET /oauth/authorize`: its parameters (hidden fields), `csrf_token` and the
    `oauth_csrf` cookie, then `email`, `password` and `decision`. A missing, stale (over 10 minutes)
    or mismatched CSRF token, or one bound to other parameters, answers 400 with an HTML error page.
    The parameters are checked again as in `GET /oauth/authorize`.

    `decision=deny` redirects with `error=access_denied` without signing in. `decision=allow` signs in
    through the same lockout as `POST /auth/login` and spends the same strict sign-in budget (by
    client IP): a wrong email or password shows the page again (200: a form, not HTTP
    authentication), a locked email shows it with the time to wait (429, `Retry-After`). Signed in, it
    redirects (303) with a one-time `code`
    (valid 60 s), `state` and `iss`, and records the app among the account's authorisations.

    Args:
        body (OAuthAuthorizationForm): The sign-in and consent form of `GET /oauth/authorize`,
            posted back with the authorisation request's parameters.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | str]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: OAuthAuthorizationForm,
) -> Any | Error | str | None:
    """The consent page's form (sign-in and decision)

     Sent by the page of `GET /oauth/authorize`: its parameters (hidden fields), `csrf_token` and the
    `oauth_csrf` cookie, then `email`, `password` and `decision`. A missing, stale (over 10 minutes)
    or mismatched CSRF token, or one bound to other parameters, answers 400 with an HTML error page.
    The parameters are checked again as in `GET /oauth/authorize`.

    `decision=deny` redirects with `error=access_denied` without signing in. `decision=allow` signs in
    through the same lockout as `POST /auth/login` and spends the same strict sign-in budget (by
    client IP): a wrong email or password shows the page again (200: a form, not HTTP
    authentication), a locked email shows it with the time to wait (429, `Retry-After`). Signed in, it
    redirects (303) with a one-time `code`
    (valid 60 s), `state` and `iss`, and records the app among the account's authorisations.

    Args:
        body (OAuthAuthorizationForm): The sign-in and consent form of `GET /oauth/authorize`,
            posted back with the authorisation request's parameters.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | str
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
