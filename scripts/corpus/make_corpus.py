#!/usr/bin/env python3
"""Renders the generation test fixtures from the corpus sources.

Writes, into Tests/FlashcardsGenerationTests/Fixtures/:
  corpus/<name>.pdf  multi-page lecture PDFs (running header and footer, words hyphenated
                     across line breaks, glossary in two columns) for every corpus document
                     whose answer-key entry names a "pdf"
  encrypted.pdf      a PDF that needs a user password
  broken.pdf         bytes that start like a PDF but are not one
  blank.pdf          a valid PDF with one empty page (no text at all)
  scanned.pdf        a PDF whose only page is a picture of German text (needs OCR)
  notes.png/.jpg     photos of German lecture notes for OCR

Needs fpdf2 and Pillow (pip install fpdf2 Pillow) and the DejaVu fonts (fonts-dejavu-core).
The output is deterministic: fixed creation dates, no random numbers.
"""
import datetime
import json
import os
import re
import sys

from fpdf import FPDF
from PIL import Image, ImageDraw, ImageFont

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FIXTURES = os.path.join(ROOT, "Tests", "FlashcardsGenerationTests", "Fixtures")
CORPUS = os.path.join(FIXTURES, "corpus")
FONT_DIR = "/usr/share/fonts/truetype/dejavu"
FIXED_DATE = datetime.datetime(2026, 11, 1, 12, 0, 0, tzinfo=datetime.timezone.utc)
VOWELS = set("aeiouäöüyAEIOUÄÖÜY")


def new_pdf():
    pdf = FPDF(format="A5")
    pdf.set_creation_date(FIXED_DATE)
    pdf.add_font("DejaVu", "", os.path.join(FONT_DIR, "DejaVuSans.ttf"))
    pdf.add_font("DejaVu", "B", os.path.join(FONT_DIR, "DejaVuSans-Bold.ttf"))
    pdf.set_auto_page_break(False)
    pdf.set_margins(15, 18, 15)
    return pdf


def split_points(word):
    """Candidate hyphenation points: after a vowel that is followed by a consonant, like 'Spei|chers'."""
    points = []
    for i in range(3, len(word) - 2):
        if word[i - 1] in VOWELS and word[i] not in VOWELS and word[i].isalpha() and word[i - 1].isalpha():
            points.append(i)
    return points


class Renderer:
    """Lays text out line by line so that we control page breaks and hyphenation."""

    def __init__(self, pdf, header, footer):
        self.pdf, self.header, self.footer = pdf, header, footer
        self.pages_text = []
        self.bottom = 210 - 20

    def new_page(self):
        self.pdf.add_page()
        self.pdf.set_font("DejaVu", "", 7)
        self.pdf.set_text_color(110, 110, 110)
        self.pdf.set_xy(15, 8)
        self.pdf.cell(0, 4, self.header)
        self.pdf.set_text_color(0, 0, 0)
        self.pdf.set_xy(15, 18)

    def ensure(self, height):
        if self.pdf.get_y() + height > self.bottom:
            self.new_page()

    def wrap(self, text, width):
        """Greedy line breaking; a word that does not fit is hyphenated when it is long enough."""
        words = text.split()
        lines, line = [], ""
        for word in words:
            candidate = (line + " " + word).strip()
            if self.pdf.get_string_width(candidate) <= width:
                line = candidate
                continue
            broke = False
            if len(word) >= 8 and word.isalpha():
                for point in reversed(split_points(word)):
                    head = (line + " " + word[:point] + "-").strip()
                    if self.pdf.get_string_width(head) <= width:
                        lines.append(head)
                        line = word[point:]
                        broke = True
                        break
            if not broke:
                if line:
                    lines.append(line)
                line = word
        if line:
            lines.append(line)
        return lines

    def paragraph(self, text, size=10.5, style="", indent=0.0, bullet=None):
        self.pdf.set_font("DejaVu", style, size)
        width = 148 - 30 - indent
        height = size * 0.48
        for index, line in enumerate(self.wrap(text, width)):
            self.ensure(height)
            if bullet and index == 0:
                self.pdf.set_x(15 + indent - 4)
                self.pdf.cell(4, height, bullet)
            self.pdf.set_x(15 + indent)
            self.pdf.cell(width, height, line, new_x="LMARGIN", new_y="NEXT")

    def glossary_row(self, term, explanation):
        self.pdf.set_font("DejaVu", "", 9)
        lines = self.wrap(explanation, 118 - 38)
        height = 4.4
        self.ensure(height * len(lines))
        top = self.pdf.get_y()
        self.pdf.set_font("DejaVu", "B", 9)
        self.pdf.set_xy(15, top)
        self.pdf.cell(36, height, term)
        self.pdf.set_font("DejaVu", "", 9)
        for index, line in enumerate(lines):
            self.pdf.set_xy(53, top + index * height)
            self.pdf.cell(80, height, line)
        self.pdf.set_xy(15, top + height * len(lines) + 1.5)

    def space(self, mm):
        self.pdf.set_y(self.pdf.get_y() + mm)

    def finish(self):
        pages = self.pdf.pages_count
        for number in range(1, pages + 1):
            self.pdf.page = number
            self.pdf.set_font("DejaVu", "", 7)
            self.pdf.set_text_color(110, 110, 110)
            self.pdf.set_xy(15, 210 - 12)
            text = self.footer.replace("{page}", str(number)).replace("{pages}", str(pages))
            self.pdf.cell(118, 4, text, align="C")
        self.pdf.set_text_color(0, 0, 0)


def render_markdown(source, target, header, footer):
    pdf = new_pdf()
    renderer = Renderer(pdf, header, footer)
    renderer.new_page()
    in_glossary = False
    paragraph = []

    def flush():
        if paragraph:
            renderer.paragraph(" ".join(paragraph))
            renderer.space(2.2)
            paragraph.clear()

    with open(source, encoding="utf-8") as handle:
        for raw in handle:
            line = raw.rstrip("\n")
            if not line.strip():
                flush()
                continue
            if line.startswith("#"):
                flush()
                level = len(line) - len(line.lstrip("#"))
                title = line.lstrip("#").strip()
                in_glossary = title.lower() in ("glossar", "glossary")
                renderer.ensure(14)
                renderer.space(1.5)
                renderer.paragraph(title, size=13 if level == 1 else 11, style="B")
                renderer.space(1.5)
                continue
            if line.startswith("- "):
                flush()
                renderer.paragraph(line[2:], indent=6, bullet="•")
                continue
            glossary = re.match(r"^([^:]{1,40}):\s+(.*)$", line)
            if in_glossary and glossary:
                flush()
                renderer.glossary_row(glossary.group(1), glossary.group(2))
                continue
            paragraph.append(line.strip())
    flush()
    renderer.finish()
    pdf.output(target)


def render_text_image(lines, size=(1400, 520)):
    font = ImageFont.truetype(os.path.join(FONT_DIR, "DejaVuSans.ttf"), 34)
    image = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(image)
    y = 40
    for line in lines:
        draw.text((50, y), line, fill="black", font=font)
        y += 56
    return image


NOTE_LINES = [
    "Photosynthese",
    "Die Photosynthese ist der Prozess, bei dem Pflanzen",
    "aus Kohlendioxid und Wasser Glucose herstellen.",
    "Chlorophyll ist der grüne Farbstoff der Blätter.",
    "Größere Blätter fangen mehr Licht ein.",
]


def main():
    with open(os.path.join(CORPUS, "answer-key.json"), encoding="utf-8") as handle:
        key = json.load(handle)
    for document in key["documents"]:
        if "pdf" not in document:
            continue
        render_markdown(os.path.join(CORPUS, document["source"]), os.path.join(CORPUS, document["pdf"]),
                        document["header"], document["footer"])

    pdf = new_pdf()
    pdf.add_page()
    pdf.set_font("DejaVu", "", 11)
    pdf.cell(0, 6, "Geheime Notizen: Ein Schlüssel ist ein Geheimnis.")
    pdf.set_encryption(owner_password="owner-secret", user_password="geheim")
    pdf.output(os.path.join(FIXTURES, "encrypted.pdf"))

    with open(os.path.join(FIXTURES, "broken.pdf"), "wb") as handle:
        handle.write(b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n" + b"\x00garbage" * 40)

    pdf = new_pdf()
    pdf.add_page()
    pdf.output(os.path.join(FIXTURES, "blank.pdf"))

    image = render_text_image(NOTE_LINES)
    image.save(os.path.join(FIXTURES, "notes.png"), optimize=True)
    image.save(os.path.join(FIXTURES, "notes.jpg"), quality=85)
    grey = image.convert("L")
    grey.save("/tmp/scanned-page.png")
    pdf = new_pdf()
    pdf.add_page()
    pdf.image("/tmp/scanned-page.png", x=5, y=20, w=138)
    pdf.output(os.path.join(FIXTURES, "scanned.pdf"))
    os.remove("/tmp/scanned-page.png")
    print("fixtures written to", FIXTURES)


if __name__ == "__main__":
    sys.exit(main())
