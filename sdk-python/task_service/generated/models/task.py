from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.priority import Priority
from ..models.task_status import TaskStatus

if TYPE_CHECKING:
    from ..models.task_source import TaskSource


T = TypeVar("T", bound="Task")


@_attrs_define
class Task:
    """A task of the account, made here or brought by a sync.

    Attributes:
        id (UUID):
        title (str):
        notes (None | str):
        status (TaskStatus): `open` until done; `completed` sets `completedAt`.
        priority (Priority): 1 is the most urgent.
        due_at (datetime.datetime | None):
        labels (list[str]):
        completed_at (datetime.datetime | None): Set when and only when `status` is completed.
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        source (None | TaskSource): Null for tasks made here; else where a sync brought the task from.
        version (int): 1 on create, one more on every change (a sync's and a disconnect's included); the `ETag` of one
            task's responses.
    """

    id: UUID
    title: str
    notes: None | str
    status: TaskStatus
    priority: Priority
    due_at: datetime.datetime | None
    labels: list[str]
    completed_at: datetime.datetime | None
    created_at: datetime.datetime
    updated_at: datetime.datetime
    source: None | TaskSource
    version: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.task_source import TaskSource

        id = str(self.id)

        title = self.title

        notes: None | str
        notes = self.notes

        status = self.status.value

        priority = self.priority.value

        due_at: None | str
        if isinstance(self.due_at, datetime.datetime):
            due_at = self.due_at.isoformat()
        else:
            due_at = self.due_at

        labels = self.labels

        completed_at: None | str
        if isinstance(self.completed_at, datetime.datetime):
            completed_at = self.completed_at.isoformat()
        else:
            completed_at = self.completed_at

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        source: dict[str, Any] | None
        if isinstance(self.source, TaskSource):
            source = self.source.to_dict()
        else:
            source = self.source

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "title": title,
                "notes": notes,
                "status": status,
                "priority": priority,
                "dueAt": due_at,
                "labels": labels,
                "completedAt": completed_at,
                "createdAt": created_at,
                "updatedAt": updated_at,
                "source": source,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.task_source import TaskSource

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        title = d.pop("title")

        def _parse_notes(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        notes = _parse_notes(d.pop("notes"))

        status = TaskStatus(d.pop("status"))

        priority = Priority(d.pop("priority"))

        def _parse_due_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                due_at_type_0 = datetime.datetime.fromisoformat(data)

                return due_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        due_at = _parse_due_at(d.pop("dueAt"))

        labels = cast(list[str], d.pop("labels"))

        def _parse_completed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                completed_at_type_0 = datetime.datetime.fromisoformat(data)

                return completed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        completed_at = _parse_completed_at(d.pop("completedAt"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        def _parse_source(data: object) -> None | TaskSource:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                source_type_1 = TaskSource.from_dict(data)

                return source_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TaskSource, data)

        source = _parse_source(d.pop("source"))

        version = d.pop("version")

        task = cls(
            id=id,
            title=title,
            notes=notes,
            status=status,
            priority=priority,
            due_at=due_at,
            labels=labels,
            completed_at=completed_at,
            created_at=created_at,
            updated_at=updated_at,
            source=source,
            version=version,
        )

        task.additional_properties = d
        return task

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
