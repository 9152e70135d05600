from enum import StrEnum


class ConnectorType(StrEnum):
    GITHUB = "github"
    ICAL = "ical"

    def __str__(self) -> str:
        return str(self.value)
