from enum import StrEnum


class OAuthClientRegistrationRequestApplicationType(StrEnum):
    NATIVE = "native"
    WEB = "web"

    def __str__(self) -> str:
        return str(self.value)
