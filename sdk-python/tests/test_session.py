"""Refresh on TOKEN_EXPIRED (one refresh for parallel calls) and 429 with Retry-After, on the real server."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from task_service import ApiError, IssuedTokens, RetryPolicy, TaskService
from task_service.generated.api.account import get_me
from task_service.generated.api.tasks import create_task
from task_service.models import Account, ErrorCode, Task, TaskCreate

from .conftest import ACCOUNT_BURST, Server, expired

PARALLEL = 8


def test_parallel_calls_that_meet_an_expired_token_share_one_refresh(server: Server) -> None:
    issued: list[IssuedTokens] = []
    service, email = server.signed_in(on_tokens=issued.append)
    first_refresh_token = service.refresh_token
    service.set_tokens(expired(service.access_token), first_refresh_token)
    # Each call first meets TOKEN_EXPIRED; the server rotates refresh tokens and (REFRESH_REUSE_INTERVAL_SECONDS=0)
    # treats a second refresh with the same token as reuse, revoking the session: all succeed only with one refresh.
    with ThreadPoolExecutor(PARALLEL) as pool:
        answers = list(pool.map(lambda _: get_me.sync_detailed(client=service.client), range(PARALLEL)))
    assert [answer.status_code for answer in answers] == [200] * PARALLEL
    assert all(isinstance(a.parsed, Account) and a.parsed.email == email for a in answers)
    assert service.refresh_count == 1
    assert len(issued) == 2  # the registration's pair, then the one refresh
    assert service.refresh_token == issued[-1].refresh_token != first_refresh_token


def test_parallel_async_calls_share_one_refresh_too(server: Server) -> None:
    service, _ = server.signed_in()
    service.set_tokens(expired(service.access_token), service.refresh_token)

    async def run() -> list[int]:
        answers = await asyncio.gather(*(get_me.asyncio_detailed(client=service.client) for _ in range(PARALLEL)))
        return [int(answer.status_code) for answer in answers]

    assert asyncio.run(run()) == [200] * PARALLEL
    assert service.refresh_count == 1


def test_a_dead_refresh_token_hands_back_the_expiry_and_signs_the_client_out(server: Server) -> None:
    stale, _ = server.signed_in()
    stale.set_tokens(expired(stale.access_token), "not-a-refresh-token-the-server-knows")
    with pytest.raises(ApiError) as raised:
        get_me.sync_detailed(client=stale.client)
    assert (raised.value.status, raised.value.code) == (401, ErrorCode.TOKEN_EXPIRED)
    assert stale.access_token is None and stale.refresh_token is None


def spend_account_burst(service: TaskService) -> None:
    """Spends the account's burst window with GET /me until the server answers 429.

    Burst windows are UTC minutes: in a minute's last seconds it first waits for the next one, so the
    window does not roll over between the 429 and what the test then checks.
    """
    seconds_left = 60 - time.time() % 60
    if seconds_left < 8:
        time.sleep(seconds_left + 0.2)
    for _ in range(ACCOUNT_BURST * 3):
        try:
            get_me.sync_detailed(client=service.client)
        except ApiError as refused:
            if refused.status == 429:
                return
            raise
    raise AssertionError("no 429 after three times the burst budget")


def test_a_429_reports_retry_after_and_the_spent_budget(server: Server) -> None:
    service, _ = server.signed_in()
    assert not service.is_rate_limited
    get_me.sync(client=service.client)
    assert service.rate_limits.remaining is not None
    assert ACCOUNT_BURST in [window.limit for window in service.rate_limits.windows]

    spend_account_burst(service)
    with pytest.raises(ApiError) as raised:
        get_me.sync_detailed(client=service.client)
    assert (raised.value.status, raised.value.code) == (429, ErrorCode.RATE_LIMIT_EXCEEDED)
    assert service.is_rate_limited
    retry_after = raised.value.retry_after
    assert retry_after is not None and 1 <= retry_after <= 60
    assert raised.value.error is not None
    assert service.retry_after_seconds == retry_after == raised.value.error.retry_after_seconds
    assert service.rate_limits.remaining == 0


def test_the_retry_waits_retry_after_each_time_and_then_hands_the_429_back(server: Server) -> None:
    waits: list[float] = []
    service, _ = server.signed_in()
    spend_account_burst(service)
    # A sleep that only records: the real server's Retry-After is checked without spending the minute.
    service.retry = RetryPolicy(max_attempts=3, sleep=waits.append)
    before = time.time()
    with pytest.raises(ApiError) as raised:
        create_task.sync_detailed(client=service.client, body=TaskCreate(title="Refused"))
    assert raised.value.status == 429
    retry_after = raised.value.retry_after
    assert retry_after is not None
    # Three attempts, two waits; each as long as the server asked (the window's end), plus at most 20% jitter.
    assert len(waits) == 2
    for wait in waits:
        assert retry_after <= wait <= (retry_after + (time.time() - before) + 1) * 1.2


# The budgets do not depend on the database: one real wait (up to a minute) is enough, on SQLite.
@pytest.mark.timeout(150)
@pytest.mark.parametrize("server", ["sqlite"], indirect=True)
def test_with_retry_a_call_refused_by_429_succeeds_once_the_window_has_passed(server: Server) -> None:
    service, _ = server.signed_in()
    spend_account_burst(service)
    told = service.retry_after_seconds
    assert told is not None
    service.retry = RetryPolicy(max_attempts=2)
    started = time.monotonic()
    created = create_task.sync(client=service.client, body=TaskCreate(title="After the wait"))
    assert isinstance(created, Task)
    assert time.monotonic() - started >= told - 1
    assert not service.is_rate_limited
