"""The tests' reference: attention weights in float64 NumPy, written from the formula
softmax(q kᵀ · scale, masked) and nothing of the package."""

import numpy as np


def weights(q, k, allowed=None, scale=None):
    """q (..., n_q, d), k (..., n_k, d), allowed broadcastable to the scores (True = may attend).
    A row with every key masked weighs nothing (the contract's answer)."""
    q, k = np.asarray(q, np.float64), np.asarray(k, np.float64)
    scores = q @ np.swapaxes(k, -1, -2) * (1 / np.sqrt(q.shape[-1]) if scale is None else scale)
    if allowed is not None:
        scores = np.where(allowed, scores, -np.inf)
    top = scores.max(axis=-1, keepdims=True)
    e = np.exp(scores - np.where(np.isfinite(top), top, 0))
    total = e.sum(axis=-1, keepdims=True)
    return np.divide(e, total, out=np.zeros_like(e), where=total > 0)
