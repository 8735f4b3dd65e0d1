// Typed values survive a new shape or seed, and every edit can be undone and redone: through
// the page API, the inputs panel, the real keyboard (Ctrl+Z, Ctrl+Shift+Z) and the header's
// Undo and Redo buttons. The seed's values are computed here from the generator's definition
// (src/model/lab.cpp: splitmix64 over (seed << 32 | salt) · FNV prime, 31 steps of 0.1).
import test from 'node:test';
import assert from 'node:assert/strict';
import { centre, click, findItem, frames, labSession, openLab, press } from './harness.mjs';

const session = labSession();

const MASK = (1n << 64n) - 1n;
function splitmix64(x) {
  x = (x + 0x9e3779b97f4a7c15n) & MASK;
  x = ((x ^ (x >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
  x = ((x ^ (x >> 27n)) * 0x94d049bb133111ebn) & MASK;
  return x ^ (x >> 31n);
}
// The seed's values for a (batch, rows, cols) matrix; salt 1 = Q (or X), 2 = K, 3 = V.
function seeded(seed, salt, count) {
  const stream = (((BigInt(seed) << 32n) | BigInt(salt)) * 0x100000001b3n) & MASK;
  return Array.from({ length: count }, (_, i) => Number(splitmix64((stream + BigInt(i)) & MASK) % 31n) - 15)
    .map((v) => Math.fround(v / 10));
}

// Values no seed draws (the seed's are multiples of 0.1 in [-1.5, 1.5]).
const typed = (count, start) => Array.from({ length: count }, (_, i) => start + 0.25 * i + 0.03);
const list = (xs) => xs.map((x) => String(Math.fround(x))).join(',');
const numbers = (text) => text.split(',').map((x) => Math.fround(Number(x)));  // float32, as the app holds them
const f32 = (xs) => xs.map(Math.fround);

// Every cell of `now` (batch × rows × cols): the typed value where the old shape had one, else the seed's.
function expectKeptOrSeeded(now, old, fresh, [b, r, c], [ob, or, oc], what) {
  assert.equal(now.length, b * r * c, `${what}: ${b}×${r}×${c} values`);
  for (let s = 0; s < b; s++)
    for (let i = 0; i < r; i++)
      for (let j = 0; j < c; j++) {
        const kept = s < ob && i < or && j < oc;
        const want = kept ? old[(s * or + i) * oc + j] : fresh[(s * r + i) * c + j];
        assert.equal(now[(s * r + i) * c + j], want, `${what} (${s}, ${i}, ${j}) ${kept ? 'kept' : 'from the seed'}`);
      }
}

// Cross-attention's output in float64 from the state's own matrices (one sequence, 1/√d_k).
function attention64(q, k, v, nq, nk, dk, dv) {
  const out = [];
  for (let i = 0; i < nq; i++) {
    const s = [];
    for (let j = 0; j < nk; j++) {
      let dot = 0;
      for (let c = 0; c < dk; c++) dot += q[i * dk + c] * k[j * dk + c];
      s.push(dot / Math.sqrt(dk));
    }
    const m = Math.max(...s), e = s.map((x) => Math.exp(x - m)), z = e.reduce((a, b) => a + b);
    out.push(Array.from({ length: dv }, (_, c) => e.reduce((acc, w, j) => acc + (w / z) * v[j * dv + c], 0)));
  }
  return out;
}

const state = (page) => page.evaluate(() => window.attentionLab.getState());
const trace = (page) => page.evaluate(() => window.attentionLab.trace());
const set = (page, partial) => page.evaluate((p) => { window.attentionLab.setState(p); }, partial);

const CROSS = 'attn=cross&nq=3&nk=4&dk=2&dv=3&seed=7&causal=0&step=output';
const Q = f32(typed(6, 20)), K = f32(typed(8, -4)), V = f32(typed(12, 60));

test('a new n, d_k, d_v, batch or seed keeps the typed cells; the new cells are the seed\'s', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url, CROSS);
  await set(page, { q: list(Q), k: list(K), v: list(V) });

  await set(page, { nq: 5, dk: 3 });
  let s = await state(page);
  expectKeptOrSeeded(numbers(s.q), Q, seeded(7, 1, 15), [1, 5, 3], [1, 3, 2], 'Q');
  expectKeptOrSeeded(numbers(s.k), K, seeded(7, 2, 12), [1, 4, 3], [1, 4, 2], 'K');
  assert.deepEqual(numbers(s.v), V, 'V keeps its shape and values');
  // The kernel computes with exactly these values.
  const want = attention64(numbers(s.q), numbers(s.k), numbers(s.v), 5, 4, 3, 3);
  (await trace(page)).output.forEach((row, i) => row.forEach((x, c) =>
    assert.ok(Math.abs(x - want[i][c]) < 1e-4, `output[${i}][${c}] ${x} vs ${want[i][c]}`)));

  // Shrunk back: the typed matrices again, exactly.
  await set(page, { nq: 3, dk: 2 });
  s = await state(page);
  assert.deepEqual(numbers(s.q), Q);
  assert.deepEqual(numbers(s.k), K);

  await set(page, { dv: 1, seed: 12 });
  s = await state(page);
  assert.equal(s.seed, '12');
  assert.deepEqual(numbers(s.q), Q, 'a new seed keeps typed values');
  expectKeptOrSeeded(numbers(s.v), V, seeded(12, 3, 4), [1, 4, 1], [1, 4, 3], 'V');

  // A second sequence (padding): the first keeps its cells, the second is the seed's.
  await set(page, { pad: '4,2' });
  s = await state(page);
  expectKeptOrSeeded(numbers(s.q), Q, seeded(12, 1, 12), [2, 3, 2], [1, 3, 2], 'Q of the batch');
  assert.deepEqual(errors, []);
  await page.close();
});

test('self-attention with projections keeps typed X and W through a new n, d_k and d_model', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url, 'preset=random&step=input');
  const X = f32(typed(6 * 8, -5)), WQ = f32(typed(8 * 8, 0.5));
  await set(page, { x: list(X), wq: list(WQ) });
  await set(page, { n: 4, dmodel: 9 });
  const s = await state(page);
  expectKeptOrSeeded(numbers(s.x), X, seeded(7, 1, 4 * 9), [1, 4, 9], [1, 6, 8], 'X');
  // W's new cells: the seed's values scaled by 1/√d_model, rounded to 0.01 (lab.h).
  // (float32 steps as in C++; std::round takes halves away from zero.)
  const roundAway = (x) => Math.sign(x) * Math.round(Math.abs(x));
  const w = seeded(7, 4, 9 * 8).map((x) => Math.fround(roundAway(Math.fround(Math.fround(x / 3) * 100)) / 100));
  expectKeptOrSeeded(numbers(s.wq), WQ, w, [1, 9, 8], [1, 8, 8], 'W_Q');
  assert.deepEqual(errors, []);
  await page.close();
});

// The controls of CROSS by their labels: Q's cells in the inputs panel, the + beside n_q,
// the header's Undo and Redo.
const at = async (page, query) => centre(await findItem(page, query));
const CELL_Q00 = { kind: 'drag', label: 'Q[0,0]' }, CELL_Q01 = { kind: 'drag', label: 'Q[0,1]' };
const UNDO = { kind: 'button', label: 'Undo' }, REDO = { kind: 'button', label: 'Redo' };
async function nqPlus(page) {
  const nq = await findItem(page, { kind: 'input', label: 'n_q queries' });
  return centre(await findItem(page, { kind: 'button', label: '+', near: { x: nq.x, y: nq.y } }));
}
const settle = (page) => frames(page);  // keys and clicks are read in the next frame
const snapshot = async (page) => ({ state: await state(page), trace: await trace(page) });

test('the inputs panel\'s edits undo and redo with Ctrl+Z, Ctrl+Shift+Z and the buttons, exactly', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url, CROSS);
  const s0 = await snapshot(page);
  // Type 7 into Q's first cell.
  await click(page, await at(page, CELL_Q00), 2);
  await settle(page);
  await press(page, 'Control+a');
  await page.keyboard.type('7');
  await press(page, 'Enter');
  await settle(page);
  const s1 = await snapshot(page);
  assert.equal(numbers(s1.state.q)[0], 7, 'the typed value');
  // One more query with the + button: the typed rows stay, the new one is the seed's.
  await click(page, await nqPlus(page));
  await settle(page);
  const s2 = await snapshot(page);
  assert.equal(s2.state.nq, '4');
  expectKeptOrSeeded(numbers(s2.state.q), numbers(s1.state.q), seeded(7, 1, 8), [1, 4, 2], [1, 3, 2], 'Q');

  // Moving to another step is not an edit: one Ctrl+Z still undoes the new query (and goes
  // back to the step where it was made).
  await page.keyboard.press('ArrowLeft');
  await settle(page);
  const s3 = await snapshot(page);
  assert.equal(s3.state.step, 'softmax');
  await page.keyboard.press('Control+z');
  await settle(page);
  assert.deepEqual(await snapshot(page), s1, 'Ctrl+Z: the state and trace before the new query');
  await page.keyboard.press('Control+z');
  await settle(page);
  assert.deepEqual(await snapshot(page), s0, 'Ctrl+Z again: before the typed value');
  await page.keyboard.press('Control+Shift+z');
  await settle(page);
  assert.deepEqual(await snapshot(page), s1, 'Ctrl+Shift+Z: the typed value again');
  await page.keyboard.press('Control+Shift+z');
  await settle(page);
  assert.deepEqual(await snapshot(page), s3, 'Ctrl+Shift+Z again: where the first Ctrl+Z was pressed');

  await click(page, await at(page, UNDO));
  await settle(page);
  assert.deepEqual(await snapshot(page), s1, 'the Undo button');
  await click(page, await at(page, REDO));
  await settle(page);
  assert.deepEqual(await snapshot(page), s3, 'the Redo button');

  // Inside a text field Ctrl+Z is the field's own: the state is not undone.
  await click(page, await at(page, CELL_Q01), 2);
  await settle(page);
  await page.keyboard.press('Control+z');
  await press(page, 'Escape');
  await settle(page);
  assert.deepEqual(await snapshot(page), s3, 'Ctrl+Z while typing leaves the history alone');
  assert.deepEqual(errors, []);
  await page.close();
});

test('changes through the page API undo too, and a new edit drops what was undone', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url, CROSS);
  const s0 = await snapshot(page);
  await set(page, { seed: 3 });
  const s1 = await snapshot(page);
  await click(page, await at(page, UNDO));
  await settle(page);
  assert.deepEqual(await snapshot(page), s0);
  await set(page, { dk: 3 });
  await settle(page);
  await page.keyboard.press('Control+Shift+z');
  await settle(page);
  const s = await state(page);
  assert.equal(s.dk, '3', 'nothing to redo after a new edit');
  assert.equal(s.seed, '7');
  assert.notDeepEqual(s, s1.state);
  assert.deepEqual(errors, []);
  await page.close();
});
