from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.o_auth_authorization_form_decision import OAuthAuthorizationFormDecision
from ..types import UNSET, Unset

T = TypeVar("T", bound="OAuthAuthorizationForm")


@_attrs_define
class OAuthAuthorizationForm:
    """The sign-in and consent form of `GET /oauth/authorize`, posted back with the authorisation request's parameters.

    Attributes:
        decision (OAuthAuthorizationFormDecision):
        email (str | Unset):
        password (str | Unset):
        csrf_token (str | Unset):
        response_type (str | Unset):
        client_id (str | Unset):
        redirect_uri (str | Unset):
        code_challenge (str | Unset):
        code_challenge_method (str | Unset):
        state (str | Unset):
        scope (str | Unset):
        resource (str | Unset):
    """

    decision: OAuthAuthorizationFormDecision
    email: str | Unset = UNSET
    password: str | Unset = UNSET
    csrf_token: str | Unset = UNSET
    response_type: str | Unset = UNSET
    client_id: str | Unset = UNSET
    redirect_uri: str | Unset = UNSET
    code_challenge: str | Unset = UNSET
    code_challenge_method: str | Unset = UNSET
    state: str | Unset = UNSET
    scope: str | Unset = UNSET
    resource: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        decision = self.decision.value

        email = self.email

        password = self.password

        csrf_token = self.csrf_token

        response_type = self.response_type

        client_id = self.client_id

        redirect_uri = self.redirect_uri

        code_challenge = self.code_challenge

        code_challenge_method = self.code_challenge_method

        state = self.state

        scope = self.scope

        resource = self.resource

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "decision": decision,
            }
        )
        if email is not UNSET:
            field_dict["email"] = email
        if password is not UNSET:
            field_dict["password"] = password
        if csrf_token is not UNSET:
            field_dict["csrf_token"] = csrf_token
        if response_type is not UNSET:
            field_dict["response_type"] = response_type
        if client_id is not UNSET:
            field_dict["client_id"] = client_id
        if redirect_uri is not UNSET:
            field_dict["redirect_uri"] = redirect_uri
        if code_challenge is not UNSET:
            field_dict["code_challenge"] = code_challenge
        if code_challenge_method is not UNSET:
            field_dict["code_challenge_method"] = code_challenge_method
        if state is not UNSET:
            field_dict["state"] = state
        if scope is not UNSET:
            field_dict["scope"] = scope
        if resource is not UNSET:
            field_dict["resource"] = resource

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        decision = OAuthAuthorizationFormDecision(d.pop("decision"))

        email = d.pop("email", UNSET)

        password = d.pop("password", UNSET)

        csrf_token = d.pop("csrf_token", UNSET)

        response_type = d.pop("response_type", UNSET)

        client_id = d.pop("client_id", UNSET)

        redirect_uri = d.pop("redirect_uri", UNSET)

        code_challenge = d.pop("code_challenge", UNSET)

        code_challenge_method = d.pop("code_challenge_method", UNSET)

        state = d.pop("state", UNSET)

        scope = d.pop("scope", UNSET)

        resource = d.pop("resource", UNSET)

        o_auth_authorization_form = cls(
            decision=decision,
            email=email,
            password=password,
            csrf_token=csrf_token,
            response_type=response_type,
            client_id=client_id,
            redirect_uri=redirect_uri,
            code_challenge=code_challenge,
            code_challenge_method=code_challenge_method,
            state=state,
            scope=scope,
            resource=resource,
        )

        o_auth_authorization_form.additional_properties = d
        return o_auth_authorization_form

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
