"""What an operator watches (issue 38, "Operations"): Prometheus scrapes /metrics with its token and
parses it with Prometheus' own text parser (prometheus_client); log lines are JSON with the request id
the response carried; readiness and liveness answer apart."""

from __future__ import annotations

import json
import time

import requests
from prometheus_client.parser import text_string_to_metric_families

from conftest import METRICS_TOKEN, Api
from openapi_helpers import V1

RESET = V1 + "/auth/password-reset"


def scrape(server, token=METRICS_TOKEN):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return requests.get(server.base_url + "/metrics", headers=headers, timeout=10)


def samples(text: str) -> list:
    return [sample for family in text_string_to_metric_families(text) for sample in family.samples]


def test_metrics_scraped_by_prometheus_parser(mailing_server, checker, mail_sink):
    api = Api(mailing_server, checker)
    account = api.signup()
    api.call("GET", V1 + "/stacks", token=account["token"], expect=200)
    api.call("POST", RESET, json_body={"mail": account["mail"], "language": "de"}, expect=202)
    mail_sink.wait_for(account["mail"])

    assert scrape(mailing_server, token=None).status_code == 401
    assert scrape(mailing_server, token="scrape-wrong").status_code == 401
    # The mail job counts its send after the sink took the message: wait for the counter.
    deadline = time.monotonic() + 20
    while True:
        response = scrape(mailing_server)
        assert response.status_code == 200, response.text
        assert response.headers["Content-Type"].startswith("text/plain")
        found = samples(response.text)
        sent = [s for s in found if s.name == "flashcards_mail_sends_total" and s.labels == {"result": "sent"}]
        if sent and sent[0].value >= 1 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert sent and sent[0].value >= 1, response.text

    def value(name, **labels):
        matching = [s.value for s in found if s.name == name and all(s.labels.get(k) == v for k, v in labels.items())]
        return matching[0] if matching else None

    assert value("http_requests_total", method="GET", path="/api/v1/stacks", status="200") >= 1
    assert value("http_request_duration_seconds_count", method="POST", path="/api/v1/auth/password-reset") >= 1
    buckets = [s for s in found if s.name == "http_request_duration_seconds_bucket" and s.labels["path"] == "/api/v1/stacks"]
    assert {s.labels["le"] for s in buckets} >= {"0.001", "0.01", "0.1", "1.0", "+Inf"}
    # The job queue: the password reset mail ran, nothing waits.
    assert value("flashcards_jobs", kind="password-reset-mail", status="queued") == 0
    assert value("flashcards_jobs_oldest_queued_seconds", kind="password-reset-mail") == 0
    assert value("flashcards_database_wait_seconds_count") >= 1
    # Ids never become labels.
    assert account["mail"] not in response.text


def test_json_log_lines_carry_the_request_id(mailing_server, checker):
    api = Api(mailing_server, checker)
    response, _ = api.call("GET", V1 + "/ready", expect=200)
    request_id = response.headers["X-Request-Id"]
    kept = requests.get(mailing_server.base_url + V1 + "/health", headers={"X-Request-Id": "lb-12ab"}, timeout=10)
    assert kept.headers["X-Request-Id"] == "lb-12ab"
    deadline = time.monotonic() + 10
    while True:
        lines = [line for line in mailing_server.log_path.read_text(errors="replace").splitlines() if line.strip()]
        entries = [json.loads(line) for line in lines]  # every line is one JSON object
        mine = [e for e in entries if e.get("request_id") == request_id]
        theirs = [e for e in entries if e.get("request_id") == "lb-12ab"]
        if (mine and theirs) or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert mine and theirs, lines[-5:]
    assert mine[0]["message"] == "GET /api/v1/ready 200"
    assert mine[0]["level"] == "info" and mine[0]["metadata"]["status"] == "200"
    assert float(mine[0]["metadata"]["duration_ms"]) >= 0
    assert all({"time", "level", "logger", "message"} <= set(e) for e in entries)


def test_readiness_and_liveness(server, checker):
    api = Api(server, checker)
    _, body = api.call("GET", V1 + "/ready", expect=200)
    assert body == {"status": "ready"}
    # A server without a token has no metrics.
    assert scrape(server).status_code == 404


def test_systemd_unit_verifies_and_is_hardened(tmp_path):
    """deploy/flashcards.service: systemd's own checker finds nothing wrong with it (with ExecStart
    pointing at the binary under test), and its offline security review rates it "OK" (exposure at
    most 2.0 of 10)."""
    import os
    import shutil
    import subprocess

    from conftest import BIN, ROOT

    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze missing: scripts/test-api installs Debian's systemd package"
    unit = (ROOT / "deploy" / "flashcards.service").read_text()
    assert "ExecStart=/usr/local/bin/flashcards serve" in unit
    path = tmp_path / "flashcards.service"
    path.write_text(unit.replace("/usr/local/bin/flashcards", os.path.abspath(BIN)))
    verify = subprocess.run([analyze, "verify", str(path)], capture_output=True, text=True, timeout=60)
    problems = [line for line in (verify.stdout + verify.stderr).splitlines() if "flashcards.service" in line]
    assert verify.returncode == 0 and not problems, verify.stdout + verify.stderr
    security = subprocess.run(
        [analyze, "security", "--offline=true", "--threshold=20", str(path)], capture_output=True, text=True, timeout=60
    )
    assert security.returncode == 0, security.stdout + security.stderr
    assert "Overall exposure level for flashcards.service: 1." in security.stdout, security.stdout[-400:]
