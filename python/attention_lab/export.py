"""nanoGPT's checkpoint as files the lab opens (docs/your-model.md, "nanoGPT"):

    python3 -m attention_lab export ckpt.pt [--meta meta.pkl] --out DIR

writes DIR/model.safetensors and DIR/config.json in Hugging Face's GPT-2 layout, and with
--meta (a character run such as shakespeare_char) DIR/vocab.json, the run's characters by id.
nanoGPT (karpathy/nanoGPT, model.py) differs from Hugging Face's GPT-2 in four ways handled
here: nn.Linear's weights are out × in where GPT-2's Conv1D are in × out; a compiled model's
names start with "_orig_mod."; bias=False leaves out every bias (written as zeros); its MLP's
nn.GELU() is the erf form (activation_function "gelu"). The tied lm_head is left out, as
save_pretrained leaves it out.
"""
import json
import os
import pickle
import struct

TRANSPOSED = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def _safetensors(tensors):
    """huggingface/safetensors's layout: a u64 header length, the JSON header (padded with
    spaces to a multiple of 8), then each tensor's little-endian float32 bytes."""
    header, blobs, at = {"__metadata__": {"format": "pt"}}, [], 0
    for name, t in tensors.items():
        raw = t.detach().to("cpu").float().contiguous().numpy().astype("<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(t.shape), "data_offsets": [at, at + len(raw)]}
        blobs.append(raw)
        at += len(raw)
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + b"".join(blobs)


def convert(state, args):
    """A nanoGPT state dict and its model_args as (tensors, config) in GPT-2's layout."""
    import torch

    state = {k[len("_orig_mod."):] if k.startswith("_orig_mod.") else k: v for k, v in state.items()}
    layers, d = int(args["n_layer"]), int(args["n_embd"])
    out = {}
    for name, t in state.items():
        if name.endswith(".attn.bias") or name == "lm_head.weight":
            continue  # the causal mask buffer; the head tied to wte (checked below)
        out[name] = t.t().contiguous() if name.endswith(TRANSPOSED) else t
    if "lm_head.weight" in state and not torch.equal(state["lm_head.weight"], state["transformer.wte.weight"]):
        out["lm_head.weight"] = state["lm_head.weight"]
    # bias=False: the biases GPT-2 has, as zeros.
    zeros = lambda n: torch.zeros(n, dtype=state["transformer.wte.weight"].dtype)
    for l in range(layers):
        at = f"transformer.h.{l}."
        for name, n in (("ln_1.bias", d), ("ln_2.bias", d), ("attn.c_attn.bias", 3 * d), ("attn.c_proj.bias", d),
                        ("mlp.c_fc.bias", 4 * d), ("mlp.c_proj.bias", d)):
            out.setdefault(at + name, zeros(n))
    out.setdefault("transformer.ln_f.bias", zeros(d))
    config = {"model_type": "gpt2", "n_layer": layers, "n_head": int(args["n_head"]), "n_embd": d,
              "n_positions": int(args["block_size"]), "vocab_size": int(args["vocab_size"]),
              "activation_function": "gelu", "layer_norm_epsilon": 1e-5, "n_inner": None,
              "_name_or_path": args.get("name", "nanogpt")}
    return out, config


def export(checkpoint, out, meta=None):
    import torch

    try:
        ckpt = torch.load(checkpoint, map_location="cpu")
    except (pickle.UnpicklingError, RuntimeError, EOFError) as e:
        raise ValueError(f"{checkpoint}: not a PyTorch checkpoint ({e})") from e
    if not isinstance(ckpt, dict) or "model" not in ckpt or "model_args" not in ckpt:
        raise ValueError(f"{checkpoint}: not a nanoGPT checkpoint (expected a dict with 'model' and 'model_args')")
    args = dict(ckpt["model_args"], name=os.path.splitext(os.path.basename(checkpoint))[0])
    tensors, config = convert(ckpt["model"], args)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "model.safetensors"), "wb") as f:
        f.write(_safetensors(tensors))
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(config, f, indent=1)
    if meta:
        with open(meta, "rb") as f:
            itos = pickle.load(f)["itos"]
        with open(os.path.join(out, "vocab.json"), "w", encoding="utf-8") as f:
            json.dump({ch: int(i) for i, ch in itos.items()}, f, ensure_ascii=False)
    return out
