// Shared by the browser tests: attention in float64, written independently of the app, and
// a comparison of nested arrays within a tolerance.
import assert from 'node:assert/strict';

// softmax(QKᵀ·scale, masked) V in float64, independently of the app; `scores` as the contract's
// (scale · Q Kᵀ + M, a blocked entry −∞).
export function attention(q, k, v, scale, allowed = () => true) {
  const scores = q.map((qi, i) =>
    k.map((kj, j) => (allowed(i, j) ? scale * qi.reduce((s, x, c) => s + x * kj[c], 0) : -Infinity)));
  const weights = scores.map(logits => {
    const max = Math.max(...logits);
    const exps = logits.map(x => (x === -Infinity ? 0 : Math.exp(x - max)));
    const sum = exps.reduce((a, b) => a + b, 0);
    return exps.map(e => e / sum);
  });
  const output = weights.map(w => v[0].map((_, c) => w.reduce((s, wj, j) => s + wj * v[j][c], 0)));
  return { scores, weights, output };
}

// A · B for nested arrays, in float64.
export const matmul = (a, b) => a.map(row => b[0].map((_, c) => row.reduce((s, x, e) => s + x * b[e][c], 0)));

export function assertClose(actual, expected, tol, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  actual.forEach((x, i) => {
    if (Array.isArray(x)) assertClose(x, expected[i], tol, `${what}[${i}]`);
    else assert.ok(Math.abs(x - expected[i]) <= tol, `${what}[${i}]: ${x} vs ${expected[i]}`);
  });
}
