from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.error_code import ErrorCode
from ..models.error_quota import ErrorQuota
from ..models.error_window import ErrorWindow
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.validation_detail import ValidationDetail


T = TypeVar("T", bound="Error")


@_attrs_define
class Error:
    """The one body of every error.

    Attributes:
        status_code (int):
        code (ErrorCode): The stable code of an error; program against it, not the message. Every code, when it happens
            and what to do: docs/errors.md.
            - `VALIDATION_FAILED` (400): the request does not match this document; `details` says where. Fix it.
            - `UNAUTHENTICATED` (401): no token, or one not accepted. Sign in again.
            - `TOKEN_EXPIRED` (401): the access token expired. Refresh it and retry once.
            - `INVALID_CREDENTIALS` (401): wrong email or password.
            - `INVALID_REFRESH_TOKEN` (401): the refresh token is unknown, expired or revoked. Sign in again.
            - `REFRESH_TOKEN_REUSED` (401): a used refresh token came back; the session is revoked. Sign in again.
            - `INSUFFICIENT_SCOPE` (403): the token lacks `requiredScope`. Get a token with it.
            - `WEB_SESSION_REQUIRED` (403): only a web session may close the account.
            - `QUOTA_EXCEEDED` (403): the cap in `quota` is reached (`limit`, `used`). Delete something; waiting does not
            help.
            - `NOT_FOUND` (404): no such resource in this account, or no such path.
            - `METHOD_NOT_ALLOWED` (405): the path does not take this method; `Allow` lists those it does.
            - `HOST_NOT_ALLOWED`, `ORIGIN_NOT_ALLOWED` (403): `/mcp` called for another Host, or from an origin not allowed.
            - `EMAIL_IN_USE` (409): the email has an account. Log in instead.
            - `PAYLOAD_TOO_LARGE` (413), `HEADERS_TOO_LARGE` (431), `REQUEST_TIMEOUT` (408): the request is too large or too
            slow.
            - `UNSUPPORTED_MEDIA_TYPE` (415): send `application/json`.
            - `IDEMPOTENCY_KEY_REUSED` (422): the `Idempotency-Key` was used with another body. Use a new key.
            - `PRECONDITION_FAILED` (412): `If-Match` names an old version; the `ETag` is the current one. Read again and
            retry.
            - `CURSOR_EXPIRED` (410): the change-feed cursor is too old. Start again without one.
            - `CONNECTOR_AUTH_FAILED` (422): the provider refused the credentials. Check them.
            - `RATE_LIMIT_EXCEEDED` (429): `window` has no budget left. Wait `retryAfterSeconds`, then retry.
            - `ACCOUNT_LOCKED` (429): too many failed logins. Wait `retryAfterSeconds`.
            - `INTERNAL_ERROR` (500): our fault; report `requestId`.
            - `NOT_IMPLEMENTED` (501): an operation without a handler; a running server never answers it.
            - `CONNECTOR_UNAVAILABLE` (502): the provider could not be reached. Retry later.
            - `SERVICE_UNAVAILABLE` (503): the database is unreachable. Retry after `Retry-After`.

            An open list (`x-open-enum`): a minor version may add a code, so a client treats a code it does
            not know by its status.
        message (str): Human-readable; never internals.
        details (list[ValidationDetail] | Unset): With `VALIDATION_FAILED`, what is wrong and where.
        retry_after_seconds (int | Unset): With 429 - whole seconds to wait (same as `Retry-After`).
        window (ErrorWindow | Unset): With `RATE_LIMIT_EXCEEDED`, the window that rejected.
        quota (ErrorQuota | Unset): With `QUOTA_EXCEEDED`, the cap reached.
        limit (int | Unset): With `QUOTA_EXCEEDED`, the cap.
        used (int | Unset): With `QUOTA_EXCEEDED`, what is used of it.
        required_scope (str | Unset): With `INSUFFICIENT_SCOPE`, the scope the operation needs.
        request_id (str | Unset): With 5xx - the `X-Request-Id` of the request.
    """

    status_code: int
    code: ErrorCode
    message: str
    details: list[ValidationDetail] | Unset = UNSET
    retry_after_seconds: int | Unset = UNSET
    window: ErrorWindow | Unset = UNSET
    quota: ErrorQuota | Unset = UNSET
    limit: int | Unset = UNSET
    used: int | Unset = UNSET
    required_scope: str | Unset = UNSET
    request_id: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status_code = self.status_code

        code = self.code.value

        message = self.message

        details: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.details, Unset):
            details = []
            for details_item_data in self.details:
                details_item = details_item_data.to_dict()
                details.append(details_item)

        retry_after_seconds = self.retry_after_seconds

        window: str | Unset = UNSET
        if not isinstance(self.window, Unset):
            window = self.window.value

        quota: str | Unset = UNSET
        if not isinstance(self.quota, Unset):
            quota = self.quota.value

        limit = self.limit

        used = self.used

        required_scope = self.required_scope

        request_id = self.request_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "statusCode": status_code,
                "code": code,
                "message": message,
            }
        )
        if details is not UNSET:
            field_dict["details"] = details
        if retry_after_seconds is not UNSET:
            field_dict["retryAfterSeconds"] = retry_after_seconds
        if window is not UNSET:
            field_dict["window"] = window
        if quota is not UNSET:
            field_dict["quota"] = quota
        if limit is not UNSET:
            field_dict["limit"] = limit
        if used is not UNSET:
            field_dict["used"] = used
        if required_scope is not UNSET:
            field_dict["requiredScope"] = required_scope
        if request_id is not UNSET:
            field_dict["requestId"] = request_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.validation_detail import ValidationDetail

        d = dict(src_dict)
        status_code = d.pop("statusCode")

        code = ErrorCode(d.pop("code"))

        message = d.pop("message")

        _details = d.pop("details", UNSET)
        details: list[ValidationDetail] | Unset = UNSET
        if _details is not UNSET:
            details = []
            for details_item_data in _details:
                details_item = ValidationDetail.from_dict(details_item_data)

                details.append(details_item)

        retry_after_seconds = d.pop("retryAfterSeconds", UNSET)

        _window = d.pop("window", UNSET)
        window: ErrorWindow | Unset
        if isinstance(_window, Unset):
            window = UNSET
        else:
            window = ErrorWindow(_window)

        _quota = d.pop("quota", UNSET)
        quota: ErrorQuota | Unset
        if isinstance(_quota, Unset):
            quota = UNSET
        else:
            quota = ErrorQuota(_quota)

        limit = d.pop("limit", UNSET)

        used = d.pop("used", UNSET)

        required_scope = d.pop("requiredScope", UNSET)

        request_id = d.pop("requestId", UNSET)

        error = cls(
            status_code=status_code,
            code=code,
            message=message,
            details=details,
            retry_after_seconds=retry_after_seconds,
            window=window,
            quota=quota,
            limit=limit,
            used=used,
            required_scope=required_scope,
            request_id=request_id,
        )

        error.additional_properties = d
        return error

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
