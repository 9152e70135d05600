"""The request budgets a response reports, read from its headers.

The IETF fields (`RateLimit-Policy` and `RateLimit`, draft-ietf-httpapi-ratelimit-headers, Structured
Fields lists; docs/rate-limits.md) name every window that applied; without them the `X-RateLimit-*` headers
(burst, sustained, client) are read instead. A 429's `Retry-After` says how long to wait.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

import httpx

#: The wait the service asks for when a 429 carries no Retry-After (the document's "60 when absent").
DEFAULT_RETRY_AFTER_SECONDS = 60


@dataclass(frozen=True)
class Window:
    """One budget window: how many requests it allows, how many are left, and when it starts again."""

    name: str
    limit: int | None
    remaining: int | None
    reset_seconds: int | None
    window_seconds: int | None = None


@dataclass(frozen=True)
class RateLimits:
    """What the last response said about the caller's budgets."""

    status_code: int | None = None
    windows: tuple[Window, ...] = ()
    retry_after_seconds: int | None = field(default=None)

    @property
    def is_rate_limited(self) -> bool:
        """The response was a 429: wait `retry_after_seconds` before asking again."""
        return self.status_code == 429

    @property
    def remaining(self) -> int | None:
        """The fewest requests left in any window (the one that will refuse first)."""
        values = [w.remaining for w in self.windows if w.remaining is not None]
        return min(values) if values else None

    def window(self, name: str) -> Window | None:
        return next((w for w in self.windows if w.name == name), None)

    @classmethod
    def from_response(cls, response: httpx.Response) -> RateLimits:
        return cls.from_headers(response.status_code, response.headers)

    @classmethod
    def from_headers(cls, status_code: int | None, headers: Mapping[str, str]) -> RateLimits:
        headers = httpx.Headers(headers)
        windows = _ietf_windows(headers) or _legacy_windows(headers)
        retry_after = parse_retry_after(headers.get("retry-after"))
        if status_code == 429 and retry_after is None:
            retry_after = DEFAULT_RETRY_AFTER_SECONDS
        return cls(status_code=status_code, windows=tuple(windows), retry_after_seconds=retry_after)


def parse_retry_after(value: str | None) -> int | None:
    """Retry-After in whole seconds (the service sends seconds; an HTTP date is read as seconds from now)."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return int(value)
    try:
        when = parsedate_to_datetime(value)
        return max(0, round((when - datetime.now(UTC)).total_seconds()))
    except (TypeError, ValueError):
        return None


def _int(value: str | None) -> int | None:
    return int(value) if value is not None and value.strip().lstrip("-").isdigit() else None


def _legacy_windows(headers: httpx.Headers) -> list[Window]:
    windows = []
    for name, suffix in (("burst", ""), ("sustained", "-sustained"), ("client", "-client")):
        limit = _int(headers.get(f"x-ratelimit-limit{suffix}"))
        remaining = _int(headers.get(f"x-ratelimit-remaining{suffix}"))
        reset = _int(headers.get(f"x-ratelimit-reset{suffix}"))
        if limit is not None or remaining is not None:
            windows.append(Window(name, limit, remaining, reset))
    return windows


# One member of a Structured Fields list: a string (the policy's name) and its parameters.
_MEMBER = re.compile(r'\s*"((?:[^"\\]|\\.)*)"((?:\s*;\s*[a-z*][a-z0-9_.*-]*(?:=[^;,]*)?)*)\s*(?:,|$)')
_PARAM = re.compile(r";\s*([a-z*][a-z0-9_.*-]*)(?:=([^;,]*))?")


def _sf_list(value: str | None) -> dict[str, dict[str, str]]:
    members: dict[str, dict[str, str]] = {}
    if not value:
        return members
    position = 0
    while position < len(value):
        match = _MEMBER.match(value, position)
        if not match or match.end() == position:
            break  # not the list this client knows: ignore the rest rather than guess
        params = {key: (raw or "?1").strip() for key, raw in _PARAM.findall(match.group(2))}
        members[match.group(1).replace('\\"', '"').replace("\\\\", "\\")] = params
        position = match.end()
    return members


def _ietf_windows(headers: httpx.Headers) -> list[Window]:
    policies = _sf_list(headers.get("ratelimit-policy"))
    current = _sf_list(headers.get("ratelimit"))
    windows = []
    for name in list(policies) + [n for n in current if n not in policies]:
        policy, state = policies.get(name, {}), current.get(name, {})
        windows.append(Window(name, _int(policy.get("q")), _int(state.get("r")), _int(state.get("t")), _int(policy.get("w"))))
    return windows
