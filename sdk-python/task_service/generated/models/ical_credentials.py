from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="IcalCredentials")


@_attrs_define
class IcalCredentials:
    """What connecting an iCalendar feed takes: its address.

    Attributes:
        url (str): An http(s) or webcal feed address; it may carry a secret token.
    """

    url: str

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        url = d.pop("url")

        ical_credentials = cls(
            url=url,
        )

        return ical_credentials
