"""The flows a Python developer relies on, against the real server: sign in, create, list, update, errors."""

from __future__ import annotations

import asyncio

import pytest

from task_service import ApiError, TaskService
from task_service.generated.api.account import get_me
from task_service.generated.api.tasks import create_task, get_task, list_tasks, update_task
from task_service.models import Error, ErrorCode, Priority, Task, TaskCreate, TaskList, TaskStatus, TaskUpdate

from .conftest import PASSWORD, Server, unique_email


def test_a_registered_account_signs_in_with_its_password_and_sees_itself(server: Server) -> None:
    email = unique_email()
    server.service().register(email, PASSWORD)
    service = server.service()
    pair = service.login(email, PASSWORD)
    assert service.access_token == pair.access_token
    me = get_me.sync(client=service.client)
    assert me is not None and not isinstance(me, Error)
    assert me.email == email


def test_a_wrong_password_is_an_api_error_with_its_code(server: Server) -> None:
    email = unique_email()
    server.service().register(email, PASSWORD)
    with pytest.raises(ApiError) as raised:
        server.service().login(email, "not the password at all")
    assert raised.value.status_code == 401
    assert raised.value.code == ErrorCode.INVALID_CREDENTIALS


def test_tasks_are_created_listed_and_updated(server: Server) -> None:
    service, _ = server.signed_in()
    created = create_task.sync(
        client=service.client, body=TaskCreate(title="Write the release notes", priority=Priority.HIGH, labels=["docs"])
    )
    assert isinstance(created, Task)
    assert (created.title, created.priority, created.status) == ("Write the release notes", Priority.HIGH, TaskStatus.OPEN)

    page = list_tasks.sync(client=service.client)
    assert isinstance(page, TaskList)
    assert [task.id for task in page.items] == [created.id]

    updated = update_task.sync(task_id=created.id, client=service.client, body=TaskUpdate(status=TaskStatus.COMPLETED))
    assert isinstance(updated, Task)
    assert updated.status == TaskStatus.COMPLETED
    fetched = get_task.sync(task_id=created.id, client=service.client)
    assert isinstance(fetched, Task) and fetched.status == TaskStatus.COMPLETED and fetched.completed_at is not None


def test_a_validation_error_raises_what_is_wrong_and_where(server: Server) -> None:
    service, _ = server.signed_in()
    with pytest.raises(ApiError) as raised:
        create_task.sync(client=service.client, body=TaskCreate(title=""))
    assert (raised.value.status, raised.value.code) == (400, ErrorCode.VALIDATION_FAILED)
    assert raised.value.error is not None
    assert any(detail.path == "/body/title" and detail.message for detail in raised.value.error.details)


def test_every_generated_operation_raises_api_error_on_an_error_answer(server: Server) -> None:
    service, _ = server.signed_in()
    missing = "00000000-0000-4000-8000-000000000000"
    for call in (
        lambda: get_task.sync(task_id=missing, client=service.client),
        lambda: get_task.sync_detailed(task_id=missing, client=service.client),
        lambda: update_task.sync(task_id=missing, client=service.client, body=TaskUpdate(title="x")),
        lambda: asyncio.run(get_task.asyncio(task_id=missing, client=service.client)),
    ):
        with pytest.raises(ApiError) as raised:
            call()
        assert (raised.value.status, raised.value.code) == (404, "NOT_FOUND")
        assert raised.value.message == "Task not found."
        assert raised.value.retry_after is None


def test_iter_tasks_walks_every_page(server: Server) -> None:
    service, _ = server.signed_in()
    titles = {f"Task {n}" for n in range(7)}
    for title in sorted(titles):
        assert isinstance(create_task.sync(client=service.client, body=TaskCreate(title=title)), Task)
    seen = [task.title for task in service.iter_tasks(page_size=3)]
    assert sorted(seen) == sorted(titles)
    assert len(seen) == len(set(seen))


def test_the_async_calls_share_the_session(server: Server) -> None:
    service, _ = server.signed_in()

    async def run() -> list[str]:
        created = await asyncio.gather(
            *(create_task.asyncio(client=service.client, body=TaskCreate(title=f"Async {n}")) for n in range(3))
        )
        assert all(isinstance(task, Task) for task in created)
        return [task.title async for task in service.aiter_tasks(page_size=2)]

    assert sorted(asyncio.run(run())) == ["Async 0", "Async 1", "Async 2"]


def test_an_api_token_signs_a_script_in(server: Server) -> None:
    from task_service.generated.api.api_tokens import create_api_token
    from task_service.models import ApiTokenCreated, CreateApiTokenRequest

    service, email = server.signed_in()
    created = create_api_token.sync(client=service.client, body=CreateApiTokenRequest(name="script"))
    assert isinstance(created, ApiTokenCreated)
    script = TaskService(server.base_url, api_token=created.token)
    me = get_me.sync(client=script.client)
    assert me is not None and not isinstance(me, Error) and me.email == email
