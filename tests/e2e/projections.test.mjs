// Step 0 of the walkthrough in headless Chromium: Q = X·W_Q, K = X·W_K, V = X·W_V computed
// here in float64 from typed X and W, against what the page shows and computes; the lesson's
// example keeps Q = K = V = X; links from before the projections still mean what they meant.
import test from 'node:test';
import assert from 'node:assert/strict';
import { labSession, openLab } from './harness.mjs';
import { assertClose, attention, matmul } from './reference.mjs';

const session = labSession();

const reshape = (flat, cols) => Array.from({ length: flat.length / cols }, (_, r) => flat.slice(r * cols, r * cols + cols));

// The matrices of the CSV export ("matrix,row,col,value"), as nested arrays by name.
function csvMatrices(csv) {
  const out = {};
  for (const line of csv.trim().split('\n').slice(1)) {
    const [name, r, c, value] = line.split(',');
    ((out[name] ??= [])[Number(r)] ??= [])[Number(c)] = value === '-inf' ? -Infinity : Number(value);
  }
  return out;
}

// After the frames that show the last change (the app fills the table when it draws).
const readTable = page => page.evaluate(async () => {
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const t = document.getElementById('stage-table');
  const [, ...rows] = t.querySelectorAll('tr');
  return { caption: t.caption.textContent, cells: rows.map(r => [...r.querySelectorAll('td')].map(td => Number(td.textContent.replace('−', '-')))) };
});

// A 4-token input with d_model = 3 projected to d_k = d_v = 2: small, and every product by hand.
const X = [[1, 0.5, -1], [0, 2, 1], [-1.5, 1, 0.25], [0.5, -0.5, 2]];
const WQ = [[0.5, -1], [1, 0.25], [-0.5, 0.75]];
const WK = [[-0.25, 1], [0.5, 0.5], [1, -1]];
const WV = [[1, 0], [0, 1], [0.5, -0.5]];

test('step 0: Q, K, V are X·W_Q, X·W_K, X·W_V in float64, and so is everything after them', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url);
  await page.evaluate(s => window.attentionLab.setState(s), {
    preset: 'random', n: 4, dk: 2, dmodel: 3, proj: 1, step: 'input', query: 1,
    x: X.flat().join(','), wq: WQ.flat().join(','), wk: WK.flat().join(','), wv: WV.flat().join(','),
  });
  const state = await page.evaluate(() => window.attentionLab.getState());
  assert.equal(state.step, 'input');
  assert.equal(state.proj, '1');
  assert.equal(state.dmodel, '3');
  const q = matmul(X, WQ), k = matmul(X, WK), v = matmul(X, WV);
  const csv = csvMatrices(await page.evaluate(() => window.attentionLab.exportText('csv')));
  assertClose(csv.q, q, 1e-6, 'Q');
  assertClose(csv.k, k, 1e-6, 'K');
  assertClose(csv.v, v, 1e-6, 'V');
  const expected = attention(q, k, v, 1 / Math.sqrt(2));
  const trace = await page.evaluate(() => window.attentionLab.trace());
  assertClose(trace.scores, expected.scores, 1e-5, 'scores');
  assertClose(trace.weights, expected.weights, 1e-5, 'weights');
  assertClose(trace.output, expected.output, 1e-5, 'output');
  // With W_Q ≠ W_K a token need not score itself highest: here token 0 scores itself lowest.
  assert.equal(trace.scores[0].indexOf(Math.min(...trace.scores[0])), 0);
  // The screen-reader table of step 0 is Q, as the page prints it.
  const table = await readTable(page);
  assert.match(table.caption, /^Step 0 of 5, Q, K, V from X: 4 × 2/);
  table.cells.forEach((row, r) => row.forEach((x, c) => assert.ok(Math.abs(x - q[r][c]) <= 5e-5, `table[${r}][${c}]`)));
  // The link reproduces it.
  const hash = await page.evaluate(() => location.hash);
  const again = await openLab(session.browser.context, session.server.url, hash.slice(1));
  assert.deepEqual(await again.page.evaluate(() => window.attentionLab.trace()), trace);
  await again.page.close();
  assert.deepEqual(errors, []);
  await page.close();
});

test('the seed draws X and the W when none is typed, and they change with the seed', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url, 'preset=random&step=input');
  const state = await page.evaluate(() => window.attentionLab.getState());
  assert.equal(state.proj, '1', 'the random sentence is projected');
  const first = csvMatrices(await page.evaluate(() => window.attentionLab.exportText('csv')));
  // Self-attention through projections: K is not Q (the old picture had K = V = Q).
  assert.notDeepEqual(first.k, first.q);
  await page.evaluate(() => window.attentionLab.setState({ seed: 8 }));
  const second = csvMatrices(await page.evaluate(() => window.attentionLab.exportText('csv')));
  assert.notDeepEqual(second.q, first.q);
  assert.deepEqual(errors, []);
  await page.close();
});

test("the lesson's example keeps Q = K = V = X, and old links that typed q still do", async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url, 'preset=causal-3x2&step=input');
  const x = [[1, 0], [2, 0], [3, 0]];
  let csv = csvMatrices(await page.evaluate(() => window.attentionLab.exportText('csv')));
  for (const name of ['q', 'k', 'v']) assert.deepEqual(csv[name], x, name);
  assert.equal((await page.evaluate(() => window.attentionLab.getState())).proj, '0');
  const old = await openLab(session.browser.context, session.server.url, 'attn=self&n=2&dk=2&q=1,2,3,4');
  csv = csvMatrices(await old.page.evaluate(() => window.attentionLab.exportText('csv')));
  for (const name of ['q', 'k', 'v']) assert.deepEqual(csv[name], [[1, 2], [3, 4]], name);
  assert.deepEqual(old.errors, []);
  await old.page.close();
  assert.deepEqual(errors, []);
  await page.close();
});

test('step 0 at n = 2048, d_model = 64: computed and shown, the table stays bounded', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url);
  await page.evaluate(() => window.attentionLab.setState({ preset: 'random', n: 2048, dk: 64, dmodel: 64, step: 'input', query: 1000 }));
  const table = await readTable(page);
  assert.match(table.caption, /^Step 0 of 5, Q, K, V from X: 2048 × 64/);
  assert.ok(table.cells.length <= 9 && table.cells.every(r => r.length <= 32 && r.every(Number.isFinite)));
  assert.deepEqual(errors, []);
  await page.close();
});
