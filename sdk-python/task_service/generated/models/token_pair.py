from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.token_pair_token_type import TokenPairTokenType
from ..types import UNSET, Unset

T = TypeVar("T", bound="TokenPair")


@_attrs_define
class TokenPair:
    """
    Attributes:
        access_token (str): A JWT; send it as `Authorization: Bearer <accessToken>`.
        token_type (TokenPairTokenType):
        expires_in (int): Seconds the access token lives.
        refresh_expires_in (int): Seconds the refresh token lives.
        refresh_token (str | Unset): Opaque; exchange it at `/auth/refresh`. It works once. Always present, except in a
            cookie session, where it travels only as the refresh cookie.
    """

    access_token: str
    token_type: TokenPairTokenType
    expires_in: int
    refresh_expires_in: int
    refresh_token: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        access_token = self.access_token

        token_type = self.token_type.value

        expires_in = self.expires_in

        refresh_expires_in = self.refresh_expires_in

        refresh_token = self.refresh_token

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "accessToken": access_token,
                "tokenType": token_type,
                "expiresIn": expires_in,
                "refreshExpiresIn": refresh_expires_in,
            }
        )
        if refresh_token is not UNSET:
            field_dict["refreshToken"] = refresh_token

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        access_token = d.pop("accessToken")

        token_type = TokenPairTokenType(d.pop("tokenType"))

        expires_in = d.pop("expiresIn")

        refresh_expires_in = d.pop("refreshExpiresIn")

        refresh_token = d.pop("refreshToken", UNSET)

        token_pair = cls(
            access_token=access_token,
            token_type=token_type,
            expires_in=expires_in,
            refresh_expires_in=refresh_expires_in,
            refresh_token=refresh_token,
        )

        token_pair.additional_properties = d
        return token_pair

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
