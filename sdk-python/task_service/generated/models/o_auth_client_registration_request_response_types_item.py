from enum import StrEnum


class OAuthClientRegistrationRequestResponseTypesItem(StrEnum):
    CODE = "code"

    def __str__(self) -> str:
        return str(self.value)
