// The kernel-only WebAssembly module build/web/attention.js, as a Node program uses it.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { webDir, conformanceCases, badRequests, requestText, assertClose } from './cases.mjs';

const createAttention = createRequire(import.meta.url)(path.join(webDir, 'attention.js'));
const attention = await createAttention();

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
