from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.task import Task
from ...models.task_create import TaskCreate
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: TaskCreate,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/tasks",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | Task | None:
    if response.status_code == 201:
        response_201 = Task.from_dict(response.json())

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

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | Task]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: TaskCreate,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | Task]:
    """Create a task

     Creating beyond `TASKS_MAX_PER_ACCOUNT` stored tasks answers 403 `QUOTA_EXCEEDED` (exact under
    concurrency). With `Idempotency-Key`, the same key from the same account within 24 hours returns
    the first response and creates nothing (also when that task has since been deleted: the replay
    names it, and it is 404 now); the same key with a different body is 422 `IDEMPOTENCY_KEY_REUSED`.
    Scope `tasks:write`.

    Args:
        idempotency_key (str | Unset):
        body (TaskCreate): A new task: a title, and optionally notes, status, priority, due time
            and labels.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Task]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: TaskCreate,
    idempotency_key: str | Unset = UNSET,
) -> Error | Task | None:
    """Create a task

     Creating beyond `TASKS_MAX_PER_ACCOUNT` stored tasks answers 403 `QUOTA_EXCEEDED` (exact under
    concurrency). With `Idempotency-Key`, the same key from the same account within 24 hours returns
    the first response and creates nothing (also when that task has since been deleted: the replay
    names it, and it is 404 now); the same key with a different body is 422 `IDEMPOTENCY_KEY_REUSED`.
    Scope `tasks:write`.

    Args:
        idempotency_key (str | Unset):
        body (TaskCreate): A new task: a title, and optionally notes, status, priority, due time
            and labels.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Task
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: TaskCreate,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | Task]:
    """Create a task

     Creating beyond `TASKS_MAX_PER_ACCOUNT` stored tasks answers 403 `QUOTA_EXCEEDED` (exact under
    concurrency). With `Idempotency-Key`, the same key from the same account within 24 hours returns
    the first response and creates nothing (also when that task has since been deleted: the replay
    names it, and it is 404 now); the same key with a different body is 422 `IDEMPOTENCY_KEY_REUSED`.
    Scope `tasks:write`.

    Args:
        idempotency_key (str | Unset):
        body (TaskCreate): A new task: a title, and optionally notes, status, priority, due time
            and labels.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Task]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: TaskCreate,
    idempotency_key: str | Unset = UNSET,
) -> Error | Task | None:
    """Create a task

     Creating beyond `TASKS_MAX_PER_ACCOUNT` stored tasks answers 403 `QUOTA_EXCEEDED` (exact under
    concurrency). With `Idempotency-Key`, the same key from the same account within 24 hours returns
    the first response and creates nothing (also when that task has since been deleted: the replay
    names it, and it is 404 now); the same key with a different body is 422 `IDEMPOTENCY_KEY_REUSED`.
    Scope `tasks:write`.

    Args:
        idempotency_key (str | Unset):
        body (TaskCreate): A new task: a title, and optionally notes, status, priority, due time
            and labels.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Task
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
