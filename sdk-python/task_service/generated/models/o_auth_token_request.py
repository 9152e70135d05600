from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="OAuthTokenRequest")


@_attrs_define
class OAuthTokenRequest:
    """RFC 6749 section 4.1.3 and section 6. The schema states what every refusal of it shares (`invalid_request`); the
    values with an error code of their own (`unsupported_grant_type`, `invalid_scope`, `invalid_target`,
    `invalid_grant`, `invalid_client`) are checked by the server.

        Attributes:
            grant_type (str): `authorization_code`, `refresh_token` or `urn:ietf:params:oauth:grant-type:device_code`;
                another value is `unsupported_grant_type`.
            code (str | Unset):
            redirect_uri (str | Unset):
            client_id (str | Unset): Required.
            code_verifier (str | Unset): PKCE verifier, 43 to 128 characters of `[A-Za-z0-9-._~]`; required with
                `authorization_code`.
            refresh_token (str | Unset):
            device_code (str | Unset): The `device_code` of `POST /oauth/device_authorization`; required with the
                device_code grant.
            scope (str | Unset):
            resource (str | Unset): RFC 8707 resource indicator: `{PUBLIC_URL}` (this API) or `{PUBLIC_URL}/mcp` (the MCP
                server). With
                `authorization_code` it must name the resource the authorisation was for; with `refresh_token`,
                the resource of the grant (a grant is bound to one resource; absent means that one). Anything else
                is `invalid_target`.
    """

    grant_type: str
    code: str | Unset = UNSET
    redirect_uri: str | Unset = UNSET
    client_id: str | Unset = UNSET
    code_verifier: str | Unset = UNSET
    refresh_token: str | Unset = UNSET
    device_code: str | Unset = UNSET
    scope: str | Unset = UNSET
    resource: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        grant_type = self.grant_type

        code = self.code

        redirect_uri = self.redirect_uri

        client_id = self.client_id

        code_verifier = self.code_verifier

        refresh_token = self.refresh_token

        device_code = self.device_code

        scope = self.scope

        resource = self.resource

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "grant_type": grant_type,
            }
        )
        if code is not UNSET:
            field_dict["code"] = code
        if redirect_uri is not UNSET:
            field_dict["redirect_uri"] = redirect_uri
        if client_id is not UNSET:
            field_dict["client_id"] = client_id
        if code_verifier is not UNSET:
            field_dict["code_verifier"] = code_verifier
        if refresh_token is not UNSET:
            field_dict["refresh_token"] = refresh_token
        if device_code is not UNSET:
            field_dict["device_code"] = device_code
        if scope is not UNSET:
            field_dict["scope"] = scope
        if resource is not UNSET:
            field_dict["resource"] = resource

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        grant_type = d.pop("grant_type")

        code = d.pop("code", UNSET)

        redirect_uri = d.pop("redirect_uri", UNSET)

        client_id = d.pop("client_id", UNSET)

        code_verifier = d.pop("code_verifier", UNSET)

        refresh_token = d.pop("refresh_token", UNSET)

        device_code = d.pop("device_code", UNSET)

        scope = d.pop("scope", UNSET)

        resource = d.pop("resource", UNSET)

        o_auth_token_request = cls(
            grant_type=grant_type,
            code=code,
            redirect_uri=redirect_uri,
            client_id=client_id,
            code_verifier=code_verifier,
            refresh_token=refresh_token,
            device_code=device_code,
            scope=scope,
            resource=resource,
        )

        o_auth_token_request.additional_properties = d
        return o_auth_token_request

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
