"""The webhook verifier on real deliveries: the server signs and POSTs events to a receiver on 127.0.0.1
(docs/webhooks.md), and verify_webhook takes them as they arrived, raw body and headers."""

from __future__ import annotations

import base64
import os
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from standardwebhooks import Webhook

from task_service import WebhookVerificationError, verify_webhook
from task_service.generated.api.tasks import create_task, delete_task, update_task
from task_service.generated.api.webhooks import create_webhook, ping_webhook, rotate_webhook_secret
from task_service.models import Task, TaskCreate, TaskStatus, TaskUpdate, WebhookCreate, WebhookCreated, WebhookEventType

from .conftest import Server


@dataclass(frozen=True)
class Delivery:
    path: str
    #: Lower-case names.
    headers: dict[str, str]
    body: bytes


class Receiver:
    """A subscriber's endpoint on 127.0.0.1: keeps every delivery exactly as it arrived and answers 204."""

    def __init__(self) -> None:
        self.deliveries: list[Delivery] = []
        self._arrived = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                with receiver._arrived:
                    receiver.deliveries.append(Delivery(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                    receiver._arrived.notify_all()
                self.send_response(204)
                self.end_headers()

            def log_message(self, format: str, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}{path}"

    def wait_for(self, path: str, count: int, timeout: float = 30.0) -> list[Delivery]:
        """The first `count` deliveries to `path`, once they have all arrived."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while len(arrived := [d for d in self.deliveries if d.path == path]) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{len(arrived)} of {count} deliveries to {path} arrived within {timeout} s")
                self._arrived.wait(left)
            return arrived[:count]

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


@pytest.fixture(scope="module")
def receiver() -> Iterator[Receiver]:
    listening = Receiver()
    yield listening
    listening.close()


def subscribe(server: Server, receiver: Receiver, events: list[WebhookEventType]):
    service, _ = server.signed_in()
    path = f"/hook-{uuid.uuid4().hex[:8]}"
    hook = create_webhook.sync(client=service.client, body=WebhookCreate(url=receiver.url(path), events=events))
    assert isinstance(hook, WebhookCreated), hook
    return service, hook, path


def test_real_task_deliveries_are_accepted_by_the_verifier_with_their_rest_shapes(server: Server, receiver: Receiver) -> None:
    service, hook, path = subscribe(
        server, receiver, [WebhookEventType.TASK_CREATED, WebhookEventType.TASK_UPDATED, WebhookEventType.TASK_DELETED]
    )
    created = create_task.sync(client=service.client, body=TaskCreate(title="Hooked from Python ☕"))
    assert isinstance(created, Task)
    updated = update_task.sync(task_id=created.id, client=service.client, body=TaskUpdate(status=TaskStatus.COMPLETED))
    assert isinstance(updated, Task)
    delete_task.sync(task_id=created.id, client=service.client)

    events = [verify_webhook(d.body, d.headers, hook.secret) for d in receiver.wait_for(path, 3)]
    by_type = {event["type"]: event["data"] for event in events}
    assert by_type.keys() == {"task.created", "task.updated", "task.deleted"}
    assert Task.from_dict(by_type["task.created"]) == created
    assert Task.from_dict(by_type["task.updated"]) == updated
    assert by_type["task.deleted"]["taskId"] == str(created.id)
    # The reference implementation reads the same deliveries the same way.
    for delivery, event in zip(receiver.wait_for(path, 3), events, strict=True):
        assert Webhook(hook.secret).verify(delivery.body, delivery.headers) == event


@pytest.fixture
def delivered_ping(server: Server, receiver: Receiver) -> tuple[Delivery, str]:
    """A real webhook.ping delivery and the secret it was signed with."""
    service, hook, path = subscribe(server, receiver, [WebhookEventType.TASK_CREATED])
    ping_webhook.sync(webhook_id=hook.id, client=service.client)
    (delivery,) = receiver.wait_for(path, 1)
    assert verify_webhook(delivery.body, delivery.headers, hook.secret)["type"] == "webhook.ping"
    return delivery, hook.secret


def _changed_body(delivery: Delivery) -> tuple[bytes, dict[str, str]]:
    return delivery.body.replace(b'"webhook.ping"', b'"task.deleted"'), delivery.headers


def _restamped(delivery: Delivery) -> tuple[bytes, dict[str, str]]:
    # Stamped again as if sent just now: the signature covers the timestamp, so it no longer matches.
    headers = {**delivery.headers, "webhook-timestamp": str(int(delivery.headers["webhook-timestamp"]) + 1)}
    return delivery.body, headers


@pytest.mark.parametrize(
    "tamper",
    [pytest.param(_changed_body, id="a changed body"), pytest.param(_restamped, id="another timestamp")],
)
def test_a_real_delivery_that_was_changed_is_refused(
    delivered_ping: tuple[Delivery, str], tamper: Callable[[Delivery], tuple[bytes, dict[str, str]]]
) -> None:
    delivery, secret = delivered_ping
    body, headers = tamper(delivery)
    with pytest.raises(WebhookVerificationError, match="No signature"):
        verify_webhook(body, headers, secret)


def test_a_real_delivery_is_refused_with_another_secret(delivered_ping: tuple[Delivery, str]) -> None:
    delivery, _ = delivered_ping
    other = "whsec_" + base64.b64encode(os.urandom(32)).decode()
    with pytest.raises(WebhookVerificationError, match="No signature"):
        verify_webhook(delivery.body, delivery.headers, other)


def test_a_real_delivery_replayed_more_than_five_minutes_later_is_refused(delivered_ping: tuple[Delivery, str]) -> None:
    delivery, secret = delivered_ping
    sent = int(delivery.headers["webhook-timestamp"])
    assert abs(sent - time.time()) < 60
    assert verify_webhook(delivery.body, delivery.headers, secret, now=sent + 299)["type"] == "webhook.ping"
    with pytest.raises(WebhookVerificationError, match="away from now"):
        verify_webhook(delivery.body, delivery.headers, secret, now=sent + 301)


def test_after_a_rotation_a_real_delivery_verifies_with_the_new_secret_and_with_the_old(
    server: Server, receiver: Receiver
) -> None:
    service, hook, path = subscribe(server, receiver, [WebhookEventType.TASK_CREATED])
    rotated = rotate_webhook_secret.sync(webhook_id=hook.id, client=service.client)
    assert isinstance(rotated, WebhookCreated) and rotated.secret != hook.secret
    ping_webhook.sync(webhook_id=hook.id, client=service.client)

    (delivery,) = receiver.wait_for(path, 1)
    assert len(delivery.headers["webhook-signature"].split(" ")) == 2
    for secret in (rotated.secret, hook.secret, [hook.secret, rotated.secret]):
        assert verify_webhook(delivery.body, delivery.headers, secret)["data"]["webhookId"] == str(hook.id)
