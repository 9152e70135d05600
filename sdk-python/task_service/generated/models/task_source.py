from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.connector_type import ConnectorType

T = TypeVar("T", bound="TaskSource")


@_attrs_define
class TaskSource:
    """Where a synced task came from: the connected account, its type, the item's id there and its web page.

    Attributes:
        connector_account_id (UUID):
        connector_type (ConnectorType): A kind of external account: `github` (issues assigned to the user) or `ical`
            (VTODOs of a calendar feed). An open list (`x-open-enum`): a minor version may add a type; a client shows one it
            does not know by its name.
        external_id (str):
        url (None | str):
    """

    connector_account_id: UUID
    connector_type: ConnectorType
    external_id: str
    url: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        connector_account_id = str(self.connector_account_id)

        connector_type = self.connector_type.value

        external_id = self.external_id

        url: None | str
        url = self.url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "connectorAccountId": connector_account_id,
                "connectorType": connector_type,
                "externalId": external_id,
                "url": url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        connector_account_id = UUID(d.pop("connectorAccountId"))

        connector_type = ConnectorType(d.pop("connectorType"))

        external_id = d.pop("externalId")

        def _parse_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        url = _parse_url(d.pop("url"))

        task_source = cls(
            connector_account_id=connector_account_id,
            connector_type=connector_type,
            external_id=external_id,
            url=url,
        )

        task_source.additional_properties = d
        return task_source

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
