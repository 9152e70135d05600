from enum import IntEnum


class Priority(IntEnum):
    URGENT = 1
    HIGH = 2
    NORMAL = 3
    LOW = 4

    def __str__(self) -> str:
        return str(self.value)
