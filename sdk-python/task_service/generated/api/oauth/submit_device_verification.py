from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.device_verification_form import DeviceVerificationForm
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    *,
    body: DeviceVerificationForm,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/oauth/device",
    }

    _kwargs["data"] = body.to_dict()
    headers["Content-Type"] = "application/x-www-form-urlencoded"

    _kwargs["headers"] = headers
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
    body: DeviceVerificationForm,
) -> Response[Error | str]:
    """The device approval form (sign-in and decision)

     Sent by the page of `GET /oauth/device?user_code=...`: `user_code`, `csrf_token` and the
    `oauth_csrf` cookie, then `email`, `password` and `decision`. A missing, stale or mismatched CSRF
    token answers 400 with an HTML error page. `decision=deny` refuses the request without signing in
    (the device's next poll gets `access_denied`). `decision=allow` signs in through the same lockout
    as `POST /auth/login` and spends the same strict sign-in budget (by client IP): a wrong email or
    password shows the page again (200), a locked email shows it with the time to wait (429,
    `Retry-After`). Signed in, the request is approved (once: a code already approved, denied or
    expired shows the code page with an error), the app is recorded among the account's
    authorisations, and a page says the device is connected.

    Args:
        body (DeviceVerificationForm): The form of `GET /oauth/device`: the user code, the CSRF
            token, the decision and the sign-in.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | str]
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
    body: DeviceVerificationForm,
) -> Error | str | None:
    """The device approval form (sign-in and decision)

     Sent by the page of `GET /oauth/device?user_code=...`: `user_code`, `csrf_token` and the
    `oauth_csrf` cookie, then `email`, `password` and `decision`. A missing, stale or mismatched CSRF
    token answers 400 with an HTML error page. `decision=deny` refuses the request without signing in
    (the device's next poll gets `access_denied`). `decision=allow` signs in through the same lockout
    as `POST /auth/login` and spends the same strict sign-in budget (by client IP): a wrong email or
    password shows the page again (200), a locked email shows it with the time to wait (429,
    `Retry-After`). Signed in, the request is approved (once: a code already approved, denied or
    expired shows the code page with an error), the app is recorded among the account's
    authorisations, and a page says the device is connected.

    Args:
        body (DeviceVerificationForm): The form of `GET /oauth/device`: the user code, the CSRF
            token, the decision and the sign-in.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | str
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: DeviceVerificationForm,
) -> Response[Error | str]:
    """The device approval form (sign-in and decision)

     Sent by the page of `GET /oauth/device?user_code=...`: `user_code`, `csrf_token` and the
    `oauth_csrf` cookie, then `email`, `password` and `decision`. A missing, stale or mismatched CSRF
    token answers 400 with an HTML error page. `decision=deny` refuses the request without signing in
    (the device's next poll gets `access_denied`). `decision=allow` signs in through the same lockout
    as `POST /auth/login` and spends the same strict sign-in budget (by client IP): a wrong email or
    password shows the page again (200), a locked email shows it with the time to wait (429,
    `Retry-After`). Signed in, the request is approved (once: a code already approved, denied or
    expired shows the code page with an error), the app is recorded among the account's
    authorisations, and a page says the device is connected.

    Args:
        body (DeviceVerificationForm): The form of `GET /oauth/device`: the user code, the CSRF
            token, the decision and the sign-in.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | str]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: DeviceVerificationForm,
) -> Error | str | None:
    """The device approval form (sign-in and decision)

     Sent by the page of `GET /oauth/device?user_code=...`: `user_code`, `csrf_token` and the
    `oauth_csrf` cookie, then `email`, `password` and `decision`. A missing, stale or mismatched CSRF
    token answers 400 with an HTML error page. `decision=deny` refuses the request without signing in
    (the device's next poll gets `access_denied`). `decision=allow` signs in through the same lockout
    as `POST /auth/login` and spends the same strict sign-in budget (by client IP): a wrong email or
    password shows the page again (200), a locked email shows it with the time to wait (429,
    `Retry-After`). Signed in, the request is approved (once: a code already approved, denied or
    expired shows the code page with an error), the app is recorded among the account's
    authorisations, and a page says the device is connected.

    Args:
        body (DeviceVerificationForm): The form of `GET /oauth/device`: the user code, the CSRF
            token, the decision and the sign-in.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | str
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
