// The walkthrough page in headless Chromium (WebGL2 through SwiftShader), driven through the
// page API of docs/embed.md and through real keyboard and mouse input.
import test from 'node:test';
import assert from 'node:assert/strict';
import { centre, click, findItem, frames, labSession, openLab, until } from './harness.mjs';
import { assertClose, attention } from './reference.mjs';

const PRESETS = ['causal-3x2', 'saturation', 'random', 'cross', 'padding'];

// Every row of a (possibly batched) weights tensor: the leaves' parents.
function rows(t) { return Array.isArray(t[0]) ? t.flatMap(rows) : [t]; }

const session = labSession();

test('the page becomes ready with WebGL2 and no console errors', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url);
  const webgl2 = await page.evaluate(() => !!document.getElementById('canvas').getContext('webgl2'));
  assert.ok(webgl2, 'the canvas has a WebGL2 context');
  const hidden = await page.evaluate(() => document.getElementById('status').hidden);
  assert.ok(hidden, 'the loading indicator is gone');
  await frames(page, 10);
  assert.deepEqual(errors, []);
  await page.close();
});

test('causal-3x2: weights and output match an independent float64 computation', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url, 'preset=causal-3x2');
  const trace = await page.evaluate(() => window.attentionLab.trace());
  const x = [[1, 0], [2, 0], [3, 0]];
  const expected = attention(x, x, x, 1 / Math.sqrt(2), (i, j) => j <= i);
  assertClose(trace.weights, expected.weights, 1e-5, 'weights');
  assertClose(trace.output, expected.output, 1e-5, 'output');
  // The lesson's worked example, last row: the weights and the output's first coordinate.
  assertClose(trace.weights[2], [0.0127, 0.1057, 0.8816], 1e-4, 'row 2');
  assert.ok(Math.abs(trace.output[2][0] - 2.869) < 1e-3);
  assert.equal(trace.scores[0][1], '-inf', 'masked scores are reported as "-inf"');
  for (const row of trace.weights) assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-6);
  assert.deepEqual(errors, []);
  await page.close();
});

test('every preset loads, computes, and its rows of weights sum to 1', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url);
  for (const preset of PRESETS) {
    await page.evaluate(p => window.attentionLab.setState({ preset: p }), preset);
    const state = await page.evaluate(() => window.attentionLab.getState());
    assert.equal(state.preset, preset);
    assert.match(await page.evaluate(() => location.hash), new RegExp(`preset=${preset}`));
    const trace = await page.evaluate(() => window.attentionLab.trace());
    assert.ok(!trace.error, `${preset}: ${trace.error}`);
    for (const row of rows(trace.weights)) {
      const sum = row.reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(sum - 1) < 1e-5, `${preset}: a row sums to ${sum}`);
    }
  }
  // Opening each preset's link directly gives the same state.
  for (const preset of PRESETS) {
    const other = await openLab(session.browser.context, session.server.url, `preset=${preset}`);
    assert.equal((await other.page.evaluate(() => window.attentionLab.getState())).preset, preset);
    assert.deepEqual(other.errors, []);
    await other.page.close();
  }
  // The compare view draws the weights under three scales without trouble.
  await page.evaluate(() => window.attentionLab.setState({ preset: 'saturation', view: 'compare' }));
  await frames(page, 10);
  assert.equal((await page.evaluate(() => window.attentionLab.getState())).view, 'compare');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the URL fragment follows the state and reproduces it', async () => {
  const { page } = await openLab(session.browser.context, session.server.url, 'preset=cross');
  const changes = [];
  await page.exposeFunction('recordChange', s => changes.push(s));
  await page.evaluate(() => window.attentionLab.on('change', s => window.recordChange(s)));
  await page.evaluate(() => window.attentionLab.setState({ step: 'mask', query: 3, causal: 'br', theme: 'dark', seed: 5 }));
  await until(page, () => /step=mask/.test(location.hash));
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /step=mask/);
  assert.match(hash, /query=3/);
  assert.ok(changes.length >= 1 && changes.at(-1).step === 'mask', 'on("change") saw the new state');
  const before = await page.evaluate(() => window.attentionLab.getState());
  const traceBefore = await page.evaluate(() => window.attentionLab.trace());

  const again = await openLab(session.browser.context, session.server.url, hash.slice(1));
  assert.deepEqual(await again.page.evaluate(() => window.attentionLab.getState()), before);
  assert.deepEqual(await again.page.evaluate(() => window.attentionLab.trace()), traceBefore);
  await again.page.close();
  await page.close();
});

test('keyboard: → and ← step through the stages, ↓ selects the next query', async () => {
  const { page } = await openLab(session.browser.context, session.server.url, 'preset=random&step=scores&query=0');
  await page.keyboard.press('ArrowRight');
  await frames(page);
  assert.equal((await page.evaluate(() => window.attentionLab.getState())).step, 'scale');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowDown');
  await frames(page);
  const state = await page.evaluate(() => window.attentionLab.getState());
  assert.equal(state.step, 'scale');
  assert.equal(state.query, '1');
  await page.close();
});

// The centre of cell (row, col) of the heatmap titled `title` (3 × 3 in causal-3x2: its
// layout() rectangle is the grid of cells).
async function cell(page, title, row, col, n = 3) {
  const map = await findItem(page, { kind: 'heatmap', label: title });
  return [map.x + (col + 0.5) * map.w / n, map.y + (row + 0.5) * map.h / n];
}

test('mouse: clicking Next and clicking a heatmap cell', async () => {
  const { page } = await openLab(session.browser.context, session.server.url, 'preset=causal-3x2&step=softmax&query=2');
  await click(page, centre(await findItem(page, { kind: 'button', label: 'Next →' })));
  assert.equal((await page.evaluate(() => window.attentionLab.getState())).step, 'output');
  // Row q0, column k0 of stage 3 (on screen above the output's card, which Next brought into
  // view): selects query 0 and that stage.
  await click(page, await cell(page, '+ mask', 0, 0));
  const state = await page.evaluate(() => window.attentionLab.getState());
  assert.equal(state.query, '0');
  assert.equal(state.step, 'mask');
  await page.close();
});

test('mouse: painting a cell of the mask removes that key', async () => {
  const { page } = await openLab(session.browser.context, session.server.url, 'preset=causal-3x2&step=mask&query=2');
  await click(page, centre(await findItem(page, { kind: 'checkbox', label: 'paint: click cells of stage 3' })));
  await click(page, await cell(page, '+ mask', 2, 0));
  assert.equal((await page.evaluate(() => window.attentionLab.getState())).block, '2:0');
  const trace = await page.evaluate(() => window.attentionLab.trace());
  // Row 2 now attends keys 1 and 2 only: softmax of their scaled scores.
  const s1 = (3 * 2) / Math.sqrt(2), s2 = (3 * 3) / Math.sqrt(2), z = Math.exp(s1 - s2) + 1;
  assertClose(trace.weights[2], [0, Math.exp(s1 - s2) / z, 1 / z], 1e-5, 'row 2');
  await page.close();
});

test('bad fragment values are ignored with a visible note; the rest applies', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url,
                                         'preset=causal-3x2&step=sideways&colour=red&n=none&theme=dark');
  const state = await page.evaluate(() => window.attentionLab.getState());
  assert.equal(state.step, 'scores');
  assert.equal(state.nq, '3');
  assert.equal(state.theme, 'dark');
  const notes = await page.evaluate(() => document.getElementById('notes').textContent);
  assert.match(notes, /step=sideways/);
  assert.match(notes, /colour/);
  assert.match(notes, /n=none/);  // a number out of range is clamped instead (clamp.test.mjs)
  assert.deepEqual(errors, []);
  await page.close();
});
