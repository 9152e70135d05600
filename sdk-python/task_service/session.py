"""Tokens, the one shared refresh, and the opt-in wait on 429: the layer under every generated call.

The generated operations (task_service.generated.api) send through an httpx client whose transport is
one of the two below. Each request gets the current access token; a 401 `TOKEN_EXPIRED` refreshes once
and sends the request again once. Parallel calls that meet the expiry together (threads, asyncio tasks,
or both) share one refresh: the service rotates refresh tokens, so a second refresh with the same token
would be reuse. With a RetryPolicy, a 429 waits Retry-After seconds (60 when absent) and tries again.
"""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from .deprecation import warn_if_deprecated
from .rate_limits import DEFAULT_RETRY_AFTER_SECONDS, RateLimits, parse_retry_after


@dataclass
class RetryPolicy:
    """Opt-in waiting on 429 (and on 503 with Retry-After): never sooner than the server asked, never a tight loop."""

    #: Attempts in all, the first included.
    max_attempts: int = 3
    #: The longest single wait. A longer Retry-After (a spent hourly window, a locked login) is handed back at once.
    max_delay_seconds: float = 120
    #: Up to this fraction is added to each wait, so clients told the same Retry-After do not return together.
    jitter: float = 0.2
    sleep: Callable[[float], None] = time.sleep
    async_sleep: Callable[[float], Awaitable[None]] = asyncio.sleep

    def delay(self, response: httpx.Response) -> float | None:
        """Seconds to wait before trying `response`'s request again, or None to hand the response back."""
        retry_after = parse_retry_after(response.headers.get("retry-after"))
        if response.status_code == 429:
            seconds = max(1, DEFAULT_RETRY_AFTER_SECONDS if retry_after is None else retry_after)
        elif response.status_code == 503 and retry_after is not None:
            seconds = max(1, retry_after)
        else:
            return None
        if seconds > self.max_delay_seconds:
            return None
        return min(self.max_delay_seconds, seconds * (1 + self.jitter * random.random()))


@dataclass
class IssuedTokens:
    """A token pair the client obtained (sign-in, registration, refresh, code exchange)."""

    access_token: str
    refresh_token: str
    expires_in: int
    scope: str | None = None


@dataclass
class _Outcome:
    """How a refresh ended: new tokens (`response` None), or a response to hand back (429, 5xx, a dead token's 401)."""

    response: httpx.Response | None = None
    signed_out: bool = False


@dataclass
class SessionState:
    """What one TaskService holds between calls; shared by its sync and async transports."""

    base_url: str
    access_token: str | None = None
    refresh_token: str | None = None
    on_tokens: Callable[[IssuedTokens], None] | None = None
    retry: RetryPolicy | None = None
    #: Set for an OAuth app: refreshes go to the token endpoint with this client id.
    oauth_client_id: str | None = None
    token_endpoint: str | None = None
    last_rate_limits: RateLimits = field(default_factory=RateLimits)
    #: Refreshes sent to the server, for the curious (and the tests).
    refresh_count: int = 0
    # Reentrant: an on_tokens callback runs under it and may call set_tokens.
    _lock: threading.RLock = field(default_factory=threading.RLock)
    _generation: int = 0
    _last_outcome: _Outcome = field(default_factory=_Outcome)
    _refresh_transport: httpx.HTTPTransport = field(default_factory=httpx.HTTPTransport)

    def set_tokens(self, access_token: str | None, refresh_token: str | None) -> None:
        with self._lock:
            self.access_token, self.refresh_token = access_token, refresh_token
            self._generation += 1
            self._last_outcome = _Outcome()

    def adopt(self, tokens: IssuedTokens) -> None:
        self.set_tokens(tokens.access_token, tokens.refresh_token)
        if self.on_tokens:
            self.on_tokens(tokens)

    def snapshot(self) -> tuple[int, str | None]:
        """The generation, then the token; without the lock, so an event loop never waits on a refresh here.
        Tokens change before the generation does, so a new generation never comes with an old token."""
        generation = self._generation
        return generation, self.access_token

    def refresh_once(self, seen_generation: int) -> _Outcome:
        """Refreshes unless another call already did since `seen_generation`; then its outcome is ours too."""
        with self._lock:
            if self._generation != seen_generation:
                return self._last_outcome
            outcome = self._refresh_locked()
            self._generation += 1
            self._last_outcome = outcome
            return outcome

    def _refresh_locked(self) -> _Outcome:
        if not self.refresh_token:
            return _Outcome(signed_out=True)
        self.refresh_count += 1
        if self.oauth_client_id:
            request = httpx.Request(
                "POST",
                self.token_endpoint or f"{self.base_url}/oauth/token",
                data={"grant_type": "refresh_token", "refresh_token": self.refresh_token, "client_id": self.oauth_client_id},
                headers={"accept": "application/json"},
            )
        else:
            request = httpx.Request("POST", f"{self.base_url}/auth/refresh", json={"refreshToken": self.refresh_token})
        response = send_with_retry(self._refresh_transport, request, self.retry)
        response.read()
        self.last_rate_limits = RateLimits.from_response(response)
        if response.status_code == 200:
            body = response.json()
            tokens = (
                IssuedTokens(body["access_token"], body["refresh_token"], body["expires_in"], body.get("scope"))
                if self.oauth_client_id
                else IssuedTokens(body["accessToken"], body["refreshToken"], body["expiresIn"])
            )
            self.access_token, self.refresh_token = tokens.access_token, tokens.refresh_token
            if self.on_tokens:
                self.on_tokens(tokens)
            return _Outcome()
        if _is_dead_refresh_token(response, oauth=bool(self.oauth_client_id)):
            self.access_token = self.refresh_token = None
            return _Outcome(response=response, signed_out=True)
        return _Outcome(response=response)

    def is_sign_in_request(self, request: httpx.Request) -> bool:
        """Sign-in endpoints take no bearer token and answer 401 for their own reasons: never refresh on them."""
        return request.url.path.startswith(httpx.URL(self.base_url).path.rstrip("/") + "/auth/")


def _is_dead_refresh_token(response: httpx.Response, *, oauth: bool) -> bool:
    try:
        body: Any = response.json()
    except ValueError:
        return False
    if oauth:
        return response.status_code == 400 and body.get("error") == "invalid_grant"
    return response.status_code == 401


def _is_token_expired(response: httpx.Response) -> bool:
    if response.status_code != 401:
        return False
    try:
        return response.json().get("code") == "TOKEN_EXPIRED"
    except (ValueError, AttributeError):
        return False


def _replay(response: httpx.Response) -> httpx.Response:
    """Each caller gets its own copy of a shared refresh's failure (a 429 with its Retry-After, say)."""
    return httpx.Response(response.status_code, headers=response.headers, content=response.content)


def send_with_retry(transport: httpx.BaseTransport, request: httpx.Request, retry: RetryPolicy | None) -> httpx.Response:
    attempt = 1
    while True:
        response = transport.handle_request(request)
        delay = retry.delay(response) if retry and attempt < retry.max_attempts else None
        if delay is None:
            return response
        response.close()
        retry.sleep(delay)
        attempt += 1


async def send_with_retry_async(
    transport: httpx.AsyncBaseTransport, request: httpx.Request, retry: RetryPolicy | None
) -> httpx.Response:
    attempt = 1
    while True:
        response = await transport.handle_async_request(request)
        delay = retry.delay(response) if retry and attempt < retry.max_attempts else None
        if delay is None:
            return response
        await response.aclose()
        await retry.async_sleep(delay)
        attempt += 1


def _authorize(request: httpx.Request, token: str | None) -> None:
    if token and "authorization" not in request.headers:
        request.headers["authorization"] = f"Bearer {token}"


class SessionTransport(httpx.BaseTransport):
    """The sync transport: bearer token, one shared refresh on TOKEN_EXPIRED, optional wait on 429."""

    def __init__(self, state: SessionState, inner: httpx.BaseTransport | None = None):
        self.state = state
        self.inner = inner or httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        state = self.state
        own_header = "authorization" in request.headers
        generation, token = state.snapshot()
        _authorize(request, token)
        response = send_with_retry(self.inner, request, state.retry)
        if response.status_code == 401 and not own_header and not state.is_sign_in_request(request) and state.refresh_token:
            response.read()
            if _is_token_expired(response):
                outcome = state.refresh_once(generation)
                if outcome.response is not None and not outcome.signed_out:
                    return self._record(request, _replay(outcome.response))
                if not outcome.signed_out:
                    response.close()
                    del request.headers["authorization"]
                    _authorize(request, state.access_token)
                    response = send_with_retry(self.inner, request, state.retry)
        return self._record(request, response)

    def _record(self, request: httpx.Request, response: httpx.Response) -> httpx.Response:
        self.state.last_rate_limits = RateLimits.from_response(response)
        warn_if_deprecated(request, response)
        return response

    def close(self) -> None:
        self.inner.close()


class AsyncSessionTransport(httpx.AsyncBaseTransport):
    """The asyncio transport; its refresh runs in a worker thread under the same lock as the sync one."""

    def __init__(self, state: SessionState, inner: httpx.AsyncBaseTransport | None = None):
        self.state = state
        self.inner = inner or httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        state = self.state
        own_header = "authorization" in request.headers
        generation, token = state.snapshot()
        _authorize(request, token)
        response = await send_with_retry_async(self.inner, request, state.retry)
        if response.status_code == 401 and not own_header and not state.is_sign_in_request(request) and state.refresh_token:
            await response.aread()
            if _is_token_expired(response):
                outcome = await asyncio.to_thread(state.refresh_once, generation)
                if outcome.response is not None and not outcome.signed_out:
                    return self._record(request, _replay(outcome.response))
                if not outcome.signed_out:
                    await response.aclose()
                    del request.headers["authorization"]
                    _authorize(request, state.access_token)
                    response = await send_with_retry_async(self.inner, request, state.retry)
        return self._record(request, response)

    def _record(self, request: httpx.Request, response: httpx.Response) -> httpx.Response:
        self.state.last_rate_limits = RateLimits.from_response(response)
        warn_if_deprecated(request, response)
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()
