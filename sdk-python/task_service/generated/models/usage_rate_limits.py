from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.budget_usage import BudgetUsage


T = TypeVar("T", bound="UsageRateLimits")


@_attrs_define
class UsageRateLimits:
    """
    Attributes:
        account (BudgetUsage): One rate-limit budget: its burst (per minute) and sustained (per hour) windows.
        client (BudgetUsage): One rate-limit budget: its burst (per minute) and sustained (per hour) windows.
    """

    account: BudgetUsage
    client: BudgetUsage
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        account = self.account.to_dict()

        client = self.client.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "account": account,
                "client": client,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.budget_usage import BudgetUsage

        d = dict(src_dict)
        account = BudgetUsage.from_dict(d.pop("account"))

        client = BudgetUsage.from_dict(d.pop("client"))

        usage_rate_limits = cls(
            account=account,
            client=client,
        )

        usage_rate_limits.additional_properties = d
        return usage_rate_limits

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
