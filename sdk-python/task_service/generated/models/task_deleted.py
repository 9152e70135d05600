from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="TaskDeleted")


@_attrs_define
class TaskDeleted:
    """A change of the feed: the task was deleted.

    Attributes:
        kind (Literal['deleted']):
        task_id (UUID):
        deleted_at (datetime.datetime):
    """

    kind: Literal["deleted"]
    task_id: UUID
    deleted_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind

        task_id = str(self.task_id)

        deleted_at = self.deleted_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "kind": kind,
                "taskId": task_id,
                "deletedAt": deleted_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        kind = cast(Literal["deleted"], d.pop("kind"))
        if kind != "deleted":
            raise ValueError(f"kind must match const 'deleted', got '{kind}'")

        task_id = UUID(d.pop("taskId"))

        deleted_at = datetime.datetime.fromisoformat(d.pop("deletedAt"))

        task_deleted = cls(
            kind=kind,
            task_id=task_id,
            deleted_at=deleted_at,
        )

        task_deleted.additional_properties = d
        return task_deleted

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
