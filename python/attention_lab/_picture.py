"""A still picture of a lab, for where its scripts cannot run: an untrusted notebook, GitHub's
and nbviewer's renderers, which strip scripts and iframes. It is the shown head's attention
weights (the first sequence's) as a PNG heatmap, written with the standard library (zlib) so
that the package needs nothing but NumPy, and one line on how to see the live lab.
"""

import base64
import html
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


def heatmap_png(w):
    """The weights as a PNG of square cells, its longer side at most _PLOT_PIXELS (at least one
    pixel a cell)."""
    cell = max(1, min(24, _PLOT_PIXELS // max(w.shape)))
    return png(np.repeat(np.repeat(colours(w), cell, axis=0), cell, axis=1))


def _named(tokens, count):
    if tokens is None:
        return f"0 to {count - 1}"
    shown = ", ".join(tokens[:_MAX_TOKENS])
    return shown + (f", … ({count} in all)" if count > _MAX_TOKENS else "")


def caption(data):
    heads, layers = data.q.shape[2], data.q.shape[0]
    nq, nk = data.q.shape[3], data.k.shape[3]
    where = f"head {data.head} of {heads}" + (f", layer {data.layer} of {layers}" if layers > 1 else "")
    return (f"Attention weights, {where}: rows are queries ({_named(data.query_tokens, nq)}), columns are keys "
            f"({_named(data.key_tokens, nk)}).")


TRUST_LINE = "Trust the notebook, or run the cell, to see the live Attention Lab."


def picture(data):
    """(PNG bytes, the HTML that shows it with its caption and the line on the live lab)."""
    image = heatmap_png(weights(data))
    text = caption(data)
    source = "data:image/png;base64," + base64.b64encode(image).decode("ascii")
    width, height = struct.unpack(">II", image[16:24])
    body = (f'<p><img src="{source}" width="{width}" height="{height}" alt="{html.escape(text, quote=True)}"></p>'
            f"<p>{html.escape(text)} <b>{html.escape(TRUST_LINE)}</b></p>")
    return image, body
