"""Starts the real server (src/main.ts, as contract-tests/support/server.ts does) on 127.0.0.1 and a fresh
database: every test that takes `server` runs once on SQLite and once on PostgreSQL."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from task_service import TaskService

PROJECT_ROOT = Path(__file__).resolve().parents[2]
POSTGRES_ADMIN_URL = os.environ.get("TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
PASSWORD = "correct horse battery staple"

#: The account's burst budget on the test server: small, so a test can spend it and meet a real 429.
ACCOUNT_BURST = 25
JWT_SECRET = "python-sdk-tests-secret-0123456789-abcdefghijklmnop"


@dataclass
class Server:
    base_url: str
    engine: str
    logs: list[str] = field(default_factory=list)

    def service(self, **options) -> TaskService:
        return TaskService(self.base_url, **options)

    def signed_in(self, **options) -> tuple[TaskService, str]:
        """A client signed in as a fresh account, and the account's email."""
        service = self.service(**options)
        email = unique_email()
        service.register(email, PASSWORD)
        return service, email


def unique_email(prefix: str = "py") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}@example.com"


def _psql(sql: str) -> None:
    subprocess.run(["psql", POSTGRES_ADMIN_URL, "-qc", sql], check=True, capture_output=True)


@pytest.fixture(scope="session", params=["sqlite", "postgres"])
def server(request: pytest.FixtureRequest) -> Iterator[Server]:
    engine = request.param
    workdir = Path(tempfile.mkdtemp(prefix="task-service-pytest-"))
    database_name = None
    if engine == "postgres":
        database_name = f"task_service_pytest_{uuid.uuid4().hex}"
        _psql(f"create database {database_name}")
        database_url = POSTGRES_ADMIN_URL.rsplit("/", 1)[0] + f"/{database_name}"
    else:
        database_url = f"sqlite:{workdir / 'db.sqlite'}"
    env = {
        **{k: v for k, v in os.environ.items() if k != "REDIS_URL"},
        "NODE_ENV": "test",
        "HOST": "127.0.0.1",
        "PORT": "0",
        "LOG_LEVEL": "info",
        "DATABASE_URL": database_url,
        "JWT_SECRET": JWT_SECRET,
        "CONNECTOR_SECRET_KEY": "0" * 64,
        "OPENAPI_VALIDATE_RESPONSES": "true",
        # A second refresh with a rotated token is reuse at once: a test would see two refreshes fail.
        "REFRESH_REUSE_INTERVAL_SECONDS": "0",
        "RATE_LIMIT_BURST_PER_MINUTE": str(ACCOUNT_BURST),
        "RATE_LIMIT_STRICT_BURST_PER_MINUTE": "10000",
        "RATE_LIMIT_STRICT_SUSTAINED_PER_HOUR": "100000",
        # Webhooks to a receiver of the tests on 127.0.0.1 (plain http is allowed for loopback with this on),
        # and no outgoing request to anything but a loopback address, as contract-tests/webhooks/ has it.
        "CONNECTOR_ALLOW_PRIVATE_NETWORKS": "true",
        "OUTBOUND_LOOPBACK_ONLY": "true",
    }
    process = subprocess.Popen(
        ["node", "--import", "tsx", "src/main.ts"],
        cwd=PROJECT_ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    logs: list[str] = []
    port: list[int] = []
    started = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            logs.append(line.rstrip("\n"))
            match = re.search(r"listening on port (\d+)", line)
            if match and not port:
                port.append(int(match.group(1)))
                started.set()
        started.set()

    threading.Thread(target=read, daemon=True).start()
    try:
        if not started.wait(60) or not port:
            raise RuntimeError("the server did not start:\n" + "\n".join(logs))
        yield Server(base_url=f"http://127.0.0.1:{port[0]}", engine=engine, logs=logs)
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if database_name:
            _psql(f"drop database if exists {database_name} with (force)")
        shutil.rmtree(workdir, ignore_errors=True)


def expired(access_token: str) -> str:
    """The same access token as the server issued it, but expired a minute ago (re-signed with the test
    server's JWT_SECRET): the server answers it 401 TOKEN_EXPIRED, with no test waiting out a lifetime."""
    header, payload, _ = access_token.split(".")
    claims = json.loads(_b64decode(payload))
    claims["exp"] = int(time.time()) - 60
    claims["iat"] = claims["exp"] - 120
    signing_input = f"{header}.{_b64encode(json.dumps(claims).encode())}"
    signature = hmac.new(JWT_SECRET.encode(), signing_input.encode(), hashlib.sha256).digest()
    return f"{signing_input}.{_b64encode(signature)}"


def _b64decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _b64encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
