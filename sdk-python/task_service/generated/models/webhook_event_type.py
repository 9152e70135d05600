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
