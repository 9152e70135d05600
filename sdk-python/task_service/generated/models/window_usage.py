from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WindowUsage")


@_attrs_define
class WindowUsage:
    """One rate-limit window: its size, what is left, and the seconds until it starts afresh.

    Attributes:
        limit (int):
        remaining (int):
        reset_seconds (int):
    """

    limit: int
    remaining: int
    reset_seconds: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        limit = self.limit

        remaining = self.remaining

        reset_seconds = self.reset_seconds

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "limit": limit,
                "remaining": remaining,
                "resetSeconds": reset_seconds,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        limit = d.pop("limit")

        remaining = d.pop("remaining")

        reset_seconds = d.pop("resetSeconds")

        window_usage = cls(
            limit=limit,
            remaining=remaining,
            reset_seconds=reset_seconds,
        )

        window_usage.additional_properties = d
        return window_usage

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
