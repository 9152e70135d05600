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
        code (ErrorCode):
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
