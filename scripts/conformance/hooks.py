"""Schemathesis hooks of `npm run conformance` (loaded through SCHEMATHESIS_HOOKS by scripts/conformance.sh).

A valid Idempotency-Key is made unique for every request. Schemathesis draws keys from a small space
and repeats requests across phases, and an identical create is a replay: it answers the first
response, as the document says, also when that task was deleted since, which the stateful phase would
report as "created but not found". Keys outside 1 to 255 characters are left as generated, so their
refusal is still checked; replays themselves are covered by contract-tests/tasks/crud.test.ts.
"""

import uuid

import schemathesis


@schemathesis.hook
def before_call(context, case, kwargs):
    headers = case.headers or {}
    for name in list(headers):
        value = headers[name]
        if name.lower() == "idempotency-key" and isinstance(value, str) and 1 <= len(value) <= 255:
            headers[name] = f"conformance-{uuid.uuid4()}"
