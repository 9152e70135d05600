from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.connector_type import ConnectorType

T = TypeVar("T", bound="ConnectorAccount")


@_attrs_define
class ConnectorAccount:
    """An external account connected to this account; its credentials never show.

    Attributes:
        id (UUID):
        type_ (ConnectorType): A kind of external account: `github` (issues assigned to the user) or `ical` (VTODOs of a
            calendar feed). An open list (`x-open-enum`): a minor version may add a type; a client shows one it does not
            know by its name.
        external_id (str): The identity at the provider; connecting the same identity again replaces the credentials.
            `github`: the user id (`583231`), or `<id>@<host>` for GitHub Enterprise, whose user ids are
            its own. `ical`: the normalised feed URL (scheme and host in lower case, default port and
            fragment dropped, `webcal` as `https`). User info and query often hold the feed's secret, so they
            never show: when the URL has either, a keyed digest of them is appended as `#access-<16 hex>`.
            Two feeds that differ only in their query stay two accounts; a feed whose secret changed is a new one.
        display_name (str):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        last_synced_at (datetime.datetime | None):
    """

    id: UUID
    type_: ConnectorType
    external_id: str
    display_name: str
    created_at: datetime.datetime
    updated_at: datetime.datetime
    last_synced_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        type_ = self.type_.value

        external_id = self.external_id

        display_name = self.display_name

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        last_synced_at: None | str
        if isinstance(self.last_synced_at, datetime.datetime):
            last_synced_at = self.last_synced_at.isoformat()
        else:
            last_synced_at = self.last_synced_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "type": type_,
                "externalId": external_id,
                "displayName": display_name,
                "createdAt": created_at,
                "updatedAt": updated_at,
                "lastSyncedAt": last_synced_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        type_ = ConnectorType(d.pop("type"))

        external_id = d.pop("externalId")

        display_name = d.pop("displayName")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        def _parse_last_synced_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_synced_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_synced_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_synced_at = _parse_last_synced_at(d.pop("lastSyncedAt"))

        connector_account = cls(
            id=id,
            type_=type_,
            external_id=external_id,
            display_name=display_name,
            created_at=created_at,
            updated_at=updated_at,
            last_synced_at=last_synced_at,
        )

        connector_account.additional_properties = d
        return connector_account

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
