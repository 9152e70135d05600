from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.connector_type import ConnectorType

T = TypeVar("T", bound="UsageConnectorAccountsItem")


@_attrs_define
class UsageConnectorAccountsItem:
    """
    Attributes:
        type_ (ConnectorType): A kind of external account: `github` (issues assigned to the user) or `ical` (VTODOs of a
            calendar feed). An open list (`x-open-enum`): a minor version may add a type; a client shows one it does not
            know by its name.
        limit (int):
        used (int):
    """

    type_: ConnectorType
    limit: int
    used: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        limit = self.limit

        used = self.used

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "limit": limit,
                "used": used,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = ConnectorType(d.pop("type"))

        limit = d.pop("limit")

        used = d.pop("used")

        usage_connector_accounts_item = cls(
            type_=type_,
            limit=limit,
            used=used,
        )

        usage_connector_accounts_item.additional_properties = d
        return usage_connector_accounts_item

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
