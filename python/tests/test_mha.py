"""show_mha(): each head's q, k, v from the module's own weights and PyTorch's masks in the
contract's sense, so the weights are PyTorch's: module(..., need_weights=True,
average_attn_weights=False), for every layout the module has."""

import itertools

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import attention_lab  # noqa: E402
from attention_lab import _inputs, _torch  # noqa: E402
from reference import weights  # noqa: E402

E, H, N, L, S = 8, 2, 3, 4, 5


def inputs(module, unbatched=False):
    def t(n, features):
        shape = (n, features) if unbatched else (N, n, features) if module.batch_first else (n, N, features)
        return torch.randn(*shape)
    return t(L, E), t(S, module.kdim), t(S, module.vdim)


def torch_weights(module, query, key, value, **masks):
    with torch.no_grad():
        _, w = module(query, key, value, need_weights=True, average_attn_weights=False, **masks)
    return w.double().numpy().reshape(-1, H, w.shape[-2], w.shape[-1])


LAYOUTS = [dict(batch_first=bf, bias=bias, kdim=kdim, vdim=vdim, **extra)
           for bf, bias, (kdim, vdim), extra in itertools.product(
               (False, True), (True, False), ((None, None), (6, 5)),
               ({}, {"add_bias_kv": True}, {"add_zero_attn": True}))]


@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda d: ",".join(f"{k}={v}" for k, v in d.items()))
def test_weights_are_pytorchs_per_head(layout):
    torch.manual_seed(1)
    module = torch.nn.MultiheadAttention(E, H, **layout).eval()
    query, key, value = inputs(module)
    padding = torch.zeros(N, S, dtype=torch.bool)
    padding[1, 3:] = True  # the second sequence is 3 keys long
    causal = torch.triu(torch.ones(L, S, dtype=torch.bool), diagonal=1)
    for masks in ({}, {"key_padding_mask": padding}, {"attn_mask": causal},
                  {"key_padding_mask": padding, "attn_mask": causal.float().masked_fill(causal, float("-inf"))}):
        q, k, v, allowed = _torch.mha_inputs(module, query, key, value, masks.get("key_padding_mask"),
                                             masks.get("attn_mask"))
        assert q.shape == (N, H, L, E // H) and k.shape[:2] == (N, H) and v.shape[:2] == (N, H)
        np.testing.assert_allclose(weights(q, k, allowed), torch_weights(module, query, key, value, **masks),
                                   atol=1e-6)


def test_per_head_masks_and_unbatched_input():
    torch.manual_seed(2)
    module = torch.nn.MultiheadAttention(E, H).eval()
    query, key, value = inputs(module, unbatched=True)
    per_head = torch.rand(H, L, S) > 0.6
    per_head[..., 0] = False  # every query keeps a key
    q, k, v, allowed = _torch.mha_inputs(module, query, key, value, None, per_head)
    assert q.shape == (1, H, L, E // H)
    np.testing.assert_allclose(weights(q, k, allowed), torch_weights(module, query, key, value, attn_mask=per_head),
                               atol=1e-6)


def test_key_defaults_to_query_and_value_to_key():
    module = torch.nn.MultiheadAttention(E, H, batch_first=True).eval()
    x = torch.randn(N, L, E)
    q, k, v, _ = _torch.mha_inputs(module, x, None, None, None, None)
    np.testing.assert_allclose(weights(q, k), torch_weights(module, x, x, x), atol=1e-6)


def test_bad_modules_inputs_and_masks_are_named():
    module = torch.nn.MultiheadAttention(E, H, batch_first=True)
    x = torch.randn(N, L, E)
    cases = [
        (TypeError, r"^module: expected a torch.nn.MultiheadAttention, got Linear", (torch.nn.Linear(E, E), x), {}),
        (TypeError, r"^query: expected a torch.Tensor, got ndarray", (module, x.numpy()), {}),
        (ValueError, r"^query: expected shape \(n, 8\) or a batch of them \(embed_dim = 8\); got \(3, 4, 7\)",
         (module, torch.randn(N, L, 7)), {}),
        (TypeError, r"^query: dtype torch.int64 is not supported", (module, torch.ones(N, L, E, dtype=torch.long)), {}),
        (ValueError, r"^key: a batch of 2, but query has 3", (module, x, torch.randn(2, S, E)), {}),
        (ValueError, r"^key_padding_mask: expected shape \(3, 4\); got \(4, 3\)", (module, x),
         {"key_padding_mask": torch.zeros(L, N, dtype=torch.bool)}),
        (ValueError, r"^attn_mask: the added value 0.5 is neither 0 nor -inf", (module, x),
         {"attn_mask": torch.full((L, L), 0.5)}),
        (ValueError, r"^attn_mask: expected shape \(4, 4\) or \(6, 4, 4\)", (module, x),
         {"attn_mask": torch.zeros(2, L, L, dtype=torch.bool)}),
        (ValueError, r"^head: expected a head from 0 to 1", (module, x), {"head": 2}),
    ]
    for kind, pattern, args, kwargs in cases:
        with pytest.raises(kind, match=pattern):
            attention_lab.show_mha(*args, **kwargs)


def test_training_mode_with_dropout_warns():
    module = torch.nn.MultiheadAttention(E, H, dropout=0.1, batch_first=True).train()
    with pytest.warns(UserWarning, match="dropout"):
        _torch.mha_inputs(module, torch.randn(1, L, E), None, None, None, None)


def test_show_takes_tensors_with_grad_and_bfloat16():
    q = torch.randn(2, 3, 4, requires_grad=True)
    k = torch.randn(2, 5, 4).to(torch.bfloat16)
    d = _inputs.check(q, k, torch.randn(2, 5, 6, dtype=torch.float64))
    np.testing.assert_array_equal(d.q[0, 0], q.detach().numpy())
    np.testing.assert_array_equal(d.k[0, 0], k.float().numpy())
    assert d.v.dtype == np.float32
    with pytest.raises(TypeError, match=r"^q: dtype int32 is not supported"):
        _inputs.check(torch.ones(3, 4, dtype=torch.int32), k[0], k[0])


def test_several_layers_are_each_modules_own():
    torch.manual_seed(3)
    modules = [torch.nn.MultiheadAttention(E, H, batch_first=True).eval() for _ in range(3)]
    xs = [torch.randn(N, L, E) for _ in modules]
    padding = torch.zeros(N, L, dtype=torch.bool)
    padding[0, -1] = True
    layers = _torch.layers_inputs(modules, xs, None, None, padding, None)
    for (q, k, v, allowed), module, x in zip(layers, modules, xs):
        np.testing.assert_allclose(weights(q, k, allowed), torch_weights(module, x, x, x, key_padding_mask=padding),
                                   atol=1e-6)
    lab = attention_lab.show_mha(modules, xs, key_padding_mask=padding, layer=1, head=1)
    assert '"layered":true' in lab.document and '"layer":1' in lab.document
    with pytest.raises(ValueError, match=r"^query: expected a list of 3 tensors, one per module"):
        attention_lab.show_mha(modules, xs[:2])
