from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.sync_job_finished_event_type import SyncJobFinishedEventType

if TYPE_CHECKING:
    from ..models.sync_job import SyncJob


T = TypeVar("T", bound="SyncJobFinishedEvent")


@_attrs_define
class SyncJobFinishedEvent:
    """The body of `sync_job.finished`: the job once it succeeded or failed.

    Attributes:
        type_ (SyncJobFinishedEventType):
        timestamp (datetime.datetime):
        data (SyncJob): One sync of a connected account: its state and what it did to the tasks.
    """

    type_: SyncJobFinishedEventType
    timestamp: datetime.datetime
    data: SyncJob
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
        from ..models.sync_job import SyncJob

        d = dict(src_dict)
        type_ = SyncJobFinishedEventType(d.pop("type"))

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))

        data = SyncJob.from_dict(d.pop("data"))

        sync_job_finished_event = cls(
            type_=type_,
            timestamp=timestamp,
            data=data,
        )

        sync_job_finished_event.additional_properties = d
        return sync_job_finished_event

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
