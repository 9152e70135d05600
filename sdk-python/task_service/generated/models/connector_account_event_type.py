from enum import StrEnum


class ConnectorAccountEventType(StrEnum):
    CONNECTOR_ACCOUNT_CONNECTED = "connector_account.connected"
    CONNECTOR_ACCOUNT_DISCONNECTED = "connector_account.disconnected"

    def __str__(self) -> str:
        return str(self.value)
