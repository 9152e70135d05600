"""Finding tasks from Python, against the real server: the filters and sorts of listTasks, and the labels."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from task_service import ApiError
from task_service.generated.api.tasks import create_task
from task_service.models import Priority, TaskCreate

from .conftest import Server


def test_iter_tasks_takes_the_filters_and_sorts_of_list_tasks(server: Server) -> None:
    service, _ = server.signed_in()
    for body in [
        TaskCreate(title="Pay rent", labels=["Home"], priority=Priority.URGENT, due_at=datetime(2031, 1, 3, 9, tzinfo=UTC)),
        TaskCreate(
            title="Renew the café lease",
            labels=["home", "work"],
            priority=Priority.HIGH,
            due_at=datetime(2031, 1, 1, 9, tzinfo=UTC),
        ),
        TaskCreate(title="Water plants", notes="Rainwater first", labels=["garden"], priority=Priority.LOW),
    ]:
        create_task.sync(client=service.client, body=body)

    def titles(**filters: object) -> list[str]:
        return [task.title for task in service.iter_tasks(page_size=1, **filters)]  # type: ignore[arg-type]

    assert titles(q="cafe") == ["Renew the café lease"]
    assert titles(q="rain") == ["Water plants"]
    assert titles(q="re", sort="due") == ["Renew the café lease", "Pay rent"]
    assert titles(label=["HOME"], sort="-created") == ["Renew the café lease", "Pay rent"]
    assert titles(label=["home", "work"]) == ["Renew the café lease"]
    assert titles(priority=[1, 4], sort="priority") == ["Pay rent", "Water plants"]
    assert titles(due_after=datetime(2031, 1, 2, tzinfo=UTC)) == ["Pay rent"]
    assert titles(has_due=False) == ["Water plants"]

    labels = service.list_labels()
    assert [(label.name, label.open_tasks) for label in labels] == [("Home", 2), ("garden", 1), ("work", 1)]


def test_a_bad_filter_raises_api_error_naming_the_parameter(server: Server) -> None:
    service, _ = server.signed_in()
    with pytest.raises(ValueError):
        list(service.iter_tasks(sort="title"))
    with pytest.raises(ApiError) as raised:
        list(service.iter_tasks(q="x" * 201))
    assert raised.value.status_code == 400
