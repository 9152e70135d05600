from enum import StrEnum


class ListTasksStatus(StrEnum):
    ALL = "all"
    COMPLETED = "completed"
    OPEN = "open"

    def __str__(self) -> str:
        return str(self.value)
