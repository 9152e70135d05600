from enum import StrEnum


class ReadinessChecksRedis(StrEnum):
    DOWN = "down"
    NOT_CONFIGURED = "not-configured"
    UP = "up"

    def __str__(self) -> str:
        return str(self.value)
