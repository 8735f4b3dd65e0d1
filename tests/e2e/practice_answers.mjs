// Practice questions answered independently of the app: attention in float64 from the
// example's own matrices, and the questions' own numbers (a d_k, three scores, a shape).
// Shared by practice.test.mjs and the lesson's walk.
import assert from 'node:assert/strict';

// The lesson's worked causal example (preset=causal-3x2): Q = K = V = X, d_k = 2, 1/√2.
const X = [[1, 0], [2, 0], [3, 0]];
export const causalExample = { q: X, k: X, v: X, scale: Math.SQRT1_2, causal: true };

export function softmax(s) {
  const m = Math.max(...s);
  const e = s.map((x) => Math.exp(x - m));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / sum);
}

// softmax(scale · Q Kᵀ + causal mask) and its product with V, in float64.
export function attention({ q, k, v, scale, causal = false }) {
  const weights = q.map((qi, i) => softmax(k.map((kj, j) =>
    (causal && j > i ? -Infinity : scale * qi.reduce((acc, x, d) => acc + x * kj[d], 0)))));
  const output = weights.map((w) => v[0].map((_, d) => w.reduce((acc, wj, j) => acc + wj * v[j][d], 0)));
  return { weights, output };
}

const numbersIn = (text) => (text.match(/-?\d+(\.\d+)?/g) || []).map(Number);
const dot = (a, b) => a.reduce((acc, x, d) => acc + x * b[d], 0);

// The right answer and a wrong one to question `q` (attentionLab.practice()) about `example`
// with `query` selected. `keyIndex(label)` gives the key a label names (the largest-weight
// question's choices are the keys' labels in order).
export function answers(q, example, query, keyIndex) {
  const { weights, output } = attention(example);
  const n = numbersIn(q.text);
  switch (q.kind) {
    case 'largest_weight': {
      const best = weights[query].indexOf(Math.max(...weights[query]));
      return { right: q.choices[best], wrong: q.choices[(best + 1) % q.choices.length] };
    }
    case 'weight': {
      const label = /key (\S+)\?/.exec(q.text)?.[1] ?? /clave (\S+)\?/.exec(q.text)?.[1];
      const j = keyIndex(label);
      assert.ok(j >= 0, `a key of the example in "${q.text}"`);
      return { right: weights[query][j] + 0.005, wrong: weights[query][j] + 0.05 };
    }
    case 'output_row':
      return { right: output[query].map((x) => x.toFixed(3)).join(', '),
               wrong: [output[query][0] + 0.1, ...output[query].slice(1)] };
    case 'masked_weight': {  // "scores are [s0, s1, s2, s3]. … blocks key B … does key J get"
      const [s0, s1, s2, s3, blocked, j] = n;
      const w = softmax([s0, s1, s2, s3].map((s, i) => (i === blocked ? -Infinity : s)));
      return { right: w[j], wrong: softmax([s0, s1, s2, s3])[j] };  // as if nothing were blocked
    }
    case 'shape': {  // "Q is a×d, K is b×d and V is b×e"
      const [nq, , nk, , , dv] = n;
      const cols = /output/.test(q.text) ? dv : nk;
      return { right: `${nq}×${cols}`, wrong: [cols, nq] };
    }
    case 'spread': {  // "d_k = D … mean 0 and variance V … deviation of FORM": d_k products of variance V²
      const [dk, , variance] = n;
      const form = (q.text.match(/deviation of (\S+)\?/) ?? q.text.match(/típica de (\S+)\?/))[1];
      const raw = Math.sqrt(dk * variance * variance);
      const want = { 'q·k': raw, 'q·k/√d_k': raw / Math.sqrt(dk), 'q·k/d_k': raw / dk }[form];
      return { right: want, wrong: want * 1.5 };
    }
    case 'fill_pitfall': {
      const w = softmax([n[0], n[1], n[2] - 1]);
      return { right: w[2], wrong: 0 };
    }
    case 'stable_softmax': {
      const w = softmax(n.slice(0, 3));
      return { right: Math.max(...w), wrong: 1 / 3 };
    }
    case 'saturation': {
      const r = Math.sqrt(n[2]);
      const w = softmax([0, r, 2 * r])[2];
      return { right: w * (1 - w), wrong: w * (1 - w) + 0.1 };
    }
    case 'score': {  // "query qI against key kJ": the scaled dot product, before any mask
      const label = /key (\S+):/.exec(q.text)?.[1] ?? /clave (\S+):/.exec(q.text)?.[1];
      const j = keyIndex(label);
      assert.ok(j >= 0, `a key of the example in "${q.text}"`);
      const s = example.scale * dot(example.q[query], example.k[j]);
      return { right: s + 0.005, wrong: s + 0.05 };
    }
    case 'online_softmax': {  // "[a, b] … m = M … is L … [c, d]": Σ e^(s − max) over all four
      const s = [n[0], n[1], n[4], n[5]];
      const top = Math.max(...s);
      const sum = s.reduce((acc, x) => acc + Math.exp(x - top), 0);
      return { right: sum, wrong: n[3] + Math.exp(n[4] - top) + Math.exp(n[5] - top) };  // not rescaled
    }
    case 'tiled_memory': {  // "n = N tokens[, d_v = D], float32 (4 bytes)"
      const want = /n × n/.test(q.text) ? n[0] * n[0] * 4 / 2 ** 20 : n[0] * (n[1] + 2) * 4 / 2 ** 20;
      return { right: want, wrong: want * 1.5 };
    }
    case 'grouped_kv': {  // "H query heads share G key/value heads, d_k = d_v = D, … T tokens … (2 bytes)": K and V
      const [heads, kv, dk, tokens] = n;
      return { right: 2 * kv * tokens * dk * 2 / 2 ** 20, wrong: 2 * heads * tokens * dk * 2 / 2 ** 20 };
    }
    case 'score_gradient': {  // "d_k = D, are [s0, s1, s2] … dL/dA = [g0, g1, g2]": a(g − Σ aᵢgᵢ) at the top score
      const s = n.slice(1, 4), g = n.slice(4, 7);
      const a = softmax(s), top = s.indexOf(Math.max(...s));
      const mean = a.reduce((acc, x, j) => acc + x * g[j], 0);
      const want = a[top] * (g[top] - mean);
      return { right: want, wrong: want + 0.05 };
    }
    case 'induction_key': {  // "reads "w w" … position I": the key after the same character's first occurrence
      const text = /["«]([^"»]+)["»]/.exec(q.text)[1];
      const i = Number(/(?:position|posición) (\d+)/.exec(q.text)[1]);
      const first = text.indexOf(text[i]);
      return { right: first + 1, wrong: first };
    }
    case 'copying_head': {  // "Head A: a → [x, y, z]; b → […]; c → […]. Head B: …": the head whose diagonal wins every row
      const heads = q.text.split(/(?:Head|Cabeza) /).slice(1).map(part => numbersIn(part).slice(0, 9));
      const best = heads.findIndex(m => [0, 1, 2].every(s => [0, 1, 2].every(c => c === s || m[3 * s + c] < m[3 * s + s])));
      return { right: q.choices[best], wrong: q.choices[(best + 1) % 3] };
    }
    case 'switch_off': {  // "keys 0 to 4 are [s] … key K … : [p] …": softmax(s − p) at K; unchanged is wrong
      const s = n.slice(2, 7), key = n[7], p = n.slice(8, 13);
      return { right: softmax(s.map((x, j) => x - p[j]))[key], wrong: softmax(s)[key] };
    }
    default:
      throw new Error(`a kind this test does not know: ${q.kind}`);
  }
}
