from enum import StrEnum


class JsonRpcVersion(StrEnum):
    V2_0 = "2.0"

    def __str__(self) -> str:
        return str(self.value)
