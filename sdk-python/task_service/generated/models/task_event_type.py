from enum import StrEnum


class TaskEventType(StrEnum):
    TASK_CREATED = "task.created"
    TASK_UPDATED = "task.updated"

    def __str__(self) -> str:
        return str(self.value)
