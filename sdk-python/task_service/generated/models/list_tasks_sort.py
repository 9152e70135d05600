from enum import StrEnum


class ListTasksSort(StrEnum):
    CREATED = "created"
    DUE = "due"
    PRIORITY = "priority"
    UPDATED = "updated"
    VALUE_1 = "-created"
    VALUE_3 = "-updated"

    def __str__(self) -> str:
        return str(self.value)
