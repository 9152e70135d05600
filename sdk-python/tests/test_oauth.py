"""An OAuth app: authorization code with PKCE, then its tokens refreshed at the token endpoint."""

from __future__ import annotations

import re
from html import unescape

import httpx
import pytest

from task_service import Authorization, OAuthFlowError, TaskService
from task_service.generated.api.oauth import register_o_auth_client
from task_service.generated.api.tasks import create_task, list_tasks
from task_service.models import OAuthClientRegistration, OAuthClientRegistrationRequest, Task, TaskCreate, TaskList

from .conftest import PASSWORD, Server, expired

REDIRECT_URI = "https://app.example.com/oauth/callback"


def registered_app(server: Server) -> str:
    answer = register_o_auth_client.sync(
        client=server.service().client,
        body=OAuthClientRegistrationRequest(client_name="Python test app", redirect_uris=[REDIRECT_URI]),
    )
    assert isinstance(answer, OAuthClientRegistration)
    return answer.client_id


def consent_as_a_browser(authorization: Authorization, email: str) -> str:
    """What the user does in the browser: open the URL, sign in and allow. Returns the callback URL."""
    with httpx.Client(follow_redirects=False) as browser:
        page = browser.get(authorization.url)
        assert page.status_code == 200
        fields = {
            name: unescape(value) for name, value in re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', page.text)
        }
        answer = browser.post(
            str(page.url.copy_with(query=None)),
            data={**fields, "email": email, "password": PASSWORD, "decision": "allow"},
        )
    assert answer.status_code in (302, 303), answer.text[:500]
    return answer.headers["location"]


def test_an_app_signs_a_user_in_with_pkce_and_its_tokens_are_refreshed(server: Server) -> None:
    _, email = server.signed_in()
    app = TaskService(server.base_url, oauth_client_id=registered_app(server))
    authorization = app.create_authorization(REDIRECT_URI, scope="tasks:read tasks:write")
    assert "code_challenge_method=S256" in authorization.url and authorization.code_verifier not in authorization.url

    tokens = app.exchange_code(consent_as_a_browser(authorization, email), authorization)
    assert set(tokens.scope.split()) == {"tasks:read", "tasks:write"}
    assert isinstance(create_task.sync(client=app.client, body=TaskCreate(title="From the app")), Task)

    app.set_tokens(expired(app.access_token), app.refresh_token)
    page = list_tasks.sync(client=app.client)
    assert isinstance(page, TaskList) and [task.title for task in page.items] == ["From the app"]
    assert app.refresh_count == 1


def test_a_callback_with_another_state_is_refused(server: Server) -> None:
    _, email = server.signed_in()
    app = TaskService(server.base_url, oauth_client_id=registered_app(server))
    authorization = app.create_authorization(REDIRECT_URI)
    callback = consent_as_a_browser(authorization, email)
    forged = Authorization(
        url=authorization.url, state="another", code_verifier=authorization.code_verifier, redirect_uri=REDIRECT_URI
    )
    with pytest.raises(OAuthFlowError) as raised:
        app.exchange_code(callback, forged)
    assert raised.value.code == "state_mismatch"
