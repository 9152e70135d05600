from enum import StrEnum


class ReadinessStatus(StrEnum):
    DEGRADED = "degraded"
    OK = "ok"
    UNAVAILABLE = "unavailable"

    def __str__(self) -> str:
        return str(self.value)
