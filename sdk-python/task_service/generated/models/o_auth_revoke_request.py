from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="OAuthRevokeRequest")


@_attrs_define
class OAuthRevokeRequest:
    """RFC 7009 revocation: the token to revoke and, optionally, a hint of its type and the client.

    Attributes:
        token (str): A refresh or access token.
        token_type_hint (str | Unset): `access_token` or `refresh_token`; optional, and any value is only a hint (RFC
            7009 section 2.1): the token is looked up either way.
        client_id (str | Unset):
    """

    token: str
    token_type_hint: str | Unset = UNSET
    client_id: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        token = self.token

        token_type_hint = self.token_type_hint

        client_id = self.client_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "token": token,
            }
        )
        if token_type_hint is not UNSET:
            field_dict["token_type_hint"] = token_type_hint
        if client_id is not UNSET:
            field_dict["client_id"] = client_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        token = d.pop("token")

        token_type_hint = d.pop("token_type_hint", UNSET)

        client_id = d.pop("client_id", UNSET)

        o_auth_revoke_request = cls(
            token=token,
            token_type_hint=token_type_hint,
            client_id=client_id,
        )

        o_auth_revoke_request.additional_properties = d
        return o_auth_revoke_request

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
