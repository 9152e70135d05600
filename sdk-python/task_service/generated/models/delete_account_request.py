from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="DeleteAccountRequest")


@_attrs_define
class DeleteAccountRequest:
    """The account password again, so a stolen access token alone cannot delete the account.

    Attributes:
        password (str): The account's password.
    """

    password: str

    def to_dict(self) -> dict[str, Any]:
        password = self.password

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "password": password,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        password = d.pop("password")

        delete_account_request = cls(
            password=password,
        )

        return delete_account_request
