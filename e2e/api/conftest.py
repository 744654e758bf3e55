"""Fixtures for the HTTP API tests: a real server process and a checker that validates every real
response against the OpenAPI document in Public/openapi.json.

The server binary comes from FLASHCARDS_BIN (default .build/debug/flashcards). Each server runs
`serve` on a free loopback port with a fresh temporary data directory and is stopped with SIGINT.
With FLASHCARDS_TEST_POSTGRES_URL set, every server fixture runs once on SQLite and once on
PostgreSQL (each run in its own schema).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import requests
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT_PATH = ROOT / "Public" / "openapi.json"
DOCUMENT_URI = "urn:flashcards:openapi"
BIN = os.environ.get("FLASHCARDS_BIN") or str(ROOT / ".build" / "debug" / "flashcards")
POSTGRES_URL = os.environ.get("FLASHCARDS_TEST_POSTGRES_URL", "").strip()
BACKENDS = ["sqlite"] + (["postgres"] if POSTGRES_URL else [])
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
PASSWORD = "richtig-geheim-42"


def load_document() -> dict:
    return json.loads(DOCUMENT_PATH.read_text(encoding="utf-8"))


def operations(document: dict) -> list[tuple[str, str]]:
    """Every (METHOD, path template) of the document."""
    return [(method.upper(), path) for path, item in document["paths"].items() for method in item if method in METHODS]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def unique_mail(prefix: str = "api") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}@example.org"


# --- server process ---------------------------------------------------------------------------


@dataclass
class Server:
    """A running `flashcards serve` process."""

    backend: str
    base_url: str
    process: subprocess.Popen
    data_dir: str
    log_path: Path
    #: (METHOD, template, status) of every response the checker validated on this server.
    exercised: set = field(default_factory=set)
    #: The environment it runs with (its database), for the operator's commands.
    env: dict = field(default_factory=dict)

    def command(self, *args: str) -> subprocess.CompletedProcess:
        """Runs `flashcards ARGS…` against this server's database."""
        return subprocess.run([BIN, *args], env=self.env, cwd=self.data_dir, capture_output=True, text=True,
                              timeout=120)

    def log_tail(self, lines: int = 60) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        shutil.rmtree(self.data_dir, ignore_errors=True)


METRICS_TOKEN = "scrape-" + uuid.uuid4().hex


def oidc_harness():
    """e2e/oidc/oidc_harness.py (the provider's harness), imported from its folder."""
    sys.path.insert(0, str(ROOT / "e2e" / "oidc"))
    import oidc_harness

    return oidc_harness


def start_server(backend: str, name: str, extra_env: dict[str, str] | None = None, port: int | None = None) -> Server:
    if not (os.path.isfile(BIN) and os.access(BIN, os.X_OK)):
        pytest.fail(f"server binary {BIN!r} not found: build it or set FLASHCARDS_BIN", pytrace=False)
    port = port or free_port()
    data_dir = tempfile.mkdtemp(prefix=f"flashcards-api-{name}-")
    log_dir = ROOT / "artifacts"
    log_dir.mkdir(exist_ok=True)
    log_path = log_dir / f"api-server-{name}-{backend}.log"
    env = {
        key: value
        for key, value in os.environ.items()
        # The tests run the offline generator: no language model from the caller's environment.
        if key not in ("DATABASE_URL", "DATABASE_SCHEMA", "FLASHCARDS_JWT_SECRET")
        and not key.startswith("FLASHCARDS_LLM_")
        and not key.startswith("FLASHCARDS_SMTP_")
    }
    env.update(
        FLASHCARDS_DATA_DIR=data_dir,
        PORT=str(port),
        HOST="127.0.0.1",
        FLASHCARDS_PUBLIC_DIR=str(ROOT / "Public"),
        FLASHCARDS_BCRYPT_COST="4",
        # The stories sign up many accounts from one address; the limited server tests the limit.
        FLASHCARDS_SIGNUPS_PER_HOUR="100000",
    )
    if backend == "postgres":
        env["DATABASE_URL"] = POSTGRES_URL
        env["DATABASE_SCHEMA"] = f"api_{name}_{uuid.uuid4().hex[:10]}"
    env.update(extra_env or {})
    log = open(log_path, "wb")
    # The working directory is the empty data folder, so that no stray .env file is read.
    process = subprocess.Popen([BIN, "serve"], env=env, cwd=data_dir, stdout=log, stderr=subprocess.STDOUT)
    log.close()
    server = Server(backend, f"http://127.0.0.1:{port}", process, data_dir, log_path, env=env)
    deadline = time.monotonic() + 60
    while True:
        if process.poll() is not None:
            server.stop()
            pytest.fail(f"the server exited early ({process.returncode}):\n{server.log_tail()}", pytrace=False)
        try:
            if requests.get(server.base_url + "/api/v1/health", timeout=2).status_code == 200:
                return server
        except requests.RequestException:
            pass
        if time.monotonic() > deadline:
            server.stop()
            pytest.fail(f"no /api/v1/health answer within 60 s:\n{server.log_tail()}", pytrace=False)
        time.sleep(0.1)


OIDC_SCHOOL = "flashcards-school"
OIDC_APPLE = "org.example.flashcards.signin"


@pytest.fixture(scope="session")
def oidc(backend):
    """A real local OpenID provider (e2e/oidc/provider.py), and a server that knows it twice: as a school (RS256, query) and Apple-style (ES256,
    form_post, a client secret signed with a .p8 key)."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    harness = oidc_harness()
    provider = harness.ProviderProcess(
        redirect_uris={
            OIDC_SCHOOL: f"{base}/api/v1/auth/oidc/school/callback",
            OIDC_APPLE: f"{base}/api/v1/auth/oidc/apple/callback",
        },
        log_path=ROOT / "artifacts" / f"oidc-provider-{backend}.log",
    ).start()
    server = start_server(
        backend,
        "oidc",
        {
            "FLASHCARDS_PUBLIC_URL": base,
            "FLASHCARDS_OIDC_PROVIDERS": "school,apple",
            "FLASHCARDS_OIDC_SCHOOL_ISSUER": provider.issuer,
            "FLASHCARDS_OIDC_SCHOOL_CLIENT_ID": OIDC_SCHOOL,
            "FLASHCARDS_OIDC_SCHOOL_CLIENT_SECRET": "school-test-secret",
            "FLASHCARDS_OIDC_SCHOOL_NAME": "Schul-Login",
            "FLASHCARDS_OIDC_APPLE_ISSUER": provider.issuer,
            "FLASHCARDS_OIDC_APPLE_CLIENT_ID": OIDC_APPLE,
            "FLASHCARDS_OIDC_APPLE_NAME": "Apple",
            "FLASHCARDS_OIDC_APPLE_SCOPES": "openid name email",
            "FLASHCARDS_OIDC_APPLE_RESPONSE_MODE": "form_post",
            "FLASHCARDS_OIDC_APPLE_APPLE_TEAM_ID": "TEAM123456",
            "FLASHCARDS_OIDC_APPLE_APPLE_KEY_ID": "KEY1234567",
            "FLASHCARDS_OIDC_APPLE_APPLE_PRIVATE_KEY_FILE": str(harness.ensure_apple_client_key()),
        },
        port=port,
    )
    assert server.base_url == base
    yield server, provider
    server.stop()
    provider.stop()



STORY_SERVERS = {"server", "limited_server", "idle_server", "mailing_server", "oidc"}


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    """`test_every_operation_was_exercised` (test_openapi_coverage.py) reads what the stories of
    every module called on the session-scoped story servers of its backend: it runs after the last
    test of that backend on those servers, once pytest has grouped the tests by backend (trylast)."""
    last = [item for item in items if item.originalname == "test_every_operation_was_exercised"]
    for item in last:
        items.remove(item)
    for item in last:
        backend = item.callspec.params.get("backend")
        # After the last test of that backend on the story servers it reads: later ones of the
        # backend (pytest may put a module's own servers after the other backend's group) run on
        # servers started anew, which have exercised nothing.
        position = max(
            (index for index, other in enumerate(items) if getattr(other, "callspec", None)
             and other.callspec.params.get("backend") == backend and STORY_SERVERS & set(other.fixturenames)),
            default=len(items) - 1,
        )
        items.insert(position + 1, item)


@pytest.fixture(scope="session", params=BACKENDS)
def backend(request) -> str:
    """The database of this run: every server fixture below follows it, so tests that use several
    servers see one backend at a time."""
    return request.param


@pytest.fixture(scope="session")
def server(backend) -> Server:
    """The server of the story tests, with the default configuration."""
    server = start_server(backend, "story")
    yield server
    server.stop()


@pytest.fixture(scope="session")
def limited_server(backend) -> Server:
    """A server that refuses logins after 3 failures, for the 429 path."""
    server = start_server(
        backend,
        "limit",
        {
            "FLASHCARDS_LOGIN_MAX_FAILURES": "3",
            "FLASHCARDS_LOGIN_MAX_FAILURES_PER_ADDRESS": "5",
            "FLASHCARDS_SIGNUPS_PER_HOUR": "6",
        },
    )
    yield server
    server.stop()


@pytest.fixture(scope="session")
def idle_server(backend, server) -> Server:
    """A server without job workers (FLASHCARDS_JOB_WORKERS=0), so that its jobs stay queued until
    cancelled, and with a language model that is not there: its base URL is the story server, which
    answers 404 to chat completions (route 13, which runs its job in the request, answers 503)."""
    idle = start_server(
        backend,
        "idle",
        {
            "FLASHCARDS_JOB_WORKERS": "0",
            "FLASHCARDS_LLM_BASE_URL": server.base_url,
            "FLASHCARDS_LLM_MODEL": "nicht-vorhanden",
            "FLASHCARDS_LLM_MAX_RETRIES": "0",
        },
    )
    yield idle
    idle.stop()


class MailSink:
    """An SMTP server on a loopback port (aiosmtpd, in this process) that keeps every message."""

    def __init__(self):
        from aiosmtpd.controller import Controller

        self.messages: list[tuple[list[str], bytes]] = []
        self.port = free_port()
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)

    async def handle_DATA(self, server, session, envelope):  # aiosmtpd's handler hook
        self.messages.append((list(envelope.rcpt_tos), envelope.original_content or envelope.content))
        return "250 OK"

    def wait_for(self, address: str, timeout: float = 20) -> bytes:
        """The latest message to `address`, waiting for it to arrive."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for recipients, content in reversed(self.messages):
                if address in recipients:
                    return content
            time.sleep(0.05)
        raise AssertionError(f"no mail to {address} within {timeout} s")


@pytest.fixture(scope="session")
def mail_sink() -> MailSink:
    sink = MailSink()
    sink.controller.start()
    yield sink
    sink.controller.stop()


@pytest.fixture(scope="session")
def mailing_server(backend, mail_sink) -> Server:
    """A server that mails password reset links to the sink, at most 3 requests per address."""
    server = start_server(
        backend,
        "mail",
        {
            "FLASHCARDS_SMTP_HOST": "127.0.0.1",
            "FLASHCARDS_SMTP_PORT": str(mail_sink.port),
            "FLASHCARDS_SMTP_TLS": "none",
            "FLASHCARDS_SMTP_FROM": "Smart Flashcards <noreply@example.org>",
            "FLASHCARDS_PUBLIC_URL": "https://cards.example.org",
            "FLASHCARDS_PASSWORD_RESET_MAX_PER_MAIL": "3",
            # An operator's settings (docs/operations.md): test_operations.py scrapes and reads them.
            "FLASHCARDS_METRICS_TOKEN": METRICS_TOKEN,
            "LOG_FORMAT": "json",
        },
    )
    yield server
    server.stop()


@pytest.fixture(scope="session")
def fuzz_server(backend, mail_sink) -> Server:
    """A server of its own for schemathesis, whose random logins must not trip the story's limits; it
    mails to the sink, so that a password reset request is answered 202 (not 503, unavailable)."""
    server = start_server(
        backend,
        "fuzz",
        {
            "FLASHCARDS_LOGIN_MAX_FAILURES": "10000",
            "FLASHCARDS_SMTP_HOST": "127.0.0.1",
            "FLASHCARDS_SMTP_PORT": str(mail_sink.port),
            "FLASHCARDS_SMTP_TLS": "none",
            "FLASHCARDS_SMTP_FROM": "noreply@example.org",
            "FLASHCARDS_PUBLIC_URL": "https://cards.example.org",
            "FLASHCARDS_PASSWORD_RESET_MAX_PER_MAIL": "1000",
            "FLASHCARDS_PASSWORD_RESET_MAX_PER_IP": "100000",
        },
    )
    yield server
    server.stop()


# --- checking responses against the document ----------------------------------------------------


def _pointer(*parts: str) -> str:
    return "/" + "/".join(part.replace("~", "~0").replace("/", "~1") for part in parts)


class SpecChecker:
    """Validates real responses against the operation they answer, with JSON Schema 2020-12."""

    def __init__(self, document: dict):
        self.document = document
        self.registry = Registry().with_resource(
            DOCUMENT_URI, Resource.from_contents(document, default_specification=DRAFT202012)
        )

    def _resolve(self, pointer: str) -> tuple[str, Any]:
        """Follows `$ref`s of Response and Header objects; returns the final pointer and object."""
        for _ in range(10):
            node: Any = self.document
            for part in pointer.lstrip("/").split("/"):
                node = node[part.replace("~1", "/").replace("~0", "~")]
            if isinstance(node, dict) and "$ref" in node and len(node) == 1:
                pointer = node["$ref"].removeprefix("#")
                continue
            return pointer, node
        raise AssertionError(f"reference loop at {pointer}")

    def validate_instance(self, pointer: str, instance: Any, what: str) -> None:
        """Validates `instance` against the schema at `pointer` in the document."""
        schema = {"$ref": f"{DOCUMENT_URI}#{pointer}"}
        validator = Draft202012Validator(
            schema, registry=self.registry, format_checker=Draft202012Validator.FORMAT_CHECKER
        )
        errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.absolute_path))
        if errors:
            details = "\n".join(f"  at /{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}" for e in errors[:10])
            raise AssertionError(f"{what} does not match {pointer}:\n{details}\nbody: {json.dumps(instance)[:1500]}")

    def check(self, method: str, template: str, response: requests.Response) -> Any:
        """Asserts that the response is documented for the operation and matches it; returns the body."""
        item = self.document["paths"].get(template)
        assert item is not None, f"{template} is not in the document"
        operation = item.get(method.lower())
        assert operation is not None, f"{method} {template} is not in the document"
        status = str(response.status_code)
        what = f"{method} {template} -> {status}"
        assert status in operation["responses"], (
            f"{what}: status not documented (documented: {sorted(operation['responses'])}); "
            f"body: {response.text[:500]}"
        )
        pointer, spec = self._resolve(_pointer("paths", template, method.lower(), "responses", status))
        for name, header_ref in spec.get("headers", {}).items():
            header_pointer, header = self._resolve(f"{pointer}/headers/{name}")
            value = response.headers.get(name)
            if header.get("required"):
                assert value is not None, f"{what}: header {name} is missing"
            if value is not None:
                schema = header.get("schema", {})
                parsed: Any = value
                if schema.get("type") == "integer":
                    assert value.strip().lstrip("-").isdigit(), f"{what}: header {name}={value!r} is no integer"
                    parsed = int(value)
                self.validate_instance(f"{header_pointer}/schema", parsed, f"{what} header {name}")
        content = spec.get("content")
        if not content:
            assert response.content == b"", f"{what}: expected no body, got {response.text[:300]!r}"
            return None
        content_type = response.headers.get("Content-Type", "").split(";")[0].strip()
        assert content_type in content, f"{what}: Content-Type {content_type!r} not in {sorted(content)}"
        media_pointer = f"{pointer}/content/{content_type.replace('/', '~1')}"
        if content_type == "text/event-stream":
            return self.check_event_stream(media_pointer, content[content_type], response.text, what)
        if content_type in ("application/octet-stream", "application/zip") or content_type.startswith("image/"):
            # A binary body (an Anki package, a zipped backup, an image): returned as bytes; its content is checked by the story.
            schema = content[content_type].get("schema", {})
            assert schema.get("type") == "string", f"{what}: a binary body is documented as a string"
            return response.content
        if not (content_type == "application/json" or content_type.endswith("+json")):
            # A text body (a CSV export): its schema describes the text; returned as decoded by its charset.
            assert response.encoding, f"{what}: a text body needs a charset in its Content-Type"
            text = response.content.decode(response.encoding)
            self.validate_instance(f"{media_pointer}/schema", text, what)
            return text
        try:
            body = response.json()
        except ValueError as error:
            raise AssertionError(f"{what}: body is not JSON: {response.text[:300]!r}") from error
        self.validate_instance(f"{media_pointer}/schema", body, what)
        return body

    def check_event_stream(self, media_pointer: str, media: dict, text: str, what: str) -> list[dict]:
        """Validates a Server-Sent Events body. As Schemathesis reads Open API 3.1 (and 3.2's
        `itemSchema`), the media type's schema describes one event, `{event, data, id, retry}`; a `data`
        with `contentMediaType: application/json` is parsed and checked against its `contentSchema`.
        Returns the events with their `data` parsed."""
        schema = media.get("schema", {})
        data_schema = schema.get("properties", {}).get("data", {})
        events = []
        for block in text.replace("\r\n", "\n").split("\n\n"):
            event: dict[str, Any] = {}
            data = []
            for line in block.split("\n"):
                if not line or line.startswith(":"):
                    continue
                field, _, value = line.partition(":")
                value = value.removeprefix(" ")
                if field == "data":
                    data.append(value)
                elif field == "retry" and value.isdigit():
                    event["retry"] = int(value)
                elif field in ("event", "id"):
                    event[field] = value
            if not data:
                continue
            event["data"] = "\n".join(data)
            self.validate_instance(f"{media_pointer}/schema", event, f"{what} event")
            if data_schema.get("contentMediaType") == "application/json":
                try:
                    event["data"] = json.loads(event["data"])
                except ValueError as error:
                    raise AssertionError(f"{what}: event data is not JSON: {event['data']!r}") from error
                if "contentSchema" in data_schema:
                    self.validate_instance(
                        f"{media_pointer}/schema/properties/data/contentSchema", event["data"], f"{what} event data"
                    )
            events.append(event)
        return events


@pytest.fixture(scope="session")
def document() -> dict:
    return load_document()


@pytest.fixture(scope="session")
def checker(document) -> SpecChecker:
    return SpecChecker(document)


class Api:
    """Calls one server by operation (method + path template) and checks every answer."""

    def __init__(self, server: Server, checker: SpecChecker):
        self.server = server
        self.checker = checker
        self.session = requests.Session()

    def call(
        self,
        method: str,
        template: str,
        *,
        path: dict[str, str] | None = None,
        token: str | None = None,
        raw_token: bool = False,
        expect: int | None = None,
        json_body: Any = None,
        data: bytes | str | None = None,
        params: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        files: dict[str, Any] | None = None,
        form: dict[str, str] | None = None,
    ) -> tuple[requests.Response, Any]:
        """Sends the request, validates the answer against the document and returns (response, body).

        `token` goes into `Authorization` as `Bearer <token>`, or as the raw token with `raw_token`
        (as the original clients send it). `expect` asserts the status. `files` (and `form` fields)
        send a multipart/form-data body. The body of a `text/event-stream` answer is returned as its
        list of events.
        """
        url = self.server.base_url + template.format(**(path or {}))
        all_headers = dict(headers or {})
        if token is not None:
            all_headers["Authorization"] = token if raw_token else f"Bearer {token}"
        kwargs: dict[str, Any] = {"headers": all_headers, "params": params, "timeout": 30}
        if files is not None or form is not None:
            kwargs["files"] = files or {}
            kwargs["data"] = form or {}
        elif json_body is not None:
            kwargs["json"] = json_body
        elif data is not None:
            kwargs["data"] = data
            all_headers.setdefault("Content-Type", "application/json")
        response = self.session.request(method, url, **kwargs)
        # A 5xx only where a story asks for one (a documented 503).
        assert (
            response.status_code < 500 or response.status_code == expect
        ), f"{method} {url} -> {response.status_code} {response.text[:500]}\nserver log:\n{self.server.log_tail(20)}"
        if expect is not None:
            assert (
                response.status_code == expect
            ), f"{method} {url}: expected {expect}, got {response.status_code}: {response.text[:500]}"
        body = self.checker.check(method, template, response)
        self.server.exercised.add((method.upper(), template, response.status_code))
        return response, body

    def signup(self, name: str = "Mara Beispiel", time_zone: str | None = None) -> dict:
        """A new account via /api/v1; returns {mail, password, token, user}."""
        mail = unique_mail()
        body = {"name": name, "mail": mail, "password": PASSWORD}
        if time_zone:
            body["timeZone"] = time_zone
        _, answer = self.call("POST", "/api/v1/auth/signup", json_body=body, expect=201)
        return {"mail": mail, "password": PASSWORD, "token": answer["token"], "user": answer["user"]}


@pytest.fixture(scope="session")
def api(server, checker) -> Api:
    return Api(server, checker)
