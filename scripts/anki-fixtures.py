#!/usr/bin/env python3
"""Regenerate the Anki .apkg fixtures in Tests/FlashcardsServerTests/Fixtures/anki/.

Requirements (pip, pinned; scripts/anki-venv.sh makes a venv with exactly these):
    anki==26.9.3        the official Anki backend (Rust core, SQLite bundled)
    genanki==0.13.1     writes legacy (schema 11) packages
    zstandard==0.25.0   only used to check the framing of the new format
Debian package (for the clock): faketime (libfaketime.so.1)

    PY="$(scripts/anki-venv.sh --fixtures | tail -n 1)"  # venv in /tmp/anki-venv + faketime
    "$PY" scripts/anki-fixtures.py                         # from the repository root

The script re-executes itself under libfaketime with a frozen clock (TZ=UTC) that it moves
itself: every id and timestamp Anki takes from the clock (note/card/deck/notetype ids, revlog
ids, mtimes, learning due times, the collection's creation day) is then fixed, and "days
passing" between reviews is real time travel for the scheduler (no due/ivl is edited by hand).
Note guids (random in Anki) are set to genanki.guid_for(key). The zip files written by Python
get fixed entry dates.

Reproducible: every id, guid, field, tag, card state, due, revlog row and media file (the README
lists them; verify_modern() checks the main ones). Byte-identical on every run: all fixtures but
modern.apkg, modern-legacy.apkg and corrupt-anki21b.apkg, whose bytes change from run to run
because Anki gives note type fields and templates random 64-bit ids, writes the legacy JSON
from hash maps (key order) and numbers the exported media files in hash-set order (which file
is "0" varies). genanki's collection.anki2 is written by Python's sqlite3, whose library version
is stamped into the SQLite header (bytes 96-99): another machine may change those 4 bytes.
Another anki version may change anything.

Pass --large-bomb to also write zip-bomb-large.apkg (~2.2 MB, a real 2.25 GiB deflate stream;
not committed).
"""

from __future__ import annotations

import argparse
import base64
import datetime as dt
import glob
import hashlib
import json
import os
import shutil
import sqlite3
import struct
import sys
import tempfile
import warnings
import zipfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests", "FlashcardsServerTests", "Fixtures", "anki")
ZIP_DATE = (2024, 3, 1, 12, 0, 0)  # entry date for every zip we write ourselves
START = dt.datetime(2024, 3, 1, 10, 0, 0)  # UTC; the modern collection is created then

# ---------------------------------------------------------------------------------------------
# the clock (libfaketime, frozen, moved by writing FAKETIME_TIMESTAMP_FILE)


def _find_libfaketime() -> str | None:
    for pattern in ("/usr/lib/*/faketime/libfaketime.so.1", "/usr/lib/faketime/libfaketime.so.1",
                    "/usr/local/lib/faketime/libfaketime.so.1"):
        hits = sorted(glob.glob(pattern))
        if hits:
            return hits[0]
    return None


def _reexec_under_faketime() -> None:
    if os.environ.get("ANKI_FIXTURES_CLOCK"):
        return
    lib = _find_libfaketime()
    if lib is None:
        sys.exit("anki-fixtures: libfaketime not found: apt-get install faketime")
    clock_file = tempfile.NamedTemporaryFile("w", prefix="anki-clock.", delete=False)
    clock_file.write(START.strftime("%Y-%m-%d %H:%M:%S") + "\n")
    clock_file.close()
    env = dict(os.environ)
    env.update({
        "LD_PRELOAD": lib,
        "FAKETIME_TIMESTAMP_FILE": clock_file.name,
        "FAKETIME_NO_CACHE": "1",
        "TZ": "UTC",
        "ANKI_FIXTURES_CLOCK": clock_file.name,
    })
    env.pop("FAKETIME", None)
    os.execve(sys.executable, [sys.executable, os.path.abspath(__file__)] + sys.argv[1:], env)


class Clock:
    """Sets the (frozen) time that libfaketime reports."""

    def __init__(self):
        self.path = os.environ["ANKI_FIXTURES_CLOCK"]

    def set(self, when: dt.datetime) -> None:
        with open(self.path, "w") as f:
            f.write(when.strftime("%Y-%m-%d %H:%M:%S") + "\n")
        import time
        got = dt.datetime.fromtimestamp(time.time(), dt.timezone.utc).replace(tzinfo=None)
        assert got == when, f"faketime did not take the new time: {got} != {when}"


# ---------------------------------------------------------------------------------------------
# content shared by the genanki and the anki fixtures


def png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A tiny solid-colour PNG, byte-for-byte reproducible."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9))
            + chunk(b"IEND", b""))


MEDIA = {
    "zelle.png": png(8, 8, (40, 160, 60)),
    "mitochondrie.png": png(32, 32, (200, 60, 40)),  # 99 bytes; zelle.png has 74
}

# images.apkg / images-legacy.apkg: a note per way an image (or a file that is none) can appear.
# The JPEG (40x30, with an EXIF block), the WebP (24x24, with EXIF) and the GIF (12x10) were made
# once with libvips (`vips black` + `vips linear`) and are kept here as bytes.
IMAGE_JPEG = base64.b64decode(
    "/9j/4QC8RXhpZgAASUkqAAgAAAAGABIBAwABAAAAAQAAABoBBQABAAAAVgAAABsBBQABAAAAXgAAACgBAwABAAAAAgAAABMC"
    "AwABAAAAAQAAAGmHBAABAAAAZgAAAAAAAAA4YwAA6AMAADhjAADoAwAABgAAkAcABAAAADAyMTABkQcABAAAAAECAwAAoAcA"
    "BAAAADAxMDABoAMAAQAAAP//AAACoAQAAQAAACgAAAADoAQAAQAAAB4AAAAAAAAA/9sAQwAIBgYHBgUIBwcHCQkICgwUDQwL"
    "CwwZEhMPFB0aHx4dGhwcICQuJyAiLCMcHCg3KSwwMTQ0NB8nOT04MjwuMzQy/9sAQwEJCQkMCwwYDQ0YMiEcITIyMjIyMjIy"
    "MjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIy/8AAEQgAHgAoAwEiAAIRAQMRAf/EAB8AAAEFAQEB"
    "AQEBAAAAAAAAAAABAgMEBQYHCAkKC//EALUQAAIBAwMCBAMFBQQEAAABfQECAwAEEQUSITFBBhNRYQcicRQygZGhCCNCscEV"
    "UtHwJDNicoIJChYXGBkaJSYnKCkqNDU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6g4SFhoeIiYqSk5SV"
    "lpeYmZqio6Slpqeoqaqys7S1tre4ubrCw8TFxsfIycrS09TV1tfY2drh4uPk5ebn6Onq8fLz9PX29/j5+v/EAB8BAAMBAQEB"
    "AQEBAQEAAAAAAAABAgMEBQYHCAkKC//EALURAAIBAgQEAwQHBQQEAAECdwABAgMRBAUhMQYSQVEHYXETIjKBCBRCkaGxwQkj"
    "M1LwFWJy0QoWJDThJfEXGBkaJicoKSo1Njc4OTpDREVGR0hJSlNUVVZXWFlaY2RlZmdoaWpzdHV2d3h5eoKDhIWGh4iJipKT"
    "lJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uLj5OXm5+jp6vLz9PX29/j5+v/aAAwDAQACEQMR"
    "AD8AzqKKK+bPuAooooAKKKKACiiigAooooAKKKKAP//Z")
IMAGE_WEBP = base64.b64decode(
    "UklGRhoBAABXRUJQVlA4WAoAAAAIAAAAFwAAFwAAVlA4IDoAAAAQAwCdASoYABgAPpFCnEolo6KhqAgAsBIJZQB2AACKtrAA"
    "/uy9j/7oMs4abf//q0P/Vof+rQ/bsAAARVhJRroAAABFeGlmAABJSSoACAAAAAYAEgEDAAEAAAABAAAAGgEFAAEAAABWAAAA"
    "GwEFAAEAAABeAAAAKAEDAAEAAAACAAAAEwIDAAEAAAABAAAAaYcEAAEAAABmAAAAAAAAADhjAADoAwAAOGMAAOgDAAAGAACQ"
    "BwAEAAAAMDIxMAGRBwAEAAAAAQIDAACgBwAEAAAAMDEwMAGgAwABAAAA//8AAAKgBAABAAAAGAAAAAOgBAABAAAAGAAAAAAA"
    "AAA=")
IMAGE_GIF = base64.b64decode(
    "R0lGODlhDAAKAIAAAEdwTHh4eCH/C05FVFNDQVBFMi4wAwEAAAAh+QQFAAAAACwAAAAADAAKAAACCYyPqcvtD6OcBQA7")


def broken_png() -> bytes:
    """A PNG whose header says it is 0 pixels wide (libvips would read broken pixel data)."""
    good = png(16, 16, (0, 0, 0))
    ihdr = b"IHDR" + struct.pack(">IIBBBBB", 0, 16, 8, 2, 0, 0, 0)
    return good[:12] + ihdr + struct.pack(">I", zlib.crc32(ihdr)) + good[33:]


IMAGE_MEDIA = {
    "zelle groß.jpg": IMAGE_JPEG,
    "blüte & blatt.gif": IMAGE_GIF,
    "kreis.webp": IMAGE_WEBP,
    "zelle.png": None,  # MEDIA["zelle.png"], set below
    "kaputt.png": None,  # broken_png()
    "formel.svg": b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><circle r="5"/></svg>',
    "ton.mp3": b"ID3\x03\x00\x00\x00\x00\x00\x00 not really a sound",
}

DECK_IMAGES = "Bilder"

# key, fields (Basic note type)
IMAGE_NOTES = [
    # a source with a character reference and a description; Markdown characters in the text
    ("bild-jpg", ['Was zeigt das Bild?<br><img src="zelle gro&szlig;.jpg" alt="Zelle &amp; Kern">',
                  "Eine Zelle: 5 * 3 = 15 und 1_000 $ | [Teil] - kein Punkt"]),
    # an image alone, its source HTML-escaped in single quotes
    ("bild-gif", ["Bl\u00fcte", "<img src='bl&uuml;te &amp; blatt.gif'>"]),
    # a description with Markdown characters; a sound beside it
    ("bild-webp", ['<img src="kreis.webp" alt="Kreis *rot* [1]"> Welche Farbe?', "Rot [sound:ton.mp3]"]),
    # an SVG is no image a card may show: its description stays as text
    ("bild-svg", ['Formel <img src="formel.svg" alt="E = mc\u00b2">', "Energie"]),
    # a broken image becomes its description
    ("bild-kaputt", ['Kaputt<br><img src="kaputt.png" alt="kaputtes Bild">', "Text"]),
    # the same image twice, lines that would start a list, a URL-encoded source (as some tools
    # write them; Anki's exporter finds the file through the note above)
    ("bild-zweimal", ['<img src="zelle.png">',
                      '<img src="zelle.png"><br>- Zelle<br>1. Teil<br><img src="zelle%20gro%C3%9F.jpg">']),
]

DECK_TOP = "Biologie"
DECK_SUB = "Biologie::Zellen"

# key, note type (basic | reversed | cloze), deck, fields, tags (already in Anki's order)
NOTES = [
    ("mito", "basic", DECK_TOP,
     ["Was ist die <b>Mitochondrie</b>?",
      'Das Kraftwerk der Zelle.<br>Sie erzeugt ATP &amp; W\u00e4rme.<br><img src="mitochondrie.png">'],
     ["biologie", "zelle::organell"]),
    ("kern", "basic", DECK_SUB,
     ["Zellkern&nbsp;&amp; DNA",
      '<img src="zelle.png"><br>Enth\u00e4lt die Erbinformation (Gr\u00f6\u00dfe: 5&nbsp;\u00b5m).'],
     ["bild", "zelle"]),
    ("xss", "basic", DECK_SUB,
     ["Ist das <i>harmlos</i>?",
      "<script>alert(1)</script>Nein, &lt;script&gt; ist gef\u00e4hrlich."],
     ["sicherheit"]),
    ("photo", "reversed", DECK_TOP,
     ["Photosynthese", "Umwandlung von Licht in chemische Energie"],
     ["biologie", "pflanzen"]),
    ("cloze", "cloze", DECK_SUB,
     ["Die {{c1::Zellmembran}} umgibt die {{c2::Zelle::H\u00fclle?}}.",
      "Siehe auch: <u>Zellwand</u>"],
     ["cloze", "zelle"]),
]


def note_guid(key: str) -> str:
    import genanki
    return genanki.guid_for("smart-flashcards-fixture", key)


# ---------------------------------------------------------------------------------------------
# zip helpers


def write_zip(path: str, entries: list[tuple[str, bytes, int]]) -> None:
    """entries: (name, data, compress_type); fixed dates, given order, names stored as given."""
    with zipfile.ZipFile(path, "w") as z:
        for name, data, method in entries:
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.compress_type = method
            info.external_attr = 0o644 << 16
            z.writestr(info, data)


def normalize_zip_dates(path: str) -> None:
    """Rewrite a zip with the same entries, order and methods but fixed dates."""
    with zipfile.ZipFile(path) as z:
        entries = [(i.filename, z.read(i), i.compress_type) for i in z.infolist()]
    write_zip(path, entries)


def raw_zip(path: str, name: str, stream: bytes, crc: int, declared_size: int) -> None:
    """A one-more-entry zip written by hand, so the sizes in its headers can say anything.

    Entry 1: `name`, deflated `stream`, with `declared_size`/`crc` in both headers.
    Entry 2: `media` = "{}" (stored), so the package otherwise looks like a legacy apkg.
    """
    dos_time = (ZIP_DATE[3] << 11) | (ZIP_DATE[4] << 5) | (ZIP_DATE[5] // 2)
    dos_date = ((ZIP_DATE[0] - 1980) << 9) | (ZIP_DATE[1] << 5) | ZIP_DATE[2]
    files = [(name.encode(), stream, crc, declared_size, 8),
             (b"media", b"{}", zlib.crc32(b"{}"), 2, 0)]
    body, central = b"", b""
    for fname, data, fcrc, usize, method in files:
        offset = len(body)
        body += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, method, dos_time, dos_date,
                            fcrc, len(data), usize, len(fname), 0) + fname + data
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, method, dos_time,
                               dos_date, fcrc, len(data), usize, len(fname), 0, 0, 0, 0,
                               0o644 << 16, offset) + fname
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(files), len(files), len(central),
                      len(body), 0)
    with open(path, "wb") as f:
        f.write(body + central + end)


def deflate_zeros(total: int) -> tuple[bytes, int]:
    """Raw deflate of `total` zero bytes and their CRC-32."""
    comp = zlib.compressobj(9, zlib.DEFLATED, -15, 9)
    block = bytes(1 << 24)
    out, crc, left = [], 0, total
    while left:
        n = min(left, len(block))
        out.append(comp.compress(block[:n]))
        crc = zlib.crc32(block[:n], crc)
        left -= n
    out.append(comp.flush())
    return b"".join(out), crc


def crc_of_zeros(total: int) -> int:
    block = bytes(1 << 24)
    crc, left = 0, total
    while left:
        n = min(left, len(block))
        crc = zlib.crc32(block[:n], crc)
        left -= n
    return crc


# ---------------------------------------------------------------------------------------------
# a. legacy package by genanki


GENANKI_TIMESTAMP = 1709287200.0  # 2024-03-01 10:00:00 UTC: note/card ids count up from it (ms)
GENANKI_DECK_IDS = {DECK_TOP: 2059400110, DECK_SUB: 2059400111}


def genanki_package(decks, media_paths):
    import genanki
    return genanki.Package(decks, media_files=media_paths)


def write_genanki(pkg, path: str) -> None:
    """genanki's own Package.write_to_file, then the zip dates are fixed (genanki stamps the
    temporary file's mtime and the current time on its entries; it stores, never deflates)."""
    pkg.write_to_file(path, timestamp=GENANKI_TIMESTAMP)
    normalize_zip_dates(path)


def make_legacy_genanki(media_dir: str) -> None:
    import genanki
    models = {"basic": genanki.BASIC_MODEL, "reversed": genanki.BASIC_AND_REVERSED_CARD_MODEL,
              "cloze": genanki.CLOZE_MODEL}
    decks = {name: genanki.Deck(did, name) for name, did in GENANKI_DECK_IDS.items()}
    for key, kind, deck, fields, tags in NOTES:
        decks[deck].add_note(genanki.Note(model=models[kind], fields=list(fields), tags=list(tags),
                                          guid=note_guid(key)))
    media = [os.path.join(media_dir, name) for name in MEDIA]
    write_genanki(genanki_package(list(decks.values()), media),
                  os.path.join(OUT, "legacy-genanki.apkg"))


# ---------------------------------------------------------------------------------------------
# b/c. the modern packages by anki


def at(day: int, hh: int, mm: int, ss: int = 0) -> dt.datetime:
    return START.replace(hour=hh, minute=mm, second=ss) + dt.timedelta(days=day)


# Study sessions: (start time, deck studied, [(card "key/ord", ease 1-4, seconds on the answer)]).
# Each answer takes the card that col.sched.getCard() returns and checks it is the one listed
# (the v3 scheduler only accepts the top of its queue, so the lists follow the queue's order).
# A session ends after its list, whatever is still queued: the user stops studying.
SESSIONS = [
    # day 0: five new cards seen once (Good: the first learning step done); photo/1 stays new
    (at(0, 10, 5), DECK_TOP, [("mito/0", 3, 6), ("photo/0", 3, 7), ("kern/0", 3, 5),
                              ("xss/0", 3, 4), ("cloze/0", 3, 8)]),
    # 15 minutes later the learning cards are due in the order of their (fuzzed) due times:
    # xss and photo/0 graduate, mito is next and left in learning, so from here on only the
    # subdeck is studied: cloze/0 and kern graduate, cloze/1 is Easy at once
    (at(0, 10, 20), DECK_TOP, [("xss/0", 3, 4), ("photo/0", 3, 5)]),
    (at(0, 10, 21), DECK_SUB, [("cloze/0", 3, 9), ("kern/0", 3, 6), ("cloze/1", 4, 3)]),
    # day 1: the first reviews; cloze/0 is Hard
    (at(1, 10, 0), DECK_SUB, [("kern/0", 3, 5), ("xss/0", 3, 4), ("cloze/0", 2, 10)]),
    # day 3: cloze/0 again (Easy)
    (at(3, 10, 0), DECK_SUB, [("cloze/0", 4, 4)]),
    # day 5: cloze/1 and kern come due; kern lapses (Again) and is relearnt: Again, then Hard
    (at(5, 10, 0), DECK_SUB, [("kern/0", 1, 12), ("cloze/1", 3, 5)]),
    (at(5, 10, 11), DECK_SUB, [("kern/0", 1, 8)]),
    (at(5, 10, 22), DECK_SUB, [("kern/0", 2, 7)]),
]
SUSPEND = (at(1, 10, 30), "xss/0")  # a review card
EXPORT_AT = at(5, 11, 0)


def build_modern_collection(clock: Clock, workdir: str):
    from anki.collection import Collection

    clock.set(START)
    col = Collection(os.path.join(workdir, "collection.anki2"))
    for name, data in MEDIA.items():
        got = col.media.write_data(name, data)
        assert got == name, got
    # Reviews due the same day come in random order by default ("due date, then random"):
    # order them by when the card was added instead, so the sessions below are reproducible.
    conf = col.decks.get_config(1)
    conf["reviewOrder"] = 9  # DeckConfig.Config.REVIEW_CARD_ORDER_ADDED
    col.decks.save(conf)
    deck_ids = {}
    for name in (DECK_TOP, DECK_SUB):  # same frozen millisecond: Anki counts the id up
        deck_ids[name] = col.decks.id(name)
    types = {"basic": "Basic", "reversed": "Basic (and reversed card)", "cloze": "Cloze"}
    card_names = {}
    for i, (key, kind, deck, fields, tags) in enumerate(NOTES):
        clock.set(START + dt.timedelta(seconds=1 + i))
        note = col.new_note(col.models.by_name(types[kind]))
        for j, value in enumerate(fields):
            note.fields[j] = value
        note.tags = list(tags)
        note.guid = note_guid(key)
        if kind == "cloze":
            # All cards of a note get their ids from the same (frozen) millisecond, counted up in
            # the order the backend generates them, which for cloze numbers is a hash set's
            # (random) order. So the note is added with c1 only and c2 is added a second later
            # by an edit, as a user would: each cloze card then has a reproducible id.
            note.fields[0] = fields[0].split("{{c2::")[0]
            col.add_note(note, deck_ids[deck])
            clock.set(START + dt.timedelta(seconds=1 + len(NOTES)))
            note.fields[0] = fields[0]
            col.update_note(note)
        else:
            col.add_note(note, deck_ids[deck])
        for card in note.cards():
            card_names[card.id] = f"{key}/{card.ord}"
    card_ids = {name: cid for cid, name in card_names.items()}

    events = [(when, "study", deck, plan) for when, deck, plan in SESSIONS]
    events.append((SUSPEND[0], "suspend", None, SUSPEND[1]))
    for when, what, deck, plan in sorted(events, key=lambda e: e[0]):
        clock.set(when)
        if what == "suspend":
            col.sched.suspend_cards([card_ids[plan]])
            continue
        # The queue covers the current deck and its subdecks. The backend caches it, and with a
        # frozen clock a cached queue does not notice that learning cards came due since: the
        # user goes to the Default deck and back, which (like opening a deck in the app)
        # builds the queue anew.
        col.decks.select(1)
        col.sched.get_queued_cards()
        col.decks.select(deck_ids[deck])
        t = when
        for name, ease, secs in plan:
            clock.set(t)
            card = col.sched.getCard()  # starts the card's answer timer
            got = card_names.get(card.id) if card else None
            if got != name:
                raise SystemExit(f"anki-fixtures: at {t} in {deck} getCard() gave {got}, the plan "
                                 f"says {name}; queue: "
                                 f"{[card_names[q.card.id] for q in col.sched.get_queued_cards(fetch_limit=99).cards]}")
            clock.set(t + dt.timedelta(seconds=secs))
            col.sched.answerCard(card, ease)
            t += dt.timedelta(seconds=secs + 2)
    clock.set(EXPORT_AT)
    return col


def export_modern(col, path: str, legacy: bool) -> None:
    from anki.import_export_pb2 import ExportAnkiPackageOptions
    opts = ExportAnkiPackageOptions(with_scheduling=True, with_deck_configs=True, with_media=True,
                                    legacy=legacy)
    col.export_anki_package(out_path=path, options=opts, limit=None)
    os.chmod(path, 0o644)  # the backend creates it 0600


# ---------------------------------------------------------------------------------------------
# e. images (images.apkg, images-legacy.apkg)


def make_images(clock: Clock, workdir: str) -> None:
    from anki.collection import Collection

    IMAGE_MEDIA["zelle.png"] = MEDIA["zelle.png"]
    IMAGE_MEDIA["kaputt.png"] = broken_png()
    clock.set(START)
    col = Collection(os.path.join(workdir, "collection.anki2"))
    for name, data in IMAGE_MEDIA.items():
        got = col.media.write_data(name, data)
        assert got == name, (got, name)
    deck = col.decks.id(DECK_IMAGES)
    for i, (key, fields) in enumerate(IMAGE_NOTES):
        clock.set(START + dt.timedelta(seconds=1 + i))
        note = col.new_note(col.models.by_name("Basic"))
        note.fields[0], note.fields[1] = fields
        note.tags = ["bild"]
        note.guid = note_guid(key)
        col.add_note(note, deck)
    clock.set(START + dt.timedelta(minutes=5))
    export_modern(col, os.path.join(OUT, "images.apkg"), legacy=False)
    export_modern(col, os.path.join(OUT, "images-legacy.apkg"), legacy=True)
    col.close()


def verify_images() -> None:
    import zstandard
    from anki.import_export_pb2 import MediaEntries

    dec = zstandard.ZstdDecompressor()
    with zipfile.ZipFile(os.path.join(OUT, "images.apkg")) as z:
        entries = {i.filename: z.read(i) for i in z.infolist()}
    media_map = MediaEntries()
    media_map.ParseFromString(dec.decompressobj().decompress(entries["media"]))
    names = [e.name for e in media_map.entries]
    assert sorted(names) == sorted(IMAGE_MEDIA), names
    for index, e in enumerate(media_map.entries):
        assert dec.decompressobj().decompress(entries[str(index)]) == IMAGE_MEDIA[e.name], e.name
    with zipfile.ZipFile(os.path.join(OUT, "images-legacy.apkg")) as z:
        legacy_map = json.loads(z.read("media"))
        assert sorted(legacy_map.values()) == sorted(IMAGE_MEDIA), legacy_map
        for index, name in legacy_map.items():
            assert z.read(index) == IMAGE_MEDIA[name], name


# ---------------------------------------------------------------------------------------------
# d. bad inputs


def make_bad_inputs(media_dir: str, large_bomb: bool) -> None:
    import genanki

    # unknown-notetype.apkg: a custom note type with three fields and its own template
    vocab = genanki.Model(
        1607392319, "Vokabel (Fixture)",
        fields=[{"name": "Wort"}, {"name": "Bedeutung"}, {"name": "Beispiel"}],
        templates=[{
            "name": "Erkennen",
            "qfmt": '<div class="wort">{{Wort}}</div>{{#Beispiel}}<i>{{Beispiel}}</i>{{/Beispiel}}',
            "afmt": "{{FrontSide}}<hr id=answer>{{Bedeutung}}",
        }],
        css=".wort { font-size: 30px; }",
    )
    deck = genanki.Deck(2059400120, "Vokabeln")
    deck.add_note(genanki.Note(model=vocab, fields=["die Zelle", "cell", "Die Zelle teilt sich."],
                               tags=["vokabel"], guid=note_guid("vokabel-zelle")))
    deck.add_note(genanki.Note(model=vocab, fields=["der Kern", "nucleus", ""],
                               tags=["vokabel"], guid=note_guid("vokabel-kern")))
    write_genanki(genanki_package([deck], []), os.path.join(OUT, "unknown-notetype.apkg"))

    # a small valid collection for traversal.apkg and corrupt-collection.apkg
    small = genanki.Deck(2059400130, "Traversal")
    small.add_note(genanki.Note(model=genanki.BASIC_MODEL,
                                fields=["Bild", '<img src="zelle.png">'],
                                tags=[], guid=note_guid("traversal")))
    tmp = tempfile.mkdtemp(prefix="anki-small.")
    small_apkg = os.path.join(tmp, "small.apkg")
    write_genanki(genanki_package([small], []), small_apkg)
    with zipfile.ZipFile(small_apkg) as z:
        small_col = z.read("collection.anki2")
    shutil.rmtree(tmp)

    # traversal.apkg: a valid collection, a media map whose names climb out, and zip entries
    # whose own names climb out or are absolute
    media_map = {"0": "zelle.png", "1": "../../evil-media.txt", "2": "/tmp/evil-absolute.txt"}
    write_zip(os.path.join(OUT, "traversal.apkg"), [
        ("collection.anki2", small_col, zipfile.ZIP_DEFLATED),
        ("media", json.dumps(media_map).encode(), zipfile.ZIP_STORED),
        ("0", MEDIA["zelle.png"], zipfile.ZIP_STORED),
        ("1", b"evil media file (named ../../evil-media.txt by the media map)\n", zipfile.ZIP_STORED),
        ("2", b"evil media file (named /tmp/evil-absolute.txt by the media map)\n", zipfile.ZIP_STORED),
        ("../../evil.txt", b"evil zip entry ../../evil.txt\n", zipfile.ZIP_STORED),
        ("/etc/passwd", b"root:x:0:0:evil zip entry /etc/passwd:/root:/bin/sh\n", zipfile.ZIP_STORED),
    ])

    # corrupt-collection.apkg: the SQLite file cut after its first 2,000 bytes
    write_zip(os.path.join(OUT, "corrupt-collection.apkg"), [
        ("collection.anki2", small_col[:2000], zipfile.ZIP_DEFLATED),
        ("media", b"{}", zipfile.ZIP_STORED),
    ])

    # not-anki.zip: a zip with only a text file
    write_zip(os.path.join(OUT, "not-anki.zip"), [
        ("readme.txt", b"Dies ist kein Anki-Paket.\n", zipfile.ZIP_DEFLATED),
    ])

    # zip-bomb.apkg: headers claim 2.25 GiB for collection.anki2 (> Int32.max); the deflate
    # stream holds 16 MiB of zeros (the CRC field is that of the claimed 2.25 GiB of zeros)
    claimed = 0x90000000  # 2,415,919,104
    stream, _ = deflate_zeros(16 << 20)
    raw_zip(os.path.join(OUT, "zip-bomb.apkg"), "collection.anki2", stream,
            crc_of_zeros(claimed), claimed)

    # zip-bomb-understated.apkg: headers claim 4,096 bytes; the stream inflates to 64 MiB
    stream, _ = deflate_zeros(64 << 20)
    raw_zip(os.path.join(OUT, "zip-bomb-understated.apkg"), "collection.anki2", stream,
            crc_of_zeros(4096), 4096)

    if large_bomb:  # honest: 2.25 GiB really inflate from ~2.2 MB (deflate tops out at ~1032:1)
        stream, crc = deflate_zeros(claimed)
        raw_zip(os.path.join(OUT, "zip-bomb-large.apkg"), "collection.anki2", stream, crc, claimed)


def make_corrupt_anki21b(modern_path: str) -> None:
    """corrupt-anki21b.apkg: the modern package with its zstd collection cut in half."""
    with zipfile.ZipFile(modern_path) as z:
        entries = [(i.filename, z.read(i), i.compress_type) for i in z.infolist()]
    out = []
    for name, data, method in entries:
        if name == "collection.anki21b":
            data = data[: len(data) // 2]
        out.append((name, data, method))
    write_zip(os.path.join(OUT, "corrupt-anki21b.apkg"), out)


# ---------------------------------------------------------------------------------------------
# self-check of what the README promises about the two packages made by anki


def verify_modern() -> None:
    import zstandard

    def entries(name):
        with zipfile.ZipFile(os.path.join(OUT, name)) as z:
            return {i.filename: z.read(i) for i in z.infolist()}

    new = entries("modern.apkg")
    assert set(new) == {"meta", "collection.anki21b", "collection.anki2", "0", "1", "media"}, set(new)
    assert new["meta"] == b"\x08\x03", new["meta"]  # PackageMetadata { version: VERSION_LATEST }
    for name in ("collection.anki21b", "media", "0", "1"):
        assert new[name][:4] == b"\x28\xb5\x2f\xfd", name  # zstd frame magic
        assert new[name][4] == 0, name  # frame header: no content size, no checksum, no dict
    dec = zstandard.ZstdDecompressor()
    assert dec.decompressobj().decompress(new["collection.anki21b"])[:16] == b"SQLite format 3\x00"
    # media map: zstd(protobuf MediaEntries { repeated MediaEntry entries = 1 }),
    # MediaEntry { string name = 1; uint32 size = 2; bytes sha1 = 3 }; entry i is zip entry "i".
    # Which file is "0" is not reproducible (the exporter collects the names in a hash set).
    from anki.import_export_pb2 import MediaEntries
    media_map = MediaEntries()
    media_map.ParseFromString(dec.decompressobj().decompress(new["media"]))
    assert sorted(e.name for e in media_map.entries) == sorted(MEDIA), media_map
    for index, e in enumerate(media_map.entries):
        data = dec.decompressobj().decompress(new[str(index)])
        assert data == MEDIA[e.name] and e.size == len(data), e.name
        assert e.sha1 == hashlib.sha1(data).digest() and not e.HasField("legacy_zip_filename")

    old = entries("modern-legacy.apkg")
    assert set(old) == {"meta", "collection.anki21", "collection.anki2", "0", "1", "media"}, set(old)
    assert old["meta"] == b"\x08\x02", old["meta"]  # VERSION_LEGACY_2
    legacy_map = json.loads(old["media"])
    assert sorted(legacy_map) == ["0", "1"] and sorted(legacy_map.values()) == sorted(MEDIA)
    for index, name in legacy_map.items():
        assert old[index] == MEDIA[name], name  # legacy format: media stored as is

    tmp = tempfile.mkdtemp(prefix="anki-verify.")
    try:
        path = os.path.join(tmp, "c.db")
        with open(path, "wb") as f:
            f.write(old["collection.anki21"])
        db = sqlite3.connect(path)
        states = sorted(db.execute("select type, queue from cards").fetchall())
        assert states == [(0, 0), (1, 1), (2, -1), (2, 2), (2, 2), (2, 2), (3, 1)], states
        revlog = dict(db.execute("select type, count(*) from revlog group by type").fetchall())
        assert revlog == {0: 10, 1: 6, 2: 2}, revlog
        db.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# ---------------------------------------------------------------------------------------------


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--large-bomb", action="store_true", help="also write zip-bomb-large.apkg")
    args = ap.parse_args()
    _reexec_under_faketime()
    clock = Clock()
    warnings.filterwarnings("ignore", module="genanki")

    os.makedirs(OUT, exist_ok=True)
    for old in glob.glob(os.path.join(OUT, "*.apkg")) + glob.glob(os.path.join(OUT, "*.zip")):
        os.remove(old)
    work = tempfile.mkdtemp(prefix="anki-fixtures.")
    try:
        media_dir = os.path.join(work, "media")
        os.makedirs(media_dir)
        for name, data in MEDIA.items():
            with open(os.path.join(media_dir, name), "wb") as f:
                f.write(data)

        make_legacy_genanki(media_dir)

        coldir = os.path.join(work, "col")
        os.makedirs(coldir)
        col = build_modern_collection(clock, coldir)
        export_modern(col, os.path.join(OUT, "modern.apkg"), legacy=False)
        export_modern(col, os.path.join(OUT, "modern-legacy.apkg"), legacy=True)
        col.close()

        imagedir = os.path.join(work, "images")
        os.makedirs(imagedir)
        make_images(clock, imagedir)

        make_bad_inputs(media_dir, args.large_bomb)
        make_corrupt_anki21b(os.path.join(OUT, "modern.apkg"))
        verify_modern()
        verify_images()
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if os.environ.get("ANKI_FIXTURES_CLOCK"):
            try:
                os.remove(os.environ["ANKI_FIXTURES_CLOCK"])
            except OSError:
                pass

    for path in sorted(glob.glob(os.path.join(OUT, "*.apkg")) + glob.glob(os.path.join(OUT, "*.zip"))):
        with open(path, "rb") as f:
            data = f.read()
        print(f"{os.path.relpath(path, ROOT)}  {len(data):>8} bytes  sha256 {hashlib.sha256(data).hexdigest()[:16]}")
        with zipfile.ZipFile(path) as z:
            for i in z.infolist():
                print(f"    {i.filename!r:28} {i.file_size:>12} (stored {i.compress_size}, method {i.compress_type})")


if __name__ == "__main__":
    main()
