"""The page an output carries: the site's own page with everything inside it (no file or host
to fetch), its payload the data given, small enough for a notebook."""

import base64
import gzip
import html
import json
import re
import zlib
from pathlib import Path

import numpy as np
import pytest

import attention_lab
import reference

SITE = Path(attention_lab.__file__).parent / "site"
pytestmark = pytest.mark.skipif(not (SITE / "attention-lab.wasm").is_file(),
                                reason="the package has no site: run scripts/build.sh web")
rng = np.random.default_rng(3)


def payload(document):
    found = re.search(r'<script type="application/json" id="lab-payload">(.*?)</script>', document, re.S)
    return json.loads(found.group(1))


def unpack(text):
    """boot.js's reading, written apart: base 85 with ',', '.', ':' for '&', '<', '>', then gzip."""
    return gzip.decompress(base64.b85decode(text.translate(str.maketrans(",.:", "&<>"))))


def floats(text, shape):
    planes = np.frombuffer(unpack(text), np.uint8).reshape(4, -1)
    return np.ascontiguousarray(planes.T).view("<f4").reshape(shape)


def test_the_payload_is_the_data_and_the_app():
    q, k, v = rng.standard_normal((2, 3, 4)), rng.standard_normal((1, 5, 4)), rng.standard_normal((1, 5, 6))
    mask = rng.random((3, 5)) > 0.5
    lab = attention_lab.show(q, k, v, mask=mask, causal="bottom_right", scale=0.25, head=1, step="softmax",
                             lang="es", theme="dark", tokens=["a", "b", "c"], key_tokens=list("vwxyz"))
    p = payload(lab.document)
    assert p["request"] == {"scale": 0.25, "causal": "bottom_right"} and not p["layered"]
    assert p["options"] == {"head": 1, "name": "show(q, k, v)", "tokens": {"queries": ["a", "b", "c"],
                                                                          "keys": list("vwxyz")}}
    assert p["state"] == {"step": "softmax", "lang": "es", "theme": "dark"}
    for name, sent in (("q", q), ("k", k), ("v", v)):
        t = p["tensors"][name]
        assert t["dtype"] == "float32" and t["shape"] == [1, 1, *sent.shape]
        np.testing.assert_array_equal(floats(t["data"], sent.shape), sent.astype(np.float32))
    assert p["tensors"]["mask"]["shape"] == [1, 1, 3, 5]
    np.testing.assert_array_equal(np.frombuffer(unpack(p["tensors"]["mask"]["data"]), "u1").reshape(3, 5), mask)
    assert unpack(p["wasm"]) == (SITE / "attention-lab.wasm").read_bytes()
    assert unpack(p["app"]) == (SITE / "attention-lab.js").read_bytes()


def test_nothing_is_fetched_and_the_scripts_are_inside():
    document = attention_lab.show(*rng.standard_normal((3, 2, 2))).document
    assert not re.search(r'\s(src|href)="(?!data:)', document), "an address to fetch"
    for script in ("boundary.js", "page-tools.js", "load.js", "page.js"):
        assert (SITE / script).read_text(encoding="utf-8") in document
    # boot.js and its payload come before anything of index.html.
    assert document.index('id="lab-payload"') < document.index("window.labMissing")


def test_a_token_cannot_end_the_payloads_script():
    lab = attention_lab.show(*rng.standard_normal((3, 2, 2)), tokens=["</script><b>", "x"])
    assert "</script><b>" not in lab.document
    assert payload(lab.document)["options"]["tokens"]["queries"][0] == "</script><b>"


def test_the_output_is_a_picture_then_an_iframe_of_the_page_and_small():
    lab = attention_lab.show(*rng.standard_normal((3, 8, 16, 32)), height=480)
    output = lab._repr_mimebundle_()["text/html"]
    picture = re.match(r'<div id="(attention-lab-picture-[0-9a-f]{32})"><p><img src="data:image/png;base64,', output)
    assert picture, output[:200]
    frame = re.search(r'<iframe srcdoc="([^"]*)"([^>]*)>', output)
    assert "height:480px" in frame.group(2) and "attention-lab-content-height" not in frame.group(2)
    srcdoc = frame.group(1)
    assert html.unescape(srcdoc) == lab.document
    # The script that swaps them names this output's picture.
    assert f'document.getElementById("{picture.group(1)}")' in output
    assert len(output) < 1.5e6, f"{len(output)} bytes"
    assert lab._repr_html_() != output, "each display gets a picture id of its own"


def test_by_default_the_frame_takes_the_labs_content_height():
    output = attention_lab.show(*rng.standard_normal((3, 4, 2)))._repr_html_()
    frame = re.search(r'<iframe srcdoc="[^"]*"([^>]*)>', output).group(1)
    assert 'name="attention-lab-content-height"' in frame and "height:560px" in frame
    assert "attention-lab:size" in output


def decode_png(data):
    """An 8-bit RGB PNG's pixels, read with the standard library as the format says (filter 0
    rows only, which is what the package writes): independent of the package's writer."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, chunks = 8, {}
    while at < len(data):
        length = int.from_bytes(data[at:at + 4], "big")
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        assert zlib.crc32(kind + body) == int.from_bytes(data[at + 8 + length:at + 12 + length], "big")
        chunks[kind] = chunks.get(kind, b"") + body
        at += 12 + length
    width, height = int.from_bytes(chunks[b"IHDR"][:4], "big"), int.from_bytes(chunks[b"IHDR"][4:8], "big")
    assert chunks[b"IHDR"][8:10] == bytes([8, 2])
    rows = np.frombuffer(zlib.decompress(chunks[b"IDAT"]), np.uint8).reshape(height, 1 + width * 3)
    assert not rows[:, 0].any()
    return rows[:, 1:].reshape(height, width, 3)


def test_the_picture_is_the_shown_heads_weights_in_square_cells():
    # Grouped-query heads, a padding mask, causal (bottom-right) and a custom scale: head 3 of
    # sequence 0 uses K/V head 1.
    q, k = rng.standard_normal((2, 4, 3, 8)), rng.standard_normal((2, 2, 5, 8))
    v = rng.standard_normal((2, 2, 5, 6))
    allowed = np.ones((2, 1, 1, 5), bool)
    allowed[0, ..., 4] = False
    lab = attention_lab.show(q, k, v, mask=allowed, scale=0.3, head=3, causal="bottom_right", tokens=list("abc"),
                             key_tokens=list("vwxyz"))
    png, _ = lab.picture
    pixels = decode_png(png)
    # The plot is the bottom-right corner, the labels on white left of it and above it.
    white = (pixels == 255).all(axis=2)
    left, top = int(np.argmax(~white[-1])), int(np.argmax(~white[:, -1]))
    plot = pixels[top:, left:]
    cell = plot.shape[1] // 5
    assert plot.shape[:2] == (3 * cell, 5 * cell) and cell >= 8, "square cells, a readable size"
    # A label (ink) beside each row and above each column.
    assert all((~white[top + i * cell:top + (i + 1) * cell, :left]).any() for i in range(3))
    assert all((~white[:top, left + j * cell:left + (j + 1) * cell]).any() for j in range(5))
    pixels = plot
    causal = np.arange(5)[None, :] <= np.arange(3)[:, None] + 2
    expected = reference.weights(q[0, 3], k[0, 1], allowed[0, 0] & causal, scale=0.3)
    removed = ~(allowed[0, 0] & causal)
    # A cell's colour is one of viridis (dark to yellow: its green channel grows with the weight),
    # grey where removed.
    centres = pixels[cell // 2::cell, cell // 2::cell]
    assert (centres[removed] == 214).all()
    order = np.argsort(expected[~removed])
    assert (np.diff(centres[~removed][order][:, 1].astype(int)) >= 0).all(), "brighter for more weight"
    bundle = lab._repr_mimebundle_()
    assert base64.b64decode(bundle["image/png"]) == png
    text = bundle["text/html"]
    assert "head 3 of 4" in text and "a, b, c" in text and "v, w, x, y, z" in text and "Trust the notebook" in text


def test_each_output_is_whole_and_save_html_writes_the_page(tmp_path):
    first = attention_lab.show(*rng.standard_normal((3, 2, 2)))
    second = attention_lab.show(*rng.standard_normal((3, 2, 2)))
    assert payload(first.document)["tensors"] != payload(second.document)["tensors"]
    assert payload(first.document)["wasm"] == payload(second.document)["wasm"]
    path = tmp_path / "lab.html"
    assert attention_lab.save_html(path, first) == path
    assert path.read_text(encoding="utf-8") == first.document
    q, k, v = rng.standard_normal((3, 2, 2))
    attention_lab.save_html(tmp_path / "direct.html", q, k, v, causal=True)
    assert payload((tmp_path / "direct.html").read_text(encoding="utf-8"))["request"] == {"causal": "top_left"}


def test_the_pictures_labels_take_a_stride_and_keep_the_last():
    from attention_lab import _picture
    assert _picture.shown_labels(6, 16, 24) == [0, 1, 2, 3, 4, 5]
    # 16-pixel lines on 5-pixel cells: every 4th; 63 replaces 60, which it would touch.
    assert _picture.shown_labels(64, 16, 5) == [0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 63]
    assert _picture.shown_labels(9, 16, 5) == [0, 4, 8]
    assert _picture.shown_labels(11, 16, 5) == [0, 4, 10]


def test_the_picture_speaks_the_labs_language():
    q, k, v = rng.standard_normal((3, 2, 3, 4))
    text = attention_lab.show(q, k, v, head=1, lang="es")._repr_html_()
    assert "cabeza 1 de 2" in text and "las filas son las consultas (0 a 2)" in text and "Trust Notebook" in text
    assert "Trust the notebook" in attention_lab.show(q, k, v, lang="auto")._repr_html_()


def test_show_model_carries_the_models_files_and_sets_the_views_keys():
    text = "El gato duerme. El gato duerme."
    lab = attention_lab.show_model(text, ablate=[(1, 0), (0, np.int64(3))], lang="es")
    p = payload(lab.document)
    assert "tensors" not in p
    assert p["state"] == {"view": "model", "text": text, "ablate": "1.0,0.3", "lang": "es"}
    # The page fetches nothing: the weights and report are the site's, inside the document.
    for name in ("model/tiny-lm.bin", "model/report.json"):
        assert unpack(p["files"][name]) == (SITE / name).read_bytes()
    assert not re.search(r'\s(src|href)="(?!data:)', lab.document), "an address to fetch"


def test_show_model_sets_the_attribution_and_edit_keys():
    text = "compró pan. compró pan."
    p = payload(attention_lab.show_model(text, at=np.int64(14), target="r", vs="p", edit=(4, "c")).document)
    assert p["state"] == {"view": "model", "text": text, "ablate": "", "at": "14", "target": "r", "against": "p",
                          "edit": "4:c"}


@pytest.mark.parametrize("arguments, error, says", [
    ({"text": b"bytes"}, TypeError, "text: expected a str; got bytes"),
    ({"text": "abc", "at": 3}, ValueError, "at: expected the position of a character the model reads, 0 to 2; got 3"),
    ({"text": "abc", "at": True}, ValueError, "at:"),
    ({"text": "abc", "target": "ab"}, TypeError, "target: expected one character"),
    ({"text": "abc", "vs": 1}, TypeError, "vs: expected one character"),
    ({"text": "abc", "target": "a", "vs": "a"}, ValueError, "vs: expected a character other than the target"),
    ({"text": "abc", "edit": "4:c"}, TypeError, "edit: expected (position, character)"),
    ({"text": "abc", "edit": (4, "cd")}, TypeError, "edit: expected one character"),
    ({"text": "ñ" * 1025}, ValueError, "text: expected at most 2048 bytes of UTF-8; got 2050"),
    ({"text": "a", "ablate": "1.0"}, TypeError, "ablate: expected (layer, head) pairs"),
    ({"text": "a", "ablate": [(1, 0, 2)]}, TypeError, "ablate: expected (layer, head) pairs"),
    ({"text": "a", "ablate": [(1, 4)]}, ValueError, "ablate: the model has 3 layers of 4 heads (layer 0 to 2, head 0 to 3)"),
    ({"text": "a", "ablate": [(-1, 0)]}, ValueError, "got (-1, 0)"),
    ({"text": "a", "height": 50}, ValueError, "height:"),
])
def test_show_model_names_the_argument_at_fault(arguments, error, says):
    with pytest.raises(error) as raised:
        attention_lab.show_model(**arguments)
    assert says in str(raised.value)


def test_show_model_carries_a_models_own_folder(tmp_path):
    """model=DIR: the folder's files inside the output, opened by the page's loadModel; the
    heads and positions checked against its config.json."""
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "gpt2", "n_layer": 2, "n_head": 4, "n_positions": 64}))
    (tmp_path / "model.safetensors").write_bytes(b"\x08" + bytes(7) + b"{}      ")
    (tmp_path / "vocab.json").write_text("{}")
    p = payload(attention_lab.show_model("a b a b", model=tmp_path, ablate=[(1, 3)], at=2).document)
    assert {name: unpack(data) for name, data in p["model"].items()} == \
        {f.name: f.read_bytes() for f in tmp_path.iterdir()}
    assert p["model_state"] == {"ablate": "1.3", "at": "2"}
    assert p["state"] == {"view": "model", "text": "a b a b"}
    with pytest.raises(ValueError, match=r"ablate: the model has 2 layers of 4 heads"):
        attention_lab.show_model("a b", model=tmp_path, ablate=[(2, 0)])
    with pytest.raises(TypeError, match=r"model: expected the folder"):
        attention_lab.show_model("a b", model=str(tmp_path / "config.json"))


def test_show_model_refuses_a_model_too_large_to_carry(tmp_path, monkeypatch):
    monkeypatch.setattr(attention_lab._limits, "MAX_MODEL_BYTES", 10)
    (tmp_path / "model.safetensors").write_bytes(bytes(11))
    with pytest.raises(ValueError, match=r"model: its files are 11 bytes, over the 10 an output carries; open them in the page"):
        attention_lab.show_model("a b", model=tmp_path)
