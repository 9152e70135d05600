from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.priority import Priority
from ..models.task_status import TaskStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="TaskCreate")


@_attrs_define
class TaskCreate:
    """A new task: a title, and optionally notes, status, priority, due time and labels.

    Attributes:
        title (str):
        notes (None | str | Unset):
        status (TaskStatus | Unset): `open` until done; `completed` sets `completedAt`.
        priority (Priority | Unset): 1 is the most urgent; 3 when left out.
        due_at (datetime.datetime | None | Unset):
        labels (list[str] | Unset):
    """

    title: str
    notes: None | str | Unset = UNSET
    status: TaskStatus | Unset = UNSET
    priority: Priority | Unset = UNSET
    due_at: datetime.datetime | None | Unset = UNSET
    labels: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        title = self.title

        notes: None | str | Unset
        if isinstance(self.notes, Unset):
            notes = UNSET
        else:
            notes = self.notes

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        priority: int | Unset = UNSET
        if not isinstance(self.priority, Unset):
            priority = self.priority.value

        due_at: None | str | Unset
        if isinstance(self.due_at, Unset):
            due_at = UNSET
        elif isinstance(self.due_at, datetime.datetime):
            due_at = self.due_at.isoformat()
        else:
            due_at = self.due_at

        labels: list[str] | Unset = UNSET
        if not isinstance(self.labels, Unset):
            labels = self.labels

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "title": title,
            }
        )
        if notes is not UNSET:
            field_dict["notes"] = notes
        if status is not UNSET:
            field_dict["status"] = status
        if priority is not UNSET:
            field_dict["priority"] = priority
        if due_at is not UNSET:
            field_dict["dueAt"] = due_at
        if labels is not UNSET:
            field_dict["labels"] = labels

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        title = d.pop("title")

        def _parse_notes(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        notes = _parse_notes(d.pop("notes", UNSET))

        _status = d.pop("status", UNSET)
        status: TaskStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = TaskStatus(_status)

        _priority = d.pop("priority", UNSET)
        priority: Priority | Unset
        if isinstance(_priority, Unset):
            priority = UNSET
        else:
            priority = Priority(_priority)

        def _parse_due_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                due_at_type_0 = datetime.datetime.fromisoformat(data)

                return due_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        due_at = _parse_due_at(d.pop("dueAt", UNSET))

        labels = cast(list[str], d.pop("labels", UNSET))

        task_create = cls(
            title=title,
            notes=notes,
            status=status,
            priority=priority,
            due_at=due_at,
            labels=labels,
        )

        return task_create
