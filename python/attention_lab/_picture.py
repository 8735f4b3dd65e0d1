"""A still picture of a lab, for where its scripts cannot run: an untrusted notebook, GitHub's
and nbviewer's renderers, which strip scripts and iframes. It is the shown head's attention
weights (the first sequence's) as a PNG heatmap with the tokens on its axes, written with the
standard library (zlib) so that the package needs nothing but NumPy, and one line on how to
see the live lab. The labels' glyphs are DejaVu Sans rasterised by the build
(scripts/glyph_atlas.py: site/glyphs.json); without that file the heatmap has no labels.
"""

import base64
import functools
import html
import importlib.resources
import json
import math
import struct
import zlib

import numpy as np

# Viridis at nine evenly spaced points (matplotlib's table), interpolated linearly: dark for
# small weights, yellow for large ones, readable in grey too.
_VIRIDIS = np.array([(68, 1, 84), (71, 44, 122), (59, 81, 139), (44, 113, 142), (33, 144, 141),
                     (39, 173, 129), (92, 200, 99), (170, 220, 50), (253, 231, 37)], dtype=np.float64)
_MASKED = (214, 214, 214)  # a removed cell: no weight at all
_PLOT_PIXELS = 320        # the longer side of the heatmap, at most
_MAX_TOKENS = 16          # tokens named in the caption, per axis
_LABEL_PIXELS = 72        # a label's length at most; longer ones are cut, ending in "…" or "."
_INK = 60                 # the labels' grey


def weights(data):
    """softmax(q kᵀ · scale) over the allowed keys, in float64, for the shown layer and head of
    the first sequence: (n_q, n_k), NaN where a cell is removed."""
    q = data.q[data.layer, 0, data.head].astype(np.float64)
    kv_head = data.head // (data.q.shape[2] // data.k.shape[2])  # grouped-query attention
    k = data.k[data.layer, 0, kv_head].astype(np.float64)
    nq, nk = q.shape[0], k.shape[0]
    scale = data.scale if data.scale is not None else q.shape[1] ** -0.5
    allowed = np.ones((nq, nk), bool)
    if data.mask is not None:
        allowed &= np.broadcast_to(data.mask, (data.mask.shape[0], data.q.shape[2], nq, nk))[0, data.head]
    if data.causal:
        offset = nk - nq if data.causal == "bottom_right" else 0
        allowed &= np.arange(nk)[None, :] <= np.arange(nq)[:, None] + offset
    s = np.where(allowed, q @ k.T * scale, -np.inf)
    top = np.max(s, axis=1, keepdims=True)
    e = np.where(allowed, np.exp(s - np.where(np.isfinite(top), top, 0)), 0)
    total = e.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(allowed, e / total, np.nan)


def colours(w):
    """(n_q, n_k, 3) bytes: viridis over 0…1, grey where removed."""
    t = np.clip(np.nan_to_num(w, nan=0.0), 0, 1) * (len(_VIRIDIS) - 1)
    low = np.minimum(t.astype(int), len(_VIRIDIS) - 2)
    f = (t - low)[..., None]
    rgb = _VIRIDIS[low] * (1 - f) + _VIRIDIS[low + 1] * f
    rgb[np.isnan(w)] = _MASKED
    return np.rint(rgb).astype(np.uint8)


def png(rgb):
    """An RGB PNG of a (height, width, 3) uint8 image (the format's IHDR, IDAT, IEND chunks)."""
    height, width, _ = rgb.shape

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    rows = np.concatenate([np.zeros((height, 1), np.uint8), rgb.reshape(height, width * 3)], axis=1)  # filter 0
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(rows.tobytes(), 9)) + chunk(b"IEND", b""))


@functools.lru_cache(maxsize=None)
def _glyphs():
    path = importlib.resources.files(__package__) / "site" / "glyphs.json"
    if not path.is_file():
        return None
    atlas = json.loads(path.read_text(encoding="utf-8"))
    height = atlas["height"]
    return height, {ch: np.frombuffer(bytes.fromhex(g["rows"]), np.uint8).reshape(height, g["width"])
                    for ch, g in atlas["glyphs"].items()}


def text_coverage(text, glyphs):
    """A label's ink, 0 to 255, (height, width): its characters side by side ('?' for one the
    atlas lacks), cut to _LABEL_PIXELS."""
    height, table = glyphs
    marks = [table.get(ch, table["?"]) for ch in text]
    if sum(m.shape[1] for m in marks) > _LABEL_PIXELS:
        end = table.get("…", table["."])
        while marks and sum(m.shape[1] for m in marks) + end.shape[1] > _LABEL_PIXELS:
            marks.pop()
        marks.append(end)
    return np.concatenate(marks, axis=1) if marks else np.zeros((height, 0), np.uint8)


def shown_labels(count, line, cell):
    """Every label when a line of text fits a cell, else every k-th and the last (which replaces
    the k-th before it when they would touch)."""
    k = max(1, math.ceil(line / cell))
    shown = list(range(0, count, k))
    if shown[-1] != count - 1:
        if count - 1 - shown[-1] < k and len(shown) > 1:
            shown[-1] = count - 1
        else:
            shown.append(count - 1)
    return shown


def heatmap_png(w, row_labels=None, col_labels=None):
    """The weights as a PNG of square cells, the longer side at most _PLOT_PIXELS (at least one
    pixel a cell), with the rows' labels on the left and the columns' above, turned to read
    upwards, where the glyphs are at hand."""
    cell = max(1, min(24, _PLOT_PIXELS // max(w.shape)))
    plot = np.repeat(np.repeat(colours(w), cell, axis=0), cell, axis=1)
    glyphs = _glyphs()
    if glyphs is None or row_labels is None or col_labels is None:
        return png(plot)
    line = glyphs[0]
    rows = {i: text_coverage(row_labels[i], glyphs) for i in shown_labels(len(row_labels), line, cell)}
    cols = {j: np.rot90(text_coverage(col_labels[j], glyphs)) for j in shown_labels(len(col_labels), line, cell)}
    gap = 4
    left = max(m.shape[1] for m in rows.values()) + gap
    top = max(m.shape[0] for m in cols.values()) + gap
    ink = np.zeros((top + plot.shape[0], left + plot.shape[1]), np.float64)
    for i, m in rows.items():
        y = top + i * cell + (cell - m.shape[0]) // 2
        y = min(max(y, 0), ink.shape[0] - m.shape[0])
        ink[y:y + m.shape[0], left - gap - m.shape[1]:left - gap] = m
    for j, m in cols.items():
        x = left + j * cell + (cell - m.shape[1]) // 2
        x = min(max(x, 0), ink.shape[1] - m.shape[1])
        ink[top - gap - m.shape[0]:top - gap, x:x + m.shape[1]] = m
    image = np.rint(255 - ink[..., None] * (255 - _INK) / 255).astype(np.uint8).repeat(3, axis=2)
    image[top:, left:] = plot
    return png(image)


# The picture's words, in the language the lab was asked for (lang="es"; English otherwise, as
# "auto" cannot know the reader's browser here).
WORDS = {
    "en": {"range": "{first} to {last}", "in_all": "{count} in all", "head": "head {head} of {heads}",
           "layer": ", layer {layer} of {layers}",
           "caption": "Attention weights, {where}: rows are queries ({queries}), columns are keys ({keys}).",
           "trust": "Trust the notebook, or run the cell, to see the live Attention Lab."},
    "es": {"range": "{first} a {last}", "in_all": "{count} en total", "head": "cabeza {head} de {heads}",
           "layer": ", capa {layer} de {layers}",
           "caption": "Pesos de atención, {where}: las filas son las consultas ({queries}), las columnas las claves "
                      "({keys}).",
           "trust": "Confía en el cuaderno (Trust Notebook), o ejecuta la celda, para ver Attention Lab en vivo."},
}


def _named(tokens, count, words):
    if tokens is None:
        return words["range"].format(first=0, last=count - 1)
    shown = ", ".join(tokens[:_MAX_TOKENS])
    return shown + (", … (" + words["in_all"].format(count=count) + ")" if count > _MAX_TOKENS else "")


def caption(data, words):
    heads, layers = data.q.shape[2], data.q.shape[0]
    nq, nk = data.q.shape[3], data.k.shape[3]
    where = words["head"].format(head=data.head, heads=heads)
    if layers > 1:
        where += words["layer"].format(layer=data.layer, layers=layers)
    return words["caption"].format(where=where, queries=_named(data.query_tokens, nq, words),
                                   keys=_named(data.key_tokens, nk, words))


def picture(data, lang=None):
    """(PNG bytes, the HTML that shows it with its caption and the line on the live lab)."""
    words = WORDS.get(lang, WORDS["en"])
    nq, nk = data.q.shape[3], data.k.shape[3]
    image = heatmap_png(weights(data), data.query_tokens or [str(i) for i in range(nq)],
                        data.key_tokens or [str(j) for j in range(nk)])
    text = caption(data, words)
    source = "data:image/png;base64," + base64.b64encode(image).decode("ascii")
    width, height = struct.unpack(">II", image[16:24])
    body = (f'<p><img src="{source}" width="{width}" height="{height}" alt="{html.escape(text, quote=True)}"></p>'
            f"<p>{html.escape(text)} <b>{html.escape(words['trust'])}</b></p>")
    return image, body
