from enum import StrEnum


class ConnectorType(StrEnum):
    GITHUB = "github"
    ICAL = "ical"

    def __str__(self) -> str:
        return str(self.value)

    @classmethod
    def _missing_(cls, value: object) -> "ConnectorType | None":
        # An open enum (x-open-enum): a value added by a later minor version, kept as sent.
        if not isinstance(value, str):
            return None
        member = str.__new__(cls, value)
        member._name_ = "UNKNOWN"
        member._value_ = value
        return member
