"""The webhook verifier (docs/webhooks.md): signatures computed per the Standard Webhooks spec here, and
cross-checked both ways with the `standardwebhooks` package (the reference implementation)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import time
from datetime import UTC, datetime

import pytest
from standardwebhooks import Webhook
from standardwebhooks import WebhookVerificationError as ReferenceVerificationError

from task_service import WebhookVerificationError, sign_webhook, verify_webhook

SECRET = "whsec_" + base64.b64encode(os.urandom(32)).decode()
OTHER_SECRET = "whsec_" + base64.b64encode(os.urandom(32)).decode()
BODY = json.dumps(
    {"type": "task.created", "timestamp": "2026-11-25T12:00:00.000Z", "data": {"id": "5b8c0f2e", "title": "Café ☕"}},
    separators=(",", ":"),
    ensure_ascii=False,
).encode()


def spec_signature(secret: str, webhook_id: str, timestamp: int, body: bytes) -> str:
    """Standard Webhooks: v1, base64 of HMAC-SHA256 over "{id}.{timestamp}.{body}", keyed with the secret's bytes."""
    key = base64.b64decode(secret.removeprefix("whsec_"))
    return "v1," + base64.b64encode(hmac.new(key, f"{webhook_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()).decode()


def headers(signature: str, timestamp: int, webhook_id: str = "msg_2tTaQ9pN6jmuFDe5zBH7nQ") -> dict[str, str]:
    return {"Webhook-Id": webhook_id, "Webhook-Timestamp": str(timestamp), "Webhook-Signature": signature}


def test_a_delivery_signed_per_the_spec_is_verified_and_its_payload_returned() -> None:
    now = int(time.time())
    payload = verify_webhook(BODY, headers(spec_signature(SECRET, "msg_2tTaQ9pN6jmuFDe5zBH7nQ", now, BODY), now), SECRET)
    assert payload["type"] == "task.created" and payload["data"]["title"] == "Café ☕"
    assert verify_webhook(BODY.decode(), headers(spec_signature(SECRET, "msg_2tTaQ9pN6jmuFDe5zBH7nQ", now, BODY), now), SECRET)


def test_during_a_rotation_either_of_several_signatures_will_do() -> None:
    now = int(time.time())
    webhook_id = "msg_2tTaQ9pN6jmuFDe5zBH7nQ"
    both = f"{spec_signature(OTHER_SECRET, webhook_id, now, BODY)} {spec_signature(SECRET, webhook_id, now, BODY)}"
    assert verify_webhook(BODY, headers(both, now), SECRET)["type"] == "task.created"
    assert verify_webhook(BODY, headers(both, now), OTHER_SECRET)["type"] == "task.created"
    # A receiver holding both secrets accepts a delivery signed with either.
    only_old = spec_signature(OTHER_SECRET, "msg_2tTaQ9pN6jmuFDe5zBH7nQ", now, BODY)
    assert verify_webhook(BODY, headers(only_old, now), [SECRET, OTHER_SECRET])["type"] == "task.created"


@pytest.mark.parametrize(
    "tamper",
    [
        pytest.param(lambda body, h: (body.replace(b"Caf", b"Kaf"), h), id="a changed body"),
        pytest.param(lambda body, h: (body, {**h, "Webhook-Id": "msg_other"}), id="another id"),
        pytest.param(
            lambda body, h: (body, {**h, "Webhook-Timestamp": str(int(h["Webhook-Timestamp"]) + 1)}), id="another timestamp"
        ),
        pytest.param(
            lambda body, h: (body, {**h, "Webhook-Signature": "v2," + h["Webhook-Signature"][3:]}), id="an unknown version"
        ),
        pytest.param(lambda body, h: (body, {k: v for k, v in h.items() if k != "Webhook-Signature"}), id="no signature"),
    ],
)
def test_a_delivery_that_was_changed_or_is_incomplete_is_refused(tamper) -> None:
    now = int(time.time())
    body, changed = tamper(BODY, headers(spec_signature(SECRET, "msg_2tTaQ9pN6jmuFDe5zBH7nQ", now, BODY), now))
    with pytest.raises(WebhookVerificationError):
        verify_webhook(body, changed, SECRET)


def test_the_wrong_secret_is_refused() -> None:
    now = int(time.time())
    with pytest.raises(WebhookVerificationError):
        verify_webhook(BODY, headers(spec_signature(SECRET, "msg_1", now, BODY), now, "msg_1"), OTHER_SECRET)


@pytest.mark.parametrize("offset", [-301, 301, -3600])
def test_a_timestamp_more_than_five_minutes_away_is_refused(offset: int) -> None:
    when = int(time.time()) + offset
    with pytest.raises(WebhookVerificationError):
        verify_webhook(BODY, headers(spec_signature(SECRET, "msg_1", when, BODY), when, "msg_1"), SECRET)


@pytest.mark.parametrize("offset", [-299, 0, 299])
def test_a_timestamp_within_five_minutes_is_accepted(offset: int) -> None:
    now = time.time()
    when = int(now) + offset
    assert verify_webhook(BODY, headers(spec_signature(SECRET, "msg_1", when, BODY), when, "msg_1"), SECRET, now=int(now))


def test_the_reference_package_and_this_verifier_agree_both_ways() -> None:
    now = datetime.now(UTC)
    stamp = int(now.timestamp())
    reference = Webhook(SECRET)
    # Signed by the reference package, verified here.
    theirs = reference.sign("msg_ref", now, BODY.decode())
    assert theirs == spec_signature(SECRET, "msg_ref", stamp, BODY)
    assert verify_webhook(BODY, headers(theirs, stamp, "msg_ref"), SECRET)["type"] == "task.created"
    # Signed here (as the service signs), verified by the reference package, two signatures included.
    ours = f"{sign_webhook(OTHER_SECRET, 'msg_ours', stamp, BODY)} {sign_webhook(SECRET, 'msg_ours', stamp, BODY)}"
    assert reference.verify(BODY, headers(ours, stamp, "msg_ours"))["type"] == "task.created"
    with pytest.raises(ReferenceVerificationError):
        Webhook(OTHER_SECRET).verify(BODY, headers(sign_webhook(SECRET, "msg_ours", stamp, BODY), stamp, "msg_ours"))


def test_a_secret_that_is_not_whsec_base64_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="whsec_"):
        sign_webhook("whsec_not base64!", "msg_1", 0, BODY)
