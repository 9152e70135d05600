"""Warns once per process when a response says that what the request used is deprecated.

The server answers a request that used a deprecated operation or parameter with `Deprecation` (RFC 9745),
`Sunset` (RFC 8594, the date it stops working) and `Link: <...>; rel="deprecation"` (how to migrate):
docs/versioning.md of the service.
"""

from __future__ import annotations

import re
import threading
import warnings
from urllib.parse import urljoin

import httpx

#: The version of the API contract (openapi/openapi.yaml's info.version) this SDK was generated from.
CONTRACT_VERSION = "1.0.0"


class TaskServiceDeprecationWarning(DeprecationWarning):
    """A call used an operation or parameter of the Task Service that goes away at its sunset date."""


# Python hides DeprecationWarning outside __main__; this one is for the app's developer, so it is shown
# (an app's own filters, set after importing task_service, still win).
warnings.filterwarnings("default", category=TaskServiceDeprecationWarning)

_LINK = re.compile(r'<([^>]*)>\s*;\s*rel="?deprecation"?', re.IGNORECASE)
_OPERATION = re.compile(r"#operation/([\w-]+)")
_warned: set[str] = set()
_lock = threading.Lock()


def warn_if_deprecated(request: httpx.Request, response: httpx.Response) -> None:
    """Issues a TaskServiceDeprecationWarning the first time in this process an operation's response carries Deprecation."""
    if "deprecation" not in response.headers:
        return
    match = _LINK.search(response.headers.get("link", ""))
    link = urljoin(str(request.url), match.group(1)) if match else None
    operation_id = _OPERATION.search(link).group(1) if link and _OPERATION.search(link) else None
    where = f"{request.method} {request.url.path}"
    sunset = response.headers.get("sunset")
    key = f"{operation_id or where} {sunset}"
    with _lock:
        if key in _warned:
            return
        _warned.add(key)
    named = f"{operation_id} ({where})" if operation_id else where
    message = f"Task Service: {named} used something deprecated"
    if sunset:
        message += f"; it stops working after {sunset}"
    if link:
        message += f". How to migrate: {link}"
    warnings.warn(message, TaskServiceDeprecationWarning, stacklevel=2)
