"""Several instances on one PostgreSQL behind nginx (issue 21, docs/deployment.md).

Two `flashcards serve` processes share one PostgreSQL schema and token secret; nginx (Debian's
package, configured from deploy/nginx.conf.template) spreads the requests over both. 32 learners
work through the proxy at the same time: they sign up, make stacks and cards, rate (each rating
sent twice with the same review id, as a client that retries does), sync offline batches (each
sent twice), import a CSV file and generate cards from text. Then:
- no request failed (no 5xx, no refusal but the ones a test expects);
- the review log holds exactly the reviews the learners made: none lost, none doubled;
- both instances answer the same progress (XP, level, cards today) and the same leaderboard;
- every job ran once and succeeded;
- each learner's address reached the servers through X-Forwarded-For (the login limit of one
  learner does not touch another).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
import requests
from requests.adapters import HTTPAdapter

from conftest import PASSWORD, POSTGRES_URL, ROOT, free_port, start_server, unique_mail

V1 = "/api/v1"
LEARNERS = 32
CARDS = 6
RATINGS = 12
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


class Nginx:
    """nginx in the foreground with the deployment's configuration, in a folder of its own."""

    def __init__(self, upstream_ports: list[int]):
        self.prefix = Path(tempfile.mkdtemp(prefix="flashcards-nginx-"))
        self.port = free_port()
        template = (ROOT / "deploy" / "nginx.conf.template").read_text()
        config = (
            template.replace("@PREFIX@", str(self.prefix))
            .replace("@LISTEN@", f"127.0.0.1:{self.port}")
            .replace("@UPSTREAMS@", " ".join(f"server 127.0.0.1:{port};" for port in upstream_ports))
        )
        self.config = self.prefix / "nginx.conf"
        self.config.write_text(config)
        check = subprocess.run([NGINX, "-t", "-c", str(self.config), "-p", str(self.prefix)], capture_output=True)
        assert check.returncode == 0, check.stderr.decode()
        self.process = subprocess.Popen(
            [NGINX, "-c", str(self.config), "-p", str(self.prefix), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )
        self.base_url = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 20
        while True:
            try:
                if requests.get(self.base_url + V1 + "/health", timeout=2).status_code == 200:
                    return
            except requests.RequestException:
                pass
            assert self.process.poll() is None, self.process.stderr.read().decode()
            assert time.monotonic() < deadline, "nginx did not answer within 20 s"
            time.sleep(0.1)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        shutil.rmtree(self.prefix, ignore_errors=True)


def psql(schema: str, sql: str) -> list[list[str]]:
    """Rows of a query in the test schema, through Debian's psql."""
    output = subprocess.run(
        ["psql", POSTGRES_URL, "-At", "-F", "\t", "-c", f"SET search_path TO {schema}; {sql}"],
        capture_output=True, text=True, check=True,
    ).stdout
    return [line.split("\t") for line in output.splitlines() if line and line != "SET"]


def iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


class SourceAddress(HTTPAdapter):
    """Connections from one loopback address of 127.0.0.0/8, so that nginx sees each learner as a
    client of its own (Linux answers the whole block on the loopback interface)."""

    def __init__(self, address: str):
        self.address = address
        super().__init__()

    def init_poolmanager(self, *args, **kwargs):
        kwargs["source_address"] = (self.address, 0)
        super().init_poolmanager(*args, **kwargs)


def session_from(address: str) -> requests.Session:
    session = requests.Session()
    session.mount("http://", SourceAddress(address))
    return session


class Learner:
    """One learner's session through the proxy, from its own client address."""

    def __init__(self, base_url: str, index: int, failures: list[str]):
        self.base = base_url
        self.index = index
        self.address = f"127.0.0.{index + 2}"
        self.session = session_from(self.address)
        self.failures = failures
        self.reviews = 0

    def call(self, method: str, path: str, expect: int, **kwargs) -> dict | list | None:
        headers = dict(kwargs.pop("headers", {}))
        if hasattr(self, "token"):
            headers["Authorization"] = f"Bearer {self.token}"
        response = self.session.request(method, self.base + path, headers=headers, timeout=60, **kwargs)
        if response.status_code != expect:
            self.failures.append(f"learner {self.index}: {method} {path} → {response.status_code}: {response.text[:300]}")
            raise AssertionError(self.failures[-1])
        return response.json() if response.content and "json" in response.headers.get("Content-Type", "") else None

    def wait_for_job(self, job_id: str) -> dict:
        deadline = time.monotonic() + 120
        while True:
            job = self.call("GET", f"{V1}/jobs/{job_id}", 200)
            if job["status"] in ("succeeded", "failed", "cancelled"):
                return job
            assert time.monotonic() < deadline, f"job {job_id} did not finish: {job}"
            time.sleep(0.2)

    def work(self) -> None:
        mail = unique_mail()
        auth = self.call("POST", f"{V1}/auth/signup", 201, json={"name": f"Lerner {self.index}", "mail": mail,
                                                                 "password": PASSWORD})
        self.token = auth["token"]
        self.user_id = auth["user"]["id"]
        self.call("PATCH", f"{V1}/me/settings", 200, json={"leaderboardOptIn": True})
        stack = self.call("POST", f"{V1}/stacks", 201, json={"name": f"Stapel {self.index}", "color": "#2563EB"})
        # Made offline yesterday, so that the offline batch below may lie a few hours back.
        made = iso(datetime.now(timezone.utc) - timedelta(days=1))
        cards = [
            self.call("POST", f"{V1}/stacks/{stack['id']}/cards", 201,
                      json={"question": f"Frage {n}", "answer": "A", "createdAt": made})
            for n in range(CARDS)
        ]
        # Ratings, each sent twice with its review id (a client retrying after a lost answer).
        for _ in range(RATINGS):
            due = self.call("GET", f"{V1}/stacks/{stack['id']}/study/next", 200)
            if not due.get("card"):
                break
            body = {"cardId": due["card"]["id"], "rating": "good", "reviewId": str(uuid.uuid4()), "durationMs": 1500}
            self.call("POST", f"{V1}/stacks/{stack['id']}/study/rate", 200, json=body)
            self.call("POST", f"{V1}/stacks/{stack['id']}/study/rate", 200, json=body)
            self.reviews += 1
        # An offline batch of earlier reviews, sent twice.
        now = datetime.now(timezone.utc)
        batch = [
            {"id": str(uuid.uuid4()), "cardId": card["id"], "rating": "hard", "reviewedAt": iso(now - timedelta(hours=3 + n))}
            for n, card in enumerate(cards[:3])
        ]
        first = self.call("POST", f"{V1}/reviews", 200, json={"reviews": batch})
        again = self.call("POST", f"{V1}/reviews", 200, json={"reviews": batch})
        assert first["inserted"] == 3 and again["inserted"] == 0 and again["duplicates"] == 3, (first, again)
        self.reviews += 3
        if self.index % 8 == 0:
            csv = "".join(f"Wort {n};Bedeutung {n}\n" for n in range(50)).encode()
            job = self.call("POST", f"{V1}/imports", 202, files={"file": ("liste.csv", csv, "text/csv")})
            assert self.wait_for_job(job["id"])["status"] == "succeeded"
        if self.index % 8 == 1:
            text = ("Die Mitochondrien sind die Kraftwerke der Zelle. Sie erzeugen ATP durch Zellatmung. "
                    "Der Zellkern enthält die Erbinformation in Form von DNA. ") * 3
            job = self.call("POST", f"{V1}/stacks/{stack['id']}/generations", 202, json={"text": text})
            assert self.wait_for_job(job["id"])["status"] == "succeeded"


@pytest.mark.skipif(not POSTGRES_URL, reason="several instances share a PostgreSQL database")
def test_two_instances_behind_nginx_under_mixed_load():
    schema = f"api_scale_{uuid.uuid4().hex[:10]}"
    shared = {
        "DATABASE_SCHEMA": schema,
        "FLASHCARDS_JWT_SECRET": "s" * 40,
        "FLASHCARDS_TRUSTED_PROXIES": "127.0.0.1",
        "FLASHCARDS_JOB_WORKERS": "2",
        "FLASHCARDS_LOGIN_MAX_FAILURES_PER_ADDRESS": "3",
    }
    first = start_server("postgres", "scale-a", shared)
    second = start_server("postgres", "scale-b", shared)
    nginx = None
    try:
        ports = [int(server.base_url.rsplit(":", 1)[1]) for server in (first, second)]
        nginx = Nginx(ports)
        failures: list[str] = []
        learners = [Learner(nginx.base_url, index, failures) for index in range(LEARNERS)]
        with ThreadPoolExecutor(max_workers=LEARNERS) as pool:
            outcomes = list(pool.map(lambda learner: _run(learner), learners))
        assert not failures, "\n".join(failures[:20])
        assert all(outcomes), outcomes

        # Both instances took a fair share of the requests.
        access = (nginx.prefix / "access.log").read_text().splitlines()
        assert len(access) > LEARNERS * RATINGS, len(access)
        for port in ports:
            share = sum(f"127.0.0.1:{port}" in line for line in access) / len(access)
            assert share > 0.25, (port, share)
        assert not [line for line in access if " 5" in line.split('"')[0]], "a 5xx passed the proxy"

        # The review log: exactly what the learners made, none lost, none doubled.
        counts = dict(psql(schema, "SELECT user_id, COUNT(*) FROM review_logs GROUP BY user_id"))
        for learner in learners:
            assert int(counts.get(learner.user_id, 0)) == learner.reviews, (learner.index, counts.get(learner.user_id))
        assert psql(schema, "SELECT COUNT(*) - COUNT(DISTINCT id) FROM review_logs") == [["0"]]

        # Every job ran once and succeeded (hint jobs of the new cards included).
        jobs = psql(schema, "SELECT kind, status, attempts FROM jobs")
        assert jobs and all(status == "succeeded" and attempts == "1" for _, status, attempts in jobs), jobs
        assert {"import", "generation"} <= {kind for kind, _, _ in jobs}

        # Progress and leaderboard are the same whichever instance answers.
        for learner in learners[:8]:
            headers = {"Authorization": f"Bearer {learner.token}"}
            a = requests.get(first.base_url + V1 + "/me/progress", headers=headers, timeout=30).json()
            b = requests.get(second.base_url + V1 + "/me/progress", headers=headers, timeout=30).json()
            assert a == b, (learner.index, a, b)
        headers = {"Authorization": f"Bearer {learners[0].token}"}
        board_a = requests.get(first.base_url + V1 + "/leaderboards/daily", headers=headers, timeout=30).json()
        board_b = requests.get(second.base_url + V1 + "/leaderboards/daily", headers=headers, timeout=30).json()
        assert board_a == board_b and len(board_a["entries"]) == LEARNERS, board_a

        # Each learner's own address counts for the login limit (nginx passes the address it saw in
        # X-Forwarded-For, which the instances trust from it): one learner's failures, three on this
        # deployment, lock out that learner's address, neither the others nor the proxy's.
        def login(session: requests.Session) -> int:
            return session.post(nginx.base_url + V1 + "/auth/login", timeout=30,
                                json={"mail": unique_mail(), "password": "falsch"}).status_code
        guesser, neighbour = session_from(learners[0].address), session_from(learners[1].address)
        assert [login(guesser) for _ in range(4)] == [401, 401, 401, 429]
        assert login(neighbour) == 401
        # A client cannot choose its address by writing the header: nginx replaces it.
        spoofed = guesser.post(nginx.base_url + V1 + "/auth/login", timeout=30,
                               headers={"X-Forwarded-For": "203.0.113.50"},
                               json={"mail": unique_mail(), "password": "falsch"})
        assert spoofed.status_code == 429, spoofed.text
    finally:
        if nginx:
            nginx.stop()
        first.stop()
        second.stop()


def _run(learner: Learner) -> bool:
    try:
        learner.work()
        return True
    except AssertionError as error:
        if str(error) not in learner.failures:
            learner.failures.append(f"learner {learner.index}: {error}")
        return False
