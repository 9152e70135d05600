from enum import StrEnum


class ErrorQuota(StrEnum):
    CONNECTORACCOUNTS = "connectorAccounts"
    TASKS = "tasks"

    def __str__(self) -> str:
        return str(self.value)
