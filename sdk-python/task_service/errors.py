"""The error the hand-written helpers raise when the service refuses (the generated calls return `Error` instead)."""

from __future__ import annotations

from .generated.models import Error


class ApiError(Exception):
    """The service answered with its error body: `{statusCode, code, message, ...}` (`error` holds all of it)."""

    def __init__(self, status_code: int, error: Error | None, text: str = ""):
        self.status_code = status_code
        self.error = error
        self.code = error.code if error is not None else None
        super().__init__(f"{status_code} {self.code}: {error.message}" if error is not None else f"{status_code}: {text[:200]}")

    @property
    def retry_after_seconds(self) -> int | None:
        value = getattr(self.error, "retry_after_seconds", None)
        return value if isinstance(value, int) else None


class OAuthFlowError(Exception):
    """A sign-in callback not to trust (`state_mismatch`, `issuer_mismatch`) or that the user refused (`access_denied`)."""

    def __init__(self, code: str, message: str):
        self.code = code
        super().__init__(message)
