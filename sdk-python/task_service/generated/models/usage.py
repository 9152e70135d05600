from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.cap_usage import CapUsage
    from ..models.usage_connector_accounts_item import UsageConnectorAccountsItem
    from ..models.usage_rate_limits import UsageRateLimits


T = TypeVar("T", bound="Usage")


@_attrs_define
class Usage:
    """What the account uses of each cap and of its rate-limit budgets right now.

    Attributes:
        tasks (CapUsage): One cap: its limit and how much of it is used.
        connector_accounts (list[UsageConnectorAccountsItem]):
        rate_limits (UsageRateLimits):
    """

    tasks: CapUsage
    connector_accounts: list[UsageConnectorAccountsItem]
    rate_limits: UsageRateLimits
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        tasks = self.tasks.to_dict()

        connector_accounts = []
        for connector_accounts_item_data in self.connector_accounts:
            connector_accounts_item = connector_accounts_item_data.to_dict()
            connector_accounts.append(connector_accounts_item)

        rate_limits = self.rate_limits.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "tasks": tasks,
                "connectorAccounts": connector_accounts,
                "rateLimits": rate_limits,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.cap_usage import CapUsage
        from ..models.usage_connector_accounts_item import UsageConnectorAccountsItem
        from ..models.usage_rate_limits import UsageRateLimits

        d = dict(src_dict)
        tasks = CapUsage.from_dict(d.pop("tasks"))

        connector_accounts = []
        _connector_accounts = d.pop("connectorAccounts")
        for connector_accounts_item_data in _connector_accounts:
            connector_accounts_item = UsageConnectorAccountsItem.from_dict(
                connector_accounts_item_data
            )

            connector_accounts.append(connector_accounts_item)

        rate_limits = UsageRateLimits.from_dict(d.pop("rateLimits"))

        usage = cls(
            tasks=tasks,
            connector_accounts=connector_accounts,
            rate_limits=rate_limits,
        )

        usage.additional_properties = d
        return usage

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
