"""Reading budgets from headers: the IETF RateLimit fields when present (docs/rate-limits.md), else X-RateLimit-*."""

from __future__ import annotations

import httpx
import pytest

from task_service import DEFAULT_RETRY_AFTER_SECONDS, RateLimits, RetryPolicy

LEGACY = {
    "X-RateLimit-Limit": "400",
    "X-RateLimit-Remaining": "380",
    "X-RateLimit-Reset": "17",
    "X-RateLimit-Limit-sustained": "8000",
    "X-RateLimit-Remaining-sustained": "7900",
    "X-RateLimit-Reset-sustained": "1817",
    "X-RateLimit-Limit-client": "240",
    "X-RateLimit-Remaining-client": "230",
    "X-RateLimit-Reset-client": "17",
}
IETF = {
    "RateLimit-Policy": '"account-burst";q=400;w=60, "account-sustained";q=8000;w=3600, '
    '"client-burst";q=240;w=60, "client-sustained";q=4000;w=3600',
    "RateLimit": '"account-burst";r=380;t=17, "account-sustained";r=7900;t=1817, '
    '"client-burst";r=0;t=17, "client-sustained";r=3990;t=1817',
}


def test_the_ietf_fields_name_every_window_with_its_quota_remaining_and_reset() -> None:
    limits = RateLimits.from_headers(200, {**LEGACY, **IETF})
    assert [(w.name, w.limit, w.remaining, w.reset_seconds, w.window_seconds) for w in limits.windows] == [
        ("account-burst", 400, 380, 17, 60),
        ("account-sustained", 8000, 7900, 1817, 3600),
        ("client-burst", 240, 0, 17, 60),
        ("client-sustained", 4000, 3990, 1817, 3600),
    ]
    assert limits.remaining == 0
    assert limits.window("client-burst").remaining == 0
    assert not limits.is_rate_limited


def test_without_the_ietf_fields_the_x_ratelimit_headers_are_read() -> None:
    limits = RateLimits.from_headers(200, LEGACY)
    assert [(w.name, w.limit, w.remaining, w.reset_seconds) for w in limits.windows] == [
        ("burst", 400, 380, 17),
        ("sustained", 8000, 7900, 1817),
        ("client", 240, 230, 17),
    ]
    assert limits.remaining == 230


def test_a_429_without_retry_after_means_sixty_seconds() -> None:
    limits = RateLimits.from_headers(429, LEGACY)
    assert limits.is_rate_limited and limits.retry_after_seconds == DEFAULT_RETRY_AFTER_SECONDS == 60
    assert RateLimits.from_headers(429, {"Retry-After": "7"}).retry_after_seconds == 7


@pytest.mark.parametrize(
    ("status", "retry_after", "expected"),
    [(429, "7", 7), (429, None, 60), (429, "0", 1), (503, "5", 5), (503, None, None), (500, "5", None), (429, "600", None)],
)
def test_the_retry_policy_waits_what_the_server_asked_never_less_than_a_second(status, retry_after, expected) -> None:
    policy = RetryPolicy(jitter=0, max_delay_seconds=120)
    response = httpx.Response(status, headers={"retry-after": retry_after} if retry_after else {})
    assert policy.delay(response) == expected
