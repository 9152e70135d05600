from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="GithubCredentials")


@_attrs_define
class GithubCredentials:
    """What connecting a GitHub account takes: a token that can read the user's issues.

    Attributes:
        token (str): A GitHub personal access token or OAuth token.
        base_url (str | Unset): GitHub Enterprise API root, e.g. `https://github.example.com/api/v3`. Default
            `https://api.github.com`.
    """

    token: str
    base_url: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        token = self.token

        base_url = self.base_url

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "token": token,
            }
        )
        if base_url is not UNSET:
            field_dict["baseUrl"] = base_url

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        token = d.pop("token")

        base_url = d.pop("baseUrl", UNSET)

        github_credentials = cls(
            token=token,
            base_url=base_url,
        )

        return github_credentials
