from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.connector_type import ConnectorType

T = TypeVar("T", bound="Connector")


@_attrs_define
class Connector:
    """A connector type this server offers and how many accounts of it an account may connect.

    Attributes:
        type_ (ConnectorType): A kind of external account: `github` (issues assigned to the user) or `ical` (VTODOs of a
            calendar feed). An open list (`x-open-enum`): a minor version may add a type; a client shows one it does not
            know by its name.
        name (str):
        max_accounts (int): Connected accounts of this type allowed per account.
    """

    type_: ConnectorType
    name: str
    max_accounts: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        name = self.name

        max_accounts = self.max_accounts

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "name": name,
                "maxAccounts": max_accounts,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = ConnectorType(d.pop("type"))

        name = d.pop("name")

        max_accounts = d.pop("maxAccounts")

        connector = cls(
            type_=type_,
            name=name,
            max_accounts=max_accounts,
        )

        connector.additional_properties = d
        return connector

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
