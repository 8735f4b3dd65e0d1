"""The lab as one self-contained HTML document, and as an output cell's iframe of it.

The document is the site's own page (index.html, with its scripts inlined: boundary.js, page-tools.js,
load.js and page.js)
carrying the app (attention-lab.js and .wasm, gzip-compressed, in base 85) and the data, which
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
import uuid

import numpy as np

def _site_file(name):
    path = importlib.resources.files(__package__) / "site" / name
    if not path.is_file():
        raise FileNotFoundError(f"attention_lab: the package has no site/{name}; it is copied in by "
                                "scripts/build.sh web (run it, then reinstall the package)")
    return path.read_bytes()


# Base 85 (Python's b85 alphabet) with its '&', '<' and '>' swapped for ',', '.' and ':', which
# neither HTML (the iframe's srcdoc, a <script>) nor JSON escapes: 5 characters for 4 bytes,
# where base64 takes 5.33. boot.js's unpack() reads it.
_HTML_SAFE_85 = bytes.maketrans(b"&<>", b",.:")


def encode(compressed):
    """gzip bytes as boot.js's unpack() reads them."""
    return base64.b85encode(compressed).translate(_HTML_SAFE_85).decode("ascii")


def pack(data):
    """gzip, then base 85: what boot.js's unpack() reads (with DecompressionStream)."""
    return encode(gzip.compress(data, compresslevel=9, mtime=0))


def _site_gzip(name):
    """A site file gzip-compressed: as the build wrote it (site/<name>.gz, compressed harder than
    Python's zlib can, with zopfli where installed), or compressed here."""
    compressed = importlib.resources.files(__package__) / "site" / (name + ".gz")
    if compressed.is_file():
        return compressed.read_bytes()
    return gzip.compress(_site_file(name), compresslevel=9, mtime=0)


@functools.lru_cache(maxsize=None)
def _app():
    """The compressed app, made once per process (compressing 2 MB takes a moment)."""
    return {"app": encode(_site_gzip("attention-lab.js")), "wasm": encode(_site_gzip("attention-lab.wasm"))}


def _tensor(a):
    """A tensor's bytes: booleans one a byte; float32 little-endian in four planes (every value's
    first byte, then every second byte, …), where the sign and exponent bytes of like values
    compress together."""
    if a.dtype == np.bool_:
        return {"shape": list(a.shape), "dtype": "bool", "data": pack(np.ascontiguousarray(a, dtype="u1").tobytes())}
    planes = np.ascontiguousarray(a, dtype="<f4").view(np.uint8).reshape(-1, 4).T
    return {"shape": list(a.shape), "dtype": "float32", "data": pack(planes.tobytes())}


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


# view=model's files, as the site serves them beside its page (web/page.js fetches them).
MODEL_FILES = ("model/tiny-lm.bin", "model/report.json")


def model_report():
    """The shipped model's report (docs/model.md): its shape and its heads' scores."""
    return json.loads(_site_file(MODEL_FILES[1]))


def model_payload(state, model_files=None, model_state=None):
    """boot.js's payload for view=model: the app and the lab's model's files, nothing to load;
    or, with `model_files` ({name: bytes} of a model of one's own), those files, which the page
    opens with attentionLab.loadModel before it sets `model_state` (the keys naming the model's
    heads and tokens)."""
    payload = {**_app(), "files": {name: pack(_site_file(name)) for name in MODEL_FILES}, "state": state}
    if model_files is not None:
        payload.update(model={name: pack(data) for name, data in model_files.items()}, model_state=model_state or {})
    return payload


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


# Before the lab has said how tall it is (height=None), or where no script can ask it.
FIRST_HEIGHT = 560
# The message in which the lab tells its height, and the heights a frame is held to, as for a
# lesson's figures (embed.js): src/app/boundary.json's "messages" and "frameHeight", which
# tests/js/boundary.test.mjs holds these to.
SIZE_MESSAGE = "attention-lab:size"
FRAME_HEIGHT = (100, 8000)

# The output's script, in the notebook's page, where scripts run (a trusted notebook, an
# exported page): the live lab replaces the picture, found by its id once the output is in the
# page (classic Jupyter runs an output's scripts before inserting it), and a frame whose height
# is the content's follows the lab's attention-lab:size (the message a figure sends a lesson).
# One listener serves every output of the page.
_HOST_SCRIPT = """<script>
(function () {
  var tries = 0;
  (function removePicture() {
    var picture = document.getElementById(%(picture)s);
    if (picture) picture.remove();
    else if (++tries < 100) setTimeout(removePicture, 20);
  })();
  if (window.attentionLabOutputs) return;
  window.attentionLabOutputs = true;
  window.addEventListener('message', function (event) {
    var data = event.data;
    if (!data || data.type !== %(size)s || !isFinite(data.height)) return;
    var frames = document.querySelectorAll('iframe[name="attention-lab-content-height"]');
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].contentWindow === event.source)
        frames[i].style.height = Math.min(Math.max(Math.ceil(data.height), %(lowest)d), %(highest)d) + 'px';
    }
  });
})();
</script>"""


def output(doc, height, title, picture_html):
    """An output cell's HTML: the picture (what remains where scripts are stripped), then the
    lab in an iframe of its own (no shared globals between outputs), given the document as
    srcdoc so that no file or server is needed, then the script that swaps them. height=None:
    the content's."""
    picture_id = "attention-lab-picture-" + uuid.uuid4().hex
    sizing = 'name="attention-lab-content-height" ' if height is None else ""
    return (f'<div id="{picture_id}">{picture_html}</div>'
            f'<iframe srcdoc="{html.escape(doc, quote=True)}" title="{html.escape(title, quote=True)}" {sizing}'
            f'style="display:block;width:100%;height:{int(height or FIRST_HEIGHT)}px;border:0;border-radius:8px" '
            'allow="clipboard-write"></iframe>' +
            _HOST_SCRIPT % {"picture": json.dumps(picture_id), "size": json.dumps(SIZE_MESSAGE),
                            "lowest": FRAME_HEIGHT[0], "highest": FRAME_HEIGHT[1]})
