from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.readiness_checks_database import ReadinessChecksDatabase
from ..models.readiness_checks_redis import ReadinessChecksRedis

T = TypeVar("T", bound="ReadinessChecks")


@_attrs_define
class ReadinessChecks:
    """
    Attributes:
        database (ReadinessChecksDatabase):
        redis (ReadinessChecksRedis):
    """

    database: ReadinessChecksDatabase
    redis: ReadinessChecksRedis
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        database = self.database.value

        redis = self.redis.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "database": database,
                "redis": redis,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        database = ReadinessChecksDatabase(d.pop("database"))

        redis = ReadinessChecksRedis(d.pop("redis"))

        readiness_checks = cls(
            database=database,
            redis=redis,
        )

        readiness_checks.additional_properties = d
        return readiness_checks

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
