from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.scope import Scope
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateApiTokenRequest")


@_attrs_define
class CreateApiTokenRequest:
    """A new API token: a name to recognise it, its scopes (the four besides `tokens:manage` and `webhooks:manage` when
    left out) and its lifetime in days (none when left out).

        Attributes:
            name (str):
            scopes (list[Scope] | Unset):
            expires_in_days (int | Unset):
    """

    name: str
    scopes: list[Scope] | Unset = UNSET
    expires_in_days: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        scopes: list[str] | Unset = UNSET
        if not isinstance(self.scopes, Unset):
            scopes = []
            for scopes_item_data in self.scopes:
                scopes_item = scopes_item_data.value
                scopes.append(scopes_item)

        expires_in_days = self.expires_in_days

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
            }
        )
        if scopes is not UNSET:
            field_dict["scopes"] = scopes
        if expires_in_days is not UNSET:
            field_dict["expiresInDays"] = expires_in_days

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        _scopes = d.pop("scopes", UNSET)
        scopes: list[Scope] | Unset = UNSET
        if _scopes is not UNSET:
            scopes = []
            for scopes_item_data in _scopes:
                scopes_item = Scope(scopes_item_data)

                scopes.append(scopes_item)

        expires_in_days = d.pop("expiresInDays", UNSET)

        create_api_token_request = cls(
            name=name,
            scopes=scopes,
            expires_in_days=expires_in_days,
        )

        return create_api_token_request
