from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.sync_job_status import SyncJobStatus

T = TypeVar("T", bound="SyncJob")


@_attrs_define
class SyncJob:
    """One sync of a connected account: its state and what it did to the tasks.

    Attributes:
        id (UUID):
        connector_account_id (UUID):
        status (SyncJobStatus): `queued`, then `running`, then `succeeded` or `failed`.
        created_at (datetime.datetime):
        started_at (datetime.datetime | None):
        finished_at (datetime.datetime | None):
        fetched (int): Distinct items read from the provider so far (GitHub issues without pull requests; VTODOs with a
            UID); once the job is done, created + updated + unchanged + droppedOverQuota.
        created (int): New tasks inserted.
        updated (int): Known tasks changed.
        unchanged (int): Known tasks already up to date.
        dropped_over_quota (int): New items left out because the account is at its task cap.
        error (None | str): Why the job failed, e.g. the provider refused the credentials, timed out after 10 s, or its
            rate limit is used up (with the time to retry after).
    """

    id: UUID
    connector_account_id: UUID
    status: SyncJobStatus
    created_at: datetime.datetime
    started_at: datetime.datetime | None
    finished_at: datetime.datetime | None
    fetched: int
    created: int
    updated: int
    unchanged: int
    dropped_over_quota: int
    error: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        connector_account_id = str(self.connector_account_id)

        status = self.status.value

        created_at = self.created_at.isoformat()

        started_at: None | str
        if isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        fetched = self.fetched

        created = self.created

        updated = self.updated

        unchanged = self.unchanged

        dropped_over_quota = self.dropped_over_quota

        error: None | str
        error = self.error

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "connectorAccountId": connector_account_id,
                "status": status,
                "createdAt": created_at,
                "startedAt": started_at,
                "finishedAt": finished_at,
                "fetched": fetched,
                "created": created,
                "updated": updated,
                "unchanged": unchanged,
                "droppedOverQuota": dropped_over_quota,
                "error": error,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        connector_account_id = UUID(d.pop("connectorAccountId"))

        status = SyncJobStatus(d.pop("status"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_started_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                started_at_type_0 = datetime.datetime.fromisoformat(data)

                return started_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        started_at = _parse_started_at(d.pop("startedAt"))

        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finishedAt"))

        fetched = d.pop("fetched")

        created = d.pop("created")

        updated = d.pop("updated")

        unchanged = d.pop("unchanged")

        dropped_over_quota = d.pop("droppedOverQuota")

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        sync_job = cls(
            id=id,
            connector_account_id=connector_account_id,
            status=status,
            created_at=created_at,
            started_at=started_at,
            finished_at=finished_at,
            fetched=fetched,
            created=created,
            updated=updated,
            unchanged=unchanged,
            dropped_over_quota=dropped_over_quota,
            error=error,
        )

        sync_job.additional_properties = d
        return sync_job

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
