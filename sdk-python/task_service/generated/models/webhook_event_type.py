from enum import StrEnum


class WebhookEventType(StrEnum):
    CONNECTOR_ACCOUNT_CONNECTED = "connector_account.connected"
    CONNECTOR_ACCOUNT_DISCONNECTED = "connector_account.disconnected"
    SYNC_JOB_FINISHED = "sync_job.finished"
    TASK_CREATED = "task.created"
    TASK_DELETED = "task.deleted"
    TASK_UPDATED = "task.updated"

    def __str__(self) -> str:
        return str(self.value)

    @classmethod
    def _missing_(cls, value: object) -> "WebhookEventType | None":
        # An open enum (x-open-enum): a value added by a later minor version, kept as sent.
        if not isinstance(value, str):
            return None
        member = str.__new__(cls, value)
        member._name_ = "UNKNOWN"
        member._value_ = value
        return member
