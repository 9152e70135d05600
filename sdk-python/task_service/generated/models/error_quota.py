from enum import StrEnum


class ErrorQuota(StrEnum):
    CONNECTORACCOUNTS = "connectorAccounts"
    TASKS = "tasks"
    WEBHOOKS = "webhooks"

    def __str__(self) -> str:
        return str(self.value)
