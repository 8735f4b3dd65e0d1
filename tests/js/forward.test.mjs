// The typed-array entry point forward(q, k, v, dims, options) of build/web/attention.js:
// same numbers as compute(), same error sentences (thrown), no memory kept between calls.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { webDir, conformanceCases, assertClose } from './cases.mjs';

const createAttention = createRequire(import.meta.url)(path.join(webDir, 'attention.js'));
const attention = await createAttention();

const flat = (x) => (Array.isArray(x) ? x.flatMap(flat) : [x]);
const shape = (x) => (Array.isArray(x) ? [x.length, ...shape(x[0])] : []);

// Deterministic values in [-1, 1).
function values(n, seed) {
  const x = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    x[i] = s / 2 ** 31 - 1;
  }
  return x;
}

function problem({ batch = 1, heads = 1, kvHeads = heads, nq, nk, dk, dv }, seed = 1) {
  return {
    q: values(batch * heads * nq * dk, seed),
    k: values(batch * kvHeads * nk * dk, seed + 1),
    v: values(batch * kvHeads * nk * dv, seed + 2),
    dims: { batch, heads, kvHeads, nq, nk, dk, dv },
  };
}

test('rank-4 conformance cases (no mask): forward() gives compute()\'s output, both kernels', () => {
  const cases = conformanceCases().filter((c) => shape(c.request.q).length === 4 && !c.request.mask);
  assert.ok(cases.length >= 5, `only ${cases.length} cases`);
  for (const c of cases) {
    const r = c.request;
    const [batch, heads, nq, dk] = shape(r.q);
    const [, kvHeads, nk, dv] = shape(r.v);
    for (const kernel of ['reference', 'tiled']) {
      const out = attention.forward(new Float32Array(flat(r.q)), new Float32Array(flat(r.k)),
                                    new Float32Array(flat(r.v)), { batch, heads, kvHeads, nq, nk, dk, dv },
                                    { scale: r.scale, causal: r.causal, kernel });
      assert.ok(out instanceof Float32Array);
      assertClose(assert, Array.from(out), flat(c.expected.output), c.atol, `${c.file} (${kernel})`);
      const viaJson = attention.computeObject({ ...r, kernel });
      assertClose(assert, Array.from(out), flat(viaJson.output), 1e-6, `${c.file} vs compute (${kernel})`);
    }
  }
});

test('grouped-query heads and both causal alignments agree with compute()', () => {
  const nest = (x, dims) =>
    dims.length === 1 ? Array.from(x) : Array.from({ length: dims[0] }, (_, i) => {
      const size = x.length / dims[0];
      return nest(x.subarray(i * size, (i + 1) * size), dims.slice(1));
    });
  for (const causal of [false, 'top_left', 'bottom_right']) {
    const p = problem({ batch: 2, heads: 4, kvHeads: 2, nq: 37, nk: 70, dk: 24, dv: 20 }, 7);
    const d = p.dims;
    const out = attention.forward(p.q, p.k, p.v, d, { causal, kernel: 'tiled' });
    const want = attention.computeObject({
      q: nest(p.q, [d.batch, d.heads, d.nq, d.dk]), k: nest(p.k, [d.batch, d.kvHeads, d.nk, d.dk]),
      v: nest(p.v, [d.batch, d.kvHeads, d.nk, d.dv]), causal, kernel: 'reference' });
    assertClose(assert, Array.from(out), flat(want.output), 1e-5, `causal ${causal}`);
  }
});

test('bad input throws the one-sentence error and the module stays usable', () => {
  const ok = problem({ nq: 2, nk: 3, dk: 4, dv: 5 });
  const bad = (change) => {
    const p = { ...ok, dims: { ...ok.dims }, options: {} };
    change(p);
    return () => attention.forward(p.q, p.k, p.v, p.dims, p.options);
  };
  const nan = new Float32Array(ok.q);
  nan[5] = NaN;
  const cases = [
    [bad((p) => { p.q = [1, 2]; }), 'q: expected a Float32Array'],
    [bad((p) => { p.dims.nk = 0; }), 'dims.nk: expected a positive integer, got 0'],
    [bad((p) => { p.dims.dk = 2.5; }), 'dims.dk: expected a positive integer, got 2.5'],
    [bad((p) => { p.dims.nk = 4; }), 'k: expected 16 values for (1,1,4,4), got 12'],
    [bad((p) => { p.v = new Float32Array(14); }), 'v: expected 15 values for (1,1,3,5), got 14'],
    [bad((p) => { p.q = nan; }), 'q[0][0][1][1]: not a finite number'],
    [bad((p) => { p.dims.heads = 3; p.dims.kvHeads = 2; }), "k: 2 heads do not divide q's 3 heads"],
    [bad((p) => { p.dims.nq = 5000; p.dims.dk = 4000; }), 'q: more than 16777216 elements, the limit of this build'],
    [bad((p) => { p.options.scale = Infinity; }), 'scale: expected a finite number'],
    // 65537² wraps to 131073 in 32 bits: the check must see 4295098369.
    [bad((p) => { Object.assign(p.dims, { batch: 65537, heads: 65537, kvHeads: 65537, nq: 1, nk: 1, dk: 1, dv: 1 });
                  p.q = p.k = p.v = new Float32Array(131073); }), 'q: more than 16777216 elements, the limit of this build'],
    [bad((p) => { p.options.scale = 1e39; }), 'scale: expected a finite number'],
    [bad((p) => { p.q = p.q.map((x) => x * 1e19); p.k = p.k.map((x) => x * 1e19); }),
     'q and k: scores could reach 1.16e+38, past the 8.51e+37 within which this build computes in float32'],
    [bad((p) => { p.v = p.v.map((x) => x * 1e38); }),
     'v: n_k times the largest |v| could reach 2.8e+38, past the 8.51e+37 within which this build computes in float32'],
    [bad((p) => { p.options.causal = 'yes'; }), 'causal: expected false, true, "top_left" or "bottom_right"'],
    [bad((p) => { p.options.kernel = 'fast'; }), 'kernel: expected "auto", "reference" or "tiled"'],
  ];
  for (const [call, message] of cases) {
    assert.throws(call, { message });
    assert.deepEqual(Array.from(attention.forward(new Float32Array([1]), new Float32Array([1]),
                                                  new Float32Array([3]), { nq: 1, nk: 1, dk: 1, dv: 1 })), [3]);
  }
  // The reference kernel holds every score: beyond the limit it refuses, as compute() does.
  const big = problem({ heads: 2, nq: 4096, nk: 4096, dk: 1, dv: 1 });
  assert.throws(() => attention.forward(big.q, big.k, big.v, big.dims, { kernel: 'reference' }),
                { message: 'request: 33554432 scores exceed the limit of 16777216 for weights, scores, gradients or the reference kernel' });
});

test('1000 calls do not grow the heap', () => {
  const p = problem({ heads: 8, nq: 64, nk: 128, dk: 64, dv: 64 });  // 256 KiB per call's tensors
  attention.forward(p.q, p.k, p.v, p.dims);
  const before = attention.HEAPU8.length;
  for (let i = 0; i < 1000; i++) attention.forward(p.q, p.k, p.v, p.dims);
  assert.equal(attention.HEAPU8.length, before);
});

test('n = 16384, d = 64 runs in the module without exhausting memory', () => {
  const p = problem({ nq: 16384, nk: 16384, dk: 64, dv: 64 });
  const out = attention.forward(p.q, p.k, p.v, p.dims, { causal: true });
  assert.equal(out.length, 16384 * 64);
  assert.ok(out.every(Number.isFinite));
  // Inputs and output are 4 MiB each; the scores (1 GiB) must never be held.
  assert.ok(attention.HEAPU8.length < 128 << 20, `heap grew to ${attention.HEAPU8.length} bytes`);
});

// [forwardParallel] ----------------------------------------------------------------------------

// softmax(q·kᵀ·scale) v in float64 for one (batch, head), with a causal alignment.
function float64Head(p, b, h, scale, causal) {
  const d = p.dims, kvh = Math.floor(h / (d.heads / d.kvHeads));
  const row = (x, heads, n, dim, hh, i) => x.subarray(((b * heads + hh) * n + i) * dim, ((b * heads + hh) * n + i + 1) * dim);
  const out = [];
  for (let i = 0; i < d.nq; i++) {
    const limit = causal === 'top_left' ? i : causal === 'bottom_right' ? i + d.nk - d.nq : d.nk - 1;
    const qi = row(p.q, d.heads, d.nq, d.dk, h, i);
    const s = [];
    for (let j = 0; j <= Math.min(limit, d.nk - 1); j++) {
      const kj = row(p.k, d.kvHeads, d.nk, d.dk, kvh, j);
      s.push(scale * qi.reduce((acc, x, c) => acc + x * kj[c], 0));
    }
    const max = Math.max(...s);
    const e = s.map((x) => Math.exp(x - max));
    const sum = e.reduce((a, x) => a + x, 0);
    for (let c = 0; c < d.dv; c++)
      out.push(e.length ? e.reduce((acc, w, j) => acc + w * row(p.v, d.kvHeads, d.nk, d.dv, kvh, j)[c], 0) / sum : 0);
  }
  return out;
}

test('forwardParallel() gives forward()\'s output exactly, on 2 and 3 threads: batches, grouped heads, both causal alignments, blocks that see no key', async () => {
  const shapes = [
    // Split by key/value heads (with their query heads):
    [{ batch: 2, heads: 4, kvHeads: 2, nq: 300, nk: 260, dk: 16, dv: 12 }, false],
    [{ batch: 3, heads: 1, nq: 300, nk: 500, dk: 8, dv: 8 }, 'top_left'],
    // Split by queries (one key/value head):
    [{ nq: 700, nk: 700, dk: 32, dv: 32 }, 'top_left'],
    [{ heads: 3, kvHeads: 1, nq: 1200, nk: 300, dk: 8, dv: 8 }, 'bottom_right'],  // the first 900 rows see no key
    [{ nq: 600, nk: 1400, dk: 8, dv: 8 }, 'bottom_right'],
    [{ nq: 130, nk: 40, dk: 8, dv: 8 }, 'top_left'],                              // more queries than keys: not split
  ];
  for (const [dims, causal] of shapes)
    for (const threads of [2, 3]) {
      const p = problem(dims, 11);
      const want = attention.forward(p.q, p.k, p.v, p.dims, { causal, kernel: 'tiled' });
      const got = await attention.forwardParallel(p.q, p.k, p.v, p.dims, { causal, kernel: 'tiled' }, { threads });
      assert.ok(got instanceof Float32Array && got.length === want.length);
      // Split, not run here alone (the pool keeps the workers of earlier, larger calls).
      if (dims.nq <= dims.nk || causal !== 'top_left') assert.ok(attention.kernelWorkers() >= threads - 1);
      const first = got.findIndex((x, i) => x !== want[i]);
      assert.equal(first, -1, `${JSON.stringify(dims)} causal ${causal}, ${threads} threads: output[${first}]`);
    }
});

test('forwardParallel() against float64: a bottom-right causal batch split across threads', async () => {
  const p = problem({ batch: 2, heads: 2, kvHeads: 1, nq: 400, nk: 330, dk: 16, dv: 8 }, 5);
  const scale = 0.3;
  const got = await attention.forwardParallel(p.q, p.k, p.v, p.dims, { scale, causal: 'bottom_right' }, { threads: 2 });
  assert.ok(attention.kernelWorkers() >= 1, 'split');
  const want = [];
  for (let b = 0; b < 2; b++) for (let h = 0; h < 2; h++) want.push(...float64Head(p, b, h, scale, 'bottom_right'));
  assertClose(assert, Array.from(got), want, 2e-5, 'forwardParallel');
});

test('forwardParallel() rejects bad input with forward()\'s sentence, indices as in the whole input', async () => {
  const p = problem({ nq: 800, nk: 800, dk: 8, dv: 8 }, 3);
  p.q[(700 * 8) + 2] = NaN;  // in the second thread's block
  await assert.rejects(attention.forwardParallel(p.q, p.k, p.v, p.dims, {}, { threads: 2 }),
                       { message: 'q[0][0][700][2]: not a finite number' });
  await assert.rejects(attention.forwardParallel(p.q, p.k, p.v, { ...p.dims, nq: 0 }), { message: /^dims\.nq: / });
  await assert.rejects(attention.forwardParallel(p.q, p.k, p.v, p.dims, {}, { threads: 0 }), { message: /^threads: / });
  p.q[(700 * 8) + 2] = 0;
  const again = await attention.forwardParallel(p.q, p.k, p.v, p.dims, {}, { threads: 2 });
  assert.ok(again.every(Number.isFinite), 'the pool works after a failure');
  assert.ok(attention.kernelWorkers() >= 1, 'split');
});
