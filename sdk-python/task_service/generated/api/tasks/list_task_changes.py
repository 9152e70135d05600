from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.task_change_list import TaskChangeList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 100,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["cursor"] = cursor

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/tasks/changes",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | TaskChangeList | None:
    if response.status_code == 200:
        response_200 = TaskChangeList.from_dict(response.json())

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

    if response.status_code == 410:
        response_410 = Error.from_dict(response.json())

        return response_410

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
) -> Response[Error | TaskChangeList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 100,
) -> Response[Error | TaskChangeList]:
    """Changes since a cursor (the change feed)

     Keeps a mirror of the account's tasks in sync, deletions included. Without
    `cursor` it starts from the beginning: every stored task as an `upserted` change (an initial
    sync). With the `nextCursor` of an earlier answer it lists every change committed since, in
    commit order: `upserted` with the task's latest state, or `deleted` with the task's id. A task
    changed several times between two calls appears once, in its latest state (or as deleted).
    Follow `nextCursor` while `hasMore` is true; then keep the last `nextCursor` (it is always
    present) and ask again later. No change is ever skipped, also when several instances commit
    writes at once. A later page may name the deletion of a task the mirror never saw (it was
    deleted during the initial sync): ignore it.

    Everything a task goes through is a change: creates, updates and deletes over this API or MCP,
    a sync's creates and updates, and disconnecting a connector account (its tasks become local
    tasks: `source` turns null). Deleted tasks leave a tombstone kept at least
    `TASK_TOMBSTONE_RETENTION_DAYS` (30) days; a cursor issued longer ago than that answers 410
    `CURSOR_EXPIRED`: start again without a cursor. A cursor no page of this account issued is 400
    `VALIDATION_FAILED` (path `/query/cursor`). Scope `tasks:read`.

    Args:
        cursor (str | Unset):
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TaskChangeList]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 100,
) -> Error | TaskChangeList | None:
    """Changes since a cursor (the change feed)

     Keeps a mirror of the account's tasks in sync, deletions included. Without
    `cursor` it starts from the beginning: every stored task as an `upserted` change (an initial
    sync). With the `nextCursor` of an earlier answer it lists every change committed since, in
    commit order: `upserted` with the task's latest state, or `deleted` with the task's id. A task
    changed several times between two calls appears once, in its latest state (or as deleted).
    Follow `nextCursor` while `hasMore` is true; then keep the last `nextCursor` (it is always
    present) and ask again later. No change is ever skipped, also when several instances commit
    writes at once. A later page may name the deletion of a task the mirror never saw (it was
    deleted during the initial sync): ignore it.

    Everything a task goes through is a change: creates, updates and deletes over this API or MCP,
    a sync's creates and updates, and disconnecting a connector account (its tasks become local
    tasks: `source` turns null). Deleted tasks leave a tombstone kept at least
    `TASK_TOMBSTONE_RETENTION_DAYS` (30) days; a cursor issued longer ago than that answers 410
    `CURSOR_EXPIRED`: start again without a cursor. A cursor no page of this account issued is 400
    `VALIDATION_FAILED` (path `/query/cursor`). Scope `tasks:read`.

    Args:
        cursor (str | Unset):
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TaskChangeList
    """

    return sync_detailed(
        client=client,
        cursor=cursor,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 100,
) -> Response[Error | TaskChangeList]:
    """Changes since a cursor (the change feed)

     Keeps a mirror of the account's tasks in sync, deletions included. Without
    `cursor` it starts from the beginning: every stored task as an `upserted` change (an initial
    sync). With the `nextCursor` of an earlier answer it lists every change committed since, in
    commit order: `upserted` with the task's latest state, or `deleted` with the task's id. A task
    changed several times between two calls appears once, in its latest state (or as deleted).
    Follow `nextCursor` while `hasMore` is true; then keep the last `nextCursor` (it is always
    present) and ask again later. No change is ever skipped, also when several instances commit
    writes at once. A later page may name the deletion of a task the mirror never saw (it was
    deleted during the initial sync): ignore it.

    Everything a task goes through is a change: creates, updates and deletes over this API or MCP,
    a sync's creates and updates, and disconnecting a connector account (its tasks become local
    tasks: `source` turns null). Deleted tasks leave a tombstone kept at least
    `TASK_TOMBSTONE_RETENTION_DAYS` (30) days; a cursor issued longer ago than that answers 410
    `CURSOR_EXPIRED`: start again without a cursor. A cursor no page of this account issued is 400
    `VALIDATION_FAILED` (path `/query/cursor`). Scope `tasks:read`.

    Args:
        cursor (str | Unset):
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TaskChangeList]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    limit: int | Unset = 100,
) -> Error | TaskChangeList | None:
    """Changes since a cursor (the change feed)

     Keeps a mirror of the account's tasks in sync, deletions included. Without
    `cursor` it starts from the beginning: every stored task as an `upserted` change (an initial
    sync). With the `nextCursor` of an earlier answer it lists every change committed since, in
    commit order: `upserted` with the task's latest state, or `deleted` with the task's id. A task
    changed several times between two calls appears once, in its latest state (or as deleted).
    Follow `nextCursor` while `hasMore` is true; then keep the last `nextCursor` (it is always
    present) and ask again later. No change is ever skipped, also when several instances commit
    writes at once. A later page may name the deletion of a task the mirror never saw (it was
    deleted during the initial sync): ignore it.

    Everything a task goes through is a change: creates, updates and deletes over this API or MCP,
    a sync's creates and updates, and disconnecting a connector account (its tasks become local
    tasks: `source` turns null). Deleted tasks leave a tombstone kept at least
    `TASK_TOMBSTONE_RETENTION_DAYS` (30) days; a cursor issued longer ago than that answers 410
    `CURSOR_EXPIRED`: start again without a cursor. A cursor no page of this account issued is 400
    `VALIDATION_FAILED` (path `/query/cursor`). Scope `tasks:read`.

    Args:
        cursor (str | Unset):
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TaskChangeList
    """

    return (
        await asyncio_detailed(
            client=client,
            cursor=cursor,
            limit=limit,
        )
    ).parsed
