from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.task import Task
from ...models.task_update import TaskUpdate
from ...types import UNSET, Response, Unset


def _get_kwargs(
    task_id: UUID,
    *,
    body: TaskUpdate,
    if_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_match, Unset):
        headers["If-Match"] = if_match

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/tasks/{task_id}".format(
            task_id=quote(str(task_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | Task | None:
    if response.status_code == 200:
        response_200 = Task.from_dict(response.json())

        return response_200

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

    if response.status_code == 412:
        response_412 = Error.from_dict(response.json())

        return response_412

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
) -> Response[Error | Task]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    task_id: UUID,
    *,
    client: AuthenticatedClient,
    body: TaskUpdate,
    if_match: str | Unset = UNSET,
) -> Response[Error | Task]:
    """Change a task

     Changes the fields given; `null` clears `notes` and `dueAt`. Setting `status` to `completed` sets
    `completedAt`; setting it to `open` clears it. Allowed at the task cap. Every change raises
    `version` by one. With `If-Match`, the change applies only to the version it names, else 412
    `PRECONDITION_FAILED` with the current `ETag` (of parallel changes naming one version, exactly
    one applies); without it the change applies as before. Scope `tasks:write`.

    Args:
        task_id (UUID):
        if_match (str | Unset):
        body (TaskUpdate): The fields of a task to change; at least one. `null` clears `notes` and
            `dueAt`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Task]
    """

    kwargs = _get_kwargs(
        task_id=task_id,
        body=body,
        if_match=if_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    task_id: UUID,
    *,
    client: AuthenticatedClient,
    body: TaskUpdate,
    if_match: str | Unset = UNSET,
) -> Error | Task | None:
    """Change a task

     Changes the fields given; `null` clears `notes` and `dueAt`. Setting `status` to `completed` sets
    `completedAt`; setting it to `open` clears it. Allowed at the task cap. Every change raises
    `version` by one. With `If-Match`, the change applies only to the version it names, else 412
    `PRECONDITION_FAILED` with the current `ETag` (of parallel changes naming one version, exactly
    one applies); without it the change applies as before. Scope `tasks:write`.

    Args:
        task_id (UUID):
        if_match (str | Unset):
        body (TaskUpdate): The fields of a task to change; at least one. `null` clears `notes` and
            `dueAt`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Task
    """

    return sync_detailed(
        task_id=task_id,
        client=client,
        body=body,
        if_match=if_match,
    ).parsed


async def asyncio_detailed(
    task_id: UUID,
    *,
    client: AuthenticatedClient,
    body: TaskUpdate,
    if_match: str | Unset = UNSET,
) -> Response[Error | Task]:
    """Change a task

     Changes the fields given; `null` clears `notes` and `dueAt`. Setting `status` to `completed` sets
    `completedAt`; setting it to `open` clears it. Allowed at the task cap. Every change raises
    `version` by one. With `If-Match`, the change applies only to the version it names, else 412
    `PRECONDITION_FAILED` with the current `ETag` (of parallel changes naming one version, exactly
    one applies); without it the change applies as before. Scope `tasks:write`.

    Args:
        task_id (UUID):
        if_match (str | Unset):
        body (TaskUpdate): The fields of a task to change; at least one. `null` clears `notes` and
            `dueAt`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Task]
    """

    kwargs = _get_kwargs(
        task_id=task_id,
        body=body,
        if_match=if_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    task_id: UUID,
    *,
    client: AuthenticatedClient,
    body: TaskUpdate,
    if_match: str | Unset = UNSET,
) -> Error | Task | None:
    """Change a task

     Changes the fields given; `null` clears `notes` and `dueAt`. Setting `status` to `completed` sets
    `completedAt`; setting it to `open` clears it. Allowed at the task cap. Every change raises
    `version` by one. With `If-Match`, the change applies only to the version it names, else 412
    `PRECONDITION_FAILED` with the current `ETag` (of parallel changes naming one version, exactly
    one applies); without it the change applies as before. Scope `tasks:write`.

    Args:
        task_id (UUID):
        if_match (str | Unset):
        body (TaskUpdate): The fields of a task to change; at least one. `null` clears `notes` and
            `dueAt`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Task
    """

    return (
        await asyncio_detailed(
            task_id=task_id,
            client=client,
            body=body,
            if_match=if_match,
        )
    ).parsed
