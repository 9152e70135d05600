from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.window_usage import WindowUsage


T = TypeVar("T", bound="BudgetUsage")


@_attrs_define
class BudgetUsage:
    """One rate-limit budget: its burst (per minute) and sustained (per hour) windows.

    Attributes:
        burst (WindowUsage): One rate-limit window: its size, what is left, and the seconds until it starts afresh.
        sustained (WindowUsage): One rate-limit window: its size, what is left, and the seconds until it starts afresh.
    """

    burst: WindowUsage
    sustained: WindowUsage
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        burst = self.burst.to_dict()

        sustained = self.sustained.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "burst": burst,
                "sustained": sustained,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.window_usage import WindowUsage

        d = dict(src_dict)
        burst = WindowUsage.from_dict(d.pop("burst"))

        sustained = WindowUsage.from_dict(d.pop("sustained"))

        budget_usage = cls(
            burst=burst,
            sustained=sustained,
        )

        budget_usage.additional_properties = d
        return budget_usage

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
