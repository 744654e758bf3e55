"""Property-based fuzzing of every documented operation with schemathesis.

Schemathesis reads the document the server itself serves (GET /api/v1/openapi.json), generates
valid and invalid requests for each operation and checks every answer: never a 5xx, the status is
documented, the Content-Type is the documented one and the body matches the status's schema. And the
document is as strict as the server: a request the schema allows is not refused as bad input (400,
415, 422), a request it forbids is refused, but for the few refusals no schema can state
(UNSTATABLE_REFUSALS, each with its reason and its own error code).

Bounded and deterministic: Hypothesis is derandomized (a fixed seed per test), the example count
per operation is small and the whole module stops sending after FLASHCARDS_FUZZ_BUDGET_SECONDS (shared by the
backends); each operation gets a fair share of what is left when it starts, so that every operation is
fuzzed even when the budget is tight. Requests are authenticated with a token from a signup, and ids in
paths, queries and bodies are pointed at a real stack, card, generation job and draft every other time,
so that the fuzzer gets past the 404s into the validation code.

Every operation is fuzzed, the upload routes and the event stream included: uploads of random bytes are
refused by content (415) or make small jobs, and the event stream of the target's job ends at once, as
the job has finished.
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
    negative_data_rejection,
    not_a_server_error,
    positive_data_acceptance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.core.parameters import ParameterLocation

from conftest import BACKENDS, PASSWORD, Server, load_document, operations, unique_mail

MAX_EXAMPLES = int(os.environ.get("FLASHCARDS_FUZZ_EXAMPLES", "10"))
# The budget is for the whole run, shared by the backends.
FUZZ_BUDGET_SECONDS = float(os.environ.get("FLASHCARDS_FUZZ_BUDGET_SECONDS", "40")) / len(BACKENDS)
UUID_PATTERN = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
#: Refusals of schema-valid requests that no JSON schema can state, by (operation or "*", status, error
#: code), with the reason. A schema-valid request refused in any other way fails the positive-data check.
UPLOAD_OPERATIONS = (
    "POST /api/v1/imports/preview",
    "POST /api/v1/imports",
    "POST /api/v1/me/restore",
    "POST /api/v1/stacks/{stackId}/generations",
    "POST /stack/{stackId}/createFromFile",
)
UNSTATABLE_REFUSALS: dict[tuple[str, int, str], str] = {
    ("POST /login", 400, "user_not_found"): "the original API's contract (its iOS app shows its login text only on 400)",
    ("POST /login", 400, "wrong_password"): "the original API's contract (its iOS app shows its login text only on 400)",
    ("POST /signup", 400, "user_already_exists"): "the original API's contract",
    ("*", 400, "unknown_time_zone"): "the tz database's names, which change with its releases",
    ("*", 400, "password_too_long"): "72 bytes of UTF-8, where a schema's maxLength counts characters",
    ("POST /api/v1/me/push-subscriptions", 400, "invalid_push_keys"): "p256dh must be a point on the P-256 curve",
    ("PUT /stack/{stackId}/card/{cardId}", 400, "ids_contradict_path"): "a body's ids compared with the path's",
    ("DELETE /stack/{stackId}/card/{cardId}", 400, "ids_contradict_path"): "a body's ids compared with the path's",
    ("POST /api/v1/stacks/{stackId}/cards", 400, "card_kind_rules"): "what a card kind needs (a cloze's gap, …)",
    ("PATCH /api/v1/stacks/{stackId}/cards/{cardId}", 400, "card_kind_rules"): "what a card kind needs",
    ("PUT /stack/{stackId}/card/{cardId}", 400, "card_kind_rules"): "what a card kind needs",
    **{
        (operation, 415, "unsupported_media_type"): "an upload is judged by its content, not by its declared type"
        for operation in UPLOAD_OPERATIONS
    },
}


def unstatable_refusal(case, response) -> bool:
    if response.status_code < 400:
        return False
    try:
        body = response.json()
    except ValueError:
        return False
    code = body.get("code") if isinstance(body, dict) else None
    label = case.operation.label
    return any((operation, response.status_code, code) in UNSTATABLE_REFUSALS for operation in (label, "*"))


@schemathesis.check
def positive_data_acceptance_but_unstatable(ctx, response, case):
    """schemathesis' positive-data check, but for the refusals in UNSTATABLE_REFUSALS."""
    if unstatable_refusal(case, response):
        return None
    return positive_data_acceptance(ctx, response, case)


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    # The document is as strict as the server: what the schema allows is accepted (but for the refusals
    # above, which no schema can state), what it forbids is refused.
    positive_data_acceptance_but_unstatable,
    negative_data_rejection,
]

#: Per backend: when fuzzing started, how many requests were sent, and the current operation's deadline.
STATS: dict[str, dict] = {}
OPERATION_COUNT = len(operations(load_document()))
#: Definitions the offline generator turns into drafts (with new terms each time, as it leaves out
#: questions the stack already has).
DRAFT_TEXT = (
    "Das Organell Typ{n} ist der Ort, an dem Proteine der Klasse {n} gefaltet werden.\n"
    "Unter Zyklus{n} versteht man die Abfolge von Wachstum und Teilung der Zelle {n}.\n"
)


class Target:
    """A signed-up account with one stack, one card, a finished generation job and its drafts that the
    fuzzer aims at; recreated when a fuzzed request removed them."""

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
        self.mail = mail
        self.token = answer.json()["token"]
        self.stack_id = ""
        self.card_id = ""
        self.job_id = ""
        self.draft_ids: list[str] = []
        #: Set when a fuzzed request may have removed the stack or card.
        self.dirty = True
        #: Set when a fuzzed request may have accepted or discarded the drafts.
        self.drafts_dirty = True
        #: How often each kind of id was seen; every other one is aimed (deterministic, as the cases are).
        self.turns: dict[str, int] = {}
        self.generations = 0
        self.ensure("/drafts")

    def _headers(self) -> dict:
        return {"Authorization": f"Bearer {self.token}"}

    def spare_token(self) -> str:
        """Another token of the account (a new login), for a request that revokes the token it is sent with."""
        answer = self.session.post(
            self.base + "/api/v1/auth/login", json={"mail": self.mail, "password": PASSWORD}, timeout=10
        )
        assert answer.status_code == 200, answer.text
        return answer.json()["token"]

    def ensure(self, path: str) -> None:
        """Makes sure the target stack and card exist (checked only after a successful DELETE), and
        before an operation on drafts or jobs that there are pending drafts (made by a generation)."""
        if self.dirty:
            self.dirty = False
            self._ensure_stack_and_card()
        if self.drafts_dirty and ("/drafts" in path or "/jobs/" in path):
            self.drafts_dirty = False
            self._ensure_drafts()

    def _ensure_stack_and_card(self) -> None:
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
            self.draft_ids = []
            self.drafts_dirty = True
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

    def _ensure_drafts(self) -> None:
        drafts = self.session.get(
            f"{self.base}/api/v1/stacks/{self.stack_id}/drafts", headers=self._headers(), timeout=10
        )
        assert drafts.status_code == 200, drafts.text
        if not drafts.json():
            self.job_id = self._generate()
            drafts = self.session.get(
                f"{self.base}/api/v1/stacks/{self.stack_id}/drafts", headers=self._headers(), timeout=10
            )
        self.draft_ids = [draft["id"] for draft in drafts.json()]
        if self.draft_ids:
            self.job_id = drafts.json()[0]["jobId"]

    def _generate(self) -> str:
        """Makes drafts from a short text and waits until the job has finished; returns the job's id."""
        self.generations += 1
        job = self.session.post(
            f"{self.base}/api/v1/stacks/{self.stack_id}/generations",
            json={"text": DRAFT_TEXT.format(n=self.generations)},
            headers=self._headers(),
            timeout=10,
        )
        assert job.status_code == 202, job.text
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            state = self.session.get(
                f"{self.base}/api/v1/jobs/{job.json()['id']}", headers=self._headers(), timeout=10
            ).json()
            if state["status"] in ("succeeded", "failed", "cancelled"):
                return state["id"]
            time.sleep(0.05)
        raise AssertionError("the target's generation job did not finish")

    def _turn(self, kind: str) -> bool:
        self.turns[kind] = self.turns.get(kind, 0) + 1
        return self.turns[kind] % 2 == 1

    def aim(self, case) -> None:
        """Points ids at the real stack, card, job and drafts every other time each kind of id is seen
        (the generated values themselves repeat too often to decide by them). A part that was generated
        to violate the schema is left as it is: replacing its id could replace the very violation the
        server has to refuse."""

        def real(kind: str, value, replacement):
            return replacement if replacement and self._turn(kind) else value

        negative = negative_locations(case)
        draft = self.draft_ids[0] if self.draft_ids else ""
        params = {} if ParameterLocation.PATH in negative else (case.path_parameters or {})
        for name, replacement in (
            ("stackId", self.stack_id),
            ("cardId", self.card_id),
            ("jobId", self.job_id),
            ("draftId", draft),
        ):
            if name in params:
                params[name] = real(name, params[name], replacement)
        if isinstance(case.query, dict) and "jobId" in case.query and ParameterLocation.QUERY not in negative:
            case.query["jobId"] = real("query jobId", case.query["jobId"], self.job_id)
        if isinstance(case.body, dict) and ParameterLocation.BODY not in negative:
            if isinstance(case.body.get("stackId"), str):
                # The compatibility bodies name the stack by a plain string.
                case.body["stackId"] = real("body stackId", case.body["stackId"], self.stack_id)
            options = case.body.get("options")
            if isinstance(options, dict) and isinstance(options.get("stackId"), str):
                # An import's options (a multipart part holding JSON) name the stack to fill.
                options["stackId"] = real("options stackId", options["stackId"], self.stack_id)
            if "cardId" in case.body:
                case.body["cardId"] = real("body cardId", case.body["cardId"], self.card_id)
            if "jobId" in case.body:
                case.body["jobId"] = real("body jobId", case.body["jobId"], self.job_id)
            if isinstance(case.body.get("ids"), list) and case.body["ids"]:
                case.body["ids"][0] = real("body ids", case.body["ids"][0], draft)
            reviews = case.body.get("reviews")
            for review in reviews if isinstance(reviews, list) else []:
                if isinstance(review, dict) and "cardId" in review:
                    review["cardId"] = real("review cardId", review["cardId"], self.card_id)


def negative_locations(case) -> set:
    """Where the case was generated to violate the schema (path, query, body, …)."""
    meta = case.meta
    if meta is None:
        return set()
    return {location for location, component in meta.components.items() if component.mode.is_negative}


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
    now = time.monotonic()
    stats = STATS.setdefault(
        fuzz_server.backend,
        {"started": now, "requests": 0, "sending": 0.0, "seen": set()},
    )
    # The documented operation (a case may send another method to it, to check the 405).
    operation = case.operation.label
    if operation not in stats["seen"]:
        stats["seen"].add(operation)
        # Each operation still to come gets a fair share of the budget that is left, less what preparing
        # and generating its examples will cost (as measured so far: the time outside sending), so that
        # every operation is fuzzed and the whole run keeps to the budget.
        done = len(stats["seen"]) - 1
        operations_left = max(1, OPERATION_COUNT - done)
        overhead = (now - stats["started"] - stats["sending"]) / done if done else 0.0
        left = stats["started"] + FUZZ_BUDGET_SECONDS - now - overhead * operations_left
        stats["deadline"] = now + max(0.0, left) / operations_left
    if now > stats["deadline"]:
        return  # this operation's share of the budget is spent; its remaining examples are not sent
    try:
        send(case, fuzz_server, fuzz_target, stats)
    finally:
        stats["sending"] += time.monotonic() - now


def send(case, fuzz_server: Server, fuzz_target: Target, stats: dict) -> None:
    path = case.operation.path
    fuzz_target.ensure(path)
    fuzz_target.aim(case)
    compat = not path.startswith("/api/v1")
    # Logout revokes the token it is sent with: it gets one of its own, so that the target's keeps working.
    token = fuzz_target.spare_token() if path == "/api/v1/auth/logout" else fuzz_target.token
    # A case generated without its Authorization header (or with a broken one) is sent as generated.
    negative_header = ParameterLocation.HEADER in negative_locations(case)
    headers = {} if negative_header else {"Authorization": token if compat else f"Bearer {token}"}
    response = case.call(headers=headers, timeout=30)
    stats["requests"] += 1
    if response.status_code < 300 and "/drafts" in path and case.method.upper() in ("DELETE", "POST"):
        fuzz_target.drafts_dirty = True  # drafts may have been accepted or discarded
    elif case.method.upper() == "DELETE" and response.status_code < 300 and "scheduler" not in path:
        fuzz_target.dirty = True  # the stack or card may be gone
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
