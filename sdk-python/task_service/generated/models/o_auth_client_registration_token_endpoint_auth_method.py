from enum import StrEnum


class OAuthClientRegistrationTokenEndpointAuthMethod(StrEnum):
    NONE = "none"

    def __str__(self) -> str:
        return str(self.value)
