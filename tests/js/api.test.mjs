// The kernel-only WebAssembly module build/web/attention.js, as a Node program uses it.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { webDir, conformanceCases, badRequests, requestText, assertClose } from './cases.mjs';

const createAttention = createRequire(import.meta.url)(path.join(webDir, 'attention.js'));
const attention = await createAttention();

// CTest runs this file twice: as Node starts by default (SIMD128), and with
// --experimental-wasm-relaxed-simd and ATTN_EXPECT_RELAXED=1 (js_api_relaxed), where every
// tiled call below runs in attention-relaxed.wasm.
test('the tiled kernel runs with fused multiply-add exactly where Node runs relaxed SIMD', () => {
  const expected = process.env.ATTN_EXPECT_RELAXED === '1' ? 'wasm-relaxed-simd' : 'wasm-simd128';
  assert.equal(attention.kernelPath, expected);
});

test('Module.relaxedSimd = false keeps the SIMD128 kernel, with the same results within rounding', async () => {
  const plain = await createAttention({ relaxedSimd: false });
  assert.equal(plain.kernelPath, 'wasm-simd128');
  const n = 200, d = 40;  // past a key tile, with scalar tails
  const x = (seed) => Float32Array.from({ length: n * d }, (_, i) => Math.sin(seed * 12.9898 + i * 78.233) * 2);
  const dims = { nq: n, nk: n, dk: d, dv: d };
  const a = attention.forward(x(1), x(2), x(3), dims, { kernel: 'tiled', causal: true });
  const b = plain.forward(x(1), x(2), x(3), dims, { kernel: 'tiled', causal: true });
  for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i] - b[i]) <= 1e-5 * (1 + Math.abs(b[i])), `output[${i}]`);
});

test('all conformance cases pass through compute(), with both kernels', () => {
  const cases = conformanceCases();
  assert.equal(cases.length, 40);
  for (const c of cases) {
    for (const kernel of ['reference', 'tiled']) {
      const response = JSON.parse(attention.compute(JSON.stringify({ ...c.request, kernel })));
      assert.ok(response.output, `${c.file}: ${JSON.stringify(response)}`);
      assertClose(assert, response.output, c.expected.output, c.atol, `${c.file} (${kernel})`);
    }
  }
});

test('bad requests get their one-sentence error and the module stays usable', () => {
  for (const c of badRequests) {
    assert.deepEqual(JSON.parse(attention.compute(requestText(c))), { error: c.error }, c.name);
    // Still working after every error.
    assert.deepEqual(JSON.parse(attention.compute('{"q":[[1]],"k":[[1]],"v":[[3]]}')), { output: [[3]] });
  }
});

test('computeObject takes and returns objects', () => {
  const r = attention.computeObject({ q: [[1, 0]], k: [[1, 0], [0, 1]], v: [[1], [0]], scale: 0, outputs: ['weights'] });
  assert.deepEqual(r, { weights: [[0.5, 0.5]] });
  assert.match(attention.computeObject({ q: [[NaN]], k: [[1]], v: [[1]] }).error, /^q\[0\]\[0\]: expected a number, got null$/);
});
