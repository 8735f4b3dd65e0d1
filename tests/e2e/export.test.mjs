// Export in headless Chromium: the CSV and JSON files equal the page API's numbers, the embed
// code reproduces what is on screen, "Copy embed code" reaches the clipboard, and the PNG is a
// figure that stands alone (decoded with pngjs: its cells' colours are the colormap at their
// values, its title, labels, values, colour scale and link are there, the title and link also
// as text), in the page and in the desktop app (--export, under xvfb-run).
//   node --test tests/e2e/export.test.mjs   (ATTN_APP=build/native/attention-lab by default)
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { labSession, openLab, until } from './harness.mjs';

const STATE = { preset: 'causal-3x2', step: 'softmax', query: 1, seed: 4, theme: 'dark', scale: 'none' };

const session = labSession();

async function openWith(state) {
  const lab = await openLab(session.browser.context, session.server.url);
  await lab.page.evaluate(s => window.attentionLab.setState(s), state);
  return lab;
}

// Runs attentionLab.download(kind) and returns the downloaded file's name and bytes.
async function download(page, kind) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.evaluate(k => window.attentionLab.download(k), kind)]);
  return { name: file.suggestedFilename(), bytes: fs.readFileSync(await file.path()) };
}

// CSV lines "matrix,row,col,value" as { matrix: number[][] }.
function parseCsv(text) {
  const [header, ...lines] = text.trim().split('\n');
  assert.equal(header, 'matrix,row,col,value');
  const out = {};
  for (const line of lines) {
    const [name, r, c, value] = line.split(',');
    ((out[name] ??= [])[+r] ??= [])[+c] = value === '-inf' ? -Infinity : Number(value);
  }
  return out;
}

// Float32 equality: the CSV's 9 digits and the trace's shortest form name the same float.
function assertSameFloats(actual, expected, what) {
  assert.equal(actual.length, expected.length, `${what}: rows`);
  actual.forEach((row, r) => row.forEach((x, c) => {
    const e = expected[r][c] === '-inf' ? -Infinity : expected[r][c];  // the contract's −∞
    assert.equal(Math.fround(x), Math.fround(e), `${what}[${r}][${c}]`);
  }));
}

test('CSV: every matrix, equal to the trace and to the inputs', async () => {
  const { page, errors } = await openWith(STATE);
  const { name, bytes } = await download(page, 'csv');
  assert.equal(name, 'attention-lab-matrices.csv');
  const text = bytes.toString('utf8');
  assert.equal(text, await page.evaluate(() => window.attentionLab.exportText('csv')), 'the download is the export text');
  const csv = parseCsv(text);
  const trace = await page.evaluate(() => window.attentionLab.trace());
  assert.deepEqual(Object.keys(csv), ['q', 'k', 'v', 'scores', 'scaled', 'masked', 'weights', 'output']);
  assertSameFloats(csv.weights, trace.weights, 'weights');
  assertSameFloats(csv.output, trace.output, 'output');
  assertSameFloats(csv.masked, trace.scores, 'masked scores');
  assert.equal(csv.masked[0][2], -Infinity, 'the causal mask removes key 2 for query 0');
  // scale=none: S·scale = S, and S = Q Kᵀ with K = Q (self-attention).
  assert.deepEqual(csv.scaled, csv.scores);
  csv.scores.forEach((row, i) => row.forEach((s, j) => {
    const dot = csv.q[i].reduce((sum, x, c) => sum + x * csv.k[j][c], 0);
    assert.ok(Math.abs(s - dot) < 1e-5, `scores[${i}][${j}] = q${i}·k${j}`);
  }));
  assert.deepEqual(errors, []);
  await page.close();
});

test('JSON: the state and the trace of the page API', async () => {
  const { page, errors } = await openWith(STATE);
  const { name, bytes } = await download(page, 'json');
  assert.equal(name, 'attention-lab.json');
  const json = JSON.parse(bytes.toString('utf8'));
  const api = await page.evaluate(() => ({ state: window.attentionLab.getState(), trace: window.attentionLab.trace() }));
  assert.deepEqual(json.state, api.state);
  assert.deepEqual(json.trace, api.trace);
  assert.equal(json.fragment, new URL(page.url()).hash.slice(1), 'the fragment is the address bar\'s');
  assert.deepEqual(errors, []);
  await page.close();
});

test('embed code: the line reproduces the state, in a page and through embed.js', async () => {
  const { page, errors } = await openWith({ ...STATE, causal: 'br', block: '2:0' });
  const code = await page.evaluate(() => window.attentionLab.embedCode());
  const expected = await page.evaluate(() => window.attentionLab.getState());
  assert.match(code, /^<attention-lab( [a-z]+="[^"<>]*")+><\/attention-lab>$/);
  assert.match(code, / theme="dark"/);
  const attributes = [...code.matchAll(/ ([a-z]+)="([^"]*)"/g)].map(m => [m[1], m[2]]);
  const fragment = attributes.map(([k, v]) => `${k}=${encodeURIComponent(v).replace(/%2C/g, ',').replace(/%3A/g, ':')}`).join('&');

  const copy = await openLab(session.browser.context, session.server.url, fragment);
  assert.deepEqual(await copy.page.evaluate(() => window.attentionLab.getState()), expected, 'the page opened with the line\'s attributes');
  await copy.page.close();

  // The same line in a lesson page, through the custom element.
  const host = await session.browser.context.newPage();
  await host.goto(session.server.url + 'examples/minimal.html');
  const state = await host.evaluate(line => new Promise(resolve => {
    document.querySelector('attention-lab').remove();
    document.body.insertAdjacentHTML('beforeend', line);
    document.querySelector('attention-lab').addEventListener('ready', e => resolve(e.detail));
  }), code);
  // Without a lang attribute the instance speaks the lesson page's language (<html lang="en">).
  assert.equal(expected.lang, 'auto');
  assert.deepEqual(state, { ...expected, lang: 'en' }, 'the embedded instance\'s state');
  await host.close();
  assert.deepEqual(errors, []);
  await page.close();
});

test('Copy embed code puts the line on the clipboard and says so', async () => {
  await session.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: session.server.url });
  const { page, errors } = await openWith(STATE);
  await page.evaluate(() => window.attentionLab.copyEmbedCode());
  // (Not waitForFunction: it takes the promise an async predicate returns for true at once.)
  await until(page, async () => (await navigator.clipboard.readText()) === window.attentionLab.embedCode(), undefined,
              { timeout: 5000 });
  assert.deepEqual(errors, []);
  await page.close();
});

// [PNG figure] ---------------------------------------------------------------------------------

// Viridis as the shader's polynomial fit, in float64, to 8-bit RGB.
function viridis(t) {
  const c = [[0.2777273272234177, 0.005407344544966578, 0.3340998053353061],
             [0.1050930431085774, 1.404613529898575, 1.384590162594685],
             [-0.3308618287255563, 0.214847559468213, 0.09509516302823659],
             [-4.634230498983486, -5.799100973351585, -19.33244095627987],
             [6.228269936347081, 14.17993336680509, 56.69055260068105],
             [4.776384997670288, -13.74514537774601, -65.35303263337234],
             [-5.435455855934631, 4.645852612178535, 26.3124352495832]];
  return [0, 1, 2].map(ch => {
    let v = 0;
    for (let k = 6; k >= 0; --k) v = v * t + c[k][ch];
    return Math.round(Math.min(Math.max(v, 0), 1) * 255);
  });
}

// The PNG's iTXt chunks (keyword, NUL, 0, 0, language NUL, translated keyword NUL, UTF-8 text).
function pngText(bytes) {
  const text = {};
  for (let at = 8; at < bytes.length;) {
    const length = bytes.readUInt32BE(at), type = bytes.toString('latin1', at + 4, at + 8);
    if (type === 'iTXt') {
      const data = bytes.subarray(at + 8, at + 8 + length);
      const key = data.indexOf(0);
      assert.deepEqual([...data.subarray(key, key + 5)], [0, 0, 0, 0, 0], 'uncompressed, no language');
      text[data.toString('latin1', 0, key)] = data.toString('utf8', key + 5);
    }
    at += 12 + length;
  }
  return text;
}

// Checks a figure of a sequential (softmax) matrix `weights` with `labels` on its axes:
// returns the decoded picture and its text chunks.
function checkFigure(bytes, weights, { title, link }) {
  const png = PNG.sync.read(bytes);  // checks the signature and every chunk's CRC
  const { width, height, data } = png;
  const n = weights.length, m = weights[0].length;
  const at = (x, y) => [...data.subarray((y * width + x) * 4, (y * width + x) * 4 + 3)];
  const near = (a, b) => a.every((v, i) => Math.abs(v - b[i]) <= 2);
  const background = at(0, 0);
  const ink = (x0, y0, x1, y1) => {
    let count = 0;
    for (let y = y0; y < y1; ++y) for (let x = x0; x < x1; ++x) if (!near(at(x, y), background)) ++count;
    return count;
  };
  // The plot: the first 4×4 block (in reading order) of cell (0, 0)'s colour.
  const first = viridis(weights[0][0]);
  const block = (x, y, colour) => [0, 1, 2, 3].every(dy => [0, 1, 2, 3].every(dx => near(at(x + dx, y + dy), colour)));
  let x0 = -1, y0 = -1;
  for (let y = 0; y < height - 4 && x0 < 0; ++y)
    for (let x = 0; x < width - 4; ++x) if (block(x, y, first)) { x0 = x; y0 = y; break; }
  assert.ok(x0 > 0, 'cell (0, 0) in the colormap\'s colour');
  // The cell pitch: the run of (0, 0)'s colour, then the grid line, to the next cell.
  let pitch = 0;
  while (near(at(x0 + pitch, y0 + 1), first)) ++pitch;
  while (near(at(x0 + pitch, y0 + 1), background)) ++pitch;
  assert.ok(pitch >= 20, `cells of ${pitch} px, big enough for values`);
  for (let i = 0; i < n; ++i)
    for (let j = 0; j < m; ++j) {
      const [x, y] = [x0 + j * pitch + 2, y0 + i * pitch + 2];
      if (weights[i][j] === 0) continue;  // masked or underflowed: the hatch or the colour of 0
      assert.ok(near(at(x, y), viridis(weights[i][j])),
                `cell (${i}, ${j}) = ${weights[i][j]}: ${at(x, y)} is viridis ${viridis(weights[i][j])}`);
      // Its value written across its middle.
      const middle = y0 + i * pitch + Math.floor(pitch / 2) - 1;
      let written = 0;
      for (let y1 = middle - 3; y1 <= middle + 3; ++y1)
        for (let x1 = x0 + j * pitch + 3; x1 < x0 + (j + 1) * pitch - 4; ++x1)
          if (!near(at(x1, y1), viridis(weights[i][j]))) ++written;
      assert.ok(written >= 8, `cell (${i}, ${j}) shows its value`);
    }
  const plotRight = x0 + m * pitch, plotBottom = y0 + n * pitch;
  assert.ok(ink(0, 0, width, Math.floor(y0 / 2)) > 200, 'a title above');
  assert.ok(ink(x0, Math.floor(y0 / 2), plotRight, y0 - 2) > 100, 'column labels above the cells');
  assert.ok(ink(0, y0, x0 - 4, plotBottom) > 100, 'row labels left of the cells');
  // The colour scale below: a bar from the colormap's colour at 0 to its colour at 1, with
  // numbers at both ends.
  const column = (x, y, colour) => [0, 1, 2, 3].every(dy => near(at(x, y + dy), colour));
  let low = null;
  for (let y = plotBottom + 2; y < height - 4 && !low; ++y)
    for (let x = 0; x < width; ++x) if (column(x, y, viridis(0))) { low = [x, y]; break; }
  assert.ok(low, 'the colour bar\'s low end is viridis(0)');
  let end = low[0];
  while (!near(at(end + 1, low[1]), background)) ++end;
  assert.ok(end - low[0] > 100 && column(end, low[1], viridis(1)), 'the colour bar\'s high end is viridis(1)');
  assert.ok(ink(0, low[1] - 4, low[0] - 2, low[1] + 8) > 20, 'the range\'s low end written left of the bar');
  assert.ok(ink(end + 2, low[1] - 4, width, low[1] + 8) > 20, 'the high end right of it');
  assert.ok(ink(0, low[1] + 20, width, height) > 200, 'the link below');
  assert.ok(width <= 1600 && height <= 1600, `a bounded figure: ${width}×${height}`);
  const text = pngText(bytes);
  assert.equal(text.Title, title);
  assert.equal(text.Link, link);
  return png;
}

const FIGURE = 'preset=random&step=softmax&causal=1&theme=dark';
const TITLE = 'Attention Lab · stage 4: A = softmax(row)';

test('PNG: a figure with title, tokens, values, colour scale and link, the title and link as text', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url, FIGURE);
  const { name, bytes } = await download(page, 'png');
  assert.equal(name, 'attention-lab-softmax.png');
  const weights = (await page.evaluate(() => window.attentionLab.trace())).weights;
  fs.writeFileSync(path.join(os.tmpdir(), 'attention-lab-export-page.png'), bytes);  // to look at
  checkFigure(bytes, weights, { title: TITLE, link: page.url() });
  assert.deepEqual(errors, []);
  await page.close();
});

test('PNG: a large matrix gives a bounded figure without values', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url, 'preset=random&n=1024&step=scores');
  const { bytes } = await download(page, 'png');
  const { width, height } = PNG.sync.read(bytes);
  assert.ok(width <= 1200 && height <= 1200, `${width}×${height}`);
  assert.match(pngText(bytes).Title, /stage 1: S = QKᵀ/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('PNG natively: attention-lab --export writes the same figure under xvfb-run', () => {
  const app = path.resolve(process.env.ATTN_APP || 'build/native/attention-lab');
  assert.ok(fs.existsSync(app), `${app} not found: build the native app first`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-lab-export-'));
  const run = kind => execFileSync('xvfb-run', ['-a', app, '--state', FIGURE, '--export', kind],
                                   { cwd: dir, stdio: 'pipe', timeout: 60000, env: { ...process.env, LIBGL_ALWAYS_SOFTWARE: '1' } });
  run('csv');
  run('png');
  const weights = parseCsv(fs.readFileSync(path.join(dir, 'attention-lab-matrices.csv'), 'utf8')).weights;
  const bytes = fs.readFileSync(path.join(dir, 'attention-lab-softmax.png'));
  fs.writeFileSync(path.join(os.tmpdir(), 'attention-lab-export-native.png'), bytes);  // to look at
  const link = pngText(bytes).Link;
  assert.match(link, /^attention-lab --state '[^']*'$/);
  for (const pair of FIGURE.split('&')) assert.ok(link.includes(pair), `${pair} in ${link}`);
  checkFigure(bytes, weights, { title: TITLE, link });
  fs.rmSync(dir, { recursive: true, force: true });
});
