"""Writes the glyphs the notebook outputs' pictures label their axes with (python/attention_lab/
_picture.py): DejaVu Sans, the interface's own font, rasterised here at one small size with
4 × 4 samples a pixel, for printable ASCII and Latin-1 (Spanish and most European tokens). Run
by scripts/build.sh web with Debian's fontTools (python3-fonttools), as the build subsets the
fonts; the package draws the picture without labels where the file is missing.

    python3 scripts/glyph_atlas.py /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf out.json
"""

import json
import math
import sys

from fontTools.pens.basePen import BasePen
from fontTools.ttLib import TTFont

PIXELS = 13       # the font's size: an em in pixels
SAMPLES = 4       # per pixel and axis
CHARACTERS = [chr(c) for c in range(0x20, 0x7F)] + [chr(c) for c in range(0xA1, 0x100)]


class Outline(BasePen):
    """The glyph's contours as closed polygons, curves cut into short segments."""

    def __init__(self, glyph_set, scale):
        super().__init__(glyph_set)
        self.scale, self.contours, self.current = scale, [], []

    def _point(self, p):
        return p[0] * self.scale, p[1] * self.scale

    def _moveTo(self, p):
        self.current = [self._point(p)]

    def _lineTo(self, p):
        self.current.append(self._point(p))

    def _curveToOne(self, p1, p2, p3):
        (x0, y0), pts = self.current[-1], [self._point(p) for p in (p1, p2, p3)]
        for i in range(1, 9):
            t = i / 8
            a, b, c, d = (1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t * t, t ** 3
            self.current.append((a * x0 + b * pts[0][0] + c * pts[1][0] + d * pts[2][0],
                                 a * y0 + b * pts[0][1] + c * pts[1][1] + d * pts[2][1]))

    def _qCurveToOne(self, p1, p2):
        (x0, y0), (x1, y1), (x2, y2) = self.current[-1], self._point(p1), self._point(p2)
        for i in range(1, 7):
            t = i / 6
            self.current.append(((1 - t) ** 2 * x0 + 2 * (1 - t) * t * x1 + t * t * x2,
                                 (1 - t) ** 2 * y0 + 2 * (1 - t) * t * y1 + t * t * y2))

    def _closePath(self):
        if len(self.current) > 2:
            self.contours.append(self.current)
        self.current = []

    _endPath = _closePath


def coverage(contours, width, height, ascent):
    """Each pixel's share of samples inside the outline (non-zero winding), 0 to 255, rows from
    the top; y grows upwards in the font, from the baseline `ascent` pixels below the top."""
    rows = []
    for row in range(height):
        counts = [0] * width
        for sy in range(SAMPLES):
            y = ascent - (row + (sy + 0.5) / SAMPLES)
            crossings = []  # (x, direction) where an edge crosses the sample line
            for contour in contours:
                for (xa, ya), (xb, yb) in zip(contour, contour[1:] + contour[:1]):
                    if (ya <= y < yb) or (yb <= y < ya):
                        crossings.append((xa + (y - ya) * (xb - xa) / (yb - ya), 1 if yb > ya else -1))
            crossings.sort()
            for sx in range(width * SAMPLES):
                x, winding = (sx + 0.5) / SAMPLES, 0
                for cx, direction in crossings:
                    if cx > x:
                        break
                    winding += direction
                if winding:
                    counts[sx // SAMPLES] += 1
        rows.append([min(255, round(c * 255 / SAMPLES ** 2)) for c in counts])
    return rows


def main(font_path, out_path):
    font = TTFont(font_path)
    scale = PIXELS / font["head"].unitsPerEm
    ascent = math.ceil(font["hhea"].ascent * scale)
    height = ascent + math.ceil(-font["hhea"].descent * scale)
    glyph_set, cmap = font.getGlyphSet(), font.getBestCmap()
    glyphs = {}
    for ch in CHARACTERS:
        name = cmap.get(ord(ch))
        if name is None:
            continue
        width = max(1, round(font["hmtx"][name][0] * scale))
        pen = Outline(glyph_set, scale)
        glyph_set[name].draw(pen)
        glyphs[ch] = {"width": width, "rows": "".join(f"{v:02x}" for row in coverage(pen.contours, width, height, ascent)
                                                      for v in row)}
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump({"font": "DejaVu Sans", "pixels": PIXELS, "height": height, "glyphs": glyphs}, f,
                  ensure_ascii=False, separators=(",", ":"))


if __name__ == "__main__":
    main(*sys.argv[1:])
