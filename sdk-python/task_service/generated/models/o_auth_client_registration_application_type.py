from enum import StrEnum


class OAuthClientRegistrationApplicationType(StrEnum):
    NATIVE = "native"
    WEB = "web"

    def __str__(self) -> str:
        return str(self.value)
