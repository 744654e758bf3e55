"""A fake OpenAI-compatible language model for the browser tests: `POST /v1/chat/completions`.

It answers the server's card requests (Sources/FlashcardsGeneration/OpenAICompatibleGenerator.swift)
with a JSON object `{"cards": [{"question", "answer"}, …]}` as the assistant's message, the shape
that `ModelCardSchema` describes and `ModelCardParser` reads, and any other request (the hint maker)
with one short sentence. The cards depend on the request: the topic between `<<<` and `>>>`, the
level of a deeper batch ("Dies ist Stufe n" / "This is level n"), and the questions the prompt says
exist already, which are never repeated — so batches differ the way a real model's should.

A request from a document ("Erstelle höchstens n Karteikarten aus diesem Text" / "Write at most n
flashcards from this text") whose schema asks for kinds of card (`anyOf` objects, each with a `kind`
enum: basic, cloze, multipleChoice, trueFalse) gets one card of each kind the schema names, made
from the sentences of the text between `<<<` and `>>>` (`kinds_cards`): the first sentence a basic
card, the second a cloze (its longest word replaced by `_____`), the third a multiple-choice
question with the other sentences' longest words as its wrong options, the fourth a true
statement. Each card's `quote` is its sentence, verbatim (so that the source view marks it); each
card has the members its kind's object names, in the schema's order.

The study partner's chats (a system message that starts with "Du bist der Lernpartner" or "You are
the study partner") get a short Markdown answer that quotes the first card of the prompt's card
block ("Vorderseite: …" / "Front: …") verbatim, so that a test sees card text come back escaped.
A request with `"stream": true` is answered as OpenAI streams: Server-Sent Events of
`data: {"choices":[{"index":0,"delta":{"content":"…"}}]}` chunks of a few words, a last chunk with
`finish_reason` and `data: [DONE]`, each chunk STREAM_DELAY seconds after the one before (so that a
browser sees the pieces come one by one); when the request's last user message contains "langsam"
(or "slowly"), STREAM_SLOW_DELAY seconds. A client that hangs up meanwhile is counted in `cut_off`.

    python e2e/web/fake_llm.py [PORT]     # standalone, prints its base URL

In tests: `with FakeLLM() as llm: … llm.base_url … llm.requests`.
"""

from __future__ import annotations

import json
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODEL = "fake-gpt-mini"

TOPIC = re.compile(r"<<<(.+?)>>>", re.S)
LEVEL = re.compile(r"(?:Stufe|level)\s+(\d+)", re.I)
KNOWN_HEAD = re.compile(r"(?:Diese Fragen gibt es schon|These questions exist already)[^\n]*\n((?:- .*\n?)*)")
MAX_ITEMS = re.compile(r'"maxItems"\s*:\s*(\d+)')
PARTNER_MARKERS = ("Du bist der Lernpartner", "You are the study partner")
FIRST_FRONT = re.compile(r"^(?:Vorderseite|Front):[ \t]*(.*)$", re.M)
SLOW = re.compile(r"langsam|slowly", re.I)
STREAM_WORDS = 3  # words per streamed chunk
STREAM_DELAY = 0.05  # seconds per streamed chunk
STREAM_SLOW_DELAY = 0.5  # seconds per chunk of a slow answer


def user_text(body: dict) -> str:
    """The user messages joined (the server may also put its instructions there)."""
    return "\n".join(str(m.get("content", "")) for m in body.get("messages", []) if m.get("role") == "user")


def subject_of(text: str) -> str:
    """The topic (or the start of the text) between <<< and >>>; not the rule that names them."""
    found = [" ".join(m.split()) for m in TOPIC.findall(text)]
    found = [m for m in found if m and m.lower() not in ("und", "and")]
    return found[-1][:60] if found else "dem Text"


def cards_for(body: dict) -> list[dict]:
    """Cards for a card request: about the topic, at the prompt's level, none of the known ones.

    Each card has its own numbered terms ("Merkmal17", "Faktor17"; numbered on from the level),
    so that no two cards look alike to the server's duplicate check (CardDeduplicator).
    """
    text = user_text(body)
    subject = subject_of(text)
    level = int(LEVEL.search(text).group(1)) if LEVEL.search(text) else 1
    known = set()
    head = KNOWN_HEAD.search(text)
    if head:
        known = {line[2:].strip() for line in head.group(1).splitlines() if line.startswith("- ")}
    schema = json.dumps(body.get("response_format", {}))
    limit = int(MAX_ITEMS.search(schema).group(1)) if MAX_ITEMS.search(schema) else 15
    english = "Write " in text and "Erstelle " not in text
    cards = []
    number = (level - 1) * limit
    while len(cards) < limit and number < level * limit * 3:
        number += 1
        if english:
            question = f"What role do feature{number} and factor{number} play in {subject}?"
            answer = f"Feature{number} is one building block of {subject} at level {level}"
        else:
            question = f"Welche Rolle spielen Merkmal{number} und Faktor{number} bei {subject}?"
            answer = f"Merkmal{number} ist ein Baustein von {subject} auf Stufe {level}"
        if question in known:
            continue
        cards.append({"question": question, "answer": answer})
    return cards


DOCUMENT_PROMPT = re.compile(r"Karteikarten aus diesem Text|flashcards from this text")
FIRST_PAGE = re.compile(r"\((?:Seiten|pages)\s+(\d+)")
PAGE_MARK = re.compile(r"\[Seite\s+\d+\]\s*")
SENTENCE = re.compile(r"[^.!?\n]+[.!?]")
WORD = re.compile(r"[^\W\d_]{5,}")
# What the schema's patterns leave out of card text (and a quote): quotes, backslashes, brackets.
UNSAFE = re.compile(r'["\\{}\[\]]')
QUOTE_LENGTH = 160  # ModelCardSchema.maximumQuoteLength


def schema_objects(body: dict) -> list[dict]:
    """The card objects of the request's schema: the `anyOf` members, or the one item object."""
    schema = body.get("response_format") or {}
    schema = schema.get("json_schema", {}).get("schema", schema) if isinstance(schema, dict) else {}
    items = schema.get("properties", {}).get("cards", {}).get("items", {}) if isinstance(schema, dict) else {}
    objects = items.get("anyOf") or ([items] if items else [])
    return [o for o in objects if isinstance(o, dict)]


def schema_kind(obj: dict) -> str:
    """The kind an object of the schema names (`basic` when it names none)."""
    names = obj.get("properties", {}).get("kind", {}).get("enum") or ["basic"]
    return str(names[0])


def is_kinds_request(body: dict) -> bool:
    """A card request from a document whose schema names kinds of card."""
    return bool(DOCUMENT_PROMPT.search(user_text(body))) and any(
        "kind" in o.get("properties", {}) for o in schema_objects(body))


def text_sentences(text: str) -> list[str]:
    """The sentences of the document between <<< and >>> (headings and page marks left out)."""
    found = TOPIC.findall(text)
    document = PAGE_MARK.sub("", found[-1] if found else text)
    sentences = []
    for line in document.splitlines():
        line = line.strip().lstrip("-*•").strip()
        if not line or line.startswith("#"):
            continue
        for match in SENTENCE.findall(line):
            sentence = " ".join(match.split())
            if len(sentence.split()) >= 4 and not UNSAFE.search(sentence):
                sentences.append(sentence)
    return sentences


def key_word(sentence: str) -> str:
    """The sentence's longest word that stands in it once (ignoring case; the cloze's gap)."""
    words = sorted(set(WORD.findall(sentence)), key=lambda w: (-len(w), sentence.index(w)))
    once = [w for w in words if sentence.lower().count(w.lower()) == 1]
    return (once or words or [sentence.split()[0]])[0]


def quote_of(sentence: str) -> str:
    """The sentence as the model quotes it: verbatim, cut after a word when it is too long."""
    if len(sentence) <= QUOTE_LENGTH:
        return sentence
    return sentence[:QUOTE_LENGTH].rsplit(" ", 1)[0]


def kinds_cards(body: dict) -> list[dict]:
    """One card of each kind the schema names, from the document's sentences (see the module's text)."""
    text = user_text(body)
    english = "Write " in text and "Erstelle " not in text
    sentences = text_sentences(text)
    if not sentences:
        return []
    page = FIRST_PAGE.search(text)
    words = [key_word(s) for s in sentences]
    cards = []
    for index, obj in enumerate(schema_objects(body)):
        kind = schema_kind(obj)
        sentence = sentences[index % len(sentences)]
        word = words[index % len(words)]
        values: dict = {"kind": kind, "quote": quote_of(sentence)}
        if page:
            values["page"] = int(page.group(1))
        if kind == "cloze":
            values["text"] = sentence.replace(word, "_____", 1)
            values["answer"] = word
        elif kind == "multipleChoice":
            blanked = sentence.rstrip(".!?").replace(word, "…", 1)
            values["question"] = (f"Which term completes this sentence: {blanked}?" if english
                                  else f"Welcher Begriff vervollständigt diesen Satz: {blanked}?")
            values["answer"] = word
            wrong = [w for w in dict.fromkeys(words) if w.lower() != word.lower()]
            fillers = ["Chloroplast", "Vakuole", "Zellwand"] if not english else ["Chloroplast", "Vacuole", "Cell wall"]
            values["distractors"] = (wrong + [f for f in fillers if f.lower() != word.lower()])[:3]
        elif kind == "trueFalse":
            values["statement"] = sentence if sentence.endswith(".") else sentence[:-1] + "."
            values["answer"] = "true"
        else:
            values["question"] = (f"What does the text say about {word}?" if english
                                  else f"Was sagt der Text über {word}?")
            values["answer"] = sentence
        members = list(obj.get("properties", {})) or ["question", "answer"]
        cards.append({name: values[name] for name in members if name in values})
    return cards


def is_partner_request(body: dict) -> bool:
    """A chat of the study partner: its system message starts with the partner's marker."""
    return "response_format" not in body and any(
        m.get("role") == "system" and str(m.get("content", "")).lstrip().startswith(PARTNER_MARKERS)
        for m in body.get("messages", []))


def last_user_text(body: dict) -> str:
    users = [str(m.get("content", "")) for m in body.get("messages", []) if m.get("role") == "user"]
    return users[-1] if users else ""


def partner_answer(body: dict) -> str:
    """A short Markdown answer that quotes the first card of the prompt verbatim."""
    system = next((str(m.get("content", "")) for m in body.get("messages", []) if m.get("role") == "system"), "")
    english = system.lstrip().startswith("You are")
    found = FIRST_FRONT.search(last_user_text(body))
    source = found.group(1).strip() if found else ""
    if english:
        text = "**Explanation:** This is what your card 1 says, with the reason behind it."
        return text + (f" Source: {source}" if source else "") + "\n\n- Keep the connection in mind."
    text = "**Erklärung:** Das steht auf deiner Karte 1, mit dem Warum dahinter."
    return text + (f" Quelle: {source}" if source else "") + "\n\n- Merk dir den Zusammenhang."


def stream_pieces(content: str) -> list[str]:
    """The content in pieces of a few words (each keeps its spaces and line breaks)."""
    words = re.findall(r"\S+\s*|\s+", content)
    return ["".join(words[i:i + STREAM_WORDS]) for i in range(0, len(words), STREAM_WORDS)] or [""]


def is_card_request(body: dict) -> bool:
    text = "\n".join(str(m.get("content", "")) for m in body.get("messages", []))
    return "response_format" in body or "Karteikarten" in text or "flashcards" in text


class FakeLLM:
    """The server in a background thread; records every request body it received."""

    def __init__(self, port: int = 0):
        self.requests: list[dict] = []
        self.cut_off = 0  # streamed answers whose client hung up before the end
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def do_GET(self):  # /v1/models, for completeness
                if self.path.rstrip("/").endswith("/models"):
                    self._json(200, {"object": "list", "data": [{"id": MODEL, "object": "model"}]})
                else:
                    self._json(404, {"error": {"message": "not found"}})

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    self._json(400, {"error": {"message": "invalid JSON"}})
                    return
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._json(404, {"error": {"message": "not found"}})
                    return
                fake.requests.append(body)
                if is_partner_request(body):
                    content = partner_answer(body)
                elif is_kinds_request(body):
                    content = json.dumps({"cards": kinds_cards(body)}, ensure_ascii=False)
                elif is_card_request(body):
                    content = json.dumps({"cards": cards_for(body)}, ensure_ascii=False)
                else:
                    content = "Denk an den Zusammenhang mit dem Oberbegriff."
                if body.get("stream") is True:
                    self._stream(body, content)
                    return
                self._json(200, {
                    "id": f"chatcmpl-{len(fake.requests)}", "object": "chat.completion", "created": 0,
                    "model": body.get("model", MODEL),
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                                 "finish_reason": "stop"}],
                })

            def _stream(self, body: dict, content: str):
                """The content as OpenAI streams it (Server-Sent Events, then [DONE])."""
                delay = STREAM_SLOW_DELAY if SLOW.search(last_user_text(body)) else STREAM_DELAY
                name = f"chatcmpl-{len(fake.requests)}"

                def chunk(delta: dict, finish=None) -> bytes:
                    payload = {"id": name, "object": "chat.completion.chunk", "created": 0,
                               "model": body.get("model", MODEL),
                               "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
                    return f"data: {json.dumps(payload, ensure_ascii=False)}\n\n".encode()

                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.end_headers()
                try:
                    self.wfile.write(chunk({"role": "assistant", "content": ""}))
                    for piece in stream_pieces(content):
                        time.sleep(delay)
                        self.wfile.write(chunk({"content": piece}))
                        self.wfile.flush()
                    self.wfile.write(chunk({}, "stop"))
                    self.wfile.write(b"data: [DONE]\n\n")
                    self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    fake.cut_off += 1
                self.close_connection = True

            def _json(self, status: int, payload: dict):
                data = json.dumps(payload, ensure_ascii=False).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def card_requests(self) -> list[dict]:
        return [r for r in self.requests if is_card_request(r) and not is_partner_request(r)]

    def partner_requests(self) -> list[dict]:
        return [r for r in self.requests if is_partner_request(r)]

    def __enter__(self) -> "FakeLLM":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


if __name__ == "__main__":
    with FakeLLM(int(sys.argv[1]) if len(sys.argv) > 1 else 0) as llm:
        print(f"fake LLM ({MODEL}) at {llm.base_url}/v1", flush=True)
        try:
            llm.thread.join()
        except KeyboardInterrupt:
            pass
