from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.task import Task


T = TypeVar("T", bound="TaskUpserted")


@_attrs_define
class TaskUpserted:
    """A change of the feed: the task was created or changed; `task` is its latest state.

    Attributes:
        kind (Literal['upserted']):
        task (Task): A task of the account, made here or brought by a sync.
    """

    kind: Literal["upserted"]
    task: Task
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind

        task = self.task.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "kind": kind,
                "task": task,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.task import Task

        d = dict(src_dict)
        kind = cast(Literal["upserted"], d.pop("kind"))
        if kind != "upserted":
            raise ValueError(f"kind must match const 'upserted', got '{kind}'")

        task = Task.from_dict(d.pop("task"))

        task_upserted = cls(
            kind=kind,
            task=task,
        )

        task_upserted.additional_properties = d
        return task_upserted

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
