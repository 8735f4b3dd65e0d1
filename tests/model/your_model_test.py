"""A model a user brings (docs/your-model.md), against PyTorch in float64: GPT-2-shaped models
made here (gpt2_files.py), written in each format from its published layout, read by the
native program (attention-train-model dump, the page's own code) and held to an independent
forward pass: every head's map, the loss at every position, the five likeliest next tokens,
every attribution part and their sum, a head's total effect; the tokens against npm's
gpt-3-encoder; and every bad file refused with a sentence naming the file and the problem.

Tolerances: float32 files 1e-4 (the native pass runs in float32); F16 and BF16 files against
their own rounded weights, at the same tolerance.
"""
import json
import os
import shutil
import subprocess

import pytest
import torch

import gpt2_files as g

PROGRAM = os.environ.get("ATTN_TRAIN_MODEL", "build/native/attention-train-model")
TEXT = "The cat sat on the mat. The cat sat on the mat."
# What GPT-2's tokenizer is known to find hard: accents, emoji, runs of spaces, line breaks,
# contractions, numbers, a tab.
HARD_TEXTS = [
    "¿Dónde está la biblioteca? Ça va, naïve café.",
    "emoji 🙂🙂 and 👩‍👩‍👧 family",
    "runs   of    spaces\n\nand line\r\nbreaks  \n",
    "I'm sure they'll say we've done it, don't you'd think? It's JOHN'S",
    "Numbers: 3.14159, 2026-12-07, 1,000,000 and 42nd\tplace",
    "   leading spaces and trailing ones   ",
]


def dump(folder, text, *args):
    out = subprocess.run([PROGRAM, "dump", "--weights", folder, "--text", text, *args], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def refused(folder):
    out = subprocess.run([PROGRAM, "dump", "--weights", folder, "--text", "a"], capture_output=True, text=True)
    assert out.returncode == 2, out.stdout
    return out.stderr.strip()


def close(a, b, tol=1e-4):
    return abs(a - b) <= tol * max(1.0, abs(b))


# Each case: how the model is made and written; the weights the file holds (rounded as stored).
CASES = {
    "hf_f32": (g.Config(seed=1), lambda d, c, w: g.write_hugging_face(d, c, w), "F32"),
    "hf_f16_prefixed_own_head": (g.Config(seed=2, tied=False),
                                 lambda d, c, w: g.write_hugging_face(d, c, w, "F16", "transformer.", "json"), "F16"),
    "hf_bf16_erf": (g.Config(seed=3, activation="gelu"), lambda d, c, w: g.write_hugging_face(d, c, w, "BF16"), "BF16"),
    "gpt_neo": (g.Config(seed=4, neo=True, window=3), lambda d, c, w: g.write_hugging_face(d, c, w), "F32"),
    "llmc_v3": (g.Config(seed=5), lambda d, c, w: g.write_llmc(d, c, w, "float32"), "F32"),
    "llmc_v5_bf16": (g.Config(seed=6), lambda d, c, w: g.write_llmc(d, c, w, "bfloat16"), "BF16"),
    "twelve_by_twelve_f16": (g.Config(seed=7, layers=12, heads=12, d_model=96),
                             lambda d, c, w: g.write_hugging_face(d, c, w, "F16"), "F16"),
}


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    made = {}
    for name, (config, write, dtype) in CASES.items():
        folder = str(tmp_path_factory.mktemp(name))
        weights = g.make_weights(config)
        write(folder, config, weights)
        made[name] = (folder, config, g.rounded(weights, dtype))
    return made


@pytest.mark.parametrize("name", list(CASES))
def test_every_number_is_pytorchs(models, name):
    folder, c, w = models[name]
    ablate = [(c.layers - 1, 1)]
    at = 7
    got = dump(folder, TEXT, "--ablate", f"{ablate[0][0]}.{ablate[0][1]}", "--at", str(at))
    ids = got["tokens"]
    assert "".join(got["pieces"]) == TEXT
    want = g.forward(c, w, ids, ablate)
    for i, m in enumerate(want["maps"]):
        assert torch.allclose(torch.tensor(got["maps"][i], dtype=torch.float64), m, atol=1e-4), f"map {i}"
    for i, l in enumerate(want["loss"]):
        assert close(got["loss"][i], l), f"loss at {i}: {got['loss'][i]} against {l}"
    logits = torch.tensor(got["logits"], dtype=torch.float64)
    assert torch.allclose(logits, want["logits"], atol=1e-4, rtol=1e-4)
    # The five likeliest next tokens at `at`, as the view lists them (equal ranks where PyTorch's are far apart).
    top = torch.topk(want["logits"][at], 6)
    assert int(torch.argmax(logits[at])) == int(top.indices[0])
    # Every attribution part, the final norm's scale held at its value.
    value, parts = g.attribution(c, w, want, at, ids[at + 1])
    a = got["attribution"]
    assert close(a["value"], value), (a["value"], value)
    by_name = {p["part"]: p["direct"] for p in a["parts"]}
    assert set(by_name) == set(parts), sorted(set(by_name) ^ set(parts))
    for part, v in parts.items():
        assert close(by_name[part], v), f"{part}: {by_name[part]} against {v}"
    assert abs(sum(by_name.values()) - a["value"]) < 1e-4 and close(a["sum"], a["value"])
    # A head's total effect: the value with it on minus with it off, the rest as set.
    head = (0, 2)
    without = g.forward(c, w, ids, ablate + [head])
    row = without["logits"][at]
    total = value - float(row[ids[at + 1]] - row.mean())
    got_total = next(p["total"] for p in a["parts"] if p["part"] == "0.2")
    assert close(got_total, total), (got_total, total)


def encoded_by_gpt_3_encoder(texts):
    script = "const {encode} = require('gpt-3-encoder'); process.stdout.write(JSON.stringify(JSON.parse(require('fs').readFileSync(0, 'utf8')).map(encode)))"
    out = subprocess.run(["node", "-e", script], input=json.dumps(texts), capture_output=True, text=True, cwd=g.ROOT)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_the_bpe_is_gpt2s(models):
    """Both tokenizers the lab reads (merges by rank from merges.txt; llm.c's, ranked by id)
    against an independent encoder, on text GPT-2's tokenizer finds hard."""
    want = encoded_by_gpt_3_encoder(HARD_TEXTS)
    for text, ids in zip(HARD_TEXTS, want):
        for name in ("hf_f32", "hf_f16_prefixed_own_head", "llmc_v3"):
            got = dump(models[name][0], text)
            assert got["tokens"] == ids, (name, text)
            assert "".join(got["pieces"]) == text, (name, text)


def test_the_model_is_described(models):
    folder, c, _ = models["twelve_by_twelve_f16"]
    m = dump(folder, "a")["model"]
    assert (m["layers"], m["heads"], m["d_model"], m["vocabulary"], m["format"], m["architecture"]) == \
        (12, 12, 96, 50257, "safetensors", "gpt2")
    assert m["tokenizer"] == "gpt2-bpe"
    # Tied: the embedding counted once.
    d, f, v, L = 96, 384, 50257, 12
    per_layer = 4 * d + 3 * d * d + 3 * d + d * d + d + d * f + f + f * d + d
    assert m["parameters"] == v * d + c.context * d + L * per_layer + 2 * d


def copy_with(folder, to, change):
    shutil.copytree(folder, to)
    change(to)
    return to


def rewrite(path, f):
    with open(path, "rb") as h:
        data = h.read()
    with open(path, "wb") as h:
        h.write(f(data))


def edit_config(folder, **fields):
    path = os.path.join(folder, "config.json")
    config = json.load(open(path))
    config.update(fields)
    json.dump(config, open(path, "w"))


def test_bad_files_are_refused_by_name(models, tmp_path):
    hf = models["hf_f32"][0]
    st = "model.safetensors"
    header_length = lambda data: int.from_bytes(data[:8], "little")
    cases = {
        "truncated": (lambda d: rewrite(os.path.join(d, st), lambda b: b[: len(b) // 2]), [st, "truncated"]),
        "header past the end": (lambda d: rewrite(os.path.join(d, st), lambda b: (len(b) + 10).to_bytes(8, "little") + b[8:]),
                                [st, "runs past the end"]),
        "header over 100 MB": (lambda d: rewrite(os.path.join(d, st), lambda b: (200_000_000).to_bytes(8, "little") + b[8:]),
                               [st, "100 MB"]),
        "unknown dtype": (lambda d: rewrite(os.path.join(d, st), lambda b: b.replace(b'"dtype": "F32", "shape": [50257', b'"dtype": "I32", "shape": [50257', 1)),
                          [st, "wte.weight", "I32"]),
        "missing tensor": (lambda d: rewrite(os.path.join(d, st), lambda b: b.replace(b'"ln_f.weight"', b'"ln_f.weighx"', 1)),
                           [st, "ln_f.weight"]),
        "misshapen tensor": (lambda d: edit_config(d, n_positions=32), [st, "wpe.weight", "32"]),
        "width not a multiple of the heads": (lambda d: edit_config(d, n_head=5), ["config.json", "multiple"]),
        "config against the embedding": (lambda d: edit_config(d, vocab_size=50000), [st, "wte.weight", "50000"]),
        "non-finite weight": (lambda d: rewrite(os.path.join(d, st), lambda b: b[:-4] + b"\x00\x00\x80\x7f"), [st, "not finite"]),
        "an image renamed": (lambda d: rewrite(os.path.join(d, st), lambda b: b"\x89PNG\r\n\x1a\n" + b"\x00" * 64), [st, "not a safetensors file"]),
        "no config": (lambda d: os.remove(os.path.join(d, "config.json")), ["config.json", "missing"]),
        "no tokenizer": (lambda d: os.remove(os.path.join(d, "merges.txt")), ["merges.txt", "missing"]),
    }
    for name, (change, words) in cases.items():
        message = refused(copy_with(hf, str(tmp_path / name.replace(" ", "_")), change))
        for word in words:
            assert word in message, (name, message)
    # A tokenizer whose ids reach past the embedding's rows: a model of fewer rows than GPT-2's.
    small = g.Config(seed=8, vocab=1000)
    folder = str(tmp_path / "small")
    g.write_hugging_face(folder, small, g.make_weights(small))
    message = refused(folder)
    assert "vocab.json" in message and "1000 rows" in message, message
    # llm.c's file cut short.
    cut = copy_with(models["llmc_v3"][0], str(tmp_path / "llmc_cut"),
                    lambda d: rewrite(os.path.join(d, "gpt2_124M.bin"), lambda b: b[:-100]))
    message = refused(cut)
    assert "gpt2_124M.bin" in message and "truncated" in message, message


def nanogpt_state(c, w, compiled):
    """nanoGPT's state dict (model.py: nn.Linear out × in, bias=False, lm_head tied to wte)."""
    prefix = "_orig_mod." if compiled else ""
    s = {prefix + "transformer.wte.weight": w["wte"], prefix + "transformer.wpe.weight": w["wpe"]}
    for l, p in enumerate(w["layers"]):
        at = f"{prefix}transformer.h.{l}."
        s[at + "ln_1.weight"], s[at + "ln_2.weight"] = p["ln1_g"], p["ln2_g"]
        s[at + "attn.c_attn.weight"] = torch.cat([p["wq"], p["wk"], p["wv"]], 1).T
        s[at + "attn.c_proj.weight"] = p["wo"].T
        s[at + "mlp.c_fc.weight"], s[at + "mlp.c_proj.weight"] = p["fc"].T, p["proj"].T
    s[prefix + "transformer.ln_f.weight"] = w["lnf_g"]
    s[prefix + "lm_head.weight"] = w["wte"]
    return {k: v.float() for k, v in s.items()}


def test_a_nanogpt_character_checkpoint_through_the_export(tmp_path):
    chars = sorted(set(TEXT + "abcdefghijklmnopqrstuvwxyz"))
    c = g.Config(seed=9, vocab=len(chars), activation="gelu")
    w = g.make_weights(c)
    # bias=False: every bias zero, as the export writes them.
    for p in w["layers"]:
        for k in ("ln1_b", "ln2_b", "bo", "fc_b", "proj_b", "bq", "bk", "bv"):
            p[k] = torch.zeros_like(p[k])
    w["lnf_b"] = torch.zeros_like(w["lnf_b"])
    w = g.rounded(w, "F32")
    args = {"n_layer": c.layers, "n_head": c.heads, "n_embd": c.d_model, "block_size": c.context,
            "bias": False, "vocab_size": c.vocab, "dropout": 0.0}
    torch.save({"model": nanogpt_state(c, w, compiled=True), "model_args": args, "iter_num": 5000}, tmp_path / "ckpt.pt")
    import pickle
    with open(tmp_path / "meta.pkl", "wb") as f:
        pickle.dump({"vocab_size": len(chars), "itos": dict(enumerate(chars)), "stoi": {ch: i for i, ch in enumerate(chars)}}, f)
    out = tmp_path / "exported"
    done = subprocess.run(["/usr/bin/python3", "-m", "attention_lab", "export", str(tmp_path / "ckpt.pt"), "--meta",
                           str(tmp_path / "meta.pkl"), "--out", str(out)], cwd=os.path.join(g.ROOT, "python"),
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    got = dump(str(out), TEXT, "--at", "5")
    assert got["model"]["tokenizer"] == "characters" and got["model"]["vocabulary"] == len(chars)
    ids = got["tokens"]
    assert ids == [chars.index(ch) for ch in TEXT]
    want = g.forward(c, w, ids)
    for i, l in enumerate(want["loss"]):
        assert close(got["loss"][i], l), f"loss at {i}"
    value, parts = g.attribution(c, w, want, 5, ids[6])
    by_name = {p["part"]: p["direct"] for p in got["attribution"]["parts"]}
    for part, v in parts.items():
        assert close(by_name[part], v), part
    # A file that is not a checkpoint is refused by name.
    (tmp_path / "not.pt").write_bytes(b"not a pickle")
    bad = subprocess.run(["/usr/bin/python3", "-m", "attention_lab", "export", str(tmp_path / "not.pt"), "--out", str(out)],
                         cwd=os.path.join(g.ROOT, "python"), capture_output=True, text=True)
    assert bad.returncode == 2 and "not.pt" in bad.stderr, bad.stderr
