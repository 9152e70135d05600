from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="OAuthClientRegistrationRequest")


@_attrs_define
class OAuthClientRegistrationRequest:
    """RFC 7591 client metadata; values are checked by the server (see the operation) so refusals are RFC 7591 errors.

    Attributes:
        client_name (str | Unset): At most 200 characters.
        redirect_uris (list[str] | Unset): 1 to 10 URIs of at most 2048 characters (required).
        token_endpoint_auth_method (str | Unset): `none` only.
        grant_types (list[str] | Unset): `authorization_code` and `refresh_token` only (the default).
        response_types (list[str] | Unset): `code` only (the default).
        scope (str | Unset): Space-separated subset of the four scopes.
        application_type (str | Unset): `native` (redirect URIs on loopback http or a private-use scheme) or `web`
            (https redirect URIs). When absent, what the redirect URIs say.
    """

    client_name: str | Unset = UNSET
    redirect_uris: list[str] | Unset = UNSET
    token_endpoint_auth_method: str | Unset = UNSET
    grant_types: list[str] | Unset = UNSET
    response_types: list[str] | Unset = UNSET
    scope: str | Unset = UNSET
    application_type: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        client_name = self.client_name

        redirect_uris: list[str] | Unset = UNSET
        if not isinstance(self.redirect_uris, Unset):
            redirect_uris = self.redirect_uris

        token_endpoint_auth_method = self.token_endpoint_auth_method

        grant_types: list[str] | Unset = UNSET
        if not isinstance(self.grant_types, Unset):
            grant_types = self.grant_types

        response_types: list[str] | Unset = UNSET
        if not isinstance(self.response_types, Unset):
            response_types = self.response_types

        scope = self.scope

        application_type = self.application_type

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if client_name is not UNSET:
            field_dict["client_name"] = client_name
        if redirect_uris is not UNSET:
            field_dict["redirect_uris"] = redirect_uris
        if token_endpoint_auth_method is not UNSET:
            field_dict["token_endpoint_auth_method"] = token_endpoint_auth_method
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
        client_name = d.pop("client_name", UNSET)

        redirect_uris = cast(list[str], d.pop("redirect_uris", UNSET))

        token_endpoint_auth_method = d.pop("token_endpoint_auth_method", UNSET)

        grant_types = cast(list[str], d.pop("grant_types", UNSET))

        response_types = cast(list[str], d.pop("response_types", UNSET))

        scope = d.pop("scope", UNSET)

        application_type = d.pop("application_type", UNSET)

        o_auth_client_registration_request = cls(
            client_name=client_name,
            redirect_uris=redirect_uris,
            token_endpoint_auth_method=token_endpoint_auth_method,
            grant_types=grant_types,
            response_types=response_types,
            scope=scope,
            application_type=application_type,
        )

        o_auth_client_registration_request.additional_properties = d
        return o_auth_client_registration_request

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
