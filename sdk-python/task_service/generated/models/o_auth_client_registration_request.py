from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.o_auth_client_registration_request_application_type import (
    OAuthClientRegistrationRequestApplicationType,
)
from ..models.o_auth_client_registration_request_grant_types_item import (
    OAuthClientRegistrationRequestGrantTypesItem,
)
from ..models.o_auth_client_registration_request_response_types_item import (
    OAuthClientRegistrationRequestResponseTypesItem,
)
from ..models.o_auth_client_registration_request_token_endpoint_auth_method import (
    OAuthClientRegistrationRequestTokenEndpointAuthMethod,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="OAuthClientRegistrationRequest")


@_attrs_define
class OAuthClientRegistrationRequest:
    """RFC 7591 client metadata. What the schema states is refused with `invalid_client_metadata`, as the
    server's own checks are; `redirect_uris` are checked by the server only (see the operation), so
    their refusals keep RFC 7591's `invalid_redirect_uri`.

        Attributes:
            client_name (str | Unset):
            redirect_uris (list[str] | Unset): 1 to 10 URIs of at most 2048 characters (required).
            token_endpoint_auth_method (OAuthClientRegistrationRequestTokenEndpointAuthMethod | Unset):
            grant_types (list[OAuthClientRegistrationRequestGrantTypesItem] | Unset): `authorization_code`, and
                `refresh_token` (both, the default).
            response_types (list[OAuthClientRegistrationRequestResponseTypesItem] | Unset): `code` only (the default).
            scope (str | Unset): Space-separated (RFC 6749 section 3.3) names of the scopes, at least one.
            application_type (OAuthClientRegistrationRequestApplicationType | Unset): `native` (redirect URIs on loopback
                http or a private-use scheme) or `web` (https redirect URIs). When absent, what the redirect URIs say.
    """

    client_name: str | Unset = UNSET
    redirect_uris: list[str] | Unset = UNSET
    token_endpoint_auth_method: (
        OAuthClientRegistrationRequestTokenEndpointAuthMethod | Unset
    ) = UNSET
    grant_types: list[OAuthClientRegistrationRequestGrantTypesItem] | Unset = UNSET
    response_types: list[OAuthClientRegistrationRequestResponseTypesItem] | Unset = (
        UNSET
    )
    scope: str | Unset = UNSET
    application_type: OAuthClientRegistrationRequestApplicationType | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        client_name = self.client_name

        redirect_uris: list[str] | Unset = UNSET
        if not isinstance(self.redirect_uris, Unset):
            redirect_uris = self.redirect_uris

        token_endpoint_auth_method: str | Unset = UNSET
        if not isinstance(self.token_endpoint_auth_method, Unset):
            token_endpoint_auth_method = self.token_endpoint_auth_method.value

        grant_types: list[str] | Unset = UNSET
        if not isinstance(self.grant_types, Unset):
            grant_types = []
            for grant_types_item_data in self.grant_types:
                grant_types_item = grant_types_item_data.value
                grant_types.append(grant_types_item)

        response_types: list[str] | Unset = UNSET
        if not isinstance(self.response_types, Unset):
            response_types = []
            for response_types_item_data in self.response_types:
                response_types_item = response_types_item_data.value
                response_types.append(response_types_item)

        scope = self.scope

        application_type: str | Unset = UNSET
        if not isinstance(self.application_type, Unset):
            application_type = self.application_type.value

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

        _token_endpoint_auth_method = d.pop("token_endpoint_auth_method", UNSET)
        token_endpoint_auth_method: (
            OAuthClientRegistrationRequestTokenEndpointAuthMethod | Unset
        )
        if isinstance(_token_endpoint_auth_method, Unset):
            token_endpoint_auth_method = UNSET
        else:
            token_endpoint_auth_method = (
                OAuthClientRegistrationRequestTokenEndpointAuthMethod(
                    _token_endpoint_auth_method
                )
            )

        _grant_types = d.pop("grant_types", UNSET)
        grant_types: list[OAuthClientRegistrationRequestGrantTypesItem] | Unset = UNSET
        if _grant_types is not UNSET:
            grant_types = []
            for grant_types_item_data in _grant_types:
                grant_types_item = OAuthClientRegistrationRequestGrantTypesItem(
                    grant_types_item_data
                )

                grant_types.append(grant_types_item)

        _response_types = d.pop("response_types", UNSET)
        response_types: (
            list[OAuthClientRegistrationRequestResponseTypesItem] | Unset
        ) = UNSET
        if _response_types is not UNSET:
            response_types = []
            for response_types_item_data in _response_types:
                response_types_item = OAuthClientRegistrationRequestResponseTypesItem(
                    response_types_item_data
                )

                response_types.append(response_types_item)

        scope = d.pop("scope", UNSET)

        _application_type = d.pop("application_type", UNSET)
        application_type: OAuthClientRegistrationRequestApplicationType | Unset
        if isinstance(_application_type, Unset):
            application_type = UNSET
        else:
            application_type = OAuthClientRegistrationRequestApplicationType(
                _application_type
            )

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
