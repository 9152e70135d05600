from enum import StrEnum


class SessionMode(StrEnum):
    COOKIE = "cookie"
    TOKEN = "token"

    def __str__(self) -> str:
        return str(self.value)
