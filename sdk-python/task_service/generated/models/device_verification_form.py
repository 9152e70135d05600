from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.device_verification_form_decision import DeviceVerificationFormDecision
from ..types import UNSET, Unset

T = TypeVar("T", bound="DeviceVerificationForm")


@_attrs_define
class DeviceVerificationForm:
    """The form of `GET /oauth/device`: the user code, the CSRF token, the decision and the sign-in.

    Attributes:
        user_code (str): The code the page was shown for (its hidden field).
        csrf_token (str | Unset):
        decision (DeviceVerificationFormDecision | Unset):
        email (str | Unset):
        password (str | Unset):
    """

    user_code: str
    csrf_token: str | Unset = UNSET
    decision: DeviceVerificationFormDecision | Unset = UNSET
    email: str | Unset = UNSET
    password: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        user_code = self.user_code

        csrf_token = self.csrf_token

        decision: str | Unset = UNSET
        if not isinstance(self.decision, Unset):
            decision = self.decision.value

        email = self.email

        password = self.password

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "user_code": user_code,
            }
        )
        if csrf_token is not UNSET:
            field_dict["csrf_token"] = csrf_token
        if decision is not UNSET:
            field_dict["decision"] = decision
        if email is not UNSET:
            field_dict["email"] = email
        if password is not UNSET:
            field_dict["password"] = password

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        user_code = d.pop("user_code")

        csrf_token = d.pop("csrf_token", UNSET)

        _decision = d.pop("decision", UNSET)
        decision: DeviceVerificationFormDecision | Unset
        if isinstance(_decision, Unset):
            decision = UNSET
        else:
            decision = DeviceVerificationFormDecision(_decision)

        email = d.pop("email", UNSET)

        password = d.pop("password", UNSET)

        device_verification_form = cls(
            user_code=user_code,
            csrf_token=csrf_token,
            decision=decision,
            email=email,
            password=password,
        )

        device_verification_form.additional_properties = d
        return device_verification_form

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
