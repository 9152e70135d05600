from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    user_code: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["user_code"] = user_code

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/oauth/device",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | str | None:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 400:
        response_400 = response.text
        return response_400

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
) -> Response[Error | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    user_code: str | Unset = UNSET,
) -> Response[Error | str]:
    """Device verification page (enter the user code, then sign in and approve)

     Without `user_code`, a page asking for the code the device shows. With a `user_code` of a pending,
    unexpired request, the sign-in and approval page: which app, which scopes, the code to compare,
    and a form posting to `POST /oauth/device` with a CSRF token bound to the code and to a cookie set
    here (`oauth_csrf`, as on `GET /oauth/authorize`). An unknown, expired or used code shows the code
    page again with an error (200). Spends a strict budget of its own (by client IP), so user codes
    cannot be guessed. Pages carry the headers of the consent page.

    Args:
        user_code (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | str]
    """

    kwargs = _get_kwargs(
        user_code=user_code,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    user_code: str | Unset = UNSET,
) -> Error | str | None:
    """Device verification page (enter the user code, then sign in and approve)

     Without `user_code`, a page asking for the code the device shows. With a `user_code` of a pending,
    unexpired request, the sign-in and approval page: which app, which scopes, the code to compare,
    and a form posting to `POST /oauth/device` with a CSRF token bound to the code and to a cookie set
    here (`oauth_csrf`, as on `GET /oauth/authorize`). An unknown, expired or used code shows the code
    page again with an error (200). Spends a strict budget of its own (by client IP), so user codes
    cannot be guessed. Pages carry the headers of the consent page.

    Args:
        user_code (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | str
    """

    return sync_detailed(
        client=client,
        user_code=user_code,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    user_code: str | Unset = UNSET,
) -> Response[Error | str]:
    """Device verification page (enter the user code, then sign in and approve)

     Without `user_code`, a page asking for the code the device shows. With a `user_code` of a pending,
    unexpired request, the sign-in and approval page: which app, which scopes, the code to compare,
    and a form posting to `POST /oauth/device` with a CSRF token bound to the code and to a cookie set
    here (`oauth_csrf`, as on `GET /oauth/authorize`). An unknown, expired or used code shows the code
    page again with an error (200). Spends a strict budget of its own (by client IP), so user codes
    cannot be guessed. Pages carry the headers of the consent page.

    Args:
        user_code (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | str]
    """

    kwargs = _get_kwargs(
        user_code=user_code,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    user_code: str | Unset = UNSET,
) -> Error | str | None:
    """Device verification page (enter the user code, then sign in and approve)

     Without `user_code`, a page asking for the code the device shows. With a `user_code` of a pending,
    unexpired request, the sign-in and approval page: which app, which scopes, the code to compare,
    and a form posting to `POST /oauth/device` with a CSRF token bound to the code and to a cookie set
    here (`oauth_csrf`, as on `GET /oauth/authorize`). An unknown, expired or used code shows the code
    page again with an error (200). Spends a strict budget of its own (by client IP), so user codes
    cannot be guessed. Pages carry the headers of the consent page.

    Args:
        user_code (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | str
    """

    return (
        await asyncio_detailed(
            client=client,
            user_code=user_code,
        )
    ).parsed
