from enum import StrEnum


class OAuthClientRegistrationRequestTokenEndpointAuthMethod(StrEnum):
    NONE = "none"

    def __str__(self) -> str:
        return str(self.value)
