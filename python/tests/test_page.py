"""The page an output carries: the site's own page with everything inside it (no file or host
to fetch), its payload the data given, small enough for a notebook."""

import base64
import gzip
import html
import json
import re
from pathlib import Path

import numpy as np
import pytest

import attention_lab

SITE = Path(attention_lab.__file__).parent / "site"
pytestmark = pytest.mark.skipif(not (SITE / "attention-lab.wasm").is_file(),
                                reason="the package has no site: run scripts/build.sh web")
rng = np.random.default_rng(3)


def payload(document):
    found = re.search(r'<script type="application/json" id="lab-payload">(.*?)</script>', document, re.S)
    return json.loads(found.group(1))


def unpack(text):
    return gzip.decompress(base64.b64decode(text))


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
        np.testing.assert_array_equal(np.frombuffer(unpack(t["data"]), "<f4").reshape(sent.shape), sent.astype(np.float32))
    assert p["tensors"]["mask"]["shape"] == [1, 1, 3, 5]
    np.testing.assert_array_equal(np.frombuffer(unpack(p["tensors"]["mask"]["data"]), "u1").reshape(3, 5), mask)
    assert unpack(p["wasm"]) == (SITE / "attention-lab.wasm").read_bytes()
    assert unpack(p["app"]) == (SITE / "attention-lab.js").read_bytes()


def test_nothing_is_fetched_and_the_scripts_are_inside():
    document = attention_lab.show(*rng.standard_normal((3, 2, 2))).document
    assert not re.search(r'\s(src|href)="(?!data:)', document), "an address to fetch"
    for script in ("page-tools.js", "load.js"):
        assert (SITE / script).read_text(encoding="utf-8") in document
    # boot.js and its payload come before anything of index.html.
    assert document.index('id="lab-payload"') < document.index("window.labMissing")


def test_a_token_cannot_end_the_payloads_script():
    lab = attention_lab.show(*rng.standard_normal((3, 2, 2)), tokens=["</script><b>", "x"])
    assert "</script><b>" not in lab.document
    assert payload(lab.document)["options"]["tokens"]["queries"][0] == "</script><b>"


def test_the_output_is_an_iframe_of_the_page_and_small():
    lab = attention_lab.show(*rng.standard_normal((3, 8, 16, 32)), height=480)
    output = lab._repr_mimebundle_()["text/html"]
    assert output.startswith("<iframe srcdoc=\"") and "height:480px" in output
    srcdoc = re.match(r'<iframe srcdoc="([^"]*)"', output).group(1)
    assert html.unescape(srcdoc) == lab.document
    assert len(output) < 1.5e6, f"{len(output)} bytes"
    assert lab._repr_html_() == output


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
