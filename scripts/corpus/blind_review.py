#!/usr/bin/env python3
"""A blind review of generated drafts with the rubric of Kirkby & Matuschak's study of
machine-made review prompts (issue 37).

  blind_review.py packet --notes DIR --key KEY.json --drafts DIR --out DIR
      writes one review sheet per note (the note, its drafts numbered in a shuffled order
      without the rule that made them, its key items) and an empty ratings file to fill in;
  blind_review.py score --packet DIR
      reads the filled-in ratings and prints the figures: usable share (ready + polish), the
      share of key items on a usable draft, defect classes, repeats;
  blind_review.py replay --packet DIR [--packet DIR …] --drafts DIR
      for development on a spent (no longer held-out) set: looks up each new draft's ratings in
      earlier reviews of the same notes by its exact text, prints the usable share of the drafts
      reviewed before, the drafts a change removed (with their ratings) and the new ones to judge.

The drafts come from `flashcards generate NOTE --json`. A reviewer fills in `ratings.json`:
for each note, per draft number a rating (`ready`, `polish`, `refactor`, `off-target`), an
optional defect class (1-8, as issue 37 numbers them) and `repeat: true` when it asks what an
earlier draft asked; per key item the numbers of the usable drafts that teach it.
"""
import argparse
import json
import pathlib
import random
import re
import sys

RATINGS = ("ready", "polish", "refactor", "off-target")


def packet(args):
    notes = pathlib.Path(args.notes)
    key = json.loads(pathlib.Path(args.key).read_text())
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    ratings = {}
    hidden = {}
    for document in key["documents"]:
        name = pathlib.Path(document["source"]).stem
        drafts = json.loads((pathlib.Path(args.drafts) / f"{name}.json").read_text())
        order = list(range(len(drafts)))
        rng.shuffle(order)
        items = [f"definition: {d['term']} — {', '.join(d['keywords'])}" for d in document.get("definitions", [])]
        items += [f"{f['kind']}: {' / '.join(f['cue'])} — {', '.join(f['keywords'])}" for f in document.get("facts", [])]
        lines = [f"# Review sheet: {name}", "", "## The note", "", (notes / document["source"]).read_text(), "",
                 "## Drafts", ""]
        for number, index in enumerate(order, start=1):
            draft = drafts[index]
            lines += [f"{number}. Q: {draft['question']}", f"   A: {draft['answer']}", ""]
        lines += ["## Key items (what a student must learn)", ""]
        lines += [f"K{number}. {item}" for number, item in enumerate(items, start=1)]
        (out / f"{name}.md").write_text("\n".join(lines) + "\n")
        ratings[name] = {
            "drafts": {str(n): {"rating": None, "defect": None, "repeat": False} for n in range(1, len(drafts) + 1)},
            "keyItems": {f"K{n}": [] for n in range(1, len(items) + 1)},
        }
        hidden[name] = {str(n): drafts[i].get("kind") for n, i in enumerate(order, start=1)}
    (out / "ratings.json").write_text(json.dumps(ratings, indent=2, ensure_ascii=False) + "\n")
    # Which rule made each draft, for the figures after the review; the reviewer does not open it.
    (out / ".kinds.json").write_text(json.dumps(hidden, indent=2) + "\n")
    print(f"{len(ratings)} sheets in {out}")


def score(args):
    folder = pathlib.Path(args.packet)
    ratings = json.loads((folder / "ratings.json").read_text())
    kinds_file = folder / ".kinds.json"
    kinds = json.loads(kinds_file.read_text()) if kinds_file.exists() else {}
    total = usable = items = covered = repeats = 0
    defects = {}
    by_kind = {}
    for name, sheet in ratings.items():
        drafts = sheet["drafts"]
        good = {n for n, r in drafts.items() if r["rating"] in ("ready", "polish")}
        missing = [n for n, r in drafts.items() if r["rating"] not in RATINGS]
        if missing:
            sys.exit(f"{name}: drafts {', '.join(missing)} have no rating")
        doc_usable = len(good)
        doc_items = len(sheet["keyItems"])
        doc_covered = sum(1 for numbers in sheet["keyItems"].values() if any(str(n) in good for n in numbers))
        for n, r in drafts.items():
            if r.get("defect"):
                defects[str(r["defect"])] = defects.get(str(r["defect"]), 0) + 1
            repeats += 1 if r.get("repeat") else 0
            kind = kinds.get(name, {}).get(n, "?")
            entry = by_kind.setdefault(kind, [0, 0])
            entry[0] += 1
            entry[1] += 1 if n in good else 0
        total += len(drafts)
        usable += doc_usable
        items += doc_items
        covered += doc_covered
        print(f"{name:28} drafts {len(drafts):3}  usable {doc_usable:3} ({pct(doc_usable, len(drafts))})"
              f"  key items {doc_covered}/{doc_items} ({pct(doc_covered, doc_items)})")
    print(f"{'all':28} drafts {total:3}  usable {usable:3} ({pct(usable, total)})"
          f"  key items {covered}/{items} ({pct(covered, items)})  repeats {repeats} ({pct(repeats, total)})")
    print("defect classes:", ", ".join(f"{k}: {v}" for k, v in sorted(defects.items())) or "none")
    print("usable by rule:", ", ".join(f"{k} {v[1]}/{v[0]}" for k, v in sorted(by_kind.items())))


def reviewed_drafts(folder):
    """(question, answer) → list of ratings, per note, read from a filled-in packet."""
    ratings = json.loads((folder / "ratings.json").read_text())
    found = {}
    for name, sheet in ratings.items():
        text = (folder / f"{name}.md").read_text()
        numbered = {m[0]: (m[1], m[2]) for m in re.findall(r"^(\d+)\. Q: (.*)\n   A: (.*)$", text, re.M)}
        for number, rating in sheet["drafts"].items():
            found.setdefault(name, {}).setdefault(numbered[number], []).append(rating)
    return found


def replay(args):
    known = {}
    for folder in args.packet:
        for name, drafts in reviewed_drafts(pathlib.Path(folder)).items():
            for pair, ratings in drafts.items():
                known.setdefault(name, {}).setdefault(pair, []).extend(ratings)
    seen = usable = 0.0
    for name in sorted(known):
        drafts = json.loads((pathlib.Path(args.drafts) / f"{name}.json").read_text())
        pairs = [(d["question"], d["answer"]) for d in drafts]
        print(f"== {name}: {len(pairs)} drafts")
        for pair in pairs:
            ratings = known[name].get(pair)
            if ratings is None:
                print(f"  NEW   {pair[0]} → {pair[1]}")
                continue
            good = sum(1 for r in ratings if r["rating"] in ("ready", "polish")) / len(ratings)
            seen += 1
            usable += good
            if good < 1:
                marks = "/".join(f"{r['rating']}:{r.get('defect')}" for r in ratings)
                print(f"  {good:.1f}   {pair[0]} → {pair[1]}   [{marks}]")
        for pair, ratings in known[name].items():
            if pair not in pairs:
                good = sum(1 for r in ratings if r["rating"] in ("ready", "polish")) / len(ratings)
                print(f"  GONE {good:.1f} {pair[0]} → {pair[1]}")
    print(f"reviewed before: {seen:.0f} drafts, usable {pct(usable, seen)}")


def pct(part, whole):
    return f"{100 * part / whole:.0f} %" if whole else "–"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("packet")
    p.add_argument("--notes", required=True)
    p.add_argument("--key", required=True)
    p.add_argument("--drafts", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--seed", type=int, default=37)
    s = sub.add_parser("score")
    s.add_argument("--packet", required=True)
    r = sub.add_parser("replay")
    r.add_argument("--packet", required=True, action="append")
    r.add_argument("--drafts", required=True)
    args = parser.parse_args()
    {"packet": packet, "score": score, "replay": replay}[args.command](args)


if __name__ == "__main__":
    main()
