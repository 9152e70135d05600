from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.connector_account_event_type import ConnectorAccountEventType

if TYPE_CHECKING:
    from ..models.connector_account import ConnectorAccount


T = TypeVar("T", bound="ConnectorAccountEvent")


@_attrs_define
class ConnectorAccountEvent:
    """The body of `connector_account.connected` and `connector_account.disconnected`: the connected account.

    Attributes:
        type_ (ConnectorAccountEventType):
        timestamp (datetime.datetime):
        data (ConnectorAccount): An external account connected to this account; its credentials never show.
    """

    type_: ConnectorAccountEventType
    timestamp: datetime.datetime
    data: ConnectorAccount
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        timestamp = self.timestamp.isoformat()

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "timestamp": timestamp,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.connector_account import ConnectorAccount

        d = dict(src_dict)
        type_ = ConnectorAccountEventType(d.pop("type"))

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        data = ConnectorAccount.from_dict(d.pop("data"))

        connector_account_event = cls(
            type_=type_,
            timestamp=timestamp,
            data=data,
        )

        connector_account_event.additional_properties = d
        return connector_account_event

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
