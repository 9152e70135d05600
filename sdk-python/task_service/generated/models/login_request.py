from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.session_mode import SessionMode
from ..types import UNSET, Unset

T = TypeVar("T", bound="LoginRequest")


@_attrs_define
class LoginRequest:
    """
    Attributes:
        email (str):
        password (str):
        session (SessionMode | Unset): Where the refresh token goes: `token` (the default) returns it in the body;
            `cookie` (for the
            first-party web app on this origin) sets it as an `HttpOnly` cookie only `/auth/*` reads and
            leaves it out of the body, so no script ever sees it.
    """

    email: str
    password: str
    session: SessionMode | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        email = self.email

        password = self.password

        session: str | Unset = UNSET
        if not isinstance(self.session, Unset):
            session = self.session.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "email": email,
                "password": password,
            }
        )
        if session is not UNSET:
            field_dict["session"] = session

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        email = d.pop("email")

        password = d.pop("password")

        _session = d.pop("session", UNSET)
        session: SessionMode | Unset
        if isinstance(_session, Unset):
            session = UNSET
        else:
            session = SessionMode(_session)

        login_request = cls(
            email=email,
            password=password,
            session=session,
        )

        return login_request
