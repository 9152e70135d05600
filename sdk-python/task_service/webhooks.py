"""Checks that a webhook delivery comes from the Task Service (docs/webhooks.md, Standard Webhooks).

A delivery carries `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature`: one or more
space-separated `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, keyed with the secret's bytes
(the secret is `whsec_` + base64). During a secret rotation two signatures arrive: either may match.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from collections.abc import Iterable, Mapping
from typing import Any

#: How far a delivery's timestamp may be from now, either way (the Standard Webhooks default).
DEFAULT_TOLERANCE_SECONDS = 5 * 60


class WebhookVerificationError(Exception):
    """The delivery is not one to trust: a header is missing, it is too old (or from the future), or no signature matches."""


def sign_webhook(secret: str, webhook_id: str, timestamp: int, body: bytes | str) -> str:
    """The `v1,...` signature the service sends for this delivery (for tests and for replaying one)."""
    payload = body.encode() if isinstance(body, str) else body
    signed = f"{webhook_id}.{timestamp}.".encode() + payload
    digest = hmac.new(_secret_bytes(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def verify_webhook(
    body: bytes | str,
    headers: Mapping[str, str],
    secret: str | Iterable[str],
    *,
    tolerance_seconds: int = DEFAULT_TOLERANCE_SECONDS,
    now: float | None = None,
) -> Any:
    """Checks a delivery and returns its parsed JSON payload (`{type, timestamp, data}`).

    `body` must be the raw request body, exactly as received (not re-serialised JSON). `secret` may be
    several secrets (yours before and after a rotation). Raises WebhookVerificationError otherwise.
    """
    lowered = {key.lower(): value for key, value in headers.items()}
    webhook_id = lowered.get("webhook-id")
    timestamp_text = lowered.get("webhook-timestamp")
    signatures = lowered.get("webhook-signature")
    if not webhook_id or not timestamp_text or not signatures:
        raise WebhookVerificationError("The webhook-id, webhook-timestamp and webhook-signature headers are all needed.")
    try:
        timestamp = int(timestamp_text)
    except ValueError:
        raise WebhookVerificationError("webhook-timestamp is not a Unix time in seconds.") from None
    current = time.time() if now is None else now
    if abs(current - timestamp) > tolerance_seconds:
        raise WebhookVerificationError(f"The delivery's timestamp is more than {tolerance_seconds} s away from now.")

    secrets = [secret] if isinstance(secret, str) else list(secret)
    expected = [sign_webhook(s, webhook_id, timestamp, body).split(",", 1)[1] for s in secrets]
    for candidate in signatures.split(" "):
        version, _, value = candidate.partition(",")
        if version != "v1" or not value:
            continue
        if any(hmac.compare_digest(value.encode(), e.encode()) for e in expected):
            return json.loads(body)
    raise WebhookVerificationError("No signature of the delivery matches the secret.")


def _secret_bytes(secret: str) -> bytes:
    encoded = secret.removeprefix("whsec_")
    try:
        return base64.b64decode(encoded, validate=True)
    except binascii.Error:
        raise ValueError("A webhook secret is `whsec_` followed by base64 (as POST /webhooks returned it).") from None
