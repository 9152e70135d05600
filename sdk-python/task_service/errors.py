"""The error every call through `TaskService` raises when the service refuses (any 4xx or 5xx answer)."""

from __future__ import annotations

import json

import httpx

from .generated.models import Error


class ApiError(Exception):
    """The service answered with an error: `status`, `code`, `message` and `retry_after` (seconds, or None).

    `error` is the whole common body (`details` of a VALIDATION_FAILED, `required_scope`, ...) when the
    answer had it; the OAuth endpoints' errors (`invalid_grant`, ...) come as `code` with `error` None.
    A code added by a later version of the service is kept as sent (ErrorCode is an open enum).
    """

    def __init__(
        self,
        status_code: int,
        error: Error | None,
        text: str = "",
        *,
        code: str | None = None,
        message: str | None = None,
        retry_after: int | None = None,
    ):
        self.status_code = status_code
        self.error = error
        self.code: str | None = str(error.code) if error is not None else code
        self.message: str = error.message if error is not None else (message or text[:200] or f"HTTP {status_code}")
        body_wait = getattr(error, "retry_after_seconds", None)
        self.retry_after: int | None = (
            retry_after if retry_after is not None else body_wait if isinstance(body_wait, int) else None
        )
        super().__init__(f"{status_code} {self.code}: {self.message}" if self.code else f"{status_code}: {self.message}")

    @property
    def status(self) -> int:
        return self.status_code

    @property
    def retry_after_seconds(self) -> int | None:
        return self.retry_after

    @classmethod
    def from_response(cls, response: httpx.Response) -> ApiError:
        """The error of an answer whose body has been read: the common body, an OAuth body, or its text."""
        header = response.headers.get("retry-after", "").strip()
        retry_after = int(header) if header.isdigit() else None
        try:
            body = json.loads(response.content)
        except ValueError:
            body = None
        if isinstance(body, dict) and "code" in body and "message" in body:
            try:
                return cls(response.status_code, Error.from_dict(body), retry_after=retry_after)
            except (KeyError, TypeError, ValueError):
                return cls(
                    response.status_code, None, code=str(body["code"]), message=str(body["message"]), retry_after=retry_after
                )
        if isinstance(body, dict) and isinstance(body.get("error"), str):
            description = body.get("error_description")
            return cls(
                response.status_code,
                None,
                code=body["error"],
                message=description if isinstance(description, str) else None,
                retry_after=retry_after,
            )
        return cls(response.status_code, None, response.text, retry_after=retry_after)


def raise_for_error(response: httpx.Response) -> None:
    """httpx response hook of TaskService's client: an error answer raises ApiError instead of returning `Error`."""
    if response.status_code >= 400:
        response.read()
        raise ApiError.from_response(response)


async def araise_for_error(response: httpx.Response) -> None:
    """The same hook for the asyncio client."""
    if response.status_code >= 400:
        await response.aread()
        raise ApiError.from_response(response)


class OAuthFlowError(Exception):
    """A sign-in callback not to trust (`state_mismatch`, `issuer_mismatch`) or that the user refused (`access_denied`)."""

    def __init__(self, code: str, message: str):
        self.code = code
        super().__init__(message)
