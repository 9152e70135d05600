from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.task_deleted import TaskDeleted
    from ..models.task_upserted import TaskUpserted


T = TypeVar("T", bound="TaskChangeList")


@_attrs_define
class TaskChangeList:
    """One page of the change feed, in commit order, with the cursor to continue from.

    Attributes:
        changes (list[TaskDeleted | TaskUpserted]):
        next_cursor (str): Always present: pass it as `cursor` for the next page, or keep it and ask again later when
            `hasMore` is false.
        has_more (bool): True when more changes are waiting: ask again at once with `nextCursor`.
    """

    changes: list[TaskDeleted | TaskUpserted]
    next_cursor: str
    has_more: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.task_upserted import TaskUpserted

        changes = []
        for changes_item_data in self.changes:
            changes_item: dict[str, Any]
            if isinstance(changes_item_data, TaskUpserted):
                changes_item = changes_item_data.to_dict()
            else:
                changes_item = changes_item_data.to_dict()

            changes.append(changes_item)

        next_cursor = self.next_cursor

        has_more = self.has_more

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "changes": changes,
                "nextCursor": next_cursor,
                "hasMore": has_more,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.task_deleted import TaskDeleted
        from ..models.task_upserted import TaskUpserted

        d = dict(src_dict)
        changes = []
        _changes = d.pop("changes")
        for changes_item_data in _changes:

            def _parse_changes_item(data: object) -> TaskDeleted | TaskUpserted:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_task_change_type_0 = TaskUpserted.from_dict(data)

                    return componentsschemas_task_change_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_task_change_type_1 = TaskDeleted.from_dict(data)

                return componentsschemas_task_change_type_1

            changes_item = _parse_changes_item(changes_item_data)

            changes.append(changes_item)

        next_cursor = d.pop("nextCursor")

        has_more = d.pop("hasMore")

        task_change_list = cls(
            changes=changes,
            next_cursor=next_cursor,
            has_more=has_more,
        )

        task_change_list.additional_properties = d
        return task_change_list

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
