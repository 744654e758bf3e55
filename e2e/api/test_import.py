"""Import and export (issue 19) against the real server: `POST /api/v1/imports/preview`,
`POST /api/v1/imports` (a job, all or nothing) and `GET /api/v1/stacks/{stackId}/export`.

Every answer goes through the checker of conftest.py (status documented, body valid against
Public/openapi.json); the job results, JSON text inside the `Job`, are checked against
`ImportResult` and `ImportProblem` here.
"""

from __future__ import annotations

import csv
import io
import json
import time
import uuid
import zipfile
from urllib.parse import unquote

import pytest
import requests

from conftest import Api

V1 = "/api/v1"
PREVIEW = V1 + "/imports/preview"
IMPORTS = V1 + "/imports"
STACKS = V1 + "/stacks"
STACK = STACKS + "/{stackId}"
CARDS = STACK + "/cards"
EXPORT = STACK + "/export"
JOB = V1 + "/jobs/{jobId}"
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


def export(api: Api, token: str, stack_id: str, format: str | None) -> tuple[requests.Response, str]:
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


def test_import_refuses_zip_and_binary_files_with_415(api: Api):
    """The type comes from the content: a zip (an Anki package) is refused whatever its name, and so
    is any binary file; nothing is queued."""
    token = api.signup("Anki Andersen")["token"]
    package = io.BytesIO()
    with zipfile.ZipFile(package, "w") as archive:
        archive.writestr("collection.anki2", b"SQLite format 3\x00" + bytes(64))
        archive.writestr("media", b"{}")
    for template in (PREVIEW, IMPORTS):
        for name in ("Spanisch.apkg", "Spanisch.csv"):
            _, body = send(api, template, token, package.getvalue(), name=name, expect=415)
            assert body["code"] == "unsupported_media_type" and "Anki" in body["message"], body
        _, body = send(api, template, token, b"%PDF-1.4\n\x00\x00binary\n", name="karten.csv", expect=415)
        assert body["code"] == "unsupported_media_type" and "CSV" in body["message"], body
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
    """The download's file name: the stack's name, ASCII with `_` for anything else (quotes, slashes,
    semicolons included) in `filename`, the exact name in RFC 5987 form in `filename*`."""
    token = api.signup("Franz Dateiname")["token"]
    for name, ascii_name in (
        ("Über Zellen", "_ber Zellen"),
        ('a"b\\c/d;e%f', "a_b_c_d_e%f"),
        ("日本語 単語", "___ __"),
    ):
        _, stack = api.call("POST", STACKS, token=token, json_body={"name": name, "color": "#000000"}, expect=201)
        for format in ("csv", "tsv"):
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
