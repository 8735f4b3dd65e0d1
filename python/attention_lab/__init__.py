"""Attention Lab in notebooks: softmax(QKᵀ/√d_k)V shown step by step, from NumPy arrays, torch
tensors or a torch.nn.MultiheadAttention, entirely offline (docs/notebooks.md).

    import attention_lab
    attention_lab.show(q, k, v, tokens=["the", "cat", "sat"], causal=True)
    attention_lab.show_mha(layer.self_attn, x, tokens=tokens, head=3)
    attention_lab.save_html("attention.html", q, k, v)
    attention_lab.show_model("The cat sat. The cat sat.", ablate=[(2, 0)])
"""

import base64
import importlib.resources
import json
import numbers
import os


from . import _inputs, _limits, _page, _picture

__all__ = ["Lab", "show", "show_mha", "show_model", "save_html"]


def _version():
    path = importlib.resources.files(__name__) / "site" / "VERSION"
    return path.read_text(encoding="ascii").strip() if path.is_file() else "unknown"


__version__ = _version()


class Lab:
    """One lab: shown inline by Jupyter, VS Code and Colab (an iframe of a self-contained
    page, with a still picture for where scripts cannot run), or written to a file by save()."""

    def __init__(self, document, height, picture=None,
                 title="Attention Lab: scaled dot-product attention, step by step"):
        self.document = document  # the standalone page, with the app and the data inside
        self.height = height      # pixels, or None: the content's
        self.picture = picture    # (PNG bytes, its HTML with the caption), or None
        self.title = title        # the output frame's, for a screen reader

    def _repr_html_(self):
        return _page.output(self.document, self.height, self.title, self.picture[1] if self.picture else "")

    def _repr_mimebundle_(self, include=None, exclude=None):
        # A renderer that shows no HTML may still show the picture (image/png).
        bundle = {"text/html": self._repr_html_(), "text/plain": repr(self)}
        if self.picture:
            bundle["image/png"] = base64.b64encode(self.picture[0]).decode("ascii")
        return bundle

    def __repr__(self):
        return f"<attention_lab.Lab: {len(self.document) / 1e6:.1f} MB page>"

    def save(self, path):
        """Writes the page as one HTML file that works from file://, with no network."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.document)
        return path


def _choice(name, value, allowed):
    if value is not None and value not in allowed:
        raise ValueError(f"{name}: expected one of {', '.join(map(repr, allowed))}; got {value!r}")
    return value


def _state(*, step=None, height, lang, theme):
    """The state keys the arguments set, after checking them and the output's height."""
    if height is not None and (isinstance(height, bool) or not isinstance(height, int) or not 200 <= height <= 4000):
        raise ValueError(f"height: expected a whole number of pixels from 200 to 4000, or None (the content's); "
                         f"got {height!r}")
    return {key: value for key, value in (("step", _choice("step", step, _limits.STEPS)),
                                          ("lang", _choice("lang", lang, _limits.LANGUAGES)),
                                          ("theme", _choice("theme", theme, _limits.THEMES)))
            if value is not None}


def _lab(data, *, step, height, lang, theme, name):
    state = _state(step=step, height=height, lang=lang, theme=theme)
    return Lab(_page.document(_page.payload(data, state, name)), height, _picture.picture(data, lang))


def show(q, k, v, *, tokens=None, key_tokens=None, mask=None, causal=False, scale=None, head=0, layer=0, step=None,
         height=None, lang=None, theme=None):
    """The lab showing softmax(q kᵀ · scale + mask) v step by step for one head (`head`), with
    every head's weights beside it, a click away.

    q: (n_q, d_k), (heads, n_q, d_k) or (batch, heads, n_q, d_k); k: (…, n_k, d_k); v: (…, n_k, d_v),
    NumPy arrays or torch tensors of floats, all of one rank; k and v may have fewer heads than q
    (grouped-query attention). Several layers: lists of such arrays, one per layer, all of one
    shape; `layer` is the one the walkthrough opens with. tokens label the queries (and the keys
    when n_q = n_k), key_tokens the keys. mask: booleans, True = may attend (the contract's sense; PyTorch's is the opposite),
    or an additive float mask of 0 and -inf, broadcast against (batch, heads, n_q, n_k). causal:
    False, True ('top_left') or 'bottom_right'. scale: default 1/√d_k. step: the walkthrough's
    step to open ('scores', 'scale', 'mask', 'softmax', 'output'). lang: 'en', 'es' or 'auto';
    theme: 'light', 'dark' or 'auto'. Raises TypeError or ValueError naming the argument.
    """
    data = _inputs.check(q, k, v, tokens=tokens, key_tokens=key_tokens, mask=mask, causal=causal, scale=scale,
                         head=head, layer=layer)
    return _lab(data, step=step, height=height, lang=lang, theme=theme, name="show(q, k, v)")


def show_mha(module, query, key=None, value=None, *, tokens=None, key_tokens=None, key_padding_mask=None,
             attn_mask=None, is_causal=False, head=0, layer=0, step=None, height=None, lang=None, theme=None):
    """The lab showing a torch.nn.MultiheadAttention's attention on query, key, value (key and
    value default to query: self-attention), head `head`, with each head's q, k and v made by the
    module's own projections, so its weights are those of module(query, key, value,
    need_weights=True, average_attn_weights=False). Masks in PyTorch's sense: key_padding_mask
    (batch, n_k) and attn_mask (n_q, n_k) or (batch·heads, n_q, n_k), booleans True = blocked, or
    floats added to the scores (0 or -inf). is_causal: a causal mask (top-left). Several layers:
    a list of modules and a list of their queries (keys and values: lists too, or None), the
    masks the same for every layer. The other arguments are show()'s.
    """
    from . import _torch  # here: only a module's user needs PyTorch

    if isinstance(module, (list, tuple)):
        per_layer = _torch.layers_inputs(module, query, key, value, key_padding_mask, attn_mask)
        q, k, v = ([inputs[i] for inputs in per_layer] for i in range(3))
        allowed = per_layer[0][3]  # the masks are every layer's
    else:
        q, k, v, allowed = _torch.mha_inputs(module, query, key, value, key_padding_mask, attn_mask)
    data = _inputs.check(q, k, v, tokens=tokens, key_tokens=key_tokens, mask=allowed, causal=is_causal, head=head,
                         layer=layer)
    return _lab(data, step=step, height=height, lang=lang, theme=theme, name="show_mha(module, …)")


def _ablate_link(ablate, model):
    """(layer, head) pairs as the link's ablate= ("1.2,0.3"), each a head the model has."""
    try:
        heads = [tuple(h) for h in ablate]
    except TypeError:
        heads = None
    if heads is None or any(len(h) != 2 or any(isinstance(i, bool) or not isinstance(i, numbers.Integral) for i in h) for h in heads):
        raise TypeError(f"ablate: expected (layer, head) pairs of whole numbers, e.g. [(1, 0)]; got {ablate!r}")
    for layer, head in heads:
        if not (0 <= layer < model["layers"] and 0 <= head < model["heads"]):
            raise ValueError(f"ablate: the model has {model['layers']} layers of {model['heads']} heads (layer 0 to "
                             f"{model['layers'] - 1}, head 0 to {model['heads'] - 1}); got ({layer}, {head})")
    return ",".join(f"{layer}.{head}" for layer, head in heads)


def _character(name, value):
    """A character argument (target, vs, edit's) as its link value: one character, or None."""
    if value is not None and (not isinstance(value, str) or len(value) != 1):
        raise TypeError(f"{name}: expected one character (a str of length 1) or None; got {value!r}")
    return value


def _model_keys(text, model, at, target, vs, edit):
    """show_model's at, target, vs and edit as the link's at=, target=, against=, edit=."""
    read = min(len(text), model["context"])
    if at is not None and (isinstance(at, bool) or not isinstance(at, numbers.Integral) or not 0 <= at < read):
        raise ValueError(f"at: expected the position of a character the model reads, 0 to {read - 1}; got {at!r}")
    keys = {"at": None if at is None else str(int(at)), "target": _character("target", target),
            "against": _character("vs", vs)}
    if vs is not None and vs == target:
        raise ValueError(f"vs: expected a character other than the target; got {vs!r}")
    if edit is not None:
        if not (isinstance(edit, tuple) and len(edit) == 2 and isinstance(edit[0], numbers.Integral)
                and not isinstance(edit[0], bool) and edit[0] >= 0):
            raise TypeError(f"edit: expected (position, character), e.g. (4, 'c'); got {edit!r}")
        keys["edit"] = f"{int(edit[0])}:{_character('edit', edit[1])}"
    return {key: value for key, value in keys.items() if value is not None}


def _model_folder(model):
    """show_model's model=: a folder of a model's files (docs/your-model.md) as {name: bytes},
    and what its config.json says of its shape (layers, heads, context) where it has one."""
    if not isinstance(model, (str, os.PathLike)) or not os.path.isdir(model):
        raise TypeError(f"model: expected the folder of a model's files (docs/your-model.md); got {model!r}")
    files = {}
    for name in sorted(os.listdir(model)):
        path = os.path.join(model, name)
        if os.path.isfile(path):
            with open(path, "rb") as f:
                files[name] = f.read()
    size = sum(len(b) for b in files.values())
    if size > _limits.MAX_MODEL_BYTES:
        raise ValueError(f"model: its files are {size} bytes, over the {_limits.MAX_MODEL_BYTES} an output carries; "
                         "open them in the page with Open model… instead (docs/notebooks.md)")
    if not files:
        raise ValueError(f"model: the folder {model} holds no files")
    shape = None
    if "config.json" in files:
        try:
            c = json.loads(files["config.json"])
            shape = {"layers": c.get("n_layer", c.get("num_layers")), "heads": c.get("n_head", c.get("num_heads")),
                     "context": c.get("n_positions", c.get("max_position_embeddings"))}
        except (ValueError, AttributeError):
            shape = None  # the page names what is wrong with it
        if shape and not all(isinstance(v, int) for v in shape.values()):
            shape = None
    return files, shape


def show_model(text, *, model=None, ablate=(), at=None, target=None, vs=None, edit=None, height=None, lang=None,
               theme=None):
    """The lab's trained language model (docs/model.md) reading `text`, as the site's view=model
    shows it with text= and ablate= in its link: every head's attention map over the text, the
    next character's predictions, the loss at each character and how much each head matters,
    with the heads in `ablate` ((layer, head) pairs) switched off (their output zeroed); every
    head's circuits (what it writes, what it looks for) and how the heads compose. In the page,
    attentionLab.experiment() gives those numbers. text: a str of at most 2048 bytes of UTF-8;
    the model reads its first 128 characters (its context), and characters it does not know as
    "�", and says so. at: the chosen character's position (default: the last), where the logit
    of `target` (one character; default: the next one in the text) is split into the
    embedding's part and each head's; vs: a second character, to split logit(target) −
    logit(vs) instead (the link's against=). edit: (position, character), on a text typed twice
    the first copy's character changed, to see the second copy follow. model: the folder of a
    model of your own (docs/your-model.md: Hugging Face's safetensors with config.json and its
    tokenizer, llm.c's files, nanoGPT's export), carried inside the output up to
    MAX_MODEL_BYTES and opened as the page's Open model… opens it; a position or a character
    there is one of its tokens. The other arguments are show()'s. Raises TypeError or ValueError
    naming the argument.
    """
    if not isinstance(text, str):
        raise TypeError(f"text: expected a str; got {type(text).__name__}")
    size = len(text.encode("utf-8", errors="surrogatepass"))
    if size > _limits.MAX_TEXT_BYTES:
        raise ValueError(f"text: expected at most {_limits.MAX_TEXT_BYTES} bytes of UTF-8; got {size}")
    state = _state(height=height, lang=lang, theme=theme)
    state.update(view="model", text=text)
    if model is None:
        shape = _page.model_report()["model"]
        state.update(ablate=_ablate_link(ablate, shape), **_model_keys(text, shape, at, target, vs, edit))
        payload = _page.model_payload(state)
    else:
        files, shape = _model_folder(model)
        # Its heads and positions are checked against its config where it has one, else by the view.
        shape = shape or {"layers": 1 << 30, "heads": 1 << 30, "context": len(text)}
        keys = {"ablate": _ablate_link(ablate, shape), **_model_keys(text, shape, at, target, vs, edit)}
        payload = _page.model_payload(state, files, keys)
    return Lab(_page.document(payload), height, title="Attention Lab: a trained language model's attention heads on a text")


def save_html(path, *args, **kwargs):
    """Writes a lab as one standalone HTML file that works from file://: save_html(path, lab)
    for a Lab that show(), show_mha() or show_model() returned, or save_html(path, q, k, v, **show's arguments)."""
    lab = args[0] if len(args) == 1 and not kwargs and isinstance(args[0], Lab) else show(*args, **kwargs)
    return lab.save(path)
