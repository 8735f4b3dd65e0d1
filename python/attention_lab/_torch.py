"""torch.nn.MultiheadAttention's per-head q, k, v and mask, as its forward pass makes them
(torch.nn.functional.multi_head_attention_forward), for show_mha(). Imported only when a
module is given, so NumPy users need no PyTorch.
"""

import warnings

import numpy as np
import torch
import torch.nn.functional as F


def _tensor(name, x, features, feature_name):
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"{name}: expected a torch.Tensor, got {type(x).__name__}")
    if not x.is_floating_point():
        raise TypeError(f"{name}: dtype {x.dtype} is not supported; pass floating-point values")
    if x.dim() not in (2, 3) or x.shape[-1] != features:
        raise ValueError(f"{name}: expected shape (n, {features}) or a batch of them ({feature_name} = {features}); "
                         f"got {tuple(x.shape)}")
    return x.detach()


def _sequence_first(module, name, x):
    """(n, batch, features), as the forward pass works."""
    if x.dim() == 2:
        return x.unsqueeze(1)
    return x.transpose(0, 1) if module.batch_first else x


def _blocked(name, mask, shape_text, expected):
    """A PyTorch mask as booleans, True = blocked: boolean masks as they are, float masks
    (added to the scores) where they add -inf; other added values cannot be shown."""
    if not isinstance(mask, torch.Tensor):
        raise TypeError(f"{name}: expected a torch.Tensor, got {type(mask).__name__}")
    mask = mask.detach().cpu()
    if tuple(mask.shape) not in expected:
        raise ValueError(f"{name}: expected shape {shape_text}; got {tuple(mask.shape)}")
    if mask.dtype == torch.bool:
        return mask
    if not mask.is_floating_point():
        raise TypeError(f"{name}: dtype {mask.dtype} is not supported; pass booleans (True = blocked) or floats")
    other = (mask != 0) & (mask != float("-inf"))
    if other.any():
        raise ValueError(f"{name}: the added value {mask[other][0].item():g} is neither 0 nor -inf; the lab shows "
                         "a mask only as removed cells")
    return mask == float("-inf")


def mha_inputs(module, query, key, value, key_padding_mask, attn_mask):
    """(q, k, v, allowed): per-head float tensors of shape (batch, heads, n, head_dim) and the
    contract's mask (batch, heads, n_q, n_k), True = may attend, or None."""
    if not isinstance(module, torch.nn.MultiheadAttention):
        raise TypeError(f"module: expected a torch.nn.MultiheadAttention, got {type(module).__name__}")
    E, H = module.embed_dim, module.num_heads
    key = query if key is None else key
    value = key if value is None else value
    query = _tensor("query", query, E, "embed_dim")
    key = _tensor("key", key, module.kdim, "kdim")
    value = _tensor("value", value, module.vdim, "vdim")
    if not query.dim() == key.dim() == value.dim():
        raise ValueError(f"key, value: expected {query.dim()} axes like query; got {tuple(key.shape)}, {tuple(value.shape)}")
    if key.shape[:-1] != value.shape[:-1]:
        raise ValueError(f"value: shape {tuple(value.shape)} does not match key's {tuple(key.shape)} but for its features")
    unbatched = query.dim() == 2
    query, key, value = (_sequence_first(module, n, x) for n, x in (("query", query), ("key", key), ("value", value)))
    L, N, _ = query.shape
    S = key.shape[0]
    if key.shape[1] != N:
        raise ValueError(f"key: a batch of {key.shape[1]}, but query has {N}")
    if module.training and module.dropout > 0:
        warnings.warn("module: in training mode its dropout drops weights at random; the lab shows them "
                      "without dropout, as module.eval() computes them", stacklevel=3)

    with torch.no_grad():
        if module._qkv_same_embed_dim:
            w_q, w_k, w_v = module.in_proj_weight.chunk(3)
        else:
            w_q, w_k, w_v = module.q_proj_weight, module.k_proj_weight, module.v_proj_weight
        b_q, b_k, b_v = (None,) * 3 if module.in_proj_bias is None else module.in_proj_bias.chunk(3)
        q, k, v = F.linear(query, w_q, b_q), F.linear(key, w_k, b_k), F.linear(value, w_v, b_v)
        extra = 0  # keys the module adds after the given ones (add_bias_kv, add_zero_attn)
        if module.bias_k is not None:
            k = torch.cat([k, module.bias_k.repeat(1, N, 1)])
            v = torch.cat([v, module.bias_v.repeat(1, N, 1)])
            extra += 1
        if module.add_zero_attn:
            k = torch.cat([k, k.new_zeros(1, N, E)])
            v = torch.cat([v, v.new_zeros(1, N, E)])
            extra += 1
        # (n, batch, E) -> (batch, heads, n, head_dim)
        q, k, v = (t.reshape(t.shape[0], N, H, E // H).permute(1, 2, 0, 3) for t in (q, k, v))

    blocked = torch.zeros(N, H, L, S, dtype=torch.bool)
    if attn_mask is not None:
        m = _blocked("attn_mask", attn_mask, f"({L}, {S}) or ({N * H}, {L}, {S})", ((L, S), (N * H, L, S)))
        blocked |= m.reshape(-1, H, L, S) if m.dim() == 3 else m
    if key_padding_mask is not None:
        shape = (S,) if unbatched else (N, S)
        m = _blocked("key_padding_mask", key_padding_mask, str(shape).replace(",)", ")"), (shape,))
        blocked |= m.reshape(N, 1, 1, S)
    if attn_mask is None and key_padding_mask is None:
        return q, k, v, None
    # The added keys are never blocked (PyTorch pads its masks with 0 / False for them).
    allowed = torch.cat([~blocked, blocked.new_ones(N, H, L, extra)], dim=3)
    return q, k, v, np.asarray(allowed.numpy())


def layers_inputs(modules, queries, keys, values, key_padding_mask, attn_mask):
    """mha_inputs() of each layer: modules, and lists of their queries (keys, values: lists or
    None), the masks shared by every layer."""
    count = len(modules)
    for name, given in (("query", queries), ("key", keys), ("value", values)):
        if given is not None and (not isinstance(given, (list, tuple)) or len(given) != count):
            raise ValueError(f"{name}: expected a list of {count} tensors, one per module")
    pick = lambda given, i: None if given is None else given[i]  # noqa: E731
    return [mha_inputs(m, queries[i], pick(keys, i), pick(values, i), key_padding_mask, attn_mask)
            for i, m in enumerate(modules)]
