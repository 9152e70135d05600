from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.o_auth_client_registration_application_type import (
    OAuthClientRegistrationApplicationType,
)
from ..models.o_auth_client_registration_token_endpoint_auth_method import (
    OAuthClientRegistrationTokenEndpointAuthMethod,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="OAuthClientRegistration")


@_attrs_define
class OAuthClientRegistration:
    """The registered client (RFC 7591 section 3.2.1): its new `client_id` and the metadata as stored.

    Attributes:
        client_id (str):
        redirect_uris (list[str]):
        token_endpoint_auth_method (OAuthClientRegistrationTokenEndpointAuthMethod):
        client_id_issued_at (int | Unset):
        client_name (str | Unset):
        grant_types (list[str] | Unset):
        response_types (list[str] | Unset):
        scope (str | Unset):
        application_type (OAuthClientRegistrationApplicationType | Unset):
    """

    client_id: str
    redirect_uris: list[str]
    token_endpoint_auth_method: OAuthClientRegistrationTokenEndpointAuthMethod
    client_id_issued_at: int | Unset = UNSET
    client_name: str | Unset = UNSET
    grant_types: list[str] | Unset = UNSET
    response_types: list[str] | Unset = UNSET
    scope: str | Unset = UNSET
    application_type: OAuthClientRegistrationApplicationType | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        client_id = self.client_id

        redirect_uris = self.redirect_uris

        token_endpoint_auth_method = self.token_endpoint_auth_method.value

        client_id_issued_at = self.client_id_issued_at

        client_name = self.client_name

        grant_types: list[str] | Unset = UNSET
        if not isinstance(self.grant_types, Unset):
            grant_types = self.grant_types

        response_types: list[str] | Unset = UNSET
        if not isinstance(self.response_types, Unset):
            response_types = self.response_types

        scope = self.scope

        application_type: str | Unset = UNSET
        if not isinstance(self.application_type, Unset):
            application_type = self.application_type.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "client_id": client_id,
                "redirect_uris": redirect_uris,
                "token_endpoint_auth_method": token_endpoint_auth_method,
            }
        )
        if client_id_issued_at is not UNSET:
            field_dict["client_id_issued_at"] = client_id_issued_at
        if client_name is not UNSET:
            field_dict["client_name"] = client_name
        if grant_types is not UNSET:
            field_dict["grant_types"] = grant_types
        if response_types is not UNSET:
            field_dict["response_types"] = response_types
        if scope is not UNSET:
            field_dict["scope"] = scope
        if application_type is not UNSET:
            field_dict["application_type"] = application_type

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        client_id = d.pop("client_id")

        redirect_uris = cast(list[str], d.pop("redirect_uris"))

        token_endpoint_auth_method = OAuthClientRegistrationTokenEndpointAuthMethod(
            d.pop("token_endpoint_auth_method")
        )

        client_id_issued_at = d.pop("client_id_issued_at", UNSET)

        client_name = d.pop("client_name", UNSET)

        grant_types = cast(list[str], d.pop("grant_types", UNSET))

        response_types = cast(list[str], d.pop("response_types", UNSET))

        scope = d.pop("scope", UNSET)

        _application_type = d.pop("application_type", UNSET)
        application_type: OAuthClientRegistrationApplicationType | Unset
        if isinstance(_application_type, Unset):
            application_type = UNSET
        else:
            application_type = OAuthClientRegistrationApplicationType(_application_type)

        o_auth_client_registration = cls(
            client_id=client_id,
            redirect_uris=redirect_uris,
            token_endpoint_auth_method=token_endpoint_auth_method,
            client_id_issued_at=client_id_issued_at,
            client_name=client_name,
            grant_types=grant_types,
            response_types=response_types,
            scope=scope,
            application_type=application_type,
        )

        o_auth_client_registration.additional_properties = d
        return o_auth_client_registration

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
