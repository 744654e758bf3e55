"""Card generation on /api/v1: generations, drafts, jobs, their cancellation and event streams.

Every real response is checked against Public/openapi.json (conftest.SpecChecker).
"""

from __future__ import annotations

import json
import threading
import time
import uuid

import requests

from conftest import Api
from openapi_helpers import (
    ACCEPT,
    CARDS,
    DRAFT,
    DRAFTS,
    FIXTURES,
    GENERATIONS,
    GENERATION_INFO,
    JOB,
    JOB_CANCEL,
    JOB_EVENTS,
    LECTURE,
    OPTIMIZE,
    STACK,
    SOURCE,
    STACKS,
    SUGGESTION,
    V1,
    code,
    fixture,
    wait_for_job,
)


def test_v1_generation_story(api: Api):
    # Public: which generator runs, before anyone signs in.
    _, info = api.call("GET", GENERATION_INFO, expect=200)
    assert info == {"generator": "offline", "model": None, "topics": False, "maxUploadBytes": 10 * 1024 * 1024,
                    "topicBatchSize": 15}, info
    owner = api.signup()
    token = owner["token"]
    other = api.signup("Jonas Fremd")["token"]
    _, stack = api.call("POST", STACKS, token=token, json_body={"name": "Zellbiologie", "color": "#059669"}, expect=201)
    at = {"stackId": stack["id"]}

    # Pasted text: a job that is queued at once and makes drafts, not cards.
    _, job = api.call(
        "POST", GENERATIONS, path=at, token=token, json_body={"text": LECTURE, "customInstructions": ""}, expect=202
    )
    assert job["kind"] == "generation" and job["status"] in ("queued", "running")
    assert job["result"] is None and job["error"] is None
    done = wait_for_job(api, token, job["id"])
    assert done["status"] == "succeeded" and done["progress"]["stage"] == "done", done
    outcome = json.loads(done["result"])
    assert outcome["drafts"] >= 3 and outcome["cardsCreated"] == 0 and outcome["language"] == "de"
    assert outcome["generator"] == "offline" and outcome["model"] is None and outcome["pages"] is None
    assert outcome["duplicates"] == 0 and done["errorCode"] is None
    assert done["progress"]["cardsCreated"] == outcome["drafts"]
    _, got = api.call("GET", STACK, path=at, token=token, expect=200)
    assert got["cardCount"] == 0, "drafts are not cards until accepted"

    # The job: read, streamed, cancelled after it has finished (answered unchanged).
    job_at = {"jobId": job["id"]}
    for missing in (str(uuid.uuid4()), "kein-auftrag"):
        _, body = api.call("GET", JOB, path={"jobId": missing}, token=token, expect=404)
        assert code(body) == "job_not_found"
    _, body = api.call("GET", JOB, path=job_at, token=other, expect=404)
    assert code(body) == "job_not_found", "another user's job is nobody's"
    api.call("GET", JOB, path=job_at, expect=401)
    response, events = api.call("GET", JOB_EVENTS, path=job_at, token=token, expect=200)
    assert response.headers["Cache-Control"] == "no-cache"
    assert [event["event"] for event in events] == ["progress"], "a finished job is sent once, then the stream ends"
    assert events[-1]["data"] == done
    api.call("GET", JOB_EVENTS, path=job_at, token=other, expect=404)
    api.call("GET", JOB_EVENTS, path={"jobId": str(uuid.uuid4())}, token=token, expect=404)
    api.call("GET", JOB_EVENTS, path=job_at, expect=401)
    _, unchanged = api.call("POST", JOB_CANCEL, path=job_at, token=token, expect=200)
    assert unchanged == done, "cancelling a finished job changes nothing"
    _, body = api.call("POST", JOB_CANCEL, path=job_at, token=other, expect=404)
    assert code(body) == "job_not_found"
    api.call("POST", JOB_CANCEL, path={"jobId": str(uuid.uuid4())}, token=token, expect=404)
    api.call("POST", JOB_CANCEL, path=job_at, expect=401)

    # Drafts: pending ones, in the order they were made; filtered by job.
    _, drafts = api.call("GET", DRAFTS, path=at, token=token, expect=200)
    assert len(drafts) == outcome["drafts"]
    assert all(d["status"] == "pending" and d["jobId"] == job["id"] for d in drafts)
    assert any("Einheit" in d["answer"] for d in drafts), drafts
    _, same = api.call("GET", DRAFTS, path=at, token=token, params={"jobId": job["id"]}, expect=200)
    assert same == drafts
    _, none = api.call("GET", DRAFTS, path=at, token=token, params={"jobId": str(uuid.uuid4())}, expect=200)
    assert none == []
    _, body = api.call("GET", DRAFTS, path=at, token=token, params={"jobId": "kein-auftrag"}, expect=400)
    assert code(body) == "validation_failed"
    _, body = api.call("GET", DRAFTS, path=at, token=other, expect=404)
    assert code(body) == "stack_not_found"
    api.call("GET", DRAFTS, path={"stackId": str(uuid.uuid4())}, token=token, expect=404)
    api.call("GET", DRAFTS, path=at, expect=401)

    # Editing a draft.
    first, second = drafts[0], drafts[1]
    draft_at = {**at, "draftId": first["id"]}
    _, edited = api.call(
        "PATCH",
        DRAFT,
        path=draft_at,
        token=token,
        json_body={"question": "Was ist eine Zelle? (bearbeitet)"},
        expect=200,
    )
    assert edited == {**first, "question": "Was ist eine Zelle? (bearbeitet)"}
    _, same = api.call("PATCH", DRAFT, path=draft_at, token=token, json_body={}, expect=200)
    assert same == edited
    for bad in ({"question": "  "}, {"answer": ""}, {"answer": "A" * 20_001}):
        _, body = api.call("PATCH", DRAFT, path=draft_at, token=token, json_body=bad, expect=400)
        assert code(body) == "validation_failed", bad
    for raw in (b"", b"{", b'{"question": 5}'):
        _, body = api.call("PATCH", DRAFT, path=draft_at, token=token, data=raw, expect=400)
        assert code(body) == "malformed_json", raw
    _, body = api.call("PATCH", DRAFT, path=draft_at, token=token, json_body={"question": "Q" * 1_100_000}, expect=413)
    assert code(body) == "payload_too_large"
    for missing in (str(uuid.uuid4()), "kein-entwurf"):
        _, body = api.call(
            "PATCH", DRAFT, path={**at, "draftId": missing}, token=token, json_body={"question": "Q"}, expect=404
        )
        assert code(body) == "draft_not_found"
    _, body = api.call("PATCH", DRAFT, path=draft_at, token=other, json_body={"question": "Meins"}, expect=404)
    assert code(body) == "stack_not_found"
    api.call("PATCH", DRAFT, path=draft_at, json_body={"question": "Q"}, expect=401)

    # Discarding a draft: gone from the list, not editable, not acceptable.
    second_at = {**at, "draftId": second["id"]}
    api.call("DELETE", DRAFT, path=second_at, expect=401)
    api.call("DELETE", DRAFT, path=second_at, token=other, expect=404)
    _, body = api.call("DELETE", DRAFT, path=second_at, token=token, expect=204)
    assert body is None
    _, body = api.call("DELETE", DRAFT, path=second_at, token=token, expect=404)
    assert code(body) == "draft_not_found"
    api.call("PATCH", DRAFT, path=second_at, token=token, json_body={"question": "Q"}, expect=404)
    _, remaining = api.call("GET", DRAFTS, path=at, token=token, expect=200)
    assert [d["id"] for d in remaining] == [d["id"] for d in drafts if d["id"] != second["id"]]

    # Accepting: unknown or discarded ids refuse the whole request; then one, then all the rest.
    for ids in ([str(uuid.uuid4())], [second["id"]], [first["id"], str(uuid.uuid4())]):
        _, body = api.call("POST", ACCEPT, path=at, token=token, json_body={"ids": ids}, expect=404)
        assert code(body) == "draft_not_found", ids
    for raw in (b"{", b'{"ids": "alle"}', b'{"ids": ["kein-entwurf"]}'):
        _, body = api.call("POST", ACCEPT, path=at, token=token, data=raw, expect=400)
        assert code(body) == "malformed_json", raw
    _, body = api.call("POST", ACCEPT, path=at, token=other, json_body={}, expect=404)
    assert code(body) == "stack_not_found"
    api.call("POST", ACCEPT, path=at, json_body={}, expect=401)
    _, body = api.call("POST", ACCEPT, path=at, token=token, json_body={"ids": ["x" * 40] * 30_000}, expect=413)
    assert code(body) == "payload_too_large"
    _, got = api.call("GET", STACK, path=at, token=token, expect=200)
    assert got["cardCount"] == 0, "a refused accept makes no card"
    _, accepted = api.call("POST", ACCEPT, path=at, token=token, json_body={"ids": [first["id"]]}, expect=200)
    assert accepted == {"accepted": 1}
    _, page = api.call("GET", CARDS, path=at, token=token, expect=200)
    assert [c["question"] for c in page["items"]] == ["Was ist eine Zelle? (bearbeitet)"]
    _, accepted = api.call("POST", ACCEPT, path=at, token=token, expect=200)
    assert accepted == {"accepted": len(drafts) - 2}, "no body accepts every pending draft"
    _, accepted = api.call("POST", ACCEPT, path=at, token=token, json_body={"jobId": job["id"]}, expect=200)
    assert accepted == {"accepted": 0}
    _, left = api.call("GET", DRAFTS, path=at, token=token, expect=200)
    assert left == []
    _, got = api.call("GET", STACK, path=at, token=token, expect=200)
    assert got["cardCount"] == len(drafts) - 1

    # Uploads: a PDF (with its pages) and a text file; the type comes from the content, not the name.
    _, pdf_job = api.call(
        "POST",
        GENERATIONS,
        path=at,
        token=token,
        files={"file": ("skript.txt", fixture("corpus/en_algorithms.pdf"), "text/plain")},
        form={"customInstructions": "Kurze Antworten, bitte."},
        expect=202,
    )
    pdf_job = wait_for_job(api, token, pdf_job["id"])
    assert pdf_job["status"] == "succeeded", pdf_job
    _, pdf_drafts = api.call("GET", DRAFTS, path=at, token=token, params={"jobId": pdf_job["id"]}, expect=200)
    assert pdf_drafts and any(d["sourcePage"] is not None for d in pdf_drafts), "PDF drafts name their page"
    _, text_job = api.call(
        "POST",
        GENERATIONS,
        path=at,
        token=token,
        files={"file": ("notizen.pdf", (FIXTURES / "corpus" / "de_vwl.md").read_bytes())},
        form={"custom-instructions": ""},
        expect=202,
    )
    assert wait_for_job(api, token, text_job["id"])["status"] == "succeeded"

    # Material the generator cannot use ends the job as failed, with a German message.
    for source in ({"json_body": {"text": "hallo"}}, {"files": {"file": ("a.pdf", fixture("encrypted.pdf"))}}):
        _, failing = api.call("POST", GENERATIONS, path=at, token=token, expect=202, **source)
        failed = wait_for_job(api, token, failing["id"])
        assert failed["status"] == "failed" and failed["result"] is None, failed
        assert failed["error"] and failed["progress"]["stage"] == "failed"
        assert failed["errorCode"] in ("nothing_generated", "no_text_found", "encrypted_pdf"), failed

    # Request errors: 400, 413, 415, 404 and 401.
    for bad in (
        {},
        {"text": "   "},
        {"text": None, "topic": "  "},
        {"text": "Die Zelle ist eine Einheit.", "customInstructions": "x" * 2_001},
    ):
        _, body = api.call("POST", GENERATIONS, path=at, token=token, json_body=bad, expect=400)
        assert code(body) == "validation_failed", bad
    # A topic needs a language model, and the tests run offline: how the server is set up decides (409).
    _, body = api.call("POST", GENERATIONS, path=at, token=token, json_body={"topic": "Zellbiologie"}, expect=409)
    assert code(body) == "topic_needs_model"
    for raw in (b"", b"{", b'{"text": 5}', b"text=hallo"):
        _, body = api.call("POST", GENERATIONS, path=at, token=token, data=raw, expect=400)
        assert code(body) == "malformed_json", raw
    _, body = api.call(
        "POST", GENERATIONS, path=at, token=token, files={"other": ("a.txt", b"Die Zelle ist klein.")}, expect=400
    )
    assert code(body) == "validation_failed" and body["message"]
    _, body = api.call("POST", GENERATIONS, path=at, token=token, files={"file": ("a.txt", b"")}, expect=400)
    assert code(body) == "validation_failed"
    _, body = api.call(
        "POST", GENERATIONS, path=at, token=token, files={"file": ("a.pdf", bytes(range(256)) * 8)}, expect=415
    )
    assert code(body) == "unsupported_media_type" and body["message"]
    _, body = api.call(
        "POST", GENERATIONS, path=at, token=token, files={"file": ("a.txt", b"a" * (10 * 1024 * 1024 + 1))}, expect=413
    )
    assert code(body) == "payload_too_large"
    # The oversized upload was read to its end: the same connection serves the next request.
    api.call("GET", V1 + "/me", token=token, expect=200)
    _, body = api.call(
        "POST", GENERATIONS, path=at, token=token, json_body={"text": "a" * (4 * 1024 * 1024 + 1)}, expect=413
    )
    assert code(body) == "payload_too_large"
    _, body = api.call("POST", GENERATIONS, path=at, token=other, json_body={"text": LECTURE}, expect=404)
    assert code(body) == "stack_not_found"
    api.call("POST", GENERATIONS, path={"stackId": "kaputt"}, token=token, json_body={"text": LECTURE}, expect=404)
    api.call("POST", GENERATIONS, path=at, json_body={"text": LECTURE}, expect=401)
    api.call("POST", GENERATIONS, path=at, files={"file": ("a.txt", b"Die Zelle ist klein.")}, expect=401)


def test_v1_source_beside_the_drafts(api: Api):
    """The source of a generation, marked; the rules' card for a passage; a draft the learner adds."""
    owner = api.signup()
    token = owner["token"]
    other = api.signup("Jonas Fremd")["token"]
    _, stack = api.call("POST", STACKS, token=token, json_body={"name": "Zellbiologie", "color": "#059669"}, expect=201)
    at = {"stackId": stack["id"]}
    _, job = api.call("POST", GENERATIONS, path=at, token=token, json_body={"text": LECTURE}, expect=202)
    done = wait_for_job(api, token, job["id"])
    assert done["status"] == "succeeded", done
    outcome = json.loads(done["result"])
    source_at = {**at, "jobId": job["id"]}
    _, source = api.call("GET", SOURCE, path=source_at, token=token, expect=200)
    assert source["jobId"] == job["id"] and source["origin"] == "text" and source["language"] == "de"
    sentences = [s for section in source["sections"] for block in section["blocks"] for s in block["sentences"]]
    _, drafts = api.call("GET", DRAFTS, path=at, token=token, params={"jobId": job["id"]}, expect=200)
    marked = {i for s in sentences for i in s["draftIds"]}
    assert marked and marked <= {d["id"] for d in drafts}, "marks name the job's pending drafts"
    assert outcome["sectionsWithoutCards"] == source["sectionsWithoutDrafts"]

    # A passage the generator left out (or any other): the rules' card, edited, added as a draft.
    passage = next((s["text"] for s in sentences if not s["covered"]), sentences[0]["text"])
    _, suggestion = api.call(
        "POST", SUGGESTION, path=at, token=token, json_body={"passage": passage, "jobId": job["id"]}, expect=200
    )
    assert suggestion["kind"] in ("definition", "list", "enumeration", "fact", "cloze", "manual")
    assert suggestion["answer"] and (suggestion["question"] or suggestion["kind"] == "manual")
    question = suggestion["question"] or "Was steht in diesem Satz?"
    _, made = api.call(
        "POST", DRAFTS, path=at, token=token, expect=201,
        json_body={"jobId": job["id"], "question": question, "answer": suggestion["answer"], "source": passage},
    )
    assert made["kind"] == "manual" and made["status"] == "pending" and made["source"] == passage
    _, source = api.call("GET", SOURCE, path=source_at, token=token, expect=200)
    assert any(
        made["id"] in s["draftIds"] for section in source["sections"] for b in section["blocks"] for s in b["sentences"]
    )

    # Bad input and other learners.
    for bad in ({}, {"passage": "  "}, {"passage": "x" * 4_001}, {"passage": 5}):
        _, body = api.call("POST", SUGGESTION, path=at, token=token, json_body=bad, expect=400)
        assert code(body) in ("validation_failed", "malformed_json"), bad
    for bad in (
        {"question": "F?", "answer": "A"},
        {"jobId": job["id"], "question": " ", "answer": "A"},
        {"jobId": job["id"], "question": "F?", "answer": "A", "kind": "poem"},
        {"jobId": job["id"], "question": "F?", "answer": "A", "sourcePage": 0},
    ):
        api.call("POST", DRAFTS, path=at, token=token, json_body=bad, expect=400)
    _, body = api.call(
        "POST", DRAFTS, path=at, token=token, expect=404,
        json_body={"jobId": str(uuid.uuid4()), "question": "F?", "answer": "A"},
    )
    assert code(body) == "job_not_found"
    _, body = api.call("GET", SOURCE, path={**at, "jobId": str(uuid.uuid4())}, token=token, expect=404)
    assert code(body) == "job_not_found"
    _, theirs = api.call("POST", STACKS, token=other, json_body={"name": "Fremd", "color": "#059669"}, expect=201)
    api.call("GET", SOURCE, path={"stackId": theirs["id"], "jobId": job["id"]}, token=other, expect=404)
    api.call("GET", SOURCE, path=source_at, token=other, expect=404)
    api.call("GET", SOURCE, path=source_at, expect=401)


def test_v1_jobs_are_cancelled_and_streamed(idle_server, checker):
    """Without workers, jobs stay queued: cancelling one ends it at once, and its event stream, open
    while it waits, sends the change and then ends."""
    api = Api(idle_server, checker)
    token = api.signup()["token"]
    _, stack = api.call(
        "POST", STACKS, token=token, json_body={"name": "Warteschlange", "color": "#7C3AED"}, expect=201
    )
    # With a language model configured, a topic is accepted (offline it is a 400).
    _, job = api.call(
        "POST", GENERATIONS, path={"stackId": stack["id"]}, token=token, json_body={"topic": "Zellbiologie"}, expect=202
    )
    job_at = {"jobId": job["id"]}
    time.sleep(0.5)
    _, waiting = api.call("GET", JOB, path=job_at, token=token, expect=200)
    assert waiting == job, "nothing runs it"

    def cancel_soon():
        time.sleep(1.0)
        requests.post(
            f"{idle_server.base_url}{V1}/jobs/{job['id']}/cancel",
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        )

    canceller = threading.Thread(target=cancel_soon)
    canceller.start()
    started = time.monotonic()
    _, events = api.call("GET", JOB_EVENTS, path=job_at, token=token, expect=200)
    canceller.join()
    assert time.monotonic() - started < 15
    assert [e["data"]["status"] for e in events] == ["queued", "cancelled"], events
    assert events[-1]["data"]["progress"]["stage"] == "cancelled" and events[-1]["data"]["error"] is None

    # Cancelling through the API: a queued optimization ends at once; a second cancel changes nothing.
    _, optimize = api.call("POST", OPTIMIZE, token=token, expect=202)
    assert optimize["kind"] == "optimize" and optimize["status"] == "queued"
    _, cancelled = api.call("POST", JOB_CANCEL, path={"jobId": optimize["id"]}, token=token, expect=200)
    assert cancelled["status"] == "cancelled" and cancelled["progress"]["stage"] == "cancelled"
    _, again = api.call("POST", JOB_CANCEL, path={"jobId": optimize["id"]}, token=token, expect=200)
    assert again == cancelled
    _, got = api.call("GET", JOB, path={"jobId": optimize["id"]}, token=token, expect=200)
    assert got == cancelled
