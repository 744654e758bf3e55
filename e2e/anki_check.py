#!/usr/bin/env python3
"""Check an Anki package with the real Anki backend and print what it holds as JSON.

Requirements (pip, pinned; scripts/anki-venv.sh makes a venv with exactly these):
    anki==26.9.3
    zstandard==0.25.0   (for --raw on the new format only)

    python e2e/anki_check.py FILE.apkg            # import into a fresh temporary collection
    python e2e/anki_check.py FILE.apkg --raw      # also read the package's files directly

The package is imported with the importer of the installed anki (Collection.import_anki_package,
with scheduling and deck options) into a new collection in a temporary directory, which is
then read back:

    package   the zip's entries, which collection file it has, the meta version, the media map
              (read directly, never extracted; decompression is capped)
    import    ok / error, and the import log's counts (new, updated, duplicate, ...)
    decks     full names ("A::B") with their card counts (the empty "Default" deck is left out)
    notetypes name, kind (normal | cloze), field and template names
    notes     id, guid, note type, deck(s) of its cards, fields by name (raw HTML), tags
    cards     id, note id, ord, deck, type, queue, due (with what it means), ivl, factor,
              reps, lapses, left
    revlog    count, count per type, and the rows (cid, ease, ivl, lastIvl, factor, time, type)
    media     files in the new collection's media folder (name, size, sha1)

With --raw there is also "raw": the same tables read with sqlite3 from the package's own
collection file (schema 11 or 18), without Anki's import (ids, dues and mtimes as stored).

Exit status: 0 imported, 1 the import failed (the JSON says why), 2 bad usage or no such file.
Anki's import shifts the due days of review cards to the new collection's creation day, so
"due" of a review card differs from the package's own value; "due_date" does not.
"""

from __future__ import annotations

import argparse
import collections
import datetime as dt
import hashlib
import json
import os
import shutil
import sqlite3
import sys
import tempfile
import zipfile

MAX_ENTRY = 512 << 20  # bytes we read of one zip entry (or decompressed collection) at most

CARD_TYPES = {0: "new", 1: "learning", 2: "review", 3: "relearning"}
QUEUES = {0: "new", 1: "learning", 2: "review", 3: "day-learning", 4: "preview",
          -1: "suspended", -2: "sched-buried", -3: "user-buried"}
REVLOG_TYPES = {0: "learn", 1: "review", 2: "relearn", 3: "filtered", 4: "manual", 5: "rescheduled"}


# ---------------------------------------------------------------------------------------------
# reading the package directly


def _read_capped(z: zipfile.ZipFile, info: zipfile.ZipInfo, cap: int = MAX_ENTRY) -> bytes:
    if info.file_size > cap:
        raise ValueError(f"{info.filename}: declared size {info.file_size} over {cap}")
    out = bytearray()
    with z.open(info) as f:
        while True:
            chunk = f.read(1 << 20)
            if not chunk:
                break
            out += chunk
            if len(out) > cap:
                raise ValueError(f"{info.filename}: inflates past {cap} bytes")
    return bytes(out)


def _zstd(data: bytes, cap: int = MAX_ENTRY) -> bytes:
    import zstandard
    obj = zstandard.ZstdDecompressor().decompressobj()
    out = obj.decompress(data)
    if len(out) > cap:
        raise ValueError("zstd data inflates past the cap")
    if not obj.eof:
        raise ValueError("zstd frame is truncated")
    return out


def _pb_fields(data: bytes) -> list[tuple[int, int, object]]:
    """A minimal protobuf walk: [(field number, wire type, int | bytes)]."""
    out, i = [], 0

    def varint() -> int:
        nonlocal i
        shift = value = 0
        while True:
            b = data[i]
            i += 1
            value |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                return value
    while i < len(data):
        key = varint()
        num, wt = key >> 3, key & 7
        if wt == 0:
            out.append((num, wt, varint()))
        elif wt == 2:
            n = varint()
            out.append((num, wt, data[i:i + n]))
            i += n
        elif wt == 1:
            out.append((num, wt, data[i:i + 8]))
            i += 8
        elif wt == 5:
            out.append((num, wt, data[i:i + 4]))
            i += 4
        else:
            raise ValueError(f"protobuf wire type {wt}")
    return out


def inspect_package(path: str) -> dict:
    info: dict = {"entries": []}
    with zipfile.ZipFile(path) as z:
        for e in z.infolist():
            info["entries"].append({"name": e.filename, "size": e.file_size,
                                    "compressed": e.compress_size, "method": e.compress_type})
        names = set(z.namelist())
        for cand in ("collection.anki21b", "collection.anki21", "collection.anki2"):
            if cand in names:
                info["collection"] = cand
                break
        meta = None
        if "meta" in names:
            raw = _read_capped(z, z.getinfo("meta"), 1 << 16)
            meta = dict((n, v) for n, _, v in _pb_fields(raw)).get(1, 0)
        info["meta_version"] = meta
        media = []
        if "media" in names:
            raw = _read_capped(z, z.getinfo("media"), 64 << 20)
            if raw.startswith(b"\x28\xb5\x2f\xfd"):  # new format: zstd(protobuf MediaEntries)
                info["media_map_format"] = "zstd+protobuf"
                for num, _, entry in _pb_fields(_zstd(raw, 64 << 20)):
                    if num != 1:
                        continue
                    fields = {n: v for n, _, v in _pb_fields(entry)}
                    media.append({"index": str(len(media)),
                                  "name": fields.get(1, b"").decode("utf-8", "replace"),
                                  "size": fields.get(2, 0),
                                  "sha1": fields.get(3, b"").hex()})
            else:
                info["media_map_format"] = "json"
                for idx, name in sorted(json.loads(raw or b"{}").items(), key=lambda kv: int(kv[0])):
                    entry = {"index": idx, "name": name}
                    if idx in names:
                        entry["size"] = z.getinfo(idx).file_size
                    media.append(entry)
        info["media"] = media
    return info


def _unicase(a: str, b: str) -> int:
    a, b = a.casefold(), b.casefold()
    return (a > b) - (a < b)


def read_raw(path: str) -> dict:
    """The package's own collection read with sqlite3 (schema 11 or 18)."""
    with zipfile.ZipFile(path) as z:
        names = set(z.namelist())
        for cand in ("collection.anki21b", "collection.anki21", "collection.anki2"):
            if cand in names:
                break
        else:
            raise ValueError("no collection file in the package")
        data = _read_capped(z, z.getinfo(cand))
    if cand.endswith("b"):
        data = _zstd(data)
    tmp = tempfile.mkdtemp(prefix="anki-check-raw.")
    try:
        dbpath = os.path.join(tmp, "c.db")
        with open(dbpath, "wb") as f:
            f.write(data)
        db = sqlite3.connect(dbpath)
        db.create_collation("unicase", _unicase)  # schema 18 declares columns COLLATE unicase
        ver = db.execute("select ver from col").fetchone()[0]
        out: dict = {"file": cand, "schema": ver,
                     "crt": db.execute("select crt from col").fetchone()[0]}
        if ver >= 15:
            from anki import notetypes_pb2
            decks = {i: n.replace("\x1f", "::") for i, n in db.execute("select id, name from decks")}
            notetypes = {}
            for ntid, name, cfg in db.execute("select id, name, config from notetypes"):
                conf = notetypes_pb2.Notetype.Config()
                conf.ParseFromString(cfg)
                fields = [r[0] for r in db.execute(
                    "select name from fields where ntid = ? order by ord", (ntid,))]
                templates = [r[0] for r in db.execute(
                    "select name from templates where ntid = ? order by ord", (ntid,))]
                notetypes[ntid] = {"name": name, "kind": "cloze" if conf.kind == 1 else "normal",
                                   "fields": fields, "templates": templates}
        else:
            decks = {int(k): v["name"] for k, v in
                     json.loads(db.execute("select decks from col").fetchone()[0]).items()}
            notetypes = {int(k): {"name": v["name"], "kind": "cloze" if v.get("type") == 1 else "normal",
                                  "fields": [f["name"] for f in sorted(v["flds"], key=lambda f: f["ord"])],
                                  "templates": [t["name"] for t in sorted(v["tmpls"], key=lambda t: t["ord"])]}
                         for k, v in json.loads(db.execute("select models from col").fetchone()[0]).items()}
        out["decks"] = {name: db.execute("select count(*) from cards where did = ?", (did,)).fetchone()[0]
                        for did, name in sorted(decks.items(), key=lambda kv: kv[1])}
        out["notetypes"] = [dict(id=k, **v) for k, v in sorted(notetypes.items())]
        out["notes"] = []
        for nid, guid, mid, mod, tags, flds in db.execute(
                "select id, guid, mid, mod, tags, flds from notes order by id"):
            nt = notetypes.get(mid, {"name": None, "fields": []})
            values = flds.split("\x1f")
            out["notes"].append({"id": nid, "guid": guid, "notetype": nt["name"], "mod": mod,
                                 "fields": values, "field_names": nt["fields"],
                                 "tags": tags.split()})
        out["cards"] = [dict(zip(("id", "nid", "deck", "ord", "mod", "type", "queue", "due", "ivl",
                                  "factor", "reps", "lapses", "left", "odue", "odid", "flags", "data"),
                                 (r[0], r[1], decks.get(r[2], r[2])) + tuple(r[3:])))
                        for r in db.execute("select id, nid, did, ord, mod, type, queue, due, ivl, "
                                            "factor, reps, lapses, left, odue, odid, flags, data "
                                            "from cards order by id")]
        rows = db.execute("select id, cid, usn, ease, ivl, lastIvl, factor, time, type "
                          "from revlog order by id").fetchall()
        out["revlog"] = {"count": len(rows),
                         "by_type": dict(sorted(collections.Counter(
                             REVLOG_TYPES.get(r[8], str(r[8])) for r in rows).items())),
                         "rows": [dict(zip(("id", "cid", "usn", "ease", "ivl", "lastIvl", "factor",
                                            "time", "type"), r)) for r in rows]}
        db.close()
        return out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# importing with Anki


def _due(col, card) -> dict:
    if card.queue in (1, 4) or (card.queue < 0 and card.type in (1, 3) and card.due > 1_000_000_000):
        when = dt.datetime.fromtimestamp(card.due, dt.timezone.utc)
        return {"due_kind": "timestamp", "due_date": when.strftime("%Y-%m-%dT%H:%M:%SZ")}
    if card.type == 0:
        return {"due_kind": "position"}
    day = dt.datetime.fromtimestamp(col.crt, dt.timezone.utc) + dt.timedelta(days=card.due)
    return {"due_kind": "day", "due_date": day.strftime("%Y-%m-%d")}


def import_and_read(path: str) -> tuple[dict, bool]:
    from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest

    out: dict = {}
    tmp = tempfile.mkdtemp(prefix="anki-check.")
    col = None
    try:
        col = Collection(os.path.join(tmp, "collection.anki2"))
        # A new collection has the stock note types ("Basic", "Cloze", ...); an imported note
        # type with the same name but another id would be renamed "Basic+". Give the stock
        # ones names no package uses, so the names reported are the package's own.
        for entry in col.models.all_names_and_ids():
            stock = col.models.get(entry.id)
            stock["name"] = f"(anki_check stock) {stock['name']}"
            col.models.update_dict(stock)
        request = ImportAnkiPackageRequest(
            package_path=os.path.abspath(path),
            options=ImportAnkiPackageOptions(with_scheduling=True, with_deck_configs=True,
                                             merge_notetypes=False))
        try:
            result = col.import_anki_package(request)
        except Exception as e:  # anki.errors.* and anything the backend raises
            out["import"] = {"ok": False, "error": f"{type(e).__name__}: {e}"}
            return out, False
        log = result.log
        out["import"] = {"ok": True, "log": {
            name: len(getattr(log, name)) for name in
            ("new", "updated", "duplicate", "conflicting", "first_field_match",
             "missing_notetype", "missing_deck", "empty_first_field")}}
        out["import"]["log"]["found_notes"] = log.found_notes

        decks = {d.id: d.name for d in col.decks.all_names_and_ids()}
        counts = collections.Counter(did for (did,) in col.db.all("select did from cards"))
        out["decks"] = [{"name": name, "id": did, "cards": counts.get(did, 0)}
                        for did, name in sorted(decks.items(), key=lambda kv: kv[1])
                        if not (did == 1 and counts.get(did, 0) == 0)]

        used = {mid for (mid,) in col.db.all("select distinct mid from notes")}
        notetypes = {}
        for ntid in sorted(used):
            m = col.models.get(ntid)
            notetypes[ntid] = m
        out["notetypes"] = [{"name": m["name"], "kind": "cloze" if m["type"] == 1 else "normal",
                             "fields": [f["name"] for f in m["flds"]],
                             "templates": [t["name"] for t in m["tmpls"]]}
                            for m in notetypes.values()]

        out["notes"] = []
        for (nid,) in col.db.all("select id from notes order by id"):
            note = col.get_note(nid)
            m = notetypes[note.mid]
            card_decks = sorted({decks.get(c.did, str(c.did)) for c in note.cards()})
            out["notes"].append({
                "id": note.id, "guid": note.guid, "notetype": m["name"], "decks": card_decks,
                "fields": {f["name"]: note.fields[i] for i, f in enumerate(m["flds"])},
                "tags": list(note.tags)})

        out["cards"] = []
        for (cid,) in col.db.all("select id from cards order by id"):
            c = col.get_card(cid)
            entry = {"id": c.id, "nid": c.nid, "ord": c.ord, "deck": decks.get(c.did, str(c.did)),
                     "type": c.type, "type_name": CARD_TYPES.get(c.type, str(c.type)),
                     "queue": c.queue, "queue_name": QUEUES.get(c.queue, str(c.queue)),
                     "due": c.due, "ivl": c.ivl, "factor": c.factor, "reps": c.reps,
                     "lapses": c.lapses, "left": c.left}
            entry.update(_due(col, c))
            out["cards"].append(entry)

        rows = col.db.all("select id, cid, ease, ivl, lastIvl, factor, time, type from revlog order by id")
        out["revlog"] = {
            "count": len(rows),
            "by_type": dict(sorted(collections.Counter(REVLOG_TYPES.get(r[7], str(r[7])) for r in rows).items())),
            "rows": [dict(zip(("id", "cid", "ease", "ivl", "lastIvl", "factor", "time", "type"), r))
                     for r in rows]}

        media_dir = col.media.dir()
        out["media"] = []
        for name in sorted(os.listdir(media_dir)):
            p = os.path.join(media_dir, name)
            if os.path.isfile(p):
                with open(p, "rb") as f:
                    data = f.read()
                out["media"].append({"name": name, "size": len(data),
                                     "sha1": hashlib.sha1(data).hexdigest()})
        return out, True
    finally:
        if col is not None:
            try:
                col.close()
            except Exception:
                pass
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser(description="Import an .apkg with the real Anki backend and print JSON.")
    ap.add_argument("file", help="the .apkg to check")
    ap.add_argument("--raw", action="store_true",
                    help="also read the package's collection directly with sqlite3")
    ap.add_argument("--no-rows", action="store_true", help="leave out the revlog rows")
    args = ap.parse_args()
    if not os.path.isfile(args.file):
        print(json.dumps({"file": args.file, "error": "no such file"}))
        return 2

    result: dict = {"file": os.path.basename(args.file)}
    try:
        result["package"] = inspect_package(args.file)
    except Exception as e:
        result["package"] = {"error": f"{type(e).__name__}: {e}"}
    imported, ok = import_and_read(args.file)
    result.update(imported)
    if args.raw:
        try:
            result["raw"] = read_raw(args.file)
        except Exception as e:
            result["raw"] = {"error": f"{type(e).__name__}: {e}"}
    if args.no_rows:
        for part in (result, result.get("raw", {})):
            if isinstance(part.get("revlog"), dict):
                part["revlog"].pop("rows", None)
    json.dump(result, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
