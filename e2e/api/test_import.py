"""Import and export (issue 19) against the real server: `POST /api/v1/imports/preview`,
`POST /api/v1/imports` (a job, all or nothing) and `GET /api/v1/stacks/{stackId}/export`.

Every answer goes through the checker of conftest.py (status documented, body valid against
Public/openapi.json); the job results, JSON text inside the `Job`, are checked against
`ImportResult` and `ImportProblem` here.

CSV/TSV files and Anki packages (`.apkg`: the fixtures of Tests/FlashcardsServerTests/Fixtures/anki,
whose README says exactly what each holds). The `.apkg` export is read back by the real Anki:
e2e/anki_check.py run with the Python in ANKI_PYTHON (scripts/test-api makes that venv with
scripts/anki-venv.sh); without it that test fails, it never skips.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import re
import sqlite3
import subprocess
import tempfile
import time
import uuid
import zipfile
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from urllib.parse import unquote

import pytest
import requests

from conftest import ROOT, Api

V1 = "/api/v1"
PREVIEW = V1 + "/imports/preview"
IMPORTS = V1 + "/imports"
STACKS = V1 + "/stacks"
STACK = STACKS + "/{stackId}"
CARDS = STACK + "/cards"
EXPORT = STACK + "/export"
JOB = V1 + "/jobs/{jobId}"
NEXT = STACK + "/study/next"
RATE = STACK + "/study/rate"
FINISHED = ("succeeded", "failed", "cancelled")
MB = 1024 * 1024
CSV_HEADER = "Vorderseite,Rückseite,Hinweis,Schlagwörter"

#: A Quizlet set as Quizlet exports it ("term TAB definition", one per line): commas and a
#: semicolon inside definitions, so that only the tab splits every line alike.
QUIZLET = (
    "to be\tsein\n"
    "dog\tder Hund\n"
    "mouse\tdie Maus, die Mäuse\n"
    "the cheese\tder Käse; Käse\n"
    "to learn\tlernen\n"
)
QUIZLET_CARDS = [
    ("to be", "sein"),
    ("dog", "der Hund"),
    ("mouse", "die Maus, die Mäuse"),
    ("the cheese", "der Käse; Käse"),
    ("to learn", "lernen"),
]


# --- helpers ----------------------------------------------------------------------------------------


def send(
    api: Api,
    template: str,
    token: str | None,
    content: bytes,
    name: str = "karten.csv",
    options: dict | str | None = None,
    expect: int | None = None,
):
    """Uploads `content` as the form's `file`, with `options` as JSON text (a browser's
    `JSON.stringify`) when given; returns (response, body)."""
    form = None
    if options is not None:
        form = {"options": options if isinstance(options, str) else json.dumps(options)}
    return api.call("POST", template, token=token, files={"file": (name, content, "text/csv")}, form=form, expect=expect)


def wait_for_job(api: Api, token: str, job_id: str, timeout: float = 60) -> dict:
    """Polls the job until it has finished (every answer checked against the document)."""
    deadline = time.monotonic() + timeout
    while True:
        _, job = api.call("GET", JOB, path={"jobId": job_id}, token=token, expect=200)
        if job["status"] in FINISHED:
            return job
        assert time.monotonic() < deadline, f"job {job_id} did not finish within {timeout} s: {job}"
        time.sleep(0.05)


def run_import(api: Api, token: str, content: bytes, name: str = "karten.csv", options: dict | None = None) -> dict:
    """Starts an import, checks the queued job and returns the finished one."""
    _, job = send(api, IMPORTS, token, content, name, options, expect=202)
    assert job["kind"] == "import" and job["status"] in ("queued", "running"), job
    assert job["result"] is None and job["error"] is None and job["errorCode"] is None, job
    return wait_for_job(api, token, job["id"])


def import_result(api: Api, job: dict) -> dict:
    """The `ImportResult` of a succeeded import job, checked against the document."""
    assert job["status"] == "succeeded", job
    assert job["error"] is None and job["errorCode"] is None, job
    result = json.loads(job["result"])
    api.checker.validate_instance("/components/schemas/ImportResult", result, "import job result")
    return result


def import_problem(api: Api, job: dict) -> dict:
    """The `ImportProblem` of a failed import job, checked against the document and the job."""
    assert job["status"] == "failed", job
    assert job["progress"]["stage"] == "failed", job
    problem = json.loads(job["result"])
    api.checker.validate_instance("/components/schemas/ImportProblem", problem, "failed import job result")
    assert job["error"] == problem["message"] and job["errorCode"] == problem["code"], (job, problem)
    return problem


def all_cards(api: Api, token: str, stack_id: str) -> list[dict]:
    """Every card of the stack, in creation order (all pages)."""
    cards: list[dict] = []
    page = 1
    while True:
        _, body = api.call(
            "GET", CARDS, path={"stackId": stack_id}, token=token, params={"page": page, "perPage": 200}, expect=200
        )
        cards += body["items"]
        if len(cards) >= body["total"] or not body["items"]:
            return cards
        page += 1


def stack_ids(api: Api, token: str) -> list[str]:
    _, stacks = api.call("GET", STACKS, token=token, expect=200)
    return [stack["id"] for stack in stacks]


def export(api: Api, token: str, stack_id: str, format: str | None) -> tuple[requests.Response, str | bytes]:
    """The export as the checker returns it: text for CSV/TSV, bytes for an Anki package."""
    params = {"format": format} if format else None
    response, text = api.call("GET", EXPORT, path={"stackId": stack_id}, token=token, params=params, expect=200)
    return response, text


def read_export(text: str, separator: str) -> list[list[str]]:
    """The rows of an export, read by Python's csv module (RFC 4180), not by our own reader."""
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=separator, strict=True))


def card_row(card: dict) -> list[str]:
    """A card as an export writes it (no tags: the Card DTO has none)."""
    return [card["question"], card["answer"], card["hint"] or "", ""]


def wait_for_hints(api: Api, token: str, stack_id: str, timeout: float = 30) -> list[dict]:
    """The stack's cards once its hint job has given each one a hint, so that they stop changing."""
    deadline = time.monotonic() + timeout
    while True:
        cards = all_cards(api, token, stack_id)
        if all(card["hint"] for card in cards):
            return cards
        assert time.monotonic() < deadline, f"hints missing after {timeout} s: {cards}"
        time.sleep(0.1)


def multipart_head(boundary: str) -> bytes:
    return (
        f"--{boundary}\r\n"
        'Content-Disposition: form-data; name="file"; filename="riesig.csv"\r\n'
        "Content-Type: text/csv\r\n\r\n"
    ).encode()


def multipart_tail(boundary: str) -> bytes:
    return f"\r\n--{boundary}--\r\n".encode()


class StreamedUpload:
    """A multipart body whose `file` holds `size` bytes of CSV rows, made chunk by chunk as it is sent
    (never held in memory as a whole). Iterated, requests sends it with chunked transfer encoding;
    `sized()` gives it a length, so that it goes out with a Content-Length instead."""

    CHUNK = b"Frage,Antwort\n" * (MB // 14)

    def __init__(self, size: int):
        self.boundary = "grenze" + uuid.uuid4().hex
        self.size = size
        self.content_type = f"multipart/form-data; boundary={self.boundary}"

    def __iter__(self):
        yield multipart_head(self.boundary)
        sent = 0
        while sent < self.size:
            part = self.CHUNK[: self.size - sent]
            sent += len(part)
            yield part
        yield multipart_tail(self.boundary)

    def length(self) -> int:
        return len(multipart_head(self.boundary)) + self.size + len(multipart_tail(self.boundary))

    def chunked(self):
        """A plain generator: requests cannot know its length and sends it chunked."""
        return iter(self)

    def sized(self):
        upload = self

        class Sized:
            def __iter__(self):
                return iter(upload)

            def __len__(self):
                return upload.length()

        return Sized()


def peak_memory_bytes(pid: int) -> int | None:
    """The process's peak resident memory (Linux: VmHWM), or None where /proc is not there."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


# --- stories -------------------------------------------------------------------------------------------


def test_import_story_quizlet_export_and_round_trip(api: Api):
    """A Quizlet set: preview, import as a job, the stack's cards, CSV and TSV export, and both exports
    imported again give the same cards and the same files."""
    token = api.signup("Quinn Quizlet")["token"]
    quizlet = QUIZLET.encode()

    # The preview reads the file (tab detected, no header) and writes nothing.
    _, preview = send(api, PREVIEW, token, quizlet, name="Englisch_Vokabeln.txt", expect=200)
    assert preview == {
        "format": "csv",
        "encoding": "utf-8",
        "separator": "\t",
        "hasHeader": False,
        "header": None,
        "columns": {"front": 0, "back": 1, "hint": None, "tags": None},
        "columnCount": 2,
        "rows": [list(card) for card in QUIZLET_CARDS],
        "cards": 5,
        "rejected": 0,
        "problems": [],
        "suggestedStackName": "Englisch Vokabeln",
        "decks": None,
        "notes": None,
        "reviews": None,
        "media": None,
        "images": None,
    }, preview
    assert stack_ids(api, token) == [], "a preview writes nothing"

    # The options are honoured: a separator that splits only one line leaves four rows without a back.
    _, semicolon = send(api, PREVIEW, token, quizlet, options={"separator": ";"}, expect=200)
    assert semicolon["separator"] == ";" and semicolon["columnCount"] == 2, semicolon
    assert semicolon["cards"] == 1 and semicolon["rejected"] == 4, semicolon
    assert [(p["code"], p["line"]) for p in semicolon["problems"]] == [
        ("missing_column", 1),
        ("missing_column", 2),
        ("missing_column", 3),
        ("missing_column", 5),
    ], semicolon["problems"]
    # `\t` as two characters is a tab; the options part may also come typed as application/json.
    _, escaped = api.call(
        "POST",
        PREVIEW,
        token=token,
        files={
            "file": ("x.txt", quizlet, "text/plain"),
            "options": (None, json.dumps({"separator": "\\t", "stackName": " Vokabeln "}), "application/json"),
        },
        expect=200,
    )
    assert escaped["separator"] == "\t" and escaped["cards"] == 5, escaped
    assert escaped["suggestedStackName"] == "Vokabeln", "the stack name is trimmed"
    # Every row as a header and a mapping by the options: the first row is no card any more.
    _, mapped = send(
        api, PREVIEW, token, quizlet, options={"hasHeader": True, "columns": {"front": 1, "back": 0}}, expect=200
    )
    assert mapped["hasHeader"] is True and mapped["header"] == ["to be", "sein"], mapped
    assert mapped["columns"] == {"front": 1, "back": 0, "hint": None, "tags": None}, mapped
    assert mapped["cards"] == 4 and mapped["rows"][0] == ["dog", "der Hund"], mapped
    assert stack_ids(api, token) == [], "no preview writes anything"

    # The import: a job that makes a new FSRS stack named after the file, with every card new.
    job = run_import(api, token, quizlet, name="Englisch_Vokabeln.txt")
    result = import_result(api, job)
    assert result["cardsCreated"] == 5 and len(result["stacks"]) == 1, result
    created = result["stacks"][0]
    assert created["name"] == "Englisch Vokabeln" and created["cards"] == 5 and created["created"] is True, result
    assert stack_ids(api, token) == [created["id"]]
    _, stack = api.call("GET", STACK, path={"stackId": created["id"]}, token=token, expect=200)
    assert stack["name"] == "Englisch Vokabeln" and stack["cardCount"] == 5 and stack["scheduler"] == "fsrs", stack
    cards = all_cards(api, token, created["id"])
    assert [(card["question"], card["answer"]) for card in cards] == QUIZLET_CARDS
    assert all(card["state"] == "new" and card["reviewCount"] == 0 for card in cards), cards
    assert stack["dueCount"] == 5, "imported cards are due at once"
    _, study = api.call("GET", STACK + "/study/next", path={"stackId": created["id"]}, token=token, expect=200)
    assert study["card"]["id"] in {card["id"] for card in cards}, study
    # The finished job as its event stream sends it: once, then the stream ends.
    _, events = api.call("GET", JOB + "/events", path={"jobId": job["id"]}, token=token, expect=200)
    assert [event["data"]["status"] for event in events] == ["succeeded"], events
    assert json.loads(events[-1]["data"]["result"]) == result

    # Export once the hint job has filled in the hints, so that the cards stay as they are.
    cards = wait_for_hints(api, token, created["id"])
    response, csv_text = export(api, token, created["id"], None)
    assert response.headers["Content-Type"].replace(" ", "").lower() == "text/csv;charset=utf-8"
    assert response.headers["Content-Disposition"] == (
        "attachment; filename=\"Englisch Vokabeln.csv\"; filename*=UTF-8''Englisch%20Vokabeln.csv"
    )
    raw_csv = response.content
    assert raw_csv.startswith(b"\xef\xbb\xbf" + CSV_HEADER.encode() + b"\r\n"), raw_csv[:80]
    assert raw_csv.endswith(b"\r\n") and b"\n" not in raw_csv.replace(b"\r\n", b""), "rows end in CRLF"
    assert read_export(csv_text.removeprefix("\ufeff"), ",") == [CSV_HEADER.split(",")] + [card_row(c) for c in cards]
    explicit, _ = export(api, token, created["id"], "csv")
    assert explicit.content == raw_csv, "csv is the default format"

    response, tsv_text = export(api, token, created["id"], "tsv")
    assert response.headers["Content-Type"].replace(" ", "").lower() == "text/tab-separated-values;charset=utf-8"
    assert response.headers["Content-Disposition"] == (
        "attachment; filename=\"Englisch Vokabeln.tsv\"; filename*=UTF-8''Englisch%20Vokabeln.tsv"
    )
    raw_tsv = response.content
    assert raw_tsv.startswith("to be\tsein\t".encode()), "no byte order mark, no header"
    assert raw_tsv.endswith(b"\r\n") and b"\n" not in raw_tsv.replace(b"\r\n", b"")
    assert read_export(tsv_text, "\t") == [card_row(c) for c in cards]

    # The CSV export imported again: a new stack with the same cards, which exports the same file.
    again = import_result(api, run_import(api, token, raw_csv, name="Englisch Vokabeln.csv"))
    copy = again["stacks"][0]
    assert copy["created"] is True and copy["name"] == "Englisch Vokabeln" and copy["cards"] == 5, again
    copied = all_cards(api, token, copy["id"])
    assert [card_row(c) for c in copied] == [card_row(c) for c in cards]
    assert export(api, token, copy["id"], "csv")[0].content == raw_csv

    # The TSV export imported into an existing (empty) stack of the caller's.
    _, target = api.call("POST", STACKS, token=token, json_body={"name": "Ziel", "color": "#123456"}, expect=201)
    into = import_result(api, run_import(api, token, raw_tsv, name="egal.tsv", options={"stackId": target["id"]}))
    assert into == {
        "stacks": [{"id": target["id"], "name": "Ziel", "cards": 5, "created": False}],
        "cardsCreated": 5,
        "reviewsImported": 0,
        "mediaSkipped": 0,
        "imagesImported": 0,
    }, into
    assert [card_row(c) for c in all_cards(api, token, target["id"])] == [card_row(c) for c in cards]
    assert export(api, token, target["id"], "tsv")[0].content == raw_tsv
    assert sorted(stack_ids(api, token)) == sorted([created["id"], copy["id"], target["id"]])

    # Without a token: 401 for all three.
    send(api, PREVIEW, None, quizlet, expect=401)
    send(api, IMPORTS, None, quizlet, expect=401)
    api.call("GET", EXPORT, path={"stackId": created["id"]}, expect=401)


def test_import_keeps_hints_tags_quotes_and_windows_1252(api: Api):
    """An Excel CSV (semicolons, Windows-1252, a header in its own order, a quoted line break): hints
    and tags survive the import, the export and a second import (the Card DTO has no tags, so the
    export shows them)."""
    token = api.signup("Erika Excel")["token"]
    source = (
        "Tags;Begriff;Bedeutung;Hinweis\r\n"
        'bio zelle;Mitochondrium;"Kraftwerk der Zelle,\r\nbildet ATP";Energie\r\n'
        'bio;"Was ist ""Osmose""?";Diffusion von Wasser;\r\n'
        "geo;Mäander;Flußschlinge;  \r\n"
    ).encode("cp1252")
    _, preview = send(api, PREVIEW, token, source, name="Bio.csv", expect=200)
    assert preview["encoding"] == "windows-1252" and preview["separator"] == ";", preview
    assert preview["hasHeader"] is True and preview["header"] == ["Tags", "Begriff", "Bedeutung", "Hinweis"], preview
    assert preview["columns"] == {"front": 1, "back": 2, "hint": 3, "tags": 0}, preview
    assert preview["columnCount"] == 4 and preview["cards"] == 3 and preview["rejected"] == 0, preview
    assert preview["rows"][0] == ["bio zelle", "Mitochondrium", "Kraftwerk der Zelle,\nbildet ATP", "Energie"]

    result = import_result(api, run_import(api, token, source, name="Bio.csv", options={"stackName": "Zellen"}))
    stack_id = result["stacks"][0]["id"]
    assert result["stacks"][0]["name"] == "Zellen" and result["cardsCreated"] == 3, result
    cards = all_cards(api, token, stack_id)
    assert [(c["question"], c["answer"]) for c in cards] == [
        ("Mitochondrium", "Kraftwerk der Zelle,\nbildet ATP"),
        ('Was ist "Osmose"?', "Diffusion von Wasser"),
        ("Mäander", "Flußschlinge"),
    ]
    assert cards[0]["hint"] == "Energie", "a hint from the file is kept"

    cards = wait_for_hints(api, token, stack_id)
    response, text = export(api, token, stack_id, "csv")
    assert response.headers["Content-Disposition"] == (
        "attachment; filename=\"Zellen.csv\"; filename*=UTF-8''Zellen.csv"
    )
    rows = read_export(text.removeprefix("\ufeff"), ",")
    assert rows[0] == CSV_HEADER.split(",")
    assert rows[1:] == [
        ["Mitochondrium", "Kraftwerk der Zelle,\nbildet ATP", "Energie", "bio zelle"],
        ['Was ist "Osmose"?', "Diffusion von Wasser", cards[1]["hint"], "bio"],
        ["Mäander", "Flußschlinge", cards[2]["hint"], "geo"],
    ], rows
    # A line break inside a quoted field is written as it is stored; every row still ends in CRLF.
    assert '"Kraftwerk der Zelle,\nbildet ATP"' in text and text.endswith("\r\n")

    again = import_result(api, run_import(api, token, response.content, name="Zellen.csv"))
    copy_id = again["stacks"][0]["id"]
    assert again["stacks"][0]["name"] == "Zellen" and again["cardsCreated"] == 3
    assert export(api, token, copy_id, "csv")[0].content == response.content, "hints and tags read back unchanged"


def test_import_is_all_or_nothing(api: Api):
    """A file with one bad row imports nothing, into a new stack or an existing one; the job fails
    with the line, the field and a German message."""
    token = api.signup("Alma Allesodernichts")["token"]
    _, stack = api.call("POST", STACKS, token=token, json_body={"name": "Bestand", "color": "#059669"}, expect=201)
    at = {"stackId": stack["id"]}
    api.call("POST", CARDS, path=at, token=token, json_body={"question": "Schon da", "answer": "Ja"}, expect=201)

    bad = b"Frage;Antwort\nA;1\nB;\nC;3\n"
    expected = {
        "code": "back_empty",
        "line": 3,
        "note": None,
        "field": "back",
        "message": "Zeile 3: Die Rückseite ist leer.",
    }
    _, preview = send(api, PREVIEW, token, bad, expect=200)
    assert preview["hasHeader"] is True and preview["header"] == ["Frage", "Antwort"], preview
    assert preview["cards"] == 2 and preview["rejected"] == 1 and preview["problems"] == [expected], preview

    for options in (None, {"stackId": stack["id"]}):
        job = run_import(api, token, bad, options=options)
        assert import_problem(api, job) == expected, job
        assert job["error"] == "Zeile 3: Die Rückseite ist leer." and job["errorCode"] == "back_empty"

    # A bad row far behind the first thousand (one insert statement's worth): still nothing written.
    rows = [f"Frage {n},Antwort {n}" for n in range(1, 2501)]
    rows[2399] = "Frage 2400," + "x" * 20_001
    job = run_import(api, token, ("\n".join(rows) + "\n").encode(), options={"stackId": stack["id"]})
    problem = import_problem(api, job)
    assert (problem["code"], problem["line"], problem["field"]) == ("back_too_long", 2400, "back"), problem
    assert problem["message"].startswith("Zeile 2400: Die Rückseite ist länger als"), problem

    # A row that cannot be read names the line its row starts on.
    job = run_import(api, token, b'a,b\n"c,d\ne,f\n')
    assert import_problem(api, job) == {
        "code": "unterminated_quote",
        "line": 2,
        "note": None,
        "field": None,
        "message": "Zeile 2: Ein Feld in Anführungszeichen wird nicht geschlossen.",
    }, job
    # A file without any card.
    job = run_import(api, token, b"Frage,Antwort\n")
    assert import_problem(api, job)["code"] == "no_cards", job

    assert stack_ids(api, token) == [stack["id"]], "a failed import makes no stack"
    assert [c["question"] for c in all_cards(api, token, stack["id"])] == ["Schon da"]
    _, unchanged = api.call("GET", STACK, path=at, token=token, expect=200)
    assert unchanged["cardCount"] == 1, unchanged


def test_import_refuses_bad_requests(api: Api):
    """Options that are no JSON or break a rule, no file, and a body that is no form: 400, no job, no
    stack. An export in another format: 400."""
    token = api.signup("Bruno Fehler")["token"]
    good = b"a,b\nc,d\n"
    for template in (PREVIEW, IMPORTS):
        for options, code, words in (
            ("{nope", "malformed_json", "JSON"),
            ('{"separator": 5}', "malformed_json", "separator"),
            ('{"stackId": "kein-stapel"}', "malformed_json", "stackId"),
            ('{"columns": {"front": 0}}', "malformed_json", "back"),
            ({"separator": "ab"}, "validation_failed", "Trennzeichen"),
            ({"separator": '"'}, "validation_failed", "Trennzeichen"),
            ({"stackName": "   "}, "validation_failed", "Name"),
            ({"stackName": "n" * 201}, "validation_failed", "Name"),
        ):
            _, body = send(api, template, token, good, options=options, expect=400)
            assert body["code"] == code, (template, options, body)
            assert words.lower() in body["message"].lower(), (template, options, body)
        # No file, an empty file, and a body that is no multipart form.
        _, body = api.call("POST", template, token=token, form={"options": "{}"}, expect=400)
        assert body["code"] == "validation_failed", body
        _, body = send(api, template, token, b"", expect=400)
        assert body["code"] == "validation_failed", body
        _, body = api.call("POST", template, token=token, json_body={"file": "a,b"}, expect=400)
        assert body["code"] == "validation_failed" and "multipart/form-data" in body["message"], body
    time.sleep(0.3)  # long enough for a queued import's worker to have made a stack
    assert stack_ids(api, token) == [], "a refused import queues nothing"

    _, stack = api.call("POST", STACKS, token=token, json_body={"name": "Export", "color": "#000000"}, expect=201)
    for bad_format in ("xls", "CSV", ""):
        _, body = api.call(
            "GET", EXPORT, path={"stackId": stack["id"]}, token=token, params={"format": bad_format}, expect=400
        )
        assert body["code"] == "validation_failed", (bad_format, body)
    # An empty stack exports its header only (CSV) or nothing (TSV).
    response, _ = export(api, token, stack["id"], "csv")
    assert response.content == b"\xef\xbb\xbf" + CSV_HEADER.encode() + b"\r\n"
    response, _ = export(api, token, stack["id"], "tsv")
    assert response.content == b""


def test_import_refuses_zips_without_a_collection_and_binary_files_with_415(api: Api):
    """The type comes from the content, never the name: a zip without an Anki collection, something that
    starts like a zip but is none, and any other binary file are refused at once; nothing is queued."""
    token = api.signup("Anki Andersen")["token"]
    no_collection = io.BytesIO()
    with zipfile.ZipFile(no_collection, "w") as archive:
        archive.writestr("readme.txt", "Kein Anki-Paket, nur Text.")
        archive.writestr("media", b"{}")
    for template in (PREVIEW, IMPORTS):
        for name in ("Spanisch.apkg", "Spanisch.csv", "Spanisch.zip"):
            _, body = send(api, template, token, no_collection.getvalue(), name=name, expect=415)
            assert body["code"] == "unsupported_media_type", body
            assert body["message"] == (
                "Die Zip-Datei ist kein Anki-Paket: Es fehlt die Sammlung (collection.anki2, .anki21 oder .anki21b)."
            ), body
        _, body = send(api, template, token, b"PK\x03\x04" + b"\x00kaputt" * 20, name="kaputt.apkg", expect=415)
        assert body["code"] == "unsupported_media_type" and "Anki-Paket" in body["message"], body
        _, body = send(api, template, token, b"%PDF-1.4\n\x00\x00binary\n", name="karten.csv", expect=415)
        assert body["code"] == "unsupported_media_type" and "CSV" in body["message"], body
    _, body = send(api, IMPORTS, token, fixture("not-anki.zip"), name="not-anki.zip", expect=415)
    assert "kein Anki-Paket" in body["message"], body
    time.sleep(0.3)
    assert stack_ids(api, token) == []


def test_import_into_a_foreign_stack_is_404(api: Api):
    """Another user's stack is nobody's: the import is refused before a job is queued, the export too."""
    owner = api.signup("Olga Eigen")["token"]
    stranger = api.signup("Sven Fremd")["token"]
    _, theirs = api.call("POST", STACKS, token=owner, json_body={"name": "Privat", "color": "#7C3AED"}, expect=201)
    api.call(
        "POST", CARDS, path={"stackId": theirs["id"]}, token=owner, json_body={"question": "F", "answer": "A"}, expect=201
    )
    for stack_id in (theirs["id"], str(uuid.uuid4())):
        _, body = send(api, IMPORTS, stranger, b"a,b\nc,d\n", options={"stackId": stack_id}, expect=404)
        assert body["code"] == "stack_not_found", body
        _, body = api.call("GET", EXPORT, path={"stackId": stack_id}, token=stranger, expect=404)
        assert body["code"] == "stack_not_found", body
    _, body = api.call("GET", EXPORT, path={"stackId": "kaputt"}, token=stranger, params={"format": "tsv"}, expect=404)
    assert body["code"] == "stack_not_found", body
    time.sleep(0.3)
    assert stack_ids(api, stranger) == []
    _, still = api.call("GET", STACK, path={"stackId": theirs["id"]}, token=owner, expect=200)
    assert still["cardCount"] == 1, "the owner's stack is untouched"
    # The preview writes nothing, so it does not look at the stack: the same options preview fine.
    _, preview = send(api, PREVIEW, stranger, b"a,b\nc,d\n", options={"stackId": theirs["id"]}, expect=200)
    assert preview["cards"] == 2, preview


def test_export_file_name_header(api: Api):
    """The download's file name, for every format: the stack's name, ASCII with `_` for anything else
    (quotes, slashes, semicolons included) in `filename`, the exact name in RFC 5987 form in `filename*`.
    The stacks are empty: every format exports one, the Anki package too."""
    token = api.signup("Franz Dateiname")["token"]
    for name, ascii_name in (
        ("Über Zellen", "_ber Zellen"),
        ('a"b\\c/d;e%f', "a_b_c_d_e%f"),
        ("日本語 単語", "___ __"),
    ):
        _, stack = api.call("POST", STACKS, token=token, json_body={"name": name, "color": "#000000"}, expect=201)
        for format in ("csv", "tsv", "apkg"):
            response, _ = export(api, token, stack["id"], format)
            disposition = response.headers["Content-Disposition"]
            assert disposition.isascii(), disposition
            plain, _, extended = disposition.partition("; filename*=UTF-8''")
            assert plain == f'attachment; filename="{ascii_name}.{format}"', disposition
            assert unquote(extended, encoding="utf-8", errors="strict") == f"{name}.{format}", disposition


def test_succeeded_import_job_reports_its_progress_as_done(api: Api):
    """A finished job's progress says so, as a generation's does (`done`, the cards counted), so that a
    client showing the progress does not stay at "3 Karten werden gespeichert …"."""
    token = api.signup("Paula Fortschritt")["token"]
    job = run_import(api, token, QUIZLET.encode())
    result = import_result(api, job)
    assert job["progress"]["stage"] == "done", job["progress"]
    assert job["progress"]["cardsCreated"] == result["cardsCreated"] == 5, job["progress"]


# --- Anki packages ------------------------------------------------------------------------------------

ANKI_FIXTURES = ROOT / "Tests" / "FlashcardsServerTests" / "Fixtures" / "anki"
ANKI_CHECK = ROOT / "e2e" / "anki_check.py"


def fixture(name: str) -> bytes:
    """A file of Tests/FlashcardsServerTests/Fixtures/anki (its README says exactly what each holds)."""
    return (ANKI_FIXTURES / name).read_bytes()


@dataclass(frozen=True)
class AnkiCard:
    """A card of modern.apkg as the import makes it."""

    answer: str
    deck: str
    #: The state its review history replays to (Anki's: learning, relearning, review; the suspended
    #: review card xss is a review card here).
    state: str
    tags: tuple[str, ...]
    #: Its answers in Anki's review log: (revlog id = answer time in ms, ease 1-4).
    reviews: tuple[tuple[int, int], ...]


#: The 7 cards of modern.apkg by question (fixture README, b.), in the order the preview shows them
#: (decks by name, then notes and templates in order). HTML is rendered as text, cloze deletions as […].
MODERN = {
    "Was ist die Mitochondrie?": AnkiCard(
        "Das Kraftwerk der Zelle.\nSie erzeugt ATP & Wärme.\n![](image:ID)",
        "Biologie",
        "learning",
        ("biologie", "zelle::organell"),
        ((1709287506000, 3),),
    ),
    "Photosynthese": AnkiCard(
        "Umwandlung von Licht in chemische Energie",
        "Biologie",
        "review",
        ("biologie", "pflanzen"),
        ((1709287515000, 3), (1709288411000, 3)),
    ),
    "Umwandlung von Licht in chemische Energie": AnkiCard(
        "Photosynthese", "Biologie", "new", ("biologie", "pflanzen"), ()
    ),
    "Zellkern & DNA": AnkiCard(
        "![](image:ID)\nEnthält die Erbinformation (Größe: 5 µm).",
        "Biologie::Zellen",
        "relearning",
        ("bild", "zelle"),
        (
            (1709287522000, 3),
            (1709288477000, 3),
            (1709373605000, 3),
            (1709719212000, 1),
            (1709719868000, 1),
            (1709720527000, 2),
        ),
    ),
    "Ist das harmlos?": AnkiCard(
        "Nein, <script> ist gefährlich.",
        "Biologie::Zellen",
        "review",
        ("sicherheit",),
        ((1709287528000, 3), (1709288404000, 3), (1709373611000, 3)),
    ),
    # A cloze note's cards, shown as their sides (a cloze's back: the whole text, then Back Extra).
    "Die […] umgibt die Zelle.": AnkiCard(
        "Die Zellmembran umgibt die Zelle.\n\nSiehe auch: Zellwand",
        "Biologie::Zellen",
        "review",
        ("cloze", "zelle"),
        ((1709287538000, 3), (1709288469000, 3), (1709373623000, 2), (1709546404000, 4)),
    ),
    "Die Zellmembran umgibt die [Hülle?].": AnkiCard(
        "Die Zellmembran umgibt die Zelle.\n\nSiehe auch: Zellwand",
        "Biologie::Zellen",
        "review",
        ("cloze", "zelle"),
        ((1709288482000, 4), (1709719219000, 3)),
    ),
}
MODERN_DECKS = [
    {"name": "Biologie", "cards": 3, "reviews": 3},
    {"name": "Biologie::Zellen", "cards": 4, "reviews": 15},
]
#: Anki's card type and queue for each state: new 0/0, learning 1/1, review 2/2, relearning 3/1.
ANKI_TYPE_QUEUE = {"new": (0, 0), "learning": (1, 1), "review": (2, 2), "relearning": (3, 1)}


def iso_ms(milliseconds: int) -> str:
    """A time in ms since 1970 as the API writes dates."""
    moment = datetime.fromtimestamp(milliseconds / 1000, timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{milliseconds % 1000:03d}Z"


def parse_api_date(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)


IMAGE_ID = re.compile(r"image:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def without_ids(text: str) -> str:
    """A rich card's text with its image ids as `ID` (each import stores its own copies)."""
    return IMAGE_ID.sub("image:ID", text)


def row_text(text: str) -> str:
    """A text of MODERN as a preview row shows it: an image without a description as `[Bild]`."""
    return text.replace("![](image:ID)", "[Bild]")


def anki_field(card: dict, field: str) -> str:
    """A card's side as an exported field: a plain card's text escaped (`anki_html`), a rich card's
    rendered HTML with each image as `<img src="<id>.<ext>">` (its media file)."""
    if card["format"] != "markdown":
        return anki_html(side(card, field))
    html = card["rendered"][field] or ""
    return re.sub(r'<img class="card-image" data-image="([0-9a-f-]{36})"', r'<img src="\1.png"', html)


def anki_html(text: str | None) -> str:
    """A card's text as an exported field: `&`, `<`, `>` escaped, line breaks as `<br>`."""
    return (text or "").replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\n", "<br>")


def side(card: dict, field: str) -> str:
    """A card's `question` or `answer` as the learner sees it (`shown` for a card of another kind)."""
    return (card.get("shown") or card)[field]


def check_modern_cards(cards: list[dict], questions: set[str] | None = None) -> None:
    """The cards of modern.apkg (or those of `questions`) as imported: the sides a learner sees (a
    cloze note's cards are cloze cards of one note), state and history."""
    assert sorted(side(card, "question") for card in cards) == sorted(questions or MODERN), cards
    for card in cards:
        expected = MODERN[side(card, "question")]
        what = f"{side(card, 'question')!r}: {card}"
        assert without_ids(side(card, "answer")) == expected.answer, what
        assert card["kind"] == ("cloze" if "cloze" in expected.tags else "basic"), what
        assert card["state"] == expected.state, what
        assert card["reviewCount"] == len(expected.reviews), what
        if expected.reviews:
            assert card["lastReviewedAt"] == iso_ms(expected.reviews[-1][0]), what
            assert card["stability"] is not None and card["difficulty"] is not None, what
        else:
            assert card["lastReviewedAt"] is None and card["stability"] is None, what


SCHEMA_11 = """
CREATE TABLE col (id integer primary key, crt integer not null, mod integer not null, scm integer not null,
  ver integer not null, dty integer not null, usn integer not null, ls integer not null, conf text not null,
  models text not null, decks text not null, dconf text not null, tags text not null);
CREATE TABLE notes (id integer primary key, guid text not null, mid integer not null, mod integer not null,
  usn integer not null, tags text not null, flds text not null, sfld integer not null, csum integer not null,
  flags integer not null, data text not null);
CREATE TABLE cards (id integer primary key, nid integer not null, did integer not null, ord integer not null,
  mod integer not null, usn integer not null, type integer not null, queue integer not null, due integer not null,
  ivl integer not null, factor integer not null, reps integer not null, lapses integer not null,
  left integer not null, odue integer not null, odid integer not null, flags integer not null, data text not null);
CREATE TABLE revlog (id integer primary key, cid integer not null, usn integer not null, ease integer not null,
  ivl integer not null, lastIvl integer not null, factor integer not null, time integer not null,
  type integer not null);
CREATE TABLE graves (usn integer not null, oid integer not null, type integer not null);
"""


def schema11_package(notes: list[tuple[int, int, list[str], str]]) -> bytes:
    """A legacy package made here, as genanki writes one (`collection.anki2`, schema 11, deflated): the
    note type Basic (id 1: Front, Back), the deck "Eigenbau" (id 2) and one new card per note of
    (id, note type id, fields, tags); the card's id is its note's."""
    models = {
        "1": {
            "id": 1,
            "name": "Basic",
            "type": 0,
            "flds": [{"name": "Front", "ord": 0}, {"name": "Back", "ord": 1}],
            "tmpls": [{"name": "Card 1", "ord": 0, "qfmt": "{{Front}}", "afmt": "{{FrontSide}}<hr id=answer>{{Back}}"}],
        }
    }
    decks = {"1": {"id": 1, "name": "Default"}, "2": {"id": 2, "name": "Eigenbau"}}
    with tempfile.TemporaryDirectory(prefix="flashcards-apkg-") as directory:
        path = os.path.join(directory, "collection.anki2")
        with contextlib.closing(sqlite3.connect(path)) as db:
            db.executescript(SCHEMA_11)
            db.execute(
                "INSERT INTO col VALUES (1, 1709265600, 0, 0, 11, 0, 0, 0, '{}', ?, ?, '{}', '{}')",
                (json.dumps(models), json.dumps(decks)),
            )
            for position, (note_id, type_id, fields, tags) in enumerate(notes):
                db.execute(
                    "INSERT INTO notes VALUES (?, ?, ?, 0, -1, ?, ?, ?, 0, 0, '')",
                    (note_id, f"guid{note_id}", type_id, f" {tags} ", "\x1f".join(fields), fields[0]),
                )
                db.execute(
                    "INSERT INTO cards VALUES (?, ?, 2, 0, 0, -1, 0, 0, ?, 0, 0, 0, 0, 0, 0, 0, 0, '')",
                    (note_id, note_id, position + 1),
                )
            db.commit()
        with open(path, "rb") as file:
            collection = file.read()
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as package:
        package.writestr("collection.anki2", collection)
        package.writestr("media", "{}")
    return archive.getvalue()


def zip_of(*entries: tuple[str, bytes]) -> bytes:
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as package:
        for name, content in entries:
            package.writestr(name, content)
    return archive.getvalue()


def anki_check(package: bytes, directory) -> dict:
    """Anki's own import of `package` (e2e/anki_check.py with the Python of ANKI_PYTHON): its JSON."""
    python = os.environ.get("ANKI_PYTHON", "").strip()
    if not python:
        reason = os.environ.get("ANKI_VENV_ERROR") or (
            "ANKI_PYTHON is not set: run the tests with scripts/test-api, or set ANKI_PYTHON to the last line "
            "that scripts/anki-venv.sh prints"
        )
        pytest.fail(f"no Anki to read the export with: {reason}", pytrace=False)
    path = directory / "export.apkg"
    path.write_bytes(package)
    # TZ=UTC: the checker dates a review card's due day from the new collection's creation at 04:00 local time.
    run = subprocess.run(
        [python, str(ANKI_CHECK), str(path)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "TZ": "UTC"},
    )
    assert run.returncode == 0, (
        f"Anki did not import the export (exit {run.returncode}):\n{run.stdout[-4000:]}\n{run.stderr[-4000:]}"
    )
    return json.loads(run.stdout)


def test_anki_import_story_modern_package(api: Api):
    """modern.apkg (the current format: zstd, schema 18): the preview lists its decks, notes, review
    history and media and writes nothing; the import makes a stack per deck with every card, its
    history replayed into its schedule; the cards study like any other."""
    token = api.signup("Anke Anki")["token"]
    package = fixture("modern.apkg")

    _, preview = send(api, PREVIEW, token, package, name="Biologie_Kurs.apkg", expect=200)
    assert preview == {
        "format": "apkg",
        "encoding": None,
        "separator": None,
        "hasHeader": False,
        "header": None,
        "columns": None,
        "columnCount": 2,
        "rows": [[question, row_text(card.answer)] for question, card in MODERN.items()],
        "cards": 7,
        "rejected": 0,
        "problems": [],
        "suggestedStackName": "Biologie Kurs",
        "decks": MODERN_DECKS,
        "notes": 5,
        "reviews": 18,
        "media": 2,
        "images": 2,
    }, preview
    # The name of the file makes no difference: the type comes from the content.
    _, renamed = send(api, PREVIEW, token, package, name="karten.csv", expect=200)
    assert renamed["format"] == "apkg" and renamed["decks"] == MODERN_DECKS, renamed
    assert stack_ids(api, token) == [], "a preview writes nothing"

    job = run_import(api, token, package, name="Biologie_Kurs.apkg")
    result = import_result(api, job)
    assert job["progress"]["stage"] == "done" and job["progress"]["cardsCreated"] == 7, job["progress"]
    stacks = result.pop("stacks")
    assert result == {"cardsCreated": 7, "reviewsImported": 18, "mediaSkipped": 0, "imagesImported": 2}, result
    assert [(s["name"], s["cards"], s["created"]) for s in stacks] == [
        ("Biologie", 3, True),
        ("Biologie::Zellen", 4, True),
    ], stacks
    assert sorted(stack_ids(api, token)) == sorted(s["id"] for s in stacks)

    for entry in stacks:
        at = {"stackId": entry["id"]}
        _, stack = api.call("GET", STACK, path=at, token=token, expect=200)
        assert stack["name"] == entry["name"] and stack["scheduler"] == "fsrs", stack
        assert stack["cardCount"] == entry["cards"], stack
        cards = all_cards(api, token, entry["id"])
        check_modern_cards(cards, {q for q, card in MODERN.items() if card.deck == entry["name"]})
        # Studiable: every card is due (the history is from 2024, the new card due at once), and an
        # answer continues the imported history.
        _, study = api.call("GET", NEXT, path=at, token=token, params={"daysAhead": 1}, expect=200)
        assert study["dueCount"] == len(cards), study
        card = study["card"]
        assert card is not None and card["id"] in {c["id"] for c in cards}, study
        _, rated = api.call(
            "POST", RATE, path=at, token=token, json_body={"cardId": card["id"], "rating": "good"}, expect=200
        )
        assert rated["card"]["id"] == card["id"], rated
        assert rated["card"]["reviewCount"] == card["reviewCount"] + 1, (card, rated["card"])
        assert parse_api_date(rated["card"]["lastReviewedAt"]) > datetime.now(timezone.utc) - timedelta(minutes=5)
    send(api, PREVIEW, None, package, expect=401)
    send(api, IMPORTS, None, package, expect=401)


def test_anki_import_into_one_named_stack_or_the_callers_stack(api: Api):
    """`stackName` puts every deck's cards into one new stack of that name; `stackId` into the caller's
    stack, next to its cards; another user's stack is a 404 before anything is queued."""
    token = api.signup("Nora Notiz")["token"]
    stranger = api.signup("Fritz Fremd")["token"]
    package = fixture("modern.apkg")

    _, preview = send(api, PREVIEW, token, package, options={"stackName": " Alles Bio "}, expect=200)
    assert preview["suggestedStackName"] == "Alles Bio" and preview["decks"] == MODERN_DECKS, preview
    named = import_result(api, run_import(api, token, package, options={"stackName": " Alles Bio "}))
    assert [(s["name"], s["cards"], s["created"]) for s in named["stacks"]] == [("Alles Bio", 7, True)], named
    assert (named["cardsCreated"], named["reviewsImported"], named["mediaSkipped"]) == (7, 18, 0), named
    assert named["imagesImported"] == 2, named
    named_id = named["stacks"][0]["id"]
    check_modern_cards(all_cards(api, token, named_id))

    _, target = api.call(
        "POST", STACKS, token=token, json_body={"name": "Meine Karten", "color": "#0891B2"}, expect=201
    )
    at = {"stackId": target["id"]}
    api.call("POST", CARDS, path=at, token=token, json_body={"question": "Schon da", "answer": "Ja"}, expect=201)
    into = import_result(api, run_import(api, token, package, options={"stackId": target["id"]}))
    assert into == {
        "stacks": [{"id": target["id"], "name": "Meine Karten", "cards": 7, "created": False}],
        "cardsCreated": 7,
        "reviewsImported": 18,
        "mediaSkipped": 0,
        "imagesImported": 2,
    }, into
    cards = all_cards(api, token, target["id"])
    assert cards[0]["question"] == "Schon da" and len(cards) == 8, cards
    check_modern_cards(cards[1:])
    _, stack = api.call("GET", STACK, path=at, token=token, expect=200)
    assert stack["name"] == "Meine Karten" and stack["cardCount"] == 8, stack
    assert sorted(stack_ids(api, token)) == sorted([named_id, target["id"]]), "no stack per deck"

    # Another user's stack (and a missing one) is nobody's: 404, nothing queued, nothing written.
    for stack_id in (target["id"], str(uuid.uuid4())):
        _, body = send(api, IMPORTS, stranger, package, name="x.apkg", options={"stackId": stack_id}, expect=404)
        assert body["code"] == "stack_not_found", body
    time.sleep(0.3)
    assert stack_ids(api, stranger) == []
    assert len(all_cards(api, token, target["id"])) == 8, "the owner's stack is untouched"


def test_anki_import_refuses_unsafe_broken_and_oversized_packages(api: Api):
    """A package with an entry name that could leave its folder is a 400 with the name; a zip without a
    collection a 415 (both before any job). A collection that cannot be read, or would unpack to more than
    512 MB: the preview names the problem (200), and the import job fails with it and writes nothing."""
    token = api.signup("Rita Riskant")["token"]
    _, target = api.call("POST", STACKS, token=token, json_body={"name": "Bestand", "color": "#059669"}, expect=201)
    at = {"stackId": target["id"]}
    api.call("POST", CARDS, path=at, token=token, json_body={"question": "F", "answer": "A"}, expect=201)
    collection = zipfile.ZipFile(io.BytesIO(fixture("legacy-genanki.apkg"))).read("collection.anki2")
    unsafe = [(fixture("traversal.apkg"), "../../evil.txt")] + [
        (zip_of(("collection.anki2", collection), (name, b"harmlos"), ("media", b"{}")), name)
        for name in ("/etc/passwd", "../x", "bilder/../../x.png", "C:\\evil.txt")
    ]
    for template in (PREVIEW, IMPORTS):
        for content, name in unsafe:
            _, body = send(api, template, token, content, name="paket.apkg", expect=400)
            assert body["code"] == "validation_failed", (name, body)
            assert body["message"] == f"Das Paket enthält einen unzulässigen Dateinamen: {name}", (name, body)
        _, body = send(api, template, token, fixture("not-anki.zip"), name="not-anki.apkg", expect=415)
        assert body["code"] == "unsupported_media_type" and "kein Anki-Paket" in body["message"], body

    broken = "Die Sammlung im Anki-Paket ist beschädigt und kann nicht gelesen werden."
    # A media map naming a file outside the media folder refuses the package, as Anki does.
    evil_media = zip_of(("collection.anki2", collection), ("media", b'{"0": "../evil.png"}'), ("0", b"png"))
    for name, content, code, message in (
        ("corrupt-collection.apkg", fixture("corrupt-collection.apkg"), "corrupt_collection", broken),
        ("corrupt-anki21b.apkg", fixture("corrupt-anki21b.apkg"), "corrupt_collection", broken),
        (
            "kein-sqlite.apkg",
            zip_of(("collection.anki21", b"SQLite format 3\x00" + bytes(64))),
            "corrupt_collection",
            broken,
        ),
        (
            "zip-bomb.apkg",
            fixture("zip-bomb.apkg"),
            "package_too_large",
            "Das Paket entpackt sich zu mehr als 512 MB und wird nicht gelesen.",
        ),
        (
            "zip-bomb-understated.apkg",
            fixture("zip-bomb-understated.apkg"),
            "not_a_package",
            "Die Datei ist kein gültiges Anki-Paket (.apkg).",
        ),
        ("medien.apkg", evil_media, "unsafe_path", "Das Paket enthält einen unzulässigen Dateinamen: ../evil.png"),
    ):
        problem = {"code": code, "line": None, "note": None, "field": None, "message": message}
        _, preview = send(api, PREVIEW, token, content, name=name, expect=200)
        assert preview == {
            "format": "apkg",
            "encoding": None,
            "separator": None,
            "hasHeader": False,
            "header": None,
            "columns": None,
            "columnCount": 0,
            "rows": [],
            "cards": 0,
            "rejected": 1,
            "problems": [problem],
            "suggestedStackName": name.removesuffix(".apkg"),
            "decks": None,
            "notes": None,
            "reviews": None,
            "media": None,
            "images": None,
        }, (name, preview)
        for options in (None, {"stackId": target["id"]}):
            job = run_import(api, token, content, name=name, options=options)
            assert import_problem(api, job) == problem, (name, job)
            assert job["error"] == message and job["errorCode"] == code, job
    assert stack_ids(api, token) == [target["id"]], "a failed import makes no stack"
    assert [card["question"] for card in all_cards(api, token, target["id"])] == ["F"], "and adds no card"


def test_anki_import_names_the_note_that_breaks_a_rule(api: Api):
    """A legacy package (schema 11, made here) with a note whose back is empty and one whose note type is
    missing: the preview names each by its Anki note id (a 64-bit number) instead of a line, the good note
    still counts; the import fails with the first and writes nothing."""
    token = api.signup("Nils Notiz")["token"]
    package = schema11_package(
        [
            (1709300000001, 1, ["Frage eins", "Antwort <b>eins</b>"], "eigen test"),
            (1709300000002, 1, ["Frage zwei", " &nbsp; "], ""),
            (1709300000003, 4711, ["Frage drei", "Antwort drei"], ""),
        ]
    )
    back_empty = {
        "code": "back_empty",
        "line": None,
        "note": 1709300000002,
        "field": "back",
        "message": "Notiz 1709300000002: Die Rückseite ist leer.",
    }
    _, preview = send(api, PREVIEW, token, package, name="eigenbau.apkg", expect=200)
    assert preview["format"] == "apkg" and preview["rows"] == [["Frage eins", "Antwort eins"]], preview
    assert (preview["cards"], preview["rejected"], preview["notes"], preview["reviews"], preview["media"]) == (
        1,
        2,
        3,
        0,
        0,
    ), preview
    assert preview["decks"] == [{"name": "Eigenbau", "cards": 1, "reviews": 0}], preview
    assert preview["problems"][0] == back_empty, preview["problems"]
    assert preview["problems"][1:] == [
        {
            "code": "unknown_note_type",
            "line": None,
            "note": 1709300000003,
            "field": None,
            "message": "Notiz 1709300000003: Der Notiztyp der Notiz fehlt im Paket.",
        }
    ], preview["problems"]

    job = run_import(api, token, package, name="eigenbau.apkg")
    assert import_problem(api, job) == back_empty, job
    assert stack_ids(api, token) == []

    # Without the two bad notes it imports, its tags kept (the CSV export shows them).
    only_good = schema11_package([(1709300000001, 1, ["Frage eins", "Antwort <b>eins</b>"], "eigen test")])
    good = import_result(api, run_import(api, token, only_good))
    assert (good["cardsCreated"], good["reviewsImported"], good["mediaSkipped"]) == (1, 0, 0), good
    assert [(s["name"], s["cards"]) for s in good["stacks"]] == [("Eigenbau", 1)], good
    _, text = export(api, token, good["stacks"][0]["id"], "csv")
    assert read_export(text.removeprefix("\ufeff"), ",")[1][::3] == ["Frage eins", "eigen test"], text


def test_anki_export_is_read_by_the_real_anki(api: Api, tmp_path):
    """A stack imported from modern.apkg, exported as an Anki package and imported by Anki itself
    (e2e/anki_check.py, Anki's own importer with scheduling): every note with the note type "Smart
    Flashcards", HTML-escaped fields and the tags; each card with the type and queue of its state and its
    due time; the whole review history. The package reads back through our import too."""
    token = api.signup("Anke Export")["token"]
    imported = import_result(
        api, run_import(api, token, fixture("modern.apkg"), options={"stackName": "Biologie komplett"})
    )
    stack_id = imported["stacks"][0]["id"]
    cards = wait_for_hints(api, token, stack_id)  # the hint job has written every hint: the cards stay as they are
    check_modern_cards(cards)
    # An export writes each card as a note of its sides.
    by_front = {anki_field(card, "question"): card for card in cards}
    images = sorted(
        match.group(0).removeprefix("image:") + ".png"
        for card in cards
        for match in IMAGE_ID.finditer(side(card, "answer"))
    )
    assert len(images) == 2, images

    response, package = export(api, token, stack_id, "apkg")
    assert response.headers["Content-Type"] == "application/octet-stream", response.headers
    assert response.headers["Content-Disposition"] == (
        "attachment; filename=\"Biologie komplett.apkg\"; filename*=UTF-8''Biologie%20komplett.apkg"
    )
    with zipfile.ZipFile(io.BytesIO(package)) as archive:
        assert archive.namelist() == ["collection.anki21", "media", "0", "1"], archive.namelist()
        assert archive.testzip() is None
        media_map = json.loads(archive.read("media"))
        assert sorted(media_map) == ["0", "1"] and sorted(media_map.values()) == images, media_map
        assert all(archive.read(entry).startswith(b"\x89PNG") for entry in media_map), "stored as they are"
        (tmp_path / "collection.anki21").write_bytes(archive.read("collection.anki21"))
    with contextlib.closing(sqlite3.connect(f"file:{tmp_path / 'collection.anki21'}?mode=ro", uri=True)) as db:
        assert db.execute("SELECT ver FROM col").fetchone() == (11,), "schema 11"
        assert db.execute("SELECT count(*) FROM notes").fetchone() == (7,)

    anki = anki_check(package, tmp_path)
    assert anki["import"]["ok"] is True, anki["import"]
    assert anki["import"]["log"] == {
        "new": 7,
        "updated": 0,
        "duplicate": 0,
        "conflicting": 0,
        "first_field_match": 0,
        "missing_notetype": 0,
        "missing_deck": 0,
        "empty_first_field": 0,
        "found_notes": 7,
    }, anki["import"]
    assert anki["package"]["collection"] == "collection.anki21", anki["package"]
    assert sorted(entry["name"] for entry in anki["package"]["media"]) == images, anki["package"]
    assert [(deck["name"], deck["cards"]) for deck in anki["decks"]] == [("Biologie komplett", 7)], anki["decks"]
    assert anki["notetypes"] == [
        {"name": "Smart Flashcards", "kind": "normal", "fields": ["Front", "Back", "Hint"], "templates": ["Card 1"]}
    ], anki["notetypes"]
    # Anki keeps the images as media files of the collection.
    assert sorted(entry["name"] for entry in anki["media"]) == images, anki["media"]

    # The notes: one per card, fields HTML-escaped (line breaks as <br>), tags kept.
    notes = {note["id"]: note for note in anki["notes"]}
    assert len(notes) == 7 and sorted(by_front) == sorted(note["fields"]["Front"] for note in notes.values())
    for note in notes.values():
        card = by_front[note["fields"]["Front"]]
        assert note["notetype"] == "Smart Flashcards" and note["decks"] == ["Biologie komplett"], note
        assert note["fields"] == {
            "Front": anki_field(card, "question"),
            "Back": anki_field(card, "answer"),
            "Hint": anki_html(card["hint"]) if card["format"] != "markdown" else anki_field(card, "hint"),
        }, note
        assert sorted(note["tags"]) == sorted(MODERN[side(card, "question")].tags), note
    uuid_pattern = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
    fields = {note["fields"]["Front"]: uuid_pattern.sub("ID", note["fields"]["Back"]) for note in notes.values()}
    # A rich card's fields are its HTML, its image a media file of the package.
    assert fields["<p>Was ist die Mitochondrie?</p>"] == (
        '<p>Das Kraftwerk der Zelle.<br>Sie erzeugt ATP &amp; Wärme.<br><img src="ID.png" alt=""></p>'
    ), fields
    assert fields["<p>Zellkern &amp; DNA</p>"] == (
        '<p><img src="ID.png" alt=""><br>Enthält die Erbinformation (Größe: 5 µm).</p>'
    ), fields
    assert fields["Ist das harmlos?"] == "Nein, &lt;script&gt; ist gefährlich."

    # The cards: Anki's type and queue of each state, the due time of learning cards to the second and
    # the due day of review cards (Anki's day starts at 04:00).
    assert len(anki["cards"]) == 7
    for anki_card in anki["cards"]:
        card = by_front[notes[anki_card["nid"]]["fields"]["Front"]]
        what = f"{card['question']!r} ({card['state']}): {anki_card}"
        assert (anki_card["type"], anki_card["queue"]) == ANKI_TYPE_QUEUE[card["state"]], what
        assert anki_card["reps"] == card["reviewCount"], what
        due = parse_api_date(card["dueAt"])
        if card["state"] == "new":
            assert anki_card["due_kind"] == "position", what
        elif card["state"] == "review":
            assert anki_card["due_kind"] == "day", what
            assert anki_card["due_date"] == (due - timedelta(hours=4)).strftime("%Y-%m-%d"), what
            assert anki_card["ivl"] >= 1, what
        else:
            assert anki_card["due_kind"] == "timestamp", what
            assert anki_card["due_date"] == due.strftime("%Y-%m-%dT%H:%M:%SZ"), what
    assert Counter(c["type_name"] for c in anki["cards"]) == {"new": 1, "learning": 1, "review": 4, "relearning": 1}

    # The review history: all 18 answers, at their times, with their eases, on their cards.
    revlog = anki["revlog"]
    assert revlog["count"] == 18 and revlog["by_type"] == {"learn": 10, "relearn": 2, "review": 6}, revlog["by_type"]
    card_fronts = {c["id"]: notes[c["nid"]]["fields"]["Front"] for c in anki["cards"]}
    answers: dict[str, list[tuple[int, int]]] = {}
    for row in revlog["rows"]:
        answers.setdefault(side(by_front[card_fronts[row["cid"]]], "question"), []).append((row["id"], row["ease"]))
    assert answers == {q: list(card.reviews) for q, card in MODERN.items() if card.reviews}, answers

    # The package reads back through our own import: the same cards, states and history.
    _, preview = send(api, PREVIEW, token, package, name="Biologie komplett.apkg", expect=200)
    assert preview["decks"] == [{"name": "Biologie komplett", "cards": 7, "reviews": 18}], preview
    assert (preview["notes"], preview["reviews"], preview["media"], preview["rejected"]) == (7, 18, 2, 0), preview
    assert preview["images"] == 2, preview
    again = import_result(api, run_import(api, token, package, name="Biologie komplett.apkg"))
    assert [(s["name"], s["cards"]) for s in again["stacks"]] == [("Biologie komplett", 7)], again
    assert (again["reviewsImported"], again["mediaSkipped"], again["imagesImported"]) == (18, 0, 2), again

    def essentials(card: dict) -> tuple:
        # The export wrote each card as a note of its sides: they come back as basic cards of them.
        return (side(card, "question"), without_ids(side(card, "answer"))) + tuple(
            card[key] for key in ("hint", "state", "reviewCount", "lastReviewedAt"))

    assert sorted(map(essentials, all_cards(api, token, again["stacks"][0]["id"]))) == sorted(map(essentials, cards))


def test_anki_export_of_more_than_1000_cards_made_at_once(api: Api, tmp_path):
    """An import makes all its cards in the same instant; a stack of 1,001 such cards exports as a
    package with 1,001 notes and cards, each with an id of its own."""
    token = api.signup("Tausend Eins")["token"]
    rows = "".join(f"Frage {n},Antwort {n}\n" for n in range(1, 1002)).encode()
    result = import_result(api, run_import(api, token, rows, name="Tausendeins.csv"))
    assert result["cardsCreated"] == 1001, result
    _, package = export(api, token, result["stacks"][0]["id"], "apkg")
    with zipfile.ZipFile(io.BytesIO(package)) as archive:
        (tmp_path / "collection.anki21").write_bytes(archive.read("collection.anki21"))
    with contextlib.closing(sqlite3.connect(f"file:{tmp_path / 'collection.anki21'}?mode=ro", uri=True)) as db:
        assert db.execute("SELECT count(DISTINCT id) FROM notes").fetchone() == (1001,)
        assert db.execute("SELECT count(DISTINCT id) FROM cards").fetchone() == (1001,)


def test_import_takes_files_over_10_mb(api: Api):
    """The import's limit is 100 MB, not the generation's 10 MB: an 11 MB file is read (and its
    700,000 rows are more cards than one import may bring)."""
    token = api.signup("Grete Gross")["token"]
    content = "".join(f"w{n},W{n}\n" for n in range(700_000)).encode()
    assert 10 * MB < len(content) < 12 * MB
    _, preview = send(api, PREVIEW, token, content, expect=200)
    assert preview["rows"][:2] == [["w0", "W0"], ["w1", "W1"]], preview["rows"][:2]
    assert preview["cards"] == 0 and [p["code"] for p in preview["problems"]] == ["too_many_cards"], preview
    assert "200.000" in preview["problems"][0]["message"], preview["problems"]


def test_import_of_one_gigabyte_is_refused_and_the_server_keeps_answering(api: Api):
    """A 1 GB upload, streamed in chunks (chunked transfer, nothing of it held in memory here), is
    refused with 413 once the server has read past 100 MB; the server drops the rest instead of
    keeping it, and answers the next requests. A 101 MB file sent with a Content-Length is refused the
    same way."""
    token = api.signup("Gustav Gigabyte")["token"]
    headers = {"Authorization": f"Bearer {token}"}
    server = api.server

    upload = StreamedUpload(1024 * MB)
    started = time.monotonic()
    response = api.session.post(
        server.base_url + IMPORTS,
        headers={**headers, "Content-Type": upload.content_type},
        data=upload.chunked(),
        timeout=600,
    )
    elapsed = time.monotonic() - started
    assert response.request.headers.get("Transfer-Encoding") == "chunked", response.request.headers
    assert response.status_code == 413, f"{response.status_code} {response.text[:300]}\n{server.log_tail(20)}"
    body = api.checker.check("POST", IMPORTS, response)
    server.exercised.add(("POST", IMPORTS, 413))
    assert body["code"] == "payload_too_large" and "100 MB" in body["message"], body
    assert server.process.poll() is None, "the server is still running"
    peak = peak_memory_bytes(server.process.pid)
    if peak is not None:
        assert peak < 768 * MB, f"the server's memory peaked at {peak // MB} MB: the upload was held in memory"

    # The same session (its connection, if the server kept it) and a fresh one both get answers.
    _, me = api.call("GET", V1 + "/me", token=token, expect=200)
    assert me["name"] == "Gustav Gigabyte"
    assert requests.get(server.base_url + V1 + "/health", timeout=10).json() == {"status": "ok"}

    # 101 MB with a Content-Length (as browsers send it), on the preview.
    upload = StreamedUpload(101 * MB)
    response = api.session.post(
        server.base_url + PREVIEW,
        headers={**headers, "Content-Type": upload.content_type},
        data=upload.sized(),
        timeout=300,
    )
    assert response.request.headers.get("Content-Length") == str(upload.length()), response.request.headers
    assert response.status_code == 413, f"{response.status_code} {response.text[:300]}"
    body = api.checker.check("POST", PREVIEW, response)
    server.exercised.add(("POST", PREVIEW, 413))
    assert body["code"] == "payload_too_large", body
    api.call("GET", V1 + "/me", token=token, expect=200)
    assert stack_ids(api, token) == [], "nothing was imported"
    print(f"\n1 GB upload refused after {elapsed:.1f} s")


# --- Backups ------------------------------------------------------------------------------------------

BACKUP = V1 + "/me/backup"
RESTORE = V1 + "/me/restore"


def comparable_backup(document: dict) -> dict:
    """The document without what differs between two accounts holding the same data: the date it was
    written and the ids (cards and reviews numbered in their order)."""
    document = json.loads(json.dumps(document))
    document.pop("createdAt")
    for stack in document["stacks"]:
        stack.pop("id")
        cards = {card.pop("id"): index for index, card in enumerate(stack["cards"])}
        reviews = {review["id"]: index for index, review in enumerate(stack["reviews"])}
        for review in stack["reviews"]:
            review.pop("id")
            review["card"] = cards[review["card"]]
            review["undoes"] = reviews.get(review["undoes"])
    return document


def test_backup_and_restore_story(api: Api):
    """A learner's account as a backup (JSON and zip, both valid against `BackupDocument`), restored into
    another account without stacks, which then backs up to the same document; a second restore is a 409,
    a file that is no backup a 415, an unknown format a 400; a stack's JSON export imports as a copy."""
    ada = api.signup("Ada Sicherung")["token"]
    _, stack = api.call(
        "POST", STACKS, token=ada, json_body={"name": "Zellen", "color": "#059669", "scheduler": "fsrs"}, expect=201
    )
    for index in range(3):
        api.call(
            "POST", CARDS, path={"stackId": stack["id"]}, token=ada,
            json_body={"question": f"Frage {index}", "answer": f"Antwort {index}"}, expect=201,
        )
    _, due = api.call("GET", NEXT, path={"stackId": stack["id"]}, token=ada, expect=200)
    api.call(
        "POST", RATE, path={"stackId": stack["id"]}, token=ada,
        json_body={"cardId": due["card"]["id"], "rating": "good"}, expect=200,
    )
    # The hint job of the new cards finishes first, so that nothing changes the account while it is
    # backed up twice and compared.
    wait_for_hints(api, ada, stack["id"])
    response, backup = api.call("GET", BACKUP, token=ada, expect=200)
    assert response.headers["Content-Type"].startswith("application/json"), response.headers
    assert response.headers["Content-Disposition"].startswith('attachment; filename="Smart Flashcards Sicherung')
    assert backup["format"] == "smart-flashcards-backup" and backup["version"] == 1 and backup["scope"] == "account"
    assert [len(s["cards"]) for s in backup["stacks"]] == [3] and len(backup["stacks"][0]["reviews"]) == 1
    response, zipped = api.call("GET", BACKUP, token=ada, params={"format": "zip"}, expect=200)
    with zipfile.ZipFile(io.BytesIO(zipped)) as archive:
        assert archive.namelist() == ["backup.json"]
        assert comparable_backup(json.loads(archive.read("backup.json"))) == comparable_backup(backup)
    api.call("GET", BACKUP, token=ada, params={"format": "xml"}, expect=400)
    api.call("GET", BACKUP, expect=401)

    grace = api.signup("Grace Wiederherstellung")["token"]
    _, job = send(api, RESTORE, grace, zipped, name="Sicherung.zip", expect=202)
    assert job["kind"] == "import", job
    result = import_result(api, wait_for_job(api, grace, job["id"]))
    assert result["cardsCreated"] == 3 and result["reviewsImported"] == 1, result
    _, restored = api.call("GET", BACKUP, token=grace, expect=200)
    assert comparable_backup(restored) == comparable_backup(backup)

    _, refused = send(api, RESTORE, grace, zipped, name="Sicherung.zip", expect=409)
    assert refused["code"] == "account_not_empty", refused
    eve = api.signup("Eve Leer")["token"]
    send(api, RESTORE, eve, b"dog\tHund\n", name="x.tsv", expect=415)
    # A stack export is no account backup: the job says so, and nothing is written.
    _, copy = export(api, ada, stack["id"], "json")
    assert copy["scope"] == "stacks" and copy["account"] is None, copy
    _, job = send(api, RESTORE, eve, json.dumps(copy).encode(), name="Zellen.json", expect=202)
    failed = wait_for_job(api, eve, job["id"])
    assert failed["status"] == "failed" and failed["errorCode"] == "not_an_account_backup", failed
    assert stack_ids(api, eve) == []
    # Imported as a copy, with its history: as often as wanted.
    for _ in range(2):
        result = import_result(api, run_import(api, eve, json.dumps(copy).encode(), name="Zellen.json"))
        assert result["reviewsImported"] == 1 and result["stacks"][0]["name"] == "Zellen", result
    assert len(stack_ids(api, eve)) == 2


def test_every_upload_route_refuses_past_its_documented_limit(api: Api):
    """Each upload route states its limit in the document in binary megabytes (1 MiB = 1,048,576
    bytes) and checks it while the body streams in: one KiB over it is a 413 naming the limit, and
    the server answers on. The three routes of 100 MiB share one form reader, which the 1 GB test
    above sends past its limit on two of them; here the document is checked for all five and the
    10 MiB routes are sent past theirs (the debug build of the tests reads a few MiB a second)."""
    token = api.signup("Lena Limit")["token"]
    _, stack = api.call("POST", STACKS, token=token, json_body={"name": "Grenzen", "color": "#000000"}, expect=201)
    routes = [
        (PREVIEW, {}, 100),
        (IMPORTS, {}, 100),
        (RESTORE, {}, 100),
        (V1 + "/stacks/{stackId}/generations", {"stackId": stack["id"]}, 10),
        ("/stack/{stackId}/createFromFile", {"stackId": stack["id"]}, 10),
    ]
    document = api.checker.document

    def described(node, seen: set[str]) -> str:
        """The operation's text with every component it refers to, once each."""
        if isinstance(node, dict):
            reference = node.get("$ref")
            if reference and reference not in seen:
                seen.add(reference)
                target = document
                for key in reference.removeprefix("#/").split("/"):
                    target = target[key]
                return described(target, seen)
            return " ".join(described(value, seen) for value in node.values())
        if isinstance(node, list):
            return " ".join(described(value, seen) for value in node)
        return str(node)

    for template, path, limit in routes:
        text = described(document["paths"][template]["post"], set())
        assert f"{limit} MiB" in text, f"{template}: the document does not state {limit} MiB"
        if limit > 10:
            continue
        upload = StreamedUpload(limit * MB + 1024)
        response = api.session.post(
            api.server.base_url + template.format(**path),
            headers={"Authorization": f"Bearer {token}", "Content-Type": upload.content_type},
            data=upload.sized(), timeout=300,
        )
        assert response.status_code == 413, f"{template}: {response.status_code} {response.text[:200]}"
        body = api.checker.check("POST", template, response)
        api.server.exercised.add(("POST", template, 413))
        assert f"{limit} MB" in body["message"], body
    api.call("GET", V1 + "/me", token=token, expect=200)
