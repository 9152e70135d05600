from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.scope import Scope

T = TypeVar("T", bound="AuthorizationListItemsItem")


@_attrs_define
class AuthorizationListItemsItem:
    """
    Attributes:
        client_id (str):
        client_name (None | str):
        scopes (list[Scope]):
        authorized_at (datetime.datetime):
    """

    client_id: str
    client_name: None | str
    scopes: list[Scope]
    authorized_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        client_id = self.client_id

        client_name: None | str
        client_name = self.client_name

        scopes = []
        for scopes_item_data in self.scopes:
            scopes_item = scopes_item_data.value
            scopes.append(scopes_item)

        authorized_at = self.authorized_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "clientId": client_id,
                "clientName": client_name,
                "scopes": scopes,
                "authorizedAt": authorized_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        client_id = d.pop("clientId")

        def _parse_client_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        client_name = _parse_client_name(d.pop("clientName"))

        scopes = []
        _scopes = d.pop("scopes")
        for scopes_item_data in _scopes:
            scopes_item = Scope(scopes_item_data)

            scopes.append(scopes_item)

        authorized_at = datetime.datetime.fromisoformat(d.pop("authorizedAt"))

        authorization_list_items_item = cls(
            client_id=client_id,
            client_name=client_name,
            scopes=scopes,
            authorized_at=authorized_at,
        )

        authorization_list_items_item.additional_properties = d
        return authorization_list_items_item

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
