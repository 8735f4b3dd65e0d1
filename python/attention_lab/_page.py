"""The lab as one self-contained HTML document, and as an output cell's iframe of it.

The document is the site's own page (index.html, with its page-tools.js and load.js inlined)
carrying the app (attention-lab.js and .wasm, gzip-compressed, base64) and the data, which
boot.js unpacks in the browser: nothing is fetched, so a notebook exported to HTML, or a course
page built from it, works from a file and offline, and each output stands alone.
"""

import base64
import functools
import gzip
import html
import importlib.resources
import json
import re

import numpy as np

def _site_file(name):
    path = importlib.resources.files(__package__) / "site" / name
    if not path.is_file():
        raise FileNotFoundError(f"attention_lab: the package has no site/{name}; it is copied in by "
                                "scripts/build.sh web (run it, then reinstall the package)")
    return path.read_bytes()


def pack(data):
    """gzip, then base64: what boot.js's unpack() reads (with DecompressionStream)."""
    return base64.b64encode(gzip.compress(data, compresslevel=9, mtime=0)).decode("ascii")


@functools.lru_cache(maxsize=None)
def _app():
    """The compressed app, made once per process (compressing 2 MB takes a moment)."""
    return {"app": pack(_site_file("attention-lab.js")), "wasm": pack(_site_file("attention-lab.wasm"))}


def _tensor(a):
    kind = "bool" if a.dtype == np.bool_ else "float32"
    data = np.ascontiguousarray(a, dtype="u1" if kind == "bool" else "<f4").tobytes()
    return {"shape": list(a.shape), "dtype": kind, "data": pack(data)}


def payload(data, state, name):
    """boot.js's payload for a checked Data (_inputs.py) and the state keys to set."""
    request = {}
    if data.scale is not None:
        request["scale"] = data.scale
    if data.causal:
        request["causal"] = data.causal
    tensors = {"q": _tensor(data.q), "k": _tensor(data.k), "v": _tensor(data.v)}
    if data.mask is not None:
        tensors["mask"] = _tensor(data.mask)
    tokens = {}
    if data.query_tokens is not None:
        tokens["queries"] = data.query_tokens
    if data.key_tokens is not None:
        tokens["keys"] = data.key_tokens
    options = {"head": data.head, "name": name}
    if data.layered:
        options["layer"] = data.layer
    if tokens:
        options["tokens"] = tokens
    # q, k, v have a layers axis first: boot.js loads {"layers": [request, ...]} where layers
    # were given as lists, else the one layer's request.
    return {**_app(), "layered": data.layered, "request": request, "tensors": tensors, "options": options,
            "state": state}


def _inline_script(match):
    text = _site_file(match.group(1)).decode("utf-8")
    if "</script" in text.lower():
        raise ValueError(f"site/{match.group(1)} holds '</script' and cannot be inlined")
    return f"<script>\n{text}</script>"


def document(payload_object):
    """The page with its scripts inlined and boot.js first, before anything of index.html."""
    page = _site_file("index.html").decode("utf-8")
    page = re.sub(r'<script src="([\w.-]+\.js)"></script>', _inline_script, page)
    # In a <script> element, "</" could end it early (a token such as "</s>").
    data = json.dumps(payload_object, separators=(",", ":")).replace("</", "<\\/")
    boot = (importlib.resources.files(__package__) / "boot.js").read_text(encoding="utf-8")
    head = f'<script type="application/json" id="lab-payload">{data}</script>\n<script>\n{boot}</script>\n'
    charset = '<meta charset="utf-8">\n'
    if charset not in page:
        raise ValueError("site/index.html has no '<meta charset=\"utf-8\">' to place the payload after")
    return page.replace(charset, charset + head, 1)


def iframe(doc, height, title):
    """An output cell's view of the document: an iframe of its own (no shared globals between
    outputs), given the document as srcdoc, so that no file or server is needed."""
    return (f'<iframe srcdoc="{html.escape(doc, quote=True)}" title="{html.escape(title, quote=True)}" '
            f'style="display:block;width:100%;height:{int(height)}px;border:0;border-radius:8px" '
            'allow="clipboard-write"></iframe>')
