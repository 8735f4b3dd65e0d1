"""The tiny language model's forward pass, computed independently in PyTorch (float64) from
the shipped weight file, against the native program's (attention-train-model dump): every
head's map, the logits and the loss at every position, with and without a head switched off.

The weight file is read here from its documented format (docs/model.md), not through the
native code. Tolerances: the native pass runs in float32, so maps agree to 1e-4 and logits
and losses to 2e-3.
"""
import json
import os
import struct
import subprocess

import numpy as np
import pytest
import torch

MODEL = os.path.join(os.environ.get("ATTN_MODEL_DIR", "web/model"), "tiny-lm.bin")
PROGRAM = os.environ.get("ATTN_TRAIN_MODEL", "build/native/attention-train-model")
TEXTS = [
    "The cat sat on the mat. The cat sat on the mat.",
    "¿Dónde está la biblioteca? ¿Dónde está la biblioteca?",
    "emoji 🙂 and a tab\tare unknown characters",
]


def read_model(path):
    data = open(path, "rb").read()
    assert data[:4] == b"ATLM"
    version, header_size = struct.unpack_from("<II", data, 4)
    assert version == 1
    header = json.loads(data[12:12 + header_size])
    tensors, at = {}, 12 + header_size
    for t in header["tensors"]:
        rows, cols = t["shape"]
        values = np.frombuffer(data, dtype="<f2", count=rows * cols, offset=at)
        tensors[t["name"]] = torch.tensor(values.astype(np.float64).reshape(rows, cols))
        at += 2 * rows * cols
    assert at + 4 == len(data)
    return header, tensors


def encode(header, text):
    index = {c: i + 1 for i, c in enumerate(header["vocabulary"])}
    return [index.get(c, 0) for c in text]


def forward(header, w, tokens, ablate=()):
    """x = E[tokens]; each layer: Q, K from x + P, V from x; causal softmax(QKᵀ/√d_k) V;
    the heads side by side through W_O added to x; logits = x U."""
    n, heads, dk = len(tokens), header["heads"], header["d_k"]
    x = w["embed"][tokens]
    pos = w["pos"][:n]
    mask = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1)
    maps = []
    for layer in range(header["layers"]):
        at = f"layers[{layer}]."
        q = ((x + pos) @ w[at + "wq"]).reshape(n, heads, dk).transpose(0, 1)
        k = ((x + pos) @ w[at + "wk"]).reshape(n, heads, dk).transpose(0, 1)
        v = (x @ w[at + "wv"]).reshape(n, heads, dk).transpose(0, 1)
        scores = (q @ k.transpose(1, 2)) / dk ** 0.5
        a = torch.softmax(scores.masked_fill(mask, float("-inf")), dim=-1)
        z = a @ v
        for head in range(heads):
            if (layer, head) in ablate:
                z[head] = 0
        maps.extend(a)
        x = x + z.transpose(0, 1).reshape(n, heads * dk) @ w[at + "wo"]
    logits = x @ w["unembed"]
    logp = torch.log_softmax(logits, dim=-1)
    loss = [-logp[i, tokens[i + 1]].item() for i in range(n - 1)]
    return maps, logits, loss


def native(text, ablate=()):
    args = [PROGRAM, "dump", "--weights", MODEL, "--text", text]
    if ablate:
        args += ["--ablate", ",".join(f"{l}.{h}" for l, h in ablate)]
    return json.loads(subprocess.run(args, check=True, capture_output=True).stdout)


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("ablate", [(), ((1, 0),), ((0, 1), (1, 2))])
def test_forward_matches_pytorch(text, ablate):
    header, w = read_model(MODEL)
    tokens = encode(header, text)
    mine = native(text, ablate)
    assert mine["tokens"] == tokens
    maps, logits, loss = forward(header, w, tokens, ablate)
    assert len(mine["maps"]) == len(maps)
    for got, want in zip(mine["maps"], maps):
        np.testing.assert_allclose(np.array(got), want.numpy(), atol=1e-4)
    np.testing.assert_allclose(np.array(mine["logits"]), logits.numpy(), atol=2e-3)
    np.testing.assert_allclose(np.array(mine["loss"]), np.array(loss), atol=2e-3)


def test_ablation_changes_the_prediction():
    header, w = read_model(MODEL)
    tokens = encode(header, TEXTS[0])
    _, whole, _ = forward(header, w, tokens)
    _, ablated, _ = forward(header, w, tokens, ((1, 0),))
    assert (whole - ablated).abs().max() > 1e-3


def test_bad_weight_file_is_a_clear_error(tmp_path):
    broken = tmp_path / "tiny-lm.bin"
    broken.write_bytes(open(MODEL, "rb").read()[:1000])
    run = subprocess.run([PROGRAM, "dump", "--weights", str(broken), "--text", "abc"], capture_output=True, text=True)
    assert run.returncode == 2
    assert "truncated" in run.stderr
