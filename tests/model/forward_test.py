"""The tiny language model's forward pass, computed independently in PyTorch (float64) from
every shipped weight file (the lab's model, its one-layer twin and the checkpoints of its
training), against the native program's (attention-train-model dump): every head's map, the
logits and the loss at every position, with and without heads switched off; each checkpoint's
measured copy ratio on the tuning sentences, and the twin's, recomputed from its weights;
and view=model's circuits (docs/model.md, "What a head writes"), which dump prints from the
page's own code: the attribution at a character (its parts, their sum, each head's total
effect), every head's OV and QK maps and copying score, the composition maps' shares and the
later head's score with the earlier one off, and the changed letter of an edit. And the report's
held-out sentences (report.json's `held_out_sentences`), every figure and target recomputed
here from the weights.

The weight file is read here from its documented format (docs/model.md), not through the
native code. Tolerances: the native pass runs in float32, so maps agree to 1e-4 and logits
and losses to 2e-3; the attribution's parts sum to its value within 1e-4.
"""
import glob
import json
import os
import struct
import subprocess

import numpy as np
import pytest
import torch

MODEL_DIR = os.environ.get("ATTN_MODEL_DIR", "web/model")
MODEL = os.path.join(MODEL_DIR, "tiny-lm.bin")
TWIN = os.path.join(MODEL_DIR, "one-layer", "tiny-lm.bin")
# Every weight file the site serves, the lab's model first.
WEIGHT_FILES = [MODEL, TWIN] + sorted(glob.glob(os.path.join(MODEL_DIR, "checkpoints", "*.bin")))
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


def forward(header, w, tokens, ablate=(), parts=None):
    """x = E[tokens]; each layer: Q, K from x + P, V from x; causal softmax(QKᵀ/√d_k) V;
    the heads side by side through W_O added to x; logits = x U. `parts`, a list, receives
    the residual stream's terms: E[tokens], then each head's output (n × d_model)."""
    n, heads, dk = len(tokens), header["heads"], header["d_k"]
    x = w["embed"][tokens]
    pos = w["pos"][:n]
    mask = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1)
    maps = []
    if parts is not None:
        parts.append(x)
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
        if parts is not None:
            parts.extend(z[h] @ w[at + "wo"][h * dk:(h + 1) * dk] for h in range(heads))
        x = x + z.transpose(0, 1).reshape(n, heads * dk) @ w[at + "wo"]
    logits = x @ w["unembed"]
    logp = torch.log_softmax(logits, dim=-1)
    loss = [-logp[i, tokens[i + 1]].item() for i in range(n - 1)]
    return maps, logits, loss


def native(text, ablate=(), weights=MODEL, **keys):
    args = [PROGRAM, "dump", "--weights", weights, "--text", text]
    if ablate:
        args += ["--ablate", ",".join(f"{l}.{h}" for l, h in ablate)]
    for key, value in keys.items():
        args += [f"--{key}", str(value)]
    return json.loads(subprocess.run(args, check=True, capture_output=True).stdout)


@pytest.mark.parametrize("weights", WEIGHT_FILES, ids=lambda path: os.path.relpath(path, MODEL_DIR))
@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("ablate", ["none", "last layer's first", "two"])
def test_forward_matches_pytorch(weights, text, ablate):
    header, w = read_model(weights)
    last = header["layers"] - 1
    ablate = {"none": (), "last layer's first": ((last, 0),), "two": ((0, 1), (last, 2))}[ablate]
    tokens = encode(header, text)
    mine = native(text, ablate, weights)
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


# [SECTION] circuits ----------------------------------------------------------------------

READABLE = "abcdefghijklmnopqrstuvwxyz áéíóúñü"
TWICE = "compró pan y leche. compró pan y leche."  # a text typed twice (t + " " + t)


def readable(header):
    return [header["vocabulary"].index(c) + 1 for c in READABLE if c in header["vocabulary"]]


def head_weights(header, w, index):
    layer, head, dk = index // header["heads"], index % header["heads"], header["d_k"]
    at, cols = f"layers[{layer}].", slice(head * dk, (head + 1) * dk)
    return w[at + "wq"][:, cols], w[at + "wk"][:, cols], w[at + "wv"][:, cols], w[at + "wo"][cols]


def value_of(logits, at, target, against):
    row = logits[at]
    return (row[target] - (row[against] if against is not None else row.mean())).item()


def induction_score(a, period):
    n = a.shape[0]
    return np.mean([a[i, i - period + 1].item() for i in range(period, n)])


@pytest.mark.parametrize("ablate", [(), ((0, 1),)])
@pytest.mark.parametrize("at,target,against", [(None, None, None), (27, "c", None), (27, "p", "c"), (0, None, "a")])
def test_attribution_is_the_logit_split_exactly(ablate, at, target, against):
    header, w = read_model(MODEL)
    tokens = encode(header, TWICE)
    keys = {k: v for k, v in {"at": at, "target": target, "against": against}.items() if v is not None}
    got = native(TWICE, ablate, **keys)["attribution"]
    parts = []
    _, logits, _ = forward(header, w, tokens, ablate, parts)
    position = len(tokens) - 1 if at is None else at
    t = encode(header, target)[0] if target else (tokens[position + 1] if position + 1 < len(tokens) else int(logits[position].argmax()))
    a = encode(header, against)[0] if against else None
    column = w["unembed"][:, t] - (w["unembed"][:, a] if a is not None else w["unembed"].mean(dim=1))
    value = value_of(logits, position, t, a)
    assert got["position"] == position and got["target"] == header["vocabulary"][t - 1]
    assert got["against"] == (against or None)
    assert got["value"] == pytest.approx(value, abs=2e-3)
    direct = [(p[position] @ column).item() for p in parts]
    assert sum(direct) == pytest.approx(value, abs=1e-9)  # the reference's own split is exact
    mine = [p["direct"] for p in got["parts"]]
    assert sum(mine) == pytest.approx(got["value"], abs=1e-4)
    assert got["sum"] == pytest.approx(got["value"], abs=1e-4)
    np.testing.assert_allclose(mine, direct, atol=2e-3)
    heads = header["layers"] * header["heads"]
    for index in range(heads):
        h = (index // header["heads"], index % header["heads"])
        flipped = tuple(x for x in ablate if x != h) if h in ablate else ablate + (h,)
        _, other, _ = forward(header, w, tokens, flipped)
        total = value - value_of(other, position, t, a) if h not in ablate else value_of(other, position, t, a) - value
        assert got["parts"][index + 1]["part"] == f"{h[0]}.{h[1]}"
        assert got["parts"][index + 1]["total"] == pytest.approx(total, abs=2e-3)
        if h in ablate:
            assert got["parts"][index + 1]["direct"] == 0


def test_heads_ov_qk_and_copying_score():
    header, w = read_model(MODEL)
    got = native("abc")["heads"]
    chars = readable(header)
    e, u, p = w["embed"], w["unembed"], w["pos"]
    scale = header["d_k"] ** -0.5
    for index, head in enumerate(got):
        wq, wk, wv, wo = head_weights(header, w, index)
        assert (head["layer"], head["head"]) == divmod(index, header["heads"])
        assert head["ov"]["chars"] == [header["vocabulary"][c - 1] for c in chars]
        ov = (e @ wv @ wo @ u)[chars][:, chars]
        np.testing.assert_allclose(np.array(head["ov"]["map"]), ov.numpy(), atol=1e-4, rtol=1e-4)
        qk = scale * (e @ wq @ wk.T @ e.T)[chars][:, chars]
        np.testing.assert_allclose(np.array(head["qk"]["map"]), qk.numpy(), atol=1e-4, rtol=1e-4)
        scores = scale * (p @ wq @ wk.T @ p.T)
        t = scores.shape[0]
        positions = [np.mean([scores[i, i - d].item() for i in range(d, t)]) for d in range(t)]
        np.testing.assert_allclose(head["qk"]["positions"], positions, atol=1e-4, rtol=1e-4)
        eig = np.linalg.eigvals((wv @ wo @ u @ e).numpy())
        assert head["copying"] == pytest.approx(eig.sum().real / np.abs(eig).sum(), abs=1e-6)


def test_composition_maps_shares_and_path_evidence():
    header, w = read_model(MODEL)
    tokens = encode(header, TWICE)
    period = len(tokens) // 2 + 1
    got = native(TWICE)["composition"]
    chars = readable(header)
    e, scale, per_layer = w["embed"], header["d_k"] ** -0.5, header["heads"]
    pairs = [(f, g) for f in range(header["layers"] * per_layer) for g in range(header["layers"] * per_layer)
             if f // per_layer < g // per_layer]
    assert [(c["from"], c["to"]) for c in got] == [(f"{f // per_layer}.{f % per_layer}", f"{g // per_layer}.{g % per_layer}") for f, g in pairs]
    maps, _, _ = forward(header, w, tokens)
    for c, (f, g) in zip(got, pairs):
        _, _, fv, fo = head_weights(header, w, f)
        gq, gk, _, _ = head_weights(header, w, g)
        qk, ov = gq @ gk.T, fv @ fo
        frobenius = torch.linalg.norm(qk @ ov.T) / (torch.linalg.norm(qk) * torch.linalg.norm(ov))
        assert c["frobenius"] == pytest.approx(frobenius.item(), abs=1e-9)
        m = (scale * (e @ gq) @ (e @ fv @ fo @ gk).T)[chars][:, chars]
        diagonal = m.diagonal()
        wins = [(m[r] < diagonal[r]).sum().item() == len(chars) - 1 for r in range(len(chars))]
        assert c["share"] == pytest.approx(np.mean(wins), abs=1e-12)
        off, _, _ = forward(header, w, tokens, (divmod(f, per_layer),))
        assert c["without"] == pytest.approx(induction_score(off[g], period), abs=1e-4)
        assert c["score"] == pytest.approx(induction_score(maps[g], period), abs=1e-4)


def test_frobenius_baseline_is_what_unrelated_weights_score():
    # The baseline the composition card states, against the score's mean over unrelated random
    # weights of the model's shapes (products of Gaussian d_model × d_k and d_k × d_model
    # matrices, as W_Q W_Kᵀ and W_V W_O are): the draws' standard error is about 0.0003.
    header, w = read_model(MODEL)
    d, dk = w["embed"].shape[1], header["d_k"]
    rng = np.random.default_rng(0)
    product = lambda: rng.standard_normal((d, dk)) @ rng.standard_normal((dk, d))
    scores = []
    for _ in range(500):
        a, b = product(), product()
        scores.append(np.linalg.norm(a @ b.T) / (np.linalg.norm(a) * np.linalg.norm(b)))
    assert native("abc")["frobenius_random"] == pytest.approx(np.mean(scores), abs=0.002)


def test_edit_follows_the_changed_letter_and_needs_the_copying_head():
    header, w = read_model(MODEL)
    tokens = encode(header, TWICE)
    period, position = len(tokens) // 2 + 1, 4  # "compró": the r
    got = native(TWICE, edit=f"{position}:c")["edit"]
    c = encode(header, "c")[0]
    maps, before, _ = forward(header, w, tokens)
    scores = [induction_score(a, period) for a in maps]
    head = int(np.argmax(scores))
    edited = list(tokens)
    edited[position] = c
    _, after, _ = forward(header, w, edited)
    _, without, _ = forward(header, w, edited, (divmod(head, header["heads"]),))
    at = position + period - 1
    p = lambda logits: torch.softmax(logits[at], dim=-1)[c].item()
    assert got["position"] == position and got["from"] == "r" and got["to"] == "c"
    assert got["head"] == f"{head // header['heads']}.{head % header['heads']}"
    assert got["before"] == pytest.approx(p(before), abs=1e-4)
    assert got["after"] == pytest.approx(p(after), abs=1e-4)
    assert got["after_without"] == pytest.approx(p(without), abs=1e-4)
    assert got["after"] > got["before"]  # the second copy follows the first


@pytest.mark.parametrize("keys,field", [({"at": 100}, "at="), ({"target": "🙂"}, "target="),
                                        ({"target": "a", "against": "a"}, "against=")])
def test_bad_attribution_keys_name_the_field(keys, field):
    got = native(TWICE, **keys)
    assert got["attribution"] is None and field in got["attribution_error"]


def test_edit_on_a_text_not_typed_twice_says_so():
    got = native("compró pan", edit="2:x")
    assert got["edit"] is None and "edit=" in got["edit_error"]


def copy_losses(loss, period):
    """Each copy's mean loss over the same characters, each copy's first left out
    (src/lm/head_scores.h): targets t = L+1 … n−1 against t − L."""
    n = len(loss) + 1
    ts = range(period + 1, n)
    return np.mean([loss[t - period - 1] for t in ts]), np.mean([loss[t - 1] for t in ts])


def test_report_held_out_sentences_and_targets_recomputed():
    header, w = read_model(MODEL)
    report = json.load(open(os.path.join(os.path.dirname(MODEL), "report.json")))
    held = report["held_out_sentences"]
    targets = held["targets"]
    head = (targets["induction_head_each_sentence"]["layer"], targets["induction_head_each_sentence"]["head"])
    # The head the tuning sentences chose: the best mean induction score on them, never on these.
    tuning = [h["induction_sentences"] for h in report["heads"]]
    assert head[0] * header["heads"] + head[1] == int(np.argmax(tuning))
    listed = [(lang, text) for lang, texts in report["probes"]["held_out_sentences"].items() for text in texts]
    assert sorted(listed) == sorted((s["language"], s["text"]) for s in held["sentences"])
    assert {"en", "es"} <= {lang for lang, _ in listed}
    firsts, seconds, ablated, ratios, inductions = [], [], [], [], []
    for s in held["sentences"]:
        text = s["text"]
        tokens = encode(header, text + " " + text)
        period = len(encode(header, text)) + 1
        maps, _, loss = forward(header, w, tokens)
        first, second = copy_losses(loss, period)
        _, _, off = forward(header, w, tokens, ablate=(head,))
        _, second_off = copy_losses(off, period)
        induction = induction_score(maps[head[0] * header["heads"] + head[1]], period)
        assert abs(first - s["first"]) < 2e-3 and abs(second - s["second"]) < 2e-3, text
        assert abs(second_off - s["ablated_second"]) < 2e-3, text
        assert abs(induction - s["induction"]) < 1e-3, text
        firsts.append(first), seconds.append(second), ablated.append(second_off), ratios.append(second / first)
        inductions.append(induction)
    ratio = np.mean(seconds) / np.mean(firsts)
    assert abs(ratio - targets["second_copy_over_first"]["value"]) < 1e-3
    assert targets["second_copy_over_first"]["met"] == bool(ratio <= 0.4)
    worst = max(ratios)
    assert abs(worst - targets["second_copy_over_first_each_sentence"]["value"]) < 1e-3
    assert targets["second_copy_over_first_each_sentence"]["met"] == bool(worst < 0.5)
    weakest = min(s["induction"] for s in held["sentences"])
    assert targets["induction_head_each_sentence"]["met"] == bool(weakest >= 0.45)
    rise = np.mean(ablated) / np.mean(seconds)
    assert abs(rise - targets["induction_head_ablation_ratio"]["value"]) < 1e-2
    assert targets["induction_head_ablation_ratio"]["met"] == bool(rise >= 2)
    for lang in {lang for lang, _ in listed}:
        mine = [s for s in held["sentences"] if s["language"] == lang]
        here = np.mean([s["second"] for s in mine]) / np.mean([s["first"] for s in mine])
        assert abs(here - held["languages"][lang]["ratio"]) < 1e-3, lang
        assert here <= 0.4, f"{lang}: the second copy costs {here:.3f} of the first"
    # The shipped weights carry their copying to these sentences (issue 43): the targets, met in
    # this independent pass, not read from the report.
    assert ratio <= 0.4 and worst < 0.5, (ratio, worst)
    assert min(inductions) >= 0.45, min(inductions)
    assert rise >= 2, rise


# [SECTION] the twin and the checkpoints -------------------------------------------------------


def tuning_copy_ratio(header, w, sentences):
    """The second copy's mean loss over the first's on the tuning sentences, each typed twice
    (the report's copying.sentences: the copies' losses averaged over the sentences)."""
    firsts, seconds = [], []
    for text in sentences:
        tokens = encode(header, text + " " + text)
        _, _, loss = forward(header, w, tokens)
        first, second = copy_losses(loss, len(encode(header, text)) + 1)
        firsts.append(first), seconds.append(second)
    return np.mean(seconds) / np.mean(firsts)


def test_each_checkpoints_measured_copy_ratio_recomputed_from_its_weights():
    report = json.load(open(os.path.join(MODEL_DIR, "report.json")))
    sentences = report["probes"]["sentences"]
    kept = report["training"]["checkpoints"]
    assert sorted(os.path.join(MODEL_DIR, c["file"]) for c in kept) == WEIGHT_FILES[2:]
    ratios = []
    for c in kept:
        header, w = read_model(os.path.join(MODEL_DIR, c["file"]))
        ratio = tuning_copy_ratio(header, w, sentences)
        assert abs(ratio - c["copying"]["sentences"]["ratio"]) < 1e-3, c["step"]
        ratios.append(ratio)
    # The story the slider tells: no copying early on, the lab's model's at the end.
    assert ratios[0] > 0.9 and ratios[-1] < 0.7, ratios


def test_the_one_layer_twin_does_not_copy():
    header, w = read_model(TWIN)
    report = json.load(open(os.path.join(MODEL_DIR, "one-layer", "report.json")))
    assert header["layers"] == 1 == report["model"]["layers"]
    ratio = tuning_copy_ratio(header, w, report["probes"]["sentences"])
    assert abs(ratio - report["copying"]["sentences"]["ratio"]) < 1e-3
    assert ratio > 0.9, ratio  # depth: the lab's model, same recipe with two layers, copies
