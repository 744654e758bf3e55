"""Property-based fuzzing of every documented operation with schemathesis.

Schemathesis reads the document the server itself serves (GET /api/v1/openapi.json), generates
valid and invalid requests for each operation and checks every answer: never a 5xx, the status is
documented, the Content-Type is the documented one and the body matches the status's schema.

Bounded and deterministic: Hypothesis is derandomized (a fixed seed per test), the example count
per operation is small and the whole module stops sending after FLASHCARDS_FUZZ_BUDGET_SECONDS (shared by the
backends). Requests
are authenticated with a token from a signup, and path/body ids are pointed at a real stack and
card half of the time, so that the fuzzer gets past the 404s into the validation code.
"""

from __future__ import annotations

import os
import re
import time

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from conftest import BACKENDS, PASSWORD, Server, unique_mail

MAX_EXAMPLES = int(os.environ.get("FLASHCARDS_FUZZ_EXAMPLES", "10"))
# The budget is for the whole run, shared by the backends.
FUZZ_BUDGET_SECONDS = float(os.environ.get("FLASHCARDS_FUZZ_BUDGET_SECONDS", "40")) / len(BACKENDS)
UUID_PATTERN = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]

#: Per backend: when fuzzing started and how many requests were sent.
STATS: dict[str, dict] = {}


class Target:
    """A signed-up account with one stack and one card that the fuzzer aims at; recreated when a
    fuzzed DELETE removed them."""

    def __init__(self, server: Server):
        self.base = server.base_url
        self.session = requests.Session()
        mail = unique_mail("fuzz")
        answer = self.session.post(
            self.base + "/api/v1/auth/signup",
            json={"name": "Fuzz Tester", "mail": mail, "password": PASSWORD},
            timeout=10,
        )
        assert answer.status_code == 201, answer.text
        self.token = answer.json()["token"]
        self.stack_id = ""
        self.card_id = ""
        #: Set when a fuzzed DELETE succeeded: the stack or card may be gone.
        self.dirty = True
        self.ensure()

    def _headers(self) -> dict:
        return {"Authorization": f"Bearer {self.token}"}

    def ensure(self) -> None:
        """Makes sure the target stack and card exist (checked only after a successful DELETE)."""
        if not self.dirty:
            return
        self.dirty = False
        stack = self.session.get(
            f"{self.base}/api/v1/stacks/{self.stack_id or 'none'}", headers=self._headers(), timeout=10
        )
        if stack.status_code == 404:
            created = self.session.post(
                self.base + "/api/v1/stacks",
                json={"name": "Ziel", "color": "#123456"},
                headers=self._headers(),
                timeout=10,
            )
            assert created.status_code == 201, created.text
            self.stack_id = created.json()["id"]
            self.card_id = ""
        else:
            assert stack.status_code == 200, stack.text
        card = self.session.get(
            f"{self.base}/api/v1/stacks/{self.stack_id}/cards/{self.card_id or 'none'}",
            headers=self._headers(),
            timeout=10,
        )
        if card.status_code == 404:
            created = self.session.post(
                f"{self.base}/api/v1/stacks/{self.stack_id}/cards",
                json={"question": "Frage", "answer": "Antwort", "hint": "Hinweis"},
                headers=self._headers(),
                timeout=10,
            )
            assert created.status_code == 201, created.text
            self.card_id = created.json()["id"]
        else:
            assert card.status_code == 200, card.text

    def aim(self, case) -> None:
        """Points generated UUIDs at the real stack and card for about half of the cases (decided by
        the generated value itself, so runs stay deterministic)."""

        def real(value, replacement):
            if isinstance(value, str) and UUID_PATTERN.match(value) and value[-1] in "02468ace":
                return replacement
            return value

        params = case.path_parameters or {}
        if "stackId" in params:
            params["stackId"] = real(params["stackId"], self.stack_id)
        if "cardId" in params:
            params["cardId"] = real(params["cardId"], self.card_id)
        if isinstance(case.body, dict):
            if isinstance(case.body.get("stackId"), str):
                # The compatibility bodies name the stack by a plain string: aim at it half the time.
                value = case.body["stackId"]
                if not value or ord(value[-1]) % 2 == 0:
                    case.body["stackId"] = self.stack_id
            if "cardId" in case.body:
                case.body["cardId"] = real(case.body["cardId"], self.card_id)


@pytest.fixture(scope="session")
def fuzz_target(fuzz_server) -> Target:
    return Target(fuzz_server)


@pytest.fixture(scope="session")
def fuzz_schema(fuzz_server):
    # The document as the server serves it, so that this also checks the served copy loads.
    schema = schemathesis.openapi.from_url(fuzz_server.base_url + "/api/v1/openapi.json")
    schema.config.update(base_url=fuzz_server.base_url)
    return schema


schema = schemathesis.pytest.from_fixture("fuzz_schema")


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)
def test_fuzz_operation(case, fuzz_server: Server, fuzz_target: Target):
    stats = STATS.setdefault(fuzz_server.backend, {"started": time.monotonic(), "requests": 0})
    if time.monotonic() - stats["started"] > FUZZ_BUDGET_SECONDS:
        return  # the time budget is spent; the remaining examples are not sent
    fuzz_target.ensure()
    fuzz_target.aim(case)
    path = case.operation.path
    compat = not path.startswith("/api/v1")
    token = fuzz_target.token
    headers = {"Authorization": token if compat else f"Bearer {token}"}
    response = case.call(headers=headers, timeout=30)
    stats["requests"] += 1
    if case.method.upper() == "DELETE" and response.status_code < 300:
        fuzz_target.dirty = True
    case.validate_response(response, checks=CHECKS, headers=headers)


def test_fuzz_left_the_account_usable(fuzz_server: Server, fuzz_target: Target):
    """After fuzzing, the server still answers and the fuzzed account still works."""
    stats = STATS.get(fuzz_server.backend, {"requests": 0, "started": time.monotonic()})
    print(
        f"\nfuzz ({fuzz_server.backend}): {stats['requests']} requests in {time.monotonic() - stats['started']:.1f} s"
    )
    assert stats["requests"] > 0, "the fuzzer sent no request"
    me = requests.get(
        fuzz_server.base_url + "/api/v1/me", headers={"Authorization": f"Bearer {fuzz_target.token}"}, timeout=10
    )
    assert me.status_code == 200, me.text
    assert requests.get(fuzz_server.base_url + "/api/v1/health", timeout=10).status_code == 200
