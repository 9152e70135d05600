import datetime
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.list_tasks_priority_item import ListTasksPriorityItem
from ...models.list_tasks_sort import ListTasksSort
from ...models.list_tasks_status import ListTasksStatus
from ...models.task_list import TaskList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    status: ListTasksStatus | Unset = ListTasksStatus.ALL,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,
    updated_since: datetime.datetime | Unset = UNSET,
    q: str | Unset = UNSET,
    label: list[str] | Unset = UNSET,
    priority: list[ListTasksPriorityItem] | Unset = UNSET,
    due_after: datetime.datetime | Unset = UNSET,
    due_before: datetime.datetime | Unset = UNSET,
    has_due: bool | Unset = UNSET,
    sort: ListTasksSort | Unset = ListTasksSort.CREATED,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    params["limit"] = limit

    params["cursor"] = cursor

    json_updated_since: str | Unset = UNSET
    if not isinstance(updated_since, Unset):
        json_updated_since = updated_since.isoformat()
    params["updatedSince"] = json_updated_since

    params["q"] = q

    json_label: list[str] | Unset = UNSET
    if not isinstance(label, Unset):
        json_label = label

    params["label"] = json_label

    json_priority: list[int] | Unset = UNSET
    if not isinstance(priority, Unset):
        json_priority = []
        for priority_item_data in priority:
            priority_item = priority_item_data.value
            json_priority.append(priority_item)

    params["priority"] = json_priority

    json_due_after: str | Unset = UNSET
    if not isinstance(due_after, Unset):
        json_due_after = due_after.isoformat()
    params["dueAfter"] = json_due_after

    json_due_before: str | Unset = UNSET
    if not isinstance(due_before, Unset):
        json_due_before = due_before.isoformat()
    params["dueBefore"] = json_due_before

    params["hasDue"] = has_due

    json_sort: str | Unset = UNSET
    if not isinstance(sort, Unset):
        json_sort = sort.value

    params["sort"] = json_sort

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/tasks",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | TaskList | None:
    if response.status_code == 200:
        response_200 = TaskList.from_dict(response.json())

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
) -> Response[Error | TaskList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    status: ListTasksStatus | Unset = ListTasksStatus.ALL,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,
    updated_since: datetime.datetime | Unset = UNSET,
    q: str | Unset = UNSET,
    label: list[str] | Unset = UNSET,
    priority: list[ListTasksPriorityItem] | Unset = UNSET,
    due_after: datetime.datetime | Unset = UNSET,
    due_before: datetime.datetime | Unset = UNSET,
    has_due: bool | Unset = UNSET,
    sort: ListTasksSort | Unset = ListTasksSort.CREATED,
) -> Response[Error | TaskList]:
    """List tasks

     Finds the account's tasks: every filter given must hold (they combine with AND). Keyset
    pagination in a total order (`sort`, the id last): follow `nextCursor` until it is null. A walk
    sees every task that matched through the whole walk exactly once, whatever is created, edited or
    deleted in between. A `cursor` belongs to the filters and sort that made it: sent with others it
    is refused (400, detail on `/query/cursor`). The SDK's `taskMatches` and `compareTasks` apply the
    same filters and orders to tasks a client holds. Scope `tasks:read`.

    Args:
        status (ListTasksStatus | Unset):  Default: ListTasksStatus.ALL.
        limit (int | Unset):  Default: 50.
        cursor (str | Unset):
        updated_since (datetime.datetime | Unset):
        q (str | Unset):
        label (list[str] | Unset):
        priority (list[ListTasksPriorityItem] | Unset):
        due_after (datetime.datetime | Unset):
        due_before (datetime.datetime | Unset):
        has_due (bool | Unset):
        sort (ListTasksSort | Unset):  Default: ListTasksSort.CREATED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TaskList]
    """

    kwargs = _get_kwargs(
        status=status,
        limit=limit,
        cursor=cursor,
        updated_since=updated_since,
        q=q,
        label=label,
        priority=priority,
        due_after=due_after,
        due_before=due_before,
        has_due=has_due,
        sort=sort,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    status: ListTasksStatus | Unset = ListTasksStatus.ALL,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,
    updated_since: datetime.datetime | Unset = UNSET,
    q: str | Unset = UNSET,
    label: list[str] | Unset = UNSET,
    priority: list[ListTasksPriorityItem] | Unset = UNSET,
    due_after: datetime.datetime | Unset = UNSET,
    due_before: datetime.datetime | Unset = UNSET,
    has_due: bool | Unset = UNSET,
    sort: ListTasksSort | Unset = ListTasksSort.CREATED,
) -> Error | TaskList | None:
    """List tasks

     Finds the account's tasks: every filter given must hold (they combine with AND). Keyset
    pagination in a total order (`sort`, the id last): follow `nextCursor` until it is null. A walk
    sees every task that matched through the whole walk exactly once, whatever is created, edited or
    deleted in between. A `cursor` belongs to the filters and sort that made it: sent with others it
    is refused (400, detail on `/query/cursor`). The SDK's `taskMatches` and `compareTasks` apply the
    same filters and orders to tasks a client holds. Scope `tasks:read`.

    Args:
        status (ListTasksStatus | Unset):  Default: ListTasksStatus.ALL.
        limit (int | Unset):  Default: 50.
        cursor (str | Unset):
        updated_since (datetime.datetime | Unset):
        q (str | Unset):
        label (list[str] | Unset):
        priority (list[ListTasksPriorityItem] | Unset):
        due_after (datetime.datetime | Unset):
        due_before (datetime.datetime | Unset):
        has_due (bool | Unset):
        sort (ListTasksSort | Unset):  Default: ListTasksSort.CREATED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TaskList
    """

    return sync_detailed(
        client=client,
        status=status,
        limit=limit,
        cursor=cursor,
        updated_since=updated_since,
        q=q,
        label=label,
        priority=priority,
        due_after=due_after,
        due_before=due_before,
        has_due=has_due,
        sort=sort,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    status: ListTasksStatus | Unset = ListTasksStatus.ALL,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,
    updated_since: datetime.datetime | Unset = UNSET,
    q: str | Unset = UNSET,
    label: list[str] | Unset = UNSET,
    priority: list[ListTasksPriorityItem] | Unset = UNSET,
    due_after: datetime.datetime | Unset = UNSET,
    due_before: datetime.datetime | Unset = UNSET,
    has_due: bool | Unset = UNSET,
    sort: ListTasksSort | Unset = ListTasksSort.CREATED,
) -> Response[Error | TaskList]:
    """List tasks

     Finds the account's tasks: every filter given must hold (they combine with AND). Keyset
    pagination in a total order (`sort`, the id last): follow `nextCursor` until it is null. A walk
    sees every task that matched through the whole walk exactly once, whatever is created, edited or
    deleted in between. A `cursor` belongs to the filters and sort that made it: sent with others it
    is refused (400, detail on `/query/cursor`). The SDK's `taskMatches` and `compareTasks` apply the
    same filters and orders to tasks a client holds. Scope `tasks:read`.

    Args:
        status (ListTasksStatus | Unset):  Default: ListTasksStatus.ALL.
        limit (int | Unset):  Default: 50.
        cursor (str | Unset):
        updated_since (datetime.datetime | Unset):
        q (str | Unset):
        label (list[str] | Unset):
        priority (list[ListTasksPriorityItem] | Unset):
        due_after (datetime.datetime | Unset):
        due_before (datetime.datetime | Unset):
        has_due (bool | Unset):
        sort (ListTasksSort | Unset):  Default: ListTasksSort.CREATED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TaskList]
    """

    kwargs = _get_kwargs(
        status=status,
        limit=limit,
        cursor=cursor,
        updated_since=updated_since,
        q=q,
        label=label,
        priority=priority,
        due_after=due_after,
        due_before=due_before,
        has_due=has_due,
        sort=sort,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    status: ListTasksStatus | Unset = ListTasksStatus.ALL,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,
    updated_since: datetime.datetime | Unset = UNSET,
    q: str | Unset = UNSET,
    label: list[str] | Unset = UNSET,
    priority: list[ListTasksPriorityItem] | Unset = UNSET,
    due_after: datetime.datetime | Unset = UNSET,
    due_before: datetime.datetime | Unset = UNSET,
    has_due: bool | Unset = UNSET,
    sort: ListTasksSort | Unset = ListTasksSort.CREATED,
) -> Error | TaskList | None:
    """List tasks

     Finds the account's tasks: every filter given must hold (they combine with AND). Keyset
    pagination in a total order (`sort`, the id last): follow `nextCursor` until it is null. A walk
    sees every task that matched through the whole walk exactly once, whatever is created, edited or
    deleted in between. A `cursor` belongs to the filters and sort that made it: sent with others it
    is refused (400, detail on `/query/cursor`). The SDK's `taskMatches` and `compareTasks` apply the
    same filters and orders to tasks a client holds. Scope `tasks:read`.

    Args:
        status (ListTasksStatus | Unset):  Default: ListTasksStatus.ALL.
        limit (int | Unset):  Default: 50.
        cursor (str | Unset):
        updated_since (datetime.datetime | Unset):
        q (str | Unset):
        label (list[str] | Unset):
        priority (list[ListTasksPriorityItem] | Unset):
        due_after (datetime.datetime | Unset):
        due_before (datetime.datetime | Unset):
        has_due (bool | Unset):
        sort (ListTasksSort | Unset):  Default: ListTasksSort.CREATED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TaskList
    """

    return (
        await asyncio_detailed(
            client=client,
            status=status,
            limit=limit,
            cursor=cursor,
            updated_since=updated_since,
            q=q,
            label=label,
            priority=priority,
            due_after=due_after,
            due_before=due_before,
            has_due=has_due,
            sort=sort,
        )
    ).parsed
