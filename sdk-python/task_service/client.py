"""TaskService: the generated client with sign-in kept, tokens refreshed, budgets readable and pages walked.

    service = TaskService("https://tasks.example.com")
    service.login("ada@example.com", "correct horse battery staple")
    create_task.sync(client=service.client, body=TaskCreate(title="Write the notes"))

Every generated operation (task_service.generated.api.<tag>.<operation>) takes `client=service.client`,
sync (`.sync`, `.sync_detailed`) or async (`.asyncio`, `.asyncio_detailed`); both go through the session
layer of session.py, and an error answer (4xx, 5xx) raises ApiError (code, status, message, retry_after)
once the session has refreshed or waited what it may.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx

from .errors import ApiError, OAuthFlowError, araise_for_error, raise_for_error
from .generated import Client
from .generated.api.auth import login as login_op
from .generated.api.auth import logout as logout_op
from .generated.api.auth import register_account
from .generated.api.oauth import get_authorization_server_metadata
from .generated.api.tasks import list_labels as list_labels_op
from .generated.api.tasks import list_tasks
from .generated.models import (
    AuthorizationServerMetadata,
    Error,
    LabelList,
    LabelListItemsItem,
    ListTasksPriorityItem,
    ListTasksSort,
    ListTasksStatus,
    LoginRequest,
    RefreshRequest,
    RegisterRequest,
    Task,
    TaskList,
    TokenPair,
)
from .generated.types import UNSET, Response, Unset
from .rate_limits import RateLimits
from .session import AsyncSessionTransport, IssuedTokens, RetryPolicy, SessionState, SessionTransport


@dataclass(frozen=True)
class Authorization:
    """Send the user to `url`; keep `state` and `code_verifier` until the callback comes back."""

    url: str
    state: str
    code_verifier: str
    redirect_uri: str


class TaskService:
    """One account's connection to the Task Service (or an anonymous one until it signs in)."""

    def __init__(
        self,
        base_url: str,
        *,
        access_token: str | None = None,
        refresh_token: str | None = None,
        api_token: str | None = None,
        oauth_client_id: str | None = None,
        retry: RetryPolicy | bool = False,
        on_tokens: Callable[[IssuedTokens], None] | None = None,
        timeout: float = 30.0,
        transport: httpx.BaseTransport | None = None,
        async_transport: httpx.AsyncBaseTransport | None = None,
    ):
        """
        `api_token` (a `tsk_` token) or an access/refresh pair; `oauth_client_id` makes the client an OAuth
        app (refreshes at the token endpoint, `create_authorization` / `exchange_code` for the PKCE flow).
        `retry=True` (or a RetryPolicy) waits out 429s; `on_tokens` is called with every new pair: store it.
        """
        self.base_url = base_url.rstrip("/")
        self._state = SessionState(
            base_url=self.base_url,
            access_token=api_token or access_token,
            refresh_token=None if api_token else refresh_token,
            on_tokens=on_tokens,
            retry=RetryPolicy() if retry is True else (retry or None),
            oauth_client_id=oauth_client_id,
        )
        self._metadata: AuthorizationServerMetadata | None = None
        self.client = Client(base_url=self.base_url, raise_on_unexpected_status=True)
        # The response hooks run after the session transport's refresh and 429 waits: what is left is the answer.
        self.client.set_httpx_client(
            httpx.Client(
                base_url=self.base_url,
                timeout=timeout,
                transport=SessionTransport(self._state, transport),
                event_hooks={"response": [raise_for_error]},
            )
        )
        self.client.set_async_httpx_client(
            httpx.AsyncClient(
                base_url=self.base_url,
                timeout=timeout,
                transport=AsyncSessionTransport(self._state, async_transport),
                event_hooks={"response": [araise_for_error]},
            )
        )

    # -- tokens -------------------------------------------------------------------------------------------

    @property
    def access_token(self) -> str | None:
        return self._state.access_token

    @property
    def refresh_token(self) -> str | None:
        return self._state.refresh_token

    @property
    def refresh_count(self) -> int:
        """How many refreshes this client has sent (parallel calls that met one expiry share one)."""
        return self._state.refresh_count

    def set_tokens(self, access_token: str | None, refresh_token: str | None = None) -> None:
        self._state.set_tokens(access_token, refresh_token)

    @property
    def retry(self) -> RetryPolicy | None:
        """The 429 policy (None: a 429 is handed back at once); may be changed at any time."""
        return self._state.retry

    @retry.setter
    def retry(self, policy: RetryPolicy | bool | None) -> None:
        self._state.retry = RetryPolicy() if policy is True else (policy or None)

    # -- budgets ------------------------------------------------------------------------------------------

    @property
    def rate_limits(self) -> RateLimits:
        """The budgets the last response reported (windows with limit, remaining and reset seconds)."""
        return self._state.last_rate_limits

    @property
    def is_rate_limited(self) -> bool:
        """The last response was a 429."""
        return self._state.last_rate_limits.is_rate_limited

    @property
    def retry_after_seconds(self) -> int | None:
        """After a 429: the seconds to wait (Retry-After; 60 when the server sent none)."""
        return self._state.last_rate_limits.retry_after_seconds

    # -- first-party sign-in ------------------------------------------------------------------------------

    def register(self, email: str, password: str, name: str | None = None) -> TokenPair:
        """Creates the account and signs in as it (the tokens are kept)."""
        body = RegisterRequest(email=email, password=password, name=name if name is not None else UNSET)
        return self._keep(register_account.sync_detailed(client=self.client, body=body))

    def login(self, email: str, password: str) -> TokenPair:
        """Signs in with email and password (a first-party app); the tokens are kept and refreshed from then on."""
        return self._keep(login_op.sync_detailed(client=self.client, body=LoginRequest(email=email, password=password)))

    def logout(self) -> None:
        """Ends this session on the server and forgets its tokens."""
        if self._state.refresh_token:
            answer = logout_op.sync_detailed(client=self.client, body=RefreshRequest(refresh_token=self._state.refresh_token))
            if answer.status_code != 204:
                raise _api_error(answer)
        self._state.set_tokens(None, None)

    def _keep(self, answer: Response[Error | TokenPair]) -> TokenPair:
        if not isinstance(answer.parsed, TokenPair):
            raise _api_error(answer)
        pair = answer.parsed
        self._state.adopt(IssuedTokens(pair.access_token, pair.refresh_token, pair.expires_in))
        return pair

    # -- OAuth app: authorization code with PKCE ----------------------------------------------------------

    def authorization_server(self) -> AuthorizationServerMetadata:
        if self._metadata is None:
            answer = get_authorization_server_metadata.sync_detailed(client=self.client)
            if not isinstance(answer.parsed, AuthorizationServerMetadata):
                raise _api_error(answer)
            if answer.parsed.issuer.rstrip("/") != self.base_url:
                raise OAuthFlowError(
                    "invalid_metadata", f"The metadata names issuer {answer.parsed.issuer}, not {self.base_url}."
                )
            self._metadata = answer.parsed
            self._state.token_endpoint = answer.parsed.token_endpoint
        return self._metadata

    def create_authorization(self, redirect_uri: str, scope: str | None = None) -> Authorization:
        """The URL to send the user to, with a fresh PKCE verifier (S256) and state to keep until the callback."""
        client_id = self._oauth_client_id()
        verifier = _urlsafe(secrets.token_bytes(32))
        state = _urlsafe(secrets.token_bytes(18))
        query = {
            "response_type": "code",
            "client_id": client_id,
            "redirect_uri": redirect_uri,
            "code_challenge": _urlsafe(hashlib.sha256(verifier.encode()).digest()),
            "code_challenge_method": "S256",
            "state": state,
            **({"scope": scope} if scope else {}),
        }
        url = f"{self.authorization_server().authorization_endpoint}?{urlencode(query)}"
        return Authorization(url=url, state=state, code_verifier=verifier, redirect_uri=redirect_uri)

    def exchange_code(self, callback_url: str, authorization: Authorization) -> IssuedTokens:
        """Checks the callback (state, `iss`), exchanges its code for tokens and keeps them."""
        query = {key: values[0] for key, values in parse_qs(urlsplit(callback_url).query).items()}
        if query.get("state") != authorization.state:
            raise OAuthFlowError("state_mismatch", "The callback does not carry the state of this sign-in.")
        if "error" in query:
            raise OAuthFlowError(query["error"], query.get("error_description", "The authorisation was refused."))
        metadata = self.authorization_server()
        if "iss" in query and query["iss"] != metadata.issuer:
            raise OAuthFlowError("issuer_mismatch", f"The callback comes from issuer {query['iss']}, not {metadata.issuer}.")
        if "code" not in query:
            raise OAuthFlowError("invalid_callback", "The callback carries no code.")
        form = {
            "grant_type": "authorization_code",
            "client_id": self._oauth_client_id(),
            "redirect_uri": authorization.redirect_uri,
            "code": query["code"],
            "code_verifier": authorization.code_verifier,
        }
        response = self.client.get_httpx_client().post(metadata.token_endpoint, data=form, headers={"accept": "application/json"})
        if response.status_code != 200:
            raise OAuthFlowError(
                response.json().get("error", "invalid_grant"), response.json().get("error_description", response.text)
            )
        body = response.json()
        tokens = IssuedTokens(body["access_token"], body["refresh_token"], body["expires_in"], body.get("scope"))
        self._state.adopt(tokens)
        return tokens

    def _oauth_client_id(self) -> str:
        if not self._state.oauth_client_id:
            raise ValueError("TaskService(..., oauth_client_id=...) is needed for the OAuth code flow.")
        return self._state.oauth_client_id

    # -- pages --------------------------------------------------------------------------------------------

    def iter_tasks(
        self,
        status: ListTasksStatus | str | None = None,
        page_size: int = 100,
        *,
        q: str | None = None,
        label: Sequence[str] | None = None,
        priority: Sequence[int] | None = None,
        due_after: datetime | None = None,
        due_before: datetime | None = None,
        has_due: bool | None = None,
        sort: ListTasksSort | str | None = None,
    ) -> Iterator[Task]:
        """
        Every task of the account that matches, page after page, in `sort`'s order; raises ApiError if a page
        is refused. `q`: words that each start a word of the title or notes (no case, no accents); `label`:
        every one of them (any case); `priority`: any of them; `due_after` / `due_before`: due in
        [due_after, due_before); `has_due`; `sort`: created, -created, updated, -updated, due or priority.
        """
        filters = _filters(status, q, label, priority, due_after, due_before, has_due, sort)
        cursor: str | Unset = UNSET
        while True:
            answer = list_tasks.sync_detailed(client=self.client, cursor=cursor, limit=page_size, **filters)
            page = _page(answer)
            yield from page.items
            if not page.next_cursor:
                return
            cursor = page.next_cursor

    async def aiter_tasks(
        self,
        status: ListTasksStatus | str | None = None,
        page_size: int = 100,
        *,
        q: str | None = None,
        label: Sequence[str] | None = None,
        priority: Sequence[int] | None = None,
        due_after: datetime | None = None,
        due_before: datetime | None = None,
        has_due: bool | None = None,
        sort: ListTasksSort | str | None = None,
    ) -> AsyncIterator[Task]:
        """`iter_tasks` for asyncio."""
        filters = _filters(status, q, label, priority, due_after, due_before, has_due, sort)
        cursor: str | Unset = UNSET
        while True:
            answer = await list_tasks.asyncio_detailed(client=self.client, cursor=cursor, limit=page_size, **filters)
            page = _page(answer)
            for task in page.items:
                yield task
            if not page.next_cursor:
                return
            cursor = page.next_cursor

    def list_labels(self) -> list[LabelListItemsItem]:
        """The account's labels, the most used first, each with how many open tasks carry it; raises ApiError."""
        answer = list_labels_op.sync_detailed(client=self.client)
        if not isinstance(answer.parsed, LabelList):
            raise _api_error(answer)
        return list(answer.parsed.items)

    # -- lifetime -----------------------------------------------------------------------------------------

    def close(self) -> None:
        self.client.get_httpx_client().close()

    async def aclose(self) -> None:
        await self.client.get_async_httpx_client().aclose()

    def __enter__(self) -> TaskService:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def __aenter__(self) -> TaskService:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


def _filters(
    status: ListTasksStatus | str | None,
    q: str | None,
    label: Sequence[str] | None,
    priority: Sequence[int] | None,
    due_after: datetime | None,
    due_before: datetime | None,
    has_due: bool | None,
    sort: ListTasksSort | str | None,
) -> dict[str, Any]:
    """listTasks' filters, only those given, as the generated operation takes them."""
    given: dict[str, Any] = {
        "status": None if status is None else ListTasksStatus(status),
        "q": q,
        "label": None if label is None else list(label),
        "priority": None if priority is None else [ListTasksPriorityItem(p) for p in priority],
        "due_after": due_after,
        "due_before": due_before,
        "has_due": has_due,
        "sort": None if sort is None else ListTasksSort(sort),
    }
    return {name: value for name, value in given.items() if value is not None}


def _page(answer: Response[Error | TaskList]) -> TaskList:
    if not isinstance(answer.parsed, TaskList):
        raise _api_error(answer)
    return answer.parsed


def _api_error(answer: Response) -> ApiError:  # type: ignore[type-arg]
    parsed = answer.parsed if isinstance(answer.parsed, Error) else None
    return ApiError(int(answer.status_code), parsed, answer.content.decode(errors="replace"))


def _urlsafe(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
