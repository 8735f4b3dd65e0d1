// Export in headless Chromium: the CSV and JSON files equal the page API's numbers, the embed
// code reproduces what is on screen, "Copy embed code" reaches the clipboard, and the PNG
// download is a real picture of the heatmap.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { labSession, openLab } from './harness.mjs';

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
  assert.deepEqual(state, expected, 'the embedded instance\'s state');
  await host.close();
  assert.deepEqual(errors, []);
  await page.close();
});

test('Copy embed code puts the line on the clipboard and says so', async () => {
  await session.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: session.server.url });
  const { page, errors } = await openWith(STATE);
  await page.evaluate(() => window.attentionLab.copyEmbedCode());
  await page.waitForFunction(async () => (await navigator.clipboard.readText()) === window.attentionLab.embedCode(), null,
                             { timeout: 5000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('PNG: the current heatmap, a valid picture of several colours', async () => {
  const { page, errors } = await openWith({ preset: 'random', step: 'scores', n: 6 });
  const { name, bytes } = await download(page, 'png');
  assert.equal(name, 'attention-lab-scores.png');
  assert.deepEqual([...bytes.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], 'the PNG signature');
  // Decoded by the browser: its size and how many distinct colours it has.
  const picture = await page.evaluate(async base64 => {
    const image = new Image();
    image.src = 'data:image/png;base64,' + base64;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.width;
    canvas.height = image.height;
    const g = canvas.getContext('2d');
    g.drawImage(image, 0, 0);
    const data = g.getImageData(0, 0, image.width, image.height).data;
    const colours = new Set();
    for (let i = 0; i < data.length; i += 4) colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    return { width: image.width, height: image.height, colours: colours.size };
  }, bytes.toString('base64'));
  assert.ok(picture.width >= 60 && picture.height >= 60, `size ${picture.width}×${picture.height}`);
  assert.ok(picture.colours >= 12, `${picture.colours} colours: 36 cells of a random matrix`);
  assert.deepEqual(errors, []);
  await page.close();
});
