"""show()'s checks: every problem a TypeError or ValueError naming the argument, raised before
anything is displayed; good data in the contract's terms."""

import re
import warnings

import numpy as np
import pytest

import attention_lab
from attention_lab import _inputs, _limits

rng = np.random.default_rng(7)


def qkv(*lead, nq=3, nk=4, dk=2, dv=5, kv_heads=None):
    heads_kv = lead[:-1] + (kv_heads,) if kv_heads else lead
    return (rng.standard_normal(lead + (nq, dk)), rng.standard_normal(heads_kv + (nk, dk)),
            rng.standard_normal(heads_kv + (nk, dv)))


def raises(kind, pattern, *args, **kwargs):
    with pytest.raises(kind, match=pattern):
        attention_lab.show(*args, **kwargs)


def test_ranks_two_to_four_become_layers_batch_heads_n_d_in_float32():
    for lead in ((), (2,), (3, 2)):
        q, k, v = qkv(*lead)
        d = _inputs.check(q, k, v)
        assert d.q.dtype == np.float32 and d.q.ndim == 5 and d.q.shape[0] == 1 and not d.layered
        assert d.q.shape[-2:] == (3, 2) and d.v.shape[-2:] == (4, 5)
        np.testing.assert_array_equal(d.q.reshape(q.shape), q.astype(np.float32))


def test_grouped_query_heads_are_kept():
    q, k, v = qkv(1, 4, kv_heads=2)
    d = _inputs.check(q, k, v, head=3)
    assert d.q.shape[2] == 4 and d.k.shape[2] == 2 and d.head == 3


def test_shapes_that_do_not_fit_name_the_tensor():
    q, k, v = qkv(2)
    raises(ValueError, r"^k, v: expected 3 axes like q", q, k[0], v[0])
    raises(ValueError, r"^k: d_k is 3 but q's is 2", q, rng.standard_normal((2, 4, 3)), v)
    raises(ValueError, r"^v: shape .* has 2 heads and 5 rows; k has 2 and 4", q, k, rng.standard_normal((2, 5, 5)))
    q4, k4, v4 = qkv(1, 3, kv_heads=2)
    raises(ValueError, r"^k: 2 heads do not divide q's 3", q4, k4, v4)
    raises(ValueError, r"^k, v: batch 1 and 1, but q has 2", rng.standard_normal((2, 1, 3, 2)), k4[:, :1], v4[:, :1])
    raises(ValueError, r"^q: expected 2 to 4 axes", rng.standard_normal(3), k, v)
    raises(ValueError, r"^q: shape \(0, 2\) has an empty axis", np.zeros((0, 2)), k[0], v[0])


def test_nan_and_infinity_are_named_at_their_index():
    q, k, v = qkv(2)
    k[1, 2, 0] = np.nan
    raises(ValueError, re.escape("k[1, 2, 0] is nan, not a finite number"), q, k, v)
    k[1, 2, 0] = 0
    v[0, 3, 4] = -np.inf
    raises(ValueError, re.escape("v[0, 3, 4] is -inf, not a finite number"), q, k, v)


def test_unsupported_dtypes_are_refused():
    q, k, v = qkv()
    raises(TypeError, r"^q: dtype int64 is not supported", np.ones((3, 2), np.int64), k, v)
    raises(TypeError, r"^v: dtype complex128 is not supported", q, k, v.astype(complex))
    raises(TypeError, r"^k: not an array", q, [[1, 2], [3]], v)
    d = _inputs.check(q.astype(np.float16), k, v)  # float16 widens exactly
    np.testing.assert_array_equal(d.q[0, 0, 0], q.astype(np.float16).astype(np.float32))


def test_sizes_beyond_the_labs_limits():
    raises(ValueError, r"^q: n_q is 2049, more than the lab's 2048",
           np.zeros((_limits.MAX_N + 1, 1)), np.zeros((1, 1)), np.zeros((1, 1)))
    raises(ValueError, r"^v: d_v is 257, more than the lab's 256",
           np.zeros((1, 1)), np.zeros((1, 1)), np.zeros((1, _limits.MAX_D + 1)))
    q, k, v = qkv()
    q[2, 1] = 100.5
    raises(ValueError, re.escape("q[2, 1] is 100.5, outside ±100"), q, k, v)
    raises(ValueError, r"^scale: 2000 is outside ±1000", *qkv(), scale=2000)
    raises(TypeError, r"^scale: expected a number", *qkv(), scale="1")


def test_a_batch_beyond_what_the_walkthrough_keeps_is_cut_with_a_warning():
    q, k, v = qkv(_limits.MAX_BATCH + 3, 1)
    with pytest.warns(UserWarning, match="first 8 of 11 sequences"):
        d = _inputs.check(q, k, v)
    assert d.q.shape[1] == d.k.shape[1] == d.v.shape[1] == 8
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _inputs.check(*qkv(_limits.MAX_BATCH, 1)).q.shape[1] == 8


def test_masks_boolean_or_additive_become_the_contracts_booleans():
    q, k, v = qkv(2, 1)
    allowed = rng.random((2, 1, 3, 4)) > 0.3
    np.testing.assert_array_equal(_inputs.check(q, k, v, mask=allowed).mask, allowed)
    additive = np.where(allowed, 0.0, -np.inf)[0, 0]  # rank 2: broadcast over batch and heads
    assert _inputs.check(q, k, v, mask=additive).mask.shape == (1, 1, 3, 4)
    np.testing.assert_array_equal(_inputs.check(q, k, v, mask=additive).mask[0, 0], allowed[0, 0])
    raises(ValueError, r"^mask: the additive value 0.5 is neither 0 nor -inf", q, k, v, mask=np.full((3, 4), 0.5))
    raises(ValueError, r"^mask: shape \(3, 5\) does not broadcast to \(batch, heads, n_q, n_k\) = \(2, 1, 3, 4\)",
           q, k, v, mask=np.ones((3, 5), bool))
    raises(TypeError, r"^mask: dtype int64 is not supported", q, k, v, mask=np.ones((3, 4), np.int64))


def test_tokens_head_causal_and_the_page_options():
    q, k, v = qkv(nk=3)
    d = _inputs.check(q, k, v, tokens=["a", "b", "c"], causal=True)
    assert d.query_tokens == d.key_tokens == ["a", "b", "c"] and d.causal == "top_left"
    raises(ValueError, r"^tokens: 2 tokens, but the data has 3 queries", q, k, v, tokens=["a", "b"])
    raises(ValueError, r"^key_tokens: 1 tokens, but the data has 3 keys", q, k, v, key_tokens=["x"])
    raises(TypeError, r"^tokens\[1\]: expected a string", q, k, v, tokens=["a", 2, "c"])
    raises(ValueError, r"^tokens\[0\]: longer than 40 bytes", q, k, v, tokens=["é" * 21, "b", "c"])
    raises(TypeError, r"^tokens: expected a list of strings", q, k, v, tokens="abc")
    raises(ValueError, r"^head: expected a head from 0 to 0", q, k, v, head=1)
    raises(ValueError, r"^causal: expected False, True", q, k, v, causal="yes")
    raises(ValueError, r"^step: expected one of 'scores'", q, k, v, step="middle")
    raises(ValueError, r"^theme: expected one of", q, k, v, theme="blue")
    raises(ValueError, r"^lang: expected one of", q, k, v, lang="fr")
    raises(ValueError, r"^height: expected a whole number of pixels", q, k, v, height=50)


def test_layers_are_lists_of_one_shape():
    layers = [qkv(2) for _ in range(3)]
    q, k, v = (list(t) for t in zip(*layers))
    d = _inputs.check(q, k, v, head=1, layer=2)
    assert d.layered and d.q.shape == (3, 1, 2, 3, 2) and (d.head, d.layer) == (1, 2)
    np.testing.assert_array_equal(d.v[1, 0], v[1].astype(np.float32))
    raises(ValueError, r"^k: expected a list of 3 arrays like q", q, k[:2], v)
    raises(ValueError, r"^layer 1 k: shape \(1, 2, 5, 2\) differs from layer 0's \(1, 2, 4, 2\)",
           q, [k[0], rng.standard_normal((2, 5, 2)), k[2]], [v[0], rng.standard_normal((2, 5, 5)), v[2]])
    raises(ValueError, r"^layer 1 v: shape \(1, 2, 4, 5\) has 2 heads and 4 rows; k has 2 and 5",
           q, [k[0], rng.standard_normal((2, 5, 2)), k[2]], v)
    raises(ValueError, re.escape("layer 2 q[0, 0, 0] is nan"), q[:2] + [np.where(np.eye(3, 2), np.nan, q[2])], k, v)
    raises(ValueError, r"^layer: expected a layer from 0 to 2", q, k, v, layer=3)
    assert not _inputs.check(*qkv(2), layer=0).layered
