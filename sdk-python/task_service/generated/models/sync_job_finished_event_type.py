from enum import StrEnum


class SyncJobFinishedEventType(StrEnum):
    SYNC_JOB_FINISHED = "sync_job.finished"

    def __str__(self) -> str:
        return str(self.value)
