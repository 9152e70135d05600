"""Deprecation warnings and the contract version, against the real server."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import httpx

from task_service import CONTRACT_VERSION

from .conftest import PROJECT_ROOT, Server

# A fresh process: the warning is once per process, and this one may have warned already.
SCRIPT = textwrap.dedent(
    """
    import datetime, json, sys, warnings
    from task_service import TaskService, TaskServiceDeprecationWarning
    from task_service.generated.api.tasks import list_tasks

    service = TaskService(sys.argv[1], access_token=sys.argv[2])
    with warnings.catch_warnings(record=True) as caught:
        list_tasks.sync(client=service.client)
        for day in (1, 2):
            since = datetime.datetime(2026, 1, day, tzinfo=datetime.UTC)
            list_tasks.sync(client=service.client, updated_since=since)
    print(json.dumps([
        {"category": w.category.__name__, "deprecation": issubclass(w.category, DeprecationWarning), "message": str(w.message)}
        for w in caught if issubclass(w.category, TaskServiceDeprecationWarning)
    ]))
    """
)


def test_a_deprecated_parameter_warns_once_per_process_naming_the_operation_and_sunset(server: Server) -> None:
    service, _ = server.signed_in()
    run = subprocess.run(
        [sys.executable, "-c", SCRIPT, server.base_url, service.access_token or ""],
        cwd=Path(__file__).resolve().parents[1],
        capture_output=True,
        text=True,
        check=True,
    )
    caught = json.loads(run.stdout)
    assert len(caught) == 1, caught
    assert caught[0]["category"] == "TaskServiceDeprecationWarning"
    assert caught[0]["deprecation"] is True
    message = caught[0]["message"]
    assert "listTasks (GET /tasks)" in message
    assert "Tue, 01 Jun 2027 00:00:00 GMT" in message
    assert f"{server.base_url}/docs#operation/listTasks" in message


def test_the_sdk_says_the_contract_version_the_server_serves(server: Server) -> None:
    served = httpx.get(f"{server.base_url}/openapi.json").json()
    assert CONTRACT_VERSION == served["info"]["version"]
    document = (PROJECT_ROOT / "openapi" / "openapi.yaml").read_text()
    assert re.search(r"^  version: '?([^'\n]+)'?$", document, re.MULTILINE).group(1) == CONTRACT_VERSION
    with open(PROJECT_ROOT / "sdk-python" / "pyproject.toml", "rb") as pyproject:
        assert tomllib.load(pyproject)["project"]["version"] == CONTRACT_VERSION
