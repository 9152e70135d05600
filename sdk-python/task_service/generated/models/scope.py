from enum import StrEnum


class Scope(StrEnum):
    CONNECTORSREAD = "connectors:read"
    CONNECTORSWRITE = "connectors:write"
    TASKSREAD = "tasks:read"
    TASKSWRITE = "tasks:write"
    TOKENSMANAGE = "tokens:manage"
    WEBHOOKSMANAGE = "webhooks:manage"

    def __str__(self) -> str:
        return str(self.value)
