// Accessibility in headless Chromium: keyboard access to the steps, the query rows and the
// heatmap cells (with a visible focus ring, and a Tab that leaves the canvas); the
// screen-reader table and live region equal the trace's numbers, and the table stays bounded
// at n = 2048; prefers-reduced-motion slows Play; theme=auto follows prefers-color-scheme live.
import test from 'node:test';
import assert from 'node:assert/strict';
import { frames, labSession, openLab, until } from './harness.mjs';

const session = labSession();

const state = page => page.evaluate(() => window.attentionLab.getState());
// Key presses, then the frames that read them.
async function press(page, ...keys) {
  for (const key of keys) await page.keyboard.press(key);
  await frames(page);
}

// Frames until the screen-reader table shows step `n` of 5 (the app fills it as it draws).
const tableAt = (page, n) => until(page, (n) => document.getElementById('stage-table').caption?.textContent.startsWith(`Step ${n} of 5,`), n);

// The screen-reader table as { caption, columns, rows, cells }.
const readTable = page => page.evaluate(() => {
  const t = document.getElementById('stage-table');
  const [head, ...rows] = t.querySelectorAll('tr');
  return {
    caption: t.caption.textContent,
    columns: [...head.querySelectorAll('th')].map(th => th.textContent),
    rows: rows.map(r => r.querySelector('th').textContent),
    cells: rows.map(r => [...r.querySelectorAll('td')].map(td => td.textContent)),
    current: rows.findIndex(r => r.getAttribute('aria-current') === 'true'),
  };
});

// The interface prints 4 decimals at most; −∞ for a masked cell ("-inf" in the trace).
function assertShown(cells, numbers, what) {
  assert.equal(cells.length, numbers.length, `${what}: rows`);
  cells.forEach((row, r) => row.forEach((text, c) => {
    const x = numbers[r][c];
    if (x === '-inf') assert.equal(text, '−∞', `${what}[${r}][${c}]`);
    else assert.ok(Math.abs(Number(text.replace('−', '-')) - x) <= 5e-5, `${what}[${r}][${c}]: ${text} vs ${x}`);
  }));
}

// The colour of one CSS pixel of the page, as [r, g, b].
async function pixel(page, x, y) {
  const png = await page.screenshot({ clip: { x, y, width: 1, height: 1 } });
  return page.evaluate(async base64 => {
    const image = new Image();
    image.src = 'data:image/png;base64,' + base64;
    await image.decode();
    const g = Object.assign(document.createElement('canvas'), { width: 1, height: 1 }).getContext('2d');
    g.drawImage(image, 0, 0);
    return [...g.getImageData(0, 0, 1, 1).data.slice(0, 3)];
  }, png.toString('base64'));
}

// The pixel once each of its channels passes `test`, or as it is after 60 frames (the app
// reads the colour scheme as it draws).
async function pixelOnceIt(page, x, y, test) {
  let colour = await pixel(page, x, y);
  for (let i = 0; i < 60 && !colour.every(test); ++i) {
    await frames(page, 1);
    colour = await pixel(page, x, y);
  }
  return colour;
}

test('keyboard: steps, query rows, Play, then the cells of the heatmap', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url, 'preset=causal-3x2&step=scores&query=0');
  await press(page, 'ArrowRight', 'ArrowRight', 'ArrowDown');
  assert.equal((await state(page)).step, 'mask');
  assert.equal((await state(page)).query, '1');
  const before = await page.screenshot();

  // Tab: into the current stage's heatmap, where the arrows move a cell and Enter selects it.
  await press(page, 'Tab');
  assert.ok(await page.evaluate(() => document.activeElement.id === 'canvas'), 'focus stays on the canvas');
  assert.notDeepEqual(await page.screenshot(), before, 'the focus ring moved to the heatmap');
  await press(page, 'ArrowDown', 'ArrowDown', 'ArrowRight');
  assert.equal((await state(page)).step, 'mask', 'arrows move the cell, not the step');
  assert.equal((await state(page)).query, '1', 'only Enter selects the row');
  const trace = await page.evaluate(() => window.attentionLab.trace());
  const live = await page.evaluate(() => document.getElementById('live').textContent);
  assert.match(live, /^q2, k1: /, 'the live region names the focused cell');
  assert.ok(live.includes(trace.scores[2][1].toFixed(4)), `and gives its value: ${live}`);
  await press(page, 'Enter');
  assert.equal((await state(page)).query, '2');

  // Escape goes back to the stepper; Tab, Tab leaves the canvas for the rest of the page.
  await press(page, 'Escape', 'ArrowLeft');
  assert.equal((await state(page)).step, 'scale');
  await press(page, 'Tab', 'Tab');
  assert.notEqual(await page.evaluate(() => document.activeElement.id), 'canvas', 'Tab leaves the canvas');
  assert.deepEqual(errors, []);
  await page.close();
});

test('screen readers: the table mirrors the current step\'s numbers', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url, 'preset=causal-3x2&step=softmax&query=2');
  const trace = await page.evaluate(() => window.attentionLab.trace());
  let table = await readTable(page);
  assert.match(table.caption, /^Step 4 of 5, A = softmax\(row\): 3 × 3; selected query row/);
  assert.equal(table.columns.length, 3);
  assert.equal(table.current, 2);
  assertShown(table.cells, trace.weights, 'weights');

  await page.evaluate(() => window.attentionLab.setState({ step: 'mask', seed: 3, preset: 'random' }));
  await tableAt(page, 3);
  table = await readTable(page);
  assertShown(table.cells, (await page.evaluate(() => window.attentionLab.trace())).scores, 'masked scores');
  await page.evaluate(() => window.attentionLab.setState({ step: 'output' }));
  await tableAt(page, 5);
  table = await readTable(page);
  assert.match(table.columns[0], /^d0$/);
  assertShown(table.cells, (await page.evaluate(() => window.attentionLab.trace())).output, 'output');
  assert.equal(await page.evaluate(() => document.getElementById('live').getAttribute('aria-live')), 'polite');
  assert.deepEqual(errors, []);
  await page.close();
});

test('prefers-reduced-motion: Play advances more slowly', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url, 'preset=causal-3x2&step=scores');
  // Play's pace is the clock's (header.cpp): how long until its first step, by the clock.
  const firstStep = async () => {
    const start = Date.now();
    await press(page, 'Space');
    await until(page, () => window.attentionLab.getState().step !== 'scores');
    const ms = Date.now() - start;
    await press(page, 'Space');  // pause
    return ms;
  };
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const reduced = await firstStep();
  assert.ok(reduced >= 2500, `no step within 2.5 s under reduced motion (${reduced} ms)`);
  await page.evaluate(() => window.attentionLab.setState({ step: 'scores' }));
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  const normal = await firstStep();
  // Both waits end a frame or more after the step (later on a loaded machine): their
  // difference, not the clock, tells the paces apart (5 s against 1.6 s).
  assert.ok(reduced - normal > 2000, `Play steps sooner otherwise (${normal} ms against ${reduced} ms)`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('screen readers: at n = 2048 the table holds the selected row and a bounded window around it', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url, 'preset=causal-3x2');
  await page.evaluate(() => window.attentionLab.setState({ preset: 'random', n: 2048, dk: 64, step: 'softmax', query: 1000 }));
  await page.waitForFunction(() => /2048 × 2048/.test(document.getElementById('stage-table').caption?.textContent),
                             null, { timeout: 60000 });
  const table = await readTable(page);
  assert.match(table.caption, /selected query row q1000\. Shown: rows q996–q1004, columns k984–k1015;/);
  assert.equal(table.rows.length, 9);
  assert.equal(table.rows[table.current], 'q1000');
  assert.equal(table.columns.length, 32);
  assert.ok(table.cells.every(row => row.length === 32));
  // Every cell of the DOM table: 9 × 32 and the header row's empty corner.
  assert.equal(await page.evaluate(() => document.querySelectorAll('#stage-table td').length), 9 * 32 + 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test('theme=auto follows prefers-color-scheme live and stays auto in the state', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url, 'preset=causal-3x2&theme=auto');
  await page.emulateMedia({ colorScheme: 'dark' });
  const dark = await pixelOnceIt(page, 3, 3, (c) => c < 80);
  await page.emulateMedia({ colorScheme: 'light' });
  const light = await pixelOnceIt(page, 3, 3, (c) => c > 200);
  assert.ok(dark.every(c => c < 80), `dark background ${dark}`);
  assert.ok(light.every(c => c > 200), `light background ${light}`);
  assert.equal((await state(page)).theme, 'auto');
  assert.deepEqual(errors, []);
  await page.close();
});
