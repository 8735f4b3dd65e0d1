// Every preset, every sequence of its batch, against attention computed here in float64 from
// the inputs the page exports (its CSV of Q, K, V), with the state's scale, causal alignment,
// padding and painted cells: nothing of the app's own arithmetic is trusted.
import test from 'node:test';
import assert from 'node:assert/strict';
import { labSession, openLab } from './harness.mjs';

const PRESETS = ['causal-3x2', 'saturation', 'random', 'cross', 'padding'];
const session = labSession();

// The CSV export (matrix,row,col,value) as matrices by name.
function matrices(csv) {
  const out = {};
  for (const line of csv.trim().split('\n').slice(1)) {
    const [name, row, col, value] = line.split(',');
    ((out[name] ??= [])[Number(row)] ??= [])[Number(col)] = Number(value);
  }
  return out;
}

function scaleOf(state) {
  const dk = Number(state.dk);
  if (state.scale === 'sqrt') return 1 / Math.sqrt(dk);
  if (state.scale === 'dk') return 1 / dk;
  if (state.scale === 'none') return 1;
  return Number(state.scale);
}

// May query i attend key j? Causal alignment, the sequence's padding, painted cells.
function allowed(state, i, j, nq, nk) {
  if (state.causal === '1' && j > i) return false;
  if (state.causal === 'br' && j > i + (nk - nq)) return false;
  const pad = state.pad ? state.pad.split(',').map(Number) : [];
  if (pad.length && j >= pad[Number(state.batch)]) return false;
  const blocked = state.block ? state.block.split(',') : [];
  return !blocked.includes(`${i}:${j}`);
}

// A fully blocked row has weights 0 and output 0 (the contract's rule).
function attention64(q, k, v, state) {
  const scale = scaleOf(state);
  const weights = q.map((qi, i) => {
    const logits = k.map((kj, j) =>
      allowed(state, i, j, q.length, k.length) ? scale * qi.reduce((s, x, c) => s + x * kj[c], 0) : -Infinity);
    const max = Math.max(...logits);
    if (max === -Infinity) return logits.map(() => 0);
    const exps = logits.map((x) => Math.exp(x - max));
    const sum = exps.reduce((a, b) => a + b, 0);
    return exps.map((e) => e / sum);
  });
  const output = weights.map((w) => v[0].map((_, c) => w.reduce((s, wj, j) => s + wj * v[j][c], 0)));
  return { weights, output };
}

function assertClose(actual, expected, what) {
  assert.equal(actual.length, expected.length, `${what}: rows`);
  actual.forEach((row, i) => row.forEach((x, j) => {
    const want = expected[i][j];
    assert.ok(Math.abs(x - want) <= 1e-5 * Math.max(1, Math.abs(want)), `${what}[${i}][${j}]: ${x} against ${want}`);
  }));
}

test('every preset and every sequence of its batch equals float64 attention of its inputs', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url);
  for (const preset of PRESETS) {
    await page.evaluate((p) => window.attentionLab.setState({ preset: p }), preset);
    const { pad } = await page.evaluate(() => window.attentionLab.getState());
    const batches = pad ? pad.split(',').length : 1;
    if (preset === 'padding') assert.ok(batches > 1, 'the padding preset is a batch, and says its lengths');
    for (let b = 0; b < batches; ++b) {
      await page.evaluate((batch) => window.attentionLab.setState({ batch }), b);
      const state = await page.evaluate(() => window.attentionLab.getState());
      assert.equal(state.preset, preset);
      const m = matrices(await page.evaluate(() => window.attentionLab.exportText('csv')));
      const want = attention64(m.q, m.k, m.v, state);
      const what = `${preset} sequence ${b}`;
      assertClose(m.weights, want.weights, `${what} weights`);
      assertClose(m.output, want.output, `${what} output`);
      // The contract's response for the same sequence says the same.
      const trace = await page.evaluate(() => window.attentionLab.trace());
      const rank = (t) => (Array.isArray(t) ? 1 + rank(t[0]) : 0);
      const w = trace.weights;
      const head = rank(w) === 4 ? w[b][0] : rank(w) === 3 ? w[0] : w;  // (batch, heads, nq, nk) or less
      assertClose(head, want.weights, `${what} trace weights`);
    }
  }
  assert.deepEqual(errors, []);
  await page.close();
});
