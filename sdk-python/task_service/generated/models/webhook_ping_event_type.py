from enum import StrEnum


class WebhookPingEventType(StrEnum):
    WEBHOOK_PING = "webhook.ping"

    def __str__(self) -> str:
        return str(self.value)
