from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    response_type: str | Unset = UNSET,
    client_id: str | Unset = UNSET,
    redirect_uri: str | Unset = UNSET,
    code_challenge: str | Unset = UNSET,
    code_challenge_method: str | Unset = UNSET,
    state: str | Unset = UNSET,
    scope: str | Unset = UNSET,
    resource: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["response_type"] = response_type

    params["client_id"] = client_id

    params["redirect_uri"] = redirect_uri

    params["code_challenge"] = code_challenge

    params["code_challenge_method"] = code_challenge_method

    params["state"] = state

    params["scope"] = scope

    params["resource"] = resource

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/oauth/authorize",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | str | None:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 302:
        response_302 = cast(Any, None)
        return response_302

    if response.status_code == 400:
        response_400 = response.text
        return response_400

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if response.status_code == 431:
        response_431 = Error.from_dict(response.json())

        return response_431

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
    response_type: str | Unset = UNSET,
    client_id: str | Unset = UNSET,
    redirect_uri: str | Unset = UNSET,
    code_challenge: str | Unset = UNSET,
    code_challenge_method: str | Unset = UNSET,
    state: str | Unset = UNSET,
    scope: str | Unset = UNSET,
    resource: str | Unset = UNSET,
) -> Response[Any | Error | str]:
    """Authorisation endpoint (sign-in and consent page)

     Renders a server-side sign-in and consent page (HTML, for a browser). Its form posts to
    `POST /oauth/authorize`, carrying a CSRF token bound to these parameters and to a cookie set
    here (`oauth_csrf`, HttpOnly, SameSite=Strict, 10 minutes).

    The parameters are checked here rather than by the schema, in this order (RFC 6749 section 4.1.2.1):
    - an unknown `client_id`, or a `redirect_uri` that is missing or not registered for it (exact
      match; for loopback URIs any port, RFC 8252 section 7.3), answers 400 with an HTML error page and
      never redirects;
    - every other problem redirects (302) to the `redirect_uri` with `error` (`invalid_request`,
      `unsupported_response_type`, `invalid_scope`, `invalid_target`), `error_description`, `state` and
    `iss`:
      `response_type` must be `code`; `code_challenge` (43 to 128 characters of `[A-Za-z0-9-._~]`)
      and `code_challenge_method=S256` are required (`plain` is refused); `state`, when given, must be
      printable ASCII.

    `scope` is a space-separated subset of `tasks:read tasks:write connectors:read connectors:write`
    within what the client registered; unknown names are `invalid_scope`. Without `scope`, the
    client's registered scope (all four for clients that registered none).

    `resource` (RFC 8707) names what the tokens are for: this REST API (`{PUBLIC_URL}`, the default
    when absent; its tokens carry `aud` = `JWT_AUDIENCE`) or the MCP server (`{PUBLIC_URL}/mcp`, its
    tokens carry that `aud`). `/mcp` accepts only tokens for `{PUBLIC_URL}/mcp`, the REST API only
    tokens for itself. Any other value redirects with `error=invalid_target`. Other parameters are
    ignored. Pages are sent with `Content-Security-Policy`,
    `X-Frame-Options: DENY`, `Referrer-Policy: no-referrer` and `Cache-Control: no-store`.

    Args:
        response_type (str | Unset):
        client_id (str | Unset):
        redirect_uri (str | Unset):
        code_challenge (str | Unset):
        code_challenge_method (str | Unset):
        state (str | Unset):
        scope (str | Unset):
        resource (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | str]
    """

    kwargs = _get_kwargs(
        response_type=response_type,
        client_id=client_id,
        redirect_uri=redirect_uri,
        code_challenge=code_challenge,
        code_challenge_method=code_challenge_method,
        state=state,
        scope=scope,
        resource=resource,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    response_type: str | Unset = UNSET,
    client_id: str | Unset = UNSET,
    redirect_uri: str | Unset = UNSET,
    code_challenge: str | Unset = UNSET,
    code_challenge_method: str | Unset = UNSET,
    state: str | Unset = UNSET,
    scope: str | Unset = UNSET,
    resource: str | Unset = UNSET,
) -> Any | Error | str | None:
    """Authorisation endpoint (sign-in and consent page)

     Renders a server-side sign-in and consent page (HTML, for a browser). Its form posts to
    `POST /oauth/authorize`, carrying a CSRF token bound to these parameters and to a cookie set
    here (`oauth_csrf`, HttpOnly, SameSite=Strict, 10 minutes).

    The parameters are checked here rather than by the schema, in this order (RFC 6749 section 4.1.2.1):
    - an unknown `client_id`, or a `redirect_uri` that is missing or not registered for it (exact
      match; for loopback URIs any port, RFC 8252 section 7.3), answers 400 with an HTML error page and
      never redirects;
    - every other problem redirects (302) to the `redirect_uri` with `error` (`invalid_request`,
      `unsupported_response_type`, `invalid_scope`, `invalid_target`), `error_description`, `state` and
    `iss`:
      `response_type` must be `code`; `code_challenge` (43 to 128 characters of `[A-Za-z0-9-._~]`)
      and `code_challenge_method=S256` are required (`plain` is refused); `state`, when given, must be
      printable ASCII.

    `scope` is a space-separated subset of `tasks:read tasks:write connectors:read connectors:write`
    within what the client registered; unknown names are `invalid_scope`. Without `scope`, the
    client's registered scope (all four for clients that registered none).

    `resource` (RFC 8707) names what the tokens are for: this REST API (`{PUBLIC_URL}`, the default
    when absent; its tokens carry `aud` = `JWT_AUDIENCE`) or the MCP server (`{PUBLIC_URL}/mcp`, its
    tokens carry that `aud`). `/mcp` accepts only tokens for `{PUBLIC_URL}/mcp`, the REST API only
    tokens for itself. Any other value redirects with `error=invalid_target`. Other parameters are
    ignored. Pages are sent with `Content-Security-Policy`,
    `X-Frame-Options: DENY`, `Referrer-Policy: no-referrer` and `Cache-Control: no-store`.

    Args:
        response_type (str | Unset):
        client_id (str | Unset):
        redirect_uri (str | Unset):
        code_challenge (str | Unset):
        code_challenge_method (str | Unset):
        state (str | Unset):
        scope (str | Unset):
        resource (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | str
    """

    return sync_detailed(
        client=client,
        response_type=response_type,
        client_id=client_id,
        redirect_uri=redirect_uri,
        code_challenge=code_challenge,
        code_challenge_method=code_challenge_method,
        state=state,
        scope=scope,
        resource=resource,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    response_type: str | Unset = UNSET,
    client_id: str | Unset = UNSET,
    redirect_uri: str | Unset = UNSET,
    code_challenge: str | Unset = UNSET,
    code_challenge_method: str | Unset = UNSET,
    state: str | Unset = UNSET,
    scope: str | Unset = UNSET,
    resource: str | Unset = UNSET,
) -> Response[Any | Error | str]:
    """Authorisation endpoint (sign-in and consent page)

     Renders a server-side sign-in and consent page (HTML, for a browser). Its form posts to
    `POST /oauth/authorize`, carrying a CSRF token bound to these parameters and to a cookie set
    here (`oauth_csrf`, HttpOnly, SameSite=Strict, 10 minutes).

    The parameters are checked here rather than by the schema, in this order (RFC 6749 section 4.1.2.1):
    - an unknown `client_id`, or a `redirect_uri` that is missing or not registered for it (exact
      match; for loopback URIs any port, RFC 8252 section 7.3), answers 400 with an HTML error page and
      never redirects;
    - every other problem redirects (302) to the `redirect_uri` with `error` (`invalid_request`,
      `unsupported_response_type`, `invalid_scope`, `invalid_target`), `error_description`, `state` and
    `iss`:
      `response_type` must be `code`; `code_challenge` (43 to 128 characters of `[A-Za-z0-9-._~]`)
      and `code_challenge_method=S256` are required (`plain` is refused); `state`, when given, must be
      printable ASCII.

    `scope` is a space-separated subset of `tasks:read tasks:write connectors:read connectors:write`
    within what the client registered; unknown names are `invalid_scope`. Without `scope`, the
    client's registered scope (all four for clients that registered none).

    `resource` (RFC 8707) names what the tokens are for: this REST API (`{PUBLIC_URL}`, the default
    when absent; its tokens carry `aud` = `JWT_AUDIENCE`) or the MCP server (`{PUBLIC_URL}/mcp`, its
    tokens carry that `aud`). `/mcp` accepts only tokens for `{PUBLIC_URL}/mcp`, the REST API only
    tokens for itself. Any other value redirects with `error=invalid_target`. Other parameters are
    ignored. Pages are sent with `Content-Security-Policy`,
    `X-Frame-Options: DENY`, `Referrer-Policy: no-referrer` and `Cache-Control: no-store`.

    Args:
        response_type (str | Unset):
        client_id (str | Unset):
        redirect_uri (str | Unset):
        code_challenge (str | Unset):
        code_challenge_method (str | Unset):
        state (str | Unset):
        scope (str | Unset):
        resource (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | str]
    """

    kwargs = _get_kwargs(
        response_type=response_type,
        client_id=client_id,
        redirect_uri=redirect_uri,
        code_challenge=code_challenge,
        code_challenge_method=code_challenge_method,
        state=state,
        scope=scope,
        resource=resource,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    response_type: str | Unset = UNSET,
    client_id: str | Unset = UNSET,
    redirect_uri: str | Unset = UNSET,
    code_challenge: str | Unset = UNSET,
    code_challenge_method: str | Unset = UNSET,
    state: str | Unset = UNSET,
    scope: str | Unset = UNSET,
    resource: str | Unset = UNSET,
) -> Any | Error | str | None:
    """Authorisation endpoint (sign-in and consent page)

     Renders a server-side sign-in and consent page (HTML, for a browser). Its form posts to
    `POST /oauth/authorize`, carrying a CSRF token bound to these parameters and to a cookie set
    here (`oauth_csrf`, HttpOnly, SameSite=Strict, 10 minutes).

    The parameters are checked here rather than by the schema, in this order (RFC 6749 section 4.1.2.1):
    - an unknown `client_id`, or a `redirect_uri` that is missing or not registered for it (exact
      match; for loopback URIs any port, RFC 8252 section 7.3), answers 400 with an HTML error page and
      never redirects;
    - every other problem redirects (302) to the `redirect_uri` with `error` (`invalid_request`,
      `unsupported_response_type`, `invalid_scope`, `invalid_target`), `error_description`, `state` and
    `iss`:
      `response_type` must be `code`; `code_challenge` (43 to 128 characters of `[A-Za-z0-9-._~]`)
      and `code_challenge_method=S256` are required (`plain` is refused); `state`, when given, must be
      printable ASCII.

    `scope` is a space-separated subset of `tasks:read tasks:write connectors:read connectors:write`
    within what the client registered; unknown names are `invalid_scope`. Without `scope`, the
    client's registered scope (all four for clients that registered none).

    `resource` (RFC 8707) names what the tokens are for: this REST API (`{PUBLIC_URL}`, the default
    when absent; its tokens carry `aud` = `JWT_AUDIENCE`) or the MCP server (`{PUBLIC_URL}/mcp`, its
    tokens carry that `aud`). `/mcp` accepts only tokens for `{PUBLIC_URL}/mcp`, the REST API only
    tokens for itself. Any other value redirects with `error=invalid_target`. Other parameters are
    ignored. Pages are sent with `Content-Security-Policy`,
    `X-Frame-Options: DENY`, `Referrer-Policy: no-referrer` and `Cache-Control: no-store`.

    Args:
        response_type (str | Unset):
        client_id (str | Unset):
        redirect_uri (str | Unset):
        code_challenge (str | Unset):
        code_challenge_method (str | Unset):
        state (str | Unset):
        scope (str | Unset):
        resource (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | str
    """

    return (
        await asyncio_detailed(
            client=client,
            response_type=response_type,
            client_id=client_id,
            redirect_uri=redirect_uri,
            code_challenge=code_challenge,
            code_challenge_method=code_challenge_method,
            state=state,
            scope=scope,
            resource=resource,
        )
    ).parsed
