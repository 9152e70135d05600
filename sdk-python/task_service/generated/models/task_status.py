from enum import StrEnum


class TaskStatus(StrEnum):
    COMPLETED = "completed"
    OPEN = "open"

    def __str__(self) -> str:
        return str(self.value)
