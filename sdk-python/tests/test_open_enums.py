"""Values a later minor version adds to an open enum (x-open-enum, docs/versioning.md) are taken, not refused.

The real server never sends such a value, so a stand-in on 127.0.0.1 answers them: this is the one test
that does not talk to the real server.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from task_service import ApiError, TaskService
from task_service.generated.api.connectors import list_connectors
from task_service.generated.api.tasks import get_task
from task_service.models import Connector, ConnectorType, ErrorCode

ANSWERS = {
    "/tasks/6f1c2b3a-0000-4000-8000-000000000001": (
        409,
        {"statusCode": 409, "code": "TASK_ARCHIVED", "message": "The task is archived."},
    ),
    "/connectors": (200, {"items": [{"type": "jira", "name": "Jira issues", "maxAccounts": 5}]}),
}


class _Later(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        status, body = ANSWERS.get(self.path, (404, {"statusCode": 404, "code": "NOT_FOUND", "message": "No."}))
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def later_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Later)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_an_unknown_error_code_is_raised_as_sent(later_server: str) -> None:
    with TaskService(later_server, api_token="tsk_test") as service, pytest.raises(ApiError) as raised:
        get_task.sync(task_id="6f1c2b3a-0000-4000-8000-000000000001", client=service.client)
    assert (raised.value.status, raised.value.code, raised.value.message) == (409, "TASK_ARCHIVED", "The task is archived.")
    assert raised.value.error is not None and raised.value.error.code == "TASK_ARCHIVED"
    assert raised.value.error.code.name == "UNKNOWN"
    assert ErrorCode("NOT_FOUND") is ErrorCode.NOT_FOUND


def test_an_unknown_connector_type_is_read_like_a_known_one(later_server: str) -> None:
    with TaskService(later_server, api_token="tsk_test") as service:
        answer = list_connectors.sync(client=service.client)
    assert answer is not None
    [connector] = answer.items
    assert isinstance(connector, Connector)
    assert connector.type_ == "jira" and isinstance(connector.type_, ConnectorType)
    assert connector.to_dict() == {"type": "jira", "name": "Jira issues", "maxAccounts": 5}
