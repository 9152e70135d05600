from enum import StrEnum


class TaskDeletedEventType(StrEnum):
    TASK_DELETED = "task.deleted"

    def __str__(self) -> str:
        return str(self.value)
