from enum import StrEnum


class ErrorWindow(StrEnum):
    ACCOUNT_BURST = "account-burst"
    ACCOUNT_SUSTAINED = "account-sustained"
    ANONYMOUS_BURST = "anonymous-burst"
    ANONYMOUS_SUSTAINED = "anonymous-sustained"
    CLIENT_BURST = "client-burst"
    CLIENT_SUSTAINED = "client-sustained"
    REFRESH_BURST = "refresh-burst"
    REFRESH_SUSTAINED = "refresh-sustained"
    STRICT_BURST = "strict-burst"
    STRICT_SUSTAINED = "strict-sustained"

    def __str__(self) -> str:
        return str(self.value)
