#!/usr/bin/env python3
"""Draws the PWA icons (Public/assets/icons/*.png) with Pillow, matching Public/assets/icons/logo.svg.

Run from the repository root: `python3 scripts/make-icons.py` (needs `pip install pillow`).
The PNGs are committed; rerun only when the logo changes.
"""

from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parent.parent / "Public" / "assets" / "icons"
TOP, BOTTOM = (0x10, 0xB9, 0x81), (0x04, 0x78, 0x57)
CHECK = (0x05, 0x96, 0x69, 255)
SS = 4  # supersampling factor for smooth edges


def gradient(size: int) -> Image.Image:
    """Diagonal emerald gradient, like the SVG's linearGradient."""
    img = Image.new("RGBA", (size, size))
    px = img.load()
    for y in range(size):
        for x in range(size):
            f = (x + y) / (2 * (size - 1))
            px[x, y] = tuple(round(a + (b - a) * f) for a, b in zip(TOP, BOTTOM)) + (255,)
    return img


def draw_icon(size: int, maskable: bool) -> Image.Image:
    big = size * SS
    # Work in the SVG's 64-unit space; maskable icons keep the motif inside the 80 % safe zone.
    scale = big / 64 * (0.78 if maskable else 1.0)
    offset = (big - 64 * scale) / 2

    def box(x, y, w, h):
        return [offset + x * scale, offset + y * scale, offset + (x + w) * scale, offset + (y + h) * scale]

    background = gradient(big)
    mask = Image.new("L", (big, big), 0)
    if maskable:
        mask.paste(255, (0, 0, big, big))
    else:
        ImageDraw.Draw(mask).rounded_rectangle([0, 0, big - 1, big - 1], radius=16 * big / 64, fill=255)
    icon = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    icon.paste(background, (0, 0), mask)

    back = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    ImageDraw.Draw(back).rounded_rectangle(box(12, 16, 32, 23), radius=5 * scale, fill=(255, 255, 255, 115))
    cx, cy = offset + 28 * scale, offset + 27.5 * scale
    back = back.rotate(10, resample=Image.BICUBIC, center=(cx, cy))
    icon.alpha_composite(back)

    draw = ImageDraw.Draw(icon)
    draw.rounded_rectangle(box(20, 24, 32, 23), radius=5 * scale, fill=(255, 255, 255, 255))
    points = [(29, 35.5), (33.5, 40), (42.5, 31)]
    pts = [(offset + x * scale, offset + y * scale) for x, y in points]
    width = round(3.6 * scale)
    draw.line(pts, fill=CHECK, width=width, joint="curve")
    r = width / 2
    for x, y in (pts[0], pts[-1]):
        draw.ellipse([x - r, y - r, x + r, y + r], fill=CHECK)
    return icon.resize((size, size), Image.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        draw_icon(size, maskable=False).save(OUT / f"icon-{size}.png", optimize=True)
        draw_icon(size, maskable=True).save(OUT / f"icon-maskable-{size}.png", optimize=True)
    # iOS draws its own rounded corners and shows transparency as black: full-bleed background.
    draw_icon(180, maskable=True).save(OUT / "apple-touch-icon.png", optimize=True)
    print("icons written to", OUT)


if __name__ == "__main__":
    main()
