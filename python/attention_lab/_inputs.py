"""show()'s arguments checked and put in the contract's terms (docs/contract.md).

Every problem is a TypeError or ValueError whose message begins with the argument's name, as
the lab's own errors begin with the field's, and is raised before anything is displayed.
"""

import math
import warnings
from dataclasses import dataclass
from typing import Optional

import numpy as np

from . import _limits


@dataclass
class Data:
    """What a lab shows: float32 q, k, v of shape (layers, batch, heads, n, d) and a boolean
    mask (True = may attend) of a shape that broadcasts to (batch, heads, n_q, n_k), or None."""

    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    mask: Optional[np.ndarray]
    causal: object  # False, "top_left" or "bottom_right"
    scale: Optional[float]  # None: 1/sqrt(d_k)
    head: int
    layer: int
    layered: bool  # given as lists, one array per layer (even of one)
    query_tokens: Optional[list]
    key_tokens: Optional[list]


def _is_torch(x):
    return type(x).__module__.split(".")[0] == "torch"


def to_numpy(name, x):
    """An array of x without copying where it can: NumPy arrays, torch tensors (on any
    device, with or without grad), nested lists."""
    if _is_torch(x):
        import torch  # only here: a torch object was passed, so torch is installed

        if not isinstance(x, torch.Tensor):
            raise TypeError(f"{name}: expected an array or a tensor, got {type(x).__name__}")
        x = x.detach().cpu()
        if x.dtype == torch.bfloat16:  # NumPy has no bfloat16; float32 holds it exactly
            x = x.float()
        return x.numpy()
    try:
        return np.asarray(x)
    except (TypeError, ValueError) as e:
        raise TypeError(f"{name}: not an array ({e})") from None


def _index_text(name, array, flat):
    return f"{name}[{', '.join(str(int(i)) for i in np.unravel_index(flat, array.shape))}]"


def real_tensor(name, x):
    """x as float32, refusing what the lab cannot show: other dtypes, NaN and infinities,
    entries beyond its ±limit."""
    a = to_numpy(name, x)
    if a.dtype.kind != "f":
        raise TypeError(f"{name}: dtype {a.dtype} is not supported; pass floating-point values "
                        "(float16, bfloat16, float32 or float64)")
    if a.ndim < 2 or a.ndim > 4:
        raise ValueError(f"{name}: expected 2 to 4 axes, (n, d), (heads, n, d) or (batch, heads, n, d); "
                         f"got shape {a.shape}")
    if 0 in a.shape:
        raise ValueError(f"{name}: shape {a.shape} has an empty axis")
    if a.size > _limits.MAX_TENSOR_ELEMENTS:
        raise ValueError(f"{name}: {a.size} entries, more than the lab's {_limits.MAX_TENSOR_ELEMENTS}")
    finite = np.isfinite(a)
    if not finite.all():
        flat = int(np.argmin(finite.reshape(-1)))
        raise ValueError(f"{_index_text(name, a, flat)} is {a.reshape(-1)[flat]}, not a finite number")
    magnitude = np.abs(a)
    if magnitude.max() > _limits.MAX_VALUE:
        flat = int(np.argmax(magnitude.reshape(-1)))
        raise ValueError(f"{_index_text(name, a, flat)} is {a.reshape(-1)[flat]:g}, outside ±{_limits.MAX_VALUE:g}, "
                         "the largest entry the lab shows (dividing q and k by c and multiplying the scale "
                         "by c² keeps the weights)")
    return a.astype(np.float32, copy=False)


def _rank4(a):
    return a.reshape((1,) * (4 - a.ndim) + a.shape)


def _check_shapes(q, k, v, at=""):
    """q, k, v of one layer (`at`: its name in messages) as (batch, heads, n, d), fitting each other."""
    if not q.ndim == k.ndim == v.ndim:
        raise ValueError(f"{at}k, v: expected {q.ndim} axes like q (shape {q.shape}); got k {k.shape}, v {v.shape}")
    q, k, v = _rank4(q), _rank4(k), _rank4(v)
    (batch, heads, nq, dk), (_, kv_heads, nk, _) = q.shape, k.shape
    if k.shape[0] != batch or v.shape[0] != batch:
        raise ValueError(f"{at}k, v: batch {k.shape[0]} and {v.shape[0]}, but q has {batch} sequences")
    if k.shape[3] != dk:
        raise ValueError(f"{at}k: d_k is {k.shape[3]} but q's is {dk} (q {q.shape[2:]}, k {k.shape[2:]})")
    if v.shape[1] != kv_heads or v.shape[2] != nk:
        raise ValueError(f"{at}v: shape {v.shape} has {v.shape[1]} heads and {v.shape[2]} rows; "
                         f"k has {kv_heads} and {nk}")
    if heads % kv_heads:
        raise ValueError(f"{at}k: {kv_heads} heads do not divide q's {heads} (grouped-query attention shares "
                         "each K/V head among an equal number of query heads)")
    for name, size in ((f"{at}q: n_q", nq), (f"{at}k: n_k", nk)):
        if size > _limits.MAX_N:
            raise ValueError(f"{name} is {size}, more than the lab's {_limits.MAX_N}")
    for name, size in ((f"{at}q: d_k", dk), (f"{at}v: d_v", v.shape[3])):
        if size > _limits.MAX_D:
            raise ValueError(f"{name} is {size}, more than the lab's {_limits.MAX_D}")
    return q, k, v


def _mask(mask, shape):
    """The contract's boolean mask (True = may attend) from a boolean one, or from an
    additive one of 0 and -inf (the only additive values the walkthrough can show)."""
    m = to_numpy("mask", mask)
    if m.dtype.kind == "f":
        if np.isnan(m).any() or not np.isin(m, (0.0, -np.inf)).all():
            bad = m[~np.isin(m, (0.0, -np.inf))].reshape(-1)[0]
            raise ValueError(f"mask: the additive value {bad} is neither 0 nor -inf; the lab shows a mask only "
                             "as removed cells (pass booleans, True = may attend)")
        m = m == 0.0
    elif m.dtype != np.bool_:
        raise TypeError(f"mask: dtype {m.dtype} is not supported; pass booleans (True = may attend) "
                        "or an additive float mask of 0 and -inf")
    if m.ndim < 2 or m.ndim > 4:
        raise ValueError(f"mask: expected 2 to 4 axes, broadcast against (batch, heads, n_q, n_k); got shape {m.shape}")
    try:
        np.broadcast_shapes(m.shape, shape)
    except ValueError:
        raise ValueError(f"mask: shape {m.shape} does not broadcast to (batch, heads, n_q, n_k) = {shape}") from None
    return _rank4(m)


def _causal(causal):
    if causal is False or causal is None:
        return False
    if causal is True:
        return "top_left"
    if causal in ("top_left", "bottom_right"):
        return causal
    raise ValueError(f"causal: expected False, True, 'top_left' or 'bottom_right'; got {causal!r}")


def _scale(scale):
    if scale is None:
        return None
    if isinstance(scale, bool) or not isinstance(scale, (int, float, np.floating, np.integer)):
        raise TypeError(f"scale: expected a number, got {type(scale).__name__}")
    scale = float(scale)
    if not math.isfinite(scale) or abs(scale) > _limits.MAX_CUSTOM_SCALE:
        raise ValueError(f"scale: {scale:g} is outside ±{_limits.MAX_CUSTOM_SCALE:g}, the lab's limit")
    return scale


def _tokens(name, tokens, count, axis):
    if tokens is None:
        return None
    if isinstance(tokens, str) or not hasattr(tokens, "__len__"):
        raise TypeError(f"{name}: expected a list of strings, got {type(tokens).__name__}")
    tokens = list(tokens)
    if len(tokens) != count:
        raise ValueError(f"{name}: {len(tokens)} tokens, but the data has {count} {axis}")
    for i, t in enumerate(tokens):
        if not isinstance(t, str):
            raise TypeError(f"{name}[{i}]: expected a string, got {type(t).__name__}")
        if len(t.encode("utf-8")) > _limits.MAX_TOKEN_BYTES:
            raise ValueError(f"{name}[{i}]: longer than {_limits.MAX_TOKEN_BYTES} bytes (an axis label)")
    return tokens


def _shown_batches(data):
    """As many sequences as the walkthrough keeps (src/model/load.cpp); the rest are not sent."""
    _, batch, _, nq, _ = data.q.shape
    nk = data.k.shape[3]
    shown = min(batch, _limits.MAX_BATCH, max(1, _limits.MAX_BATCH_SCORES // (nq * nk)))
    if shown < batch:
        warnings.warn(f"q: the lab shows the first {shown} of {batch} sequences at this size", stacklevel=4)
        data.q, data.k, data.v = data.q[:, :shown], data.k[:, :shown], data.v[:, :shown]
        if data.mask is not None and data.mask.shape[0] > 1:
            data.mask = data.mask[:shown]
    return data


def _layers(q, k, v):
    """Each layer's q, k, v checked, as lists: one layer's arrays, or lists of one array per
    layer, all of one shape."""
    if not isinstance(q, (list, tuple)):
        return [_check_shapes(real_tensor("q", q), real_tensor("k", k), real_tensor("v", v))]
    for name, given in (("k", k), ("v", v)):
        if not isinstance(given, (list, tuple)) or len(given) != len(q):
            raise ValueError(f"{name}: expected a list of {len(q)} arrays like q, one per layer")
    if not q:
        raise ValueError("q: an empty list of layers")
    layers = []
    for i, arrays in enumerate(zip(q, k, v)):
        at = f"layer {i} " if len(q) > 1 else ""
        layers.append(_check_shapes(*(real_tensor(at + n, a) for n, a in zip("qkv", arrays)), at=at))
        for n, a, first in zip("qkv", layers[-1], layers[0]):
            if a.shape != first.shape:
                raise ValueError(f"{at}{n}: shape {a.shape} differs from layer 0's {first.shape}; the lab shows "
                                 "the layers' heads side by side")
    return layers


def check(q, k, v, *, tokens=None, key_tokens=None, mask=None, causal=False, scale=None, head=0, layer=0):
    """show()'s data checked: a Data, or a TypeError/ValueError naming the argument. q, k, v:
    one layer's arrays, or lists of one array per layer."""
    layers = _layers(q, k, v)
    (batch, heads, nq, _), nk = layers[0][0].shape, layers[0][1].shape[2]
    if isinstance(head, bool) or not isinstance(head, (int, np.integer)) or not 0 <= head < heads:
        raise ValueError(f"head: expected a head from 0 to {heads - 1}, the heads of q; got {head!r}")
    if isinstance(layer, bool) or not isinstance(layer, (int, np.integer)) or not 0 <= layer < len(layers):
        raise ValueError(f"layer: expected a layer from 0 to {len(layers) - 1}, the layers given; got {layer!r}")
    if key_tokens is None and tokens is not None and nq == nk:
        key_tokens = tokens  # self-attention: one list labels both axes
    data = Data(q=np.stack([t[0] for t in layers]), k=np.stack([t[1] for t in layers]),
                v=np.stack([t[2] for t in layers]),
                mask=None if mask is None else _mask(mask, (batch, heads, nq, nk)),
                causal=_causal(causal), scale=_scale(scale), head=int(head), layer=int(layer),
                layered=isinstance(q, (list, tuple)),
                query_tokens=_tokens("tokens", tokens, nq, "queries"),
                key_tokens=_tokens("key_tokens", key_tokens, nk, "keys"))
    return _shown_batches(data)
