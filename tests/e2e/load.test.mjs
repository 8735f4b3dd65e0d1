// Bringing your own data (docs/loading-data.md): attentionLab.load with a JSON request, and
// .npy files written here byte by byte (an independent writer of NumPy's format) given to the
// page's file input and dropped on the canvas. What the walkthrough then computes is checked
// against float64 computed here; bad files each give one sentence naming the file or field,
// and leave the page working and its state as it was.
import test from 'node:test';
import assert from 'node:assert/strict';
import { labSession, openLab, press } from './harness.mjs';
import { attention, assertClose } from './reference.mjs';

// [.npy writer] NumPy's format 1.0: magic, version, little-endian header length, a Python dict
// padded with spaces to a multiple of 64 bytes and ending in a newline, then the data.
function npy(values, shape, { dtype = '<f4', fortran = false } = {}) {
  let header = `{'descr': '${dtype}', 'fortran_order': ${fortran ? 'True' : 'False'}, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  header += ' '.repeat(63 - ((10 + header.length) % 64)) + '\n';
  const size = Number(dtype.slice(2));
  const bytes = new Uint8Array(10 + header.length + values.length * size);
  bytes.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, header.length & 0xff, header.length >> 8]);
  for (let i = 0; i < header.length; ++i) bytes[10 + i] = header.charCodeAt(i);
  const view = new DataView(bytes.buffer);
  const little = dtype[0] === '<';
  values.forEach((x, i) => {
    const at = 10 + header.length + i * size;
    if (size === 4) view.setFloat32(at, x, little);
    else if (size === 8) view.setFloat64(at, x, little);
    else view.setUint16(at, 0x3c00, little);  // float16 1.0
  });
  return Buffer.from(bytes);
}

// Deterministic values in [-2, 2) with a few decimals (a small LCG), rounded like float32.
function values(count, seed) {
  let x = seed >>> 0;
  return Array.from({ length: count }, () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return Math.fround((x / 2 ** 32) * 4 - 2);
  });
}
const matrix = (flat, rows, cols) => Array.from({ length: rows }, (_, r) => flat.slice(r * cols, (r + 1) * cols));

const session = labSession();

// The message beside the file button, once a load has answered.
async function answer(page, act) {
  await page.evaluate(() => { const m = document.getElementById('load-message'); m.hidden = true; m.textContent = ''; });
  await act();
  await page.waitForFunction(() => {
    const m = document.getElementById('load-message');
    return m.textContent !== '' && !m.classList.contains('busy');
  }, null, { timeout: 30000 });
  return page.evaluate(() => {
    const m = document.getElementById('load-message');
    return { text: m.textContent, error: m.classList.contains('error') };
  });
}
const asFile = (name, buffer) => ({ name, mimeType: 'application/octet-stream', buffer: Buffer.from(buffer) });
const choose = (page, files) => answer(page, () => page.setInputFiles('#load-input', files));
// A drop on the canvas as a browser makes it: a DragEvent carrying the files in a DataTransfer.
const drop = (page, files) => answer(page, () => page.evaluate(list => {
  const data = new DataTransfer();
  for (const f of list) data.items.add(new File([new Uint8Array(f.bytes)], f.name));
  const canvas = document.getElementById('canvas');
  canvas.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
  canvas.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
}, files.map(f => ({ name: f.name, bytes: Array.from(f.buffer) }))));

test('attentionLab.load: a JSON request with two heads and tokens shows the chosen head, not in the link', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url);
  const [nq, nk, dk, dv] = [4, 5, 3, 2];
  const q = [0, 1].map(h => matrix(values(nq * dk, 10 + h), nq, dk));
  const k = [0, 1].map(h => matrix(values(nk * dk, 20 + h), nk, dk));
  const v = [0, 1].map(h => matrix(values(nk * dv, 30 + h), nk, dv));
  const tokens = { queries: ['the', 'cat', 'sat', 'down'], keys: ['le', 'chat', 's’est', 'assis', '.'] };
  const result = await page.evaluate(r => window.attentionLab.load(r), { request: { q, k, v, causal: 'bottom_right' }, tokens, head: 1 });
  assert.equal(result.error, undefined, result.error);
  assert.ok(result.notes.some(n => /head 1 of 2/.test(n)), result.notes.join(' | '));

  const trace = await page.evaluate(() => window.attentionLab.trace());
  const expected = attention(q[1], k[1], v[1], 1 / Math.sqrt(dk), (i, j) => j <= i + (nk - nq));
  assertClose(trace.weights, expected.weights, 1e-5, 'weights');
  assertClose(trace.output, expected.output, 1e-5, 'output');

  const state = await page.evaluate(() => window.attentionLab.getState());
  assert.equal(state.attn, 'cross');
  assert.deepEqual([state.nq, state.nk, state.dk, state.dv], ['4', '5', '3', '2']);
  assert.equal(state.causal, 'br');
  // The loaded matrices stay out of the link (megabytes at n = 2048); the page says so.
  const hash = await page.evaluate(() => location.hash);
  assert.doesNotMatch(hash, /(^#|&)(q|k|v)=/, hash);
  assert.ok(result.notes.some(n => /link keeps the sizes and settings but not the values/.test(n)));
  // The tokens label the axes (the screen-reader table is the canvas's text).
  await page.waitForFunction(() => {
    const headers = Array.from(document.querySelectorAll('#stage-table th'), th => th.textContent);
    return headers.includes('cat') && headers.includes('chat');
  }, null, { timeout: 10000 });
  // The page shows the answer until the state changes, never over what it no longer describes.
  const note = () => page.evaluate(() => {
    const m = document.getElementById('load-message');
    return m.hidden ? null : m.textContent;
  });
  assert.match(await note(), /^Loaded\. Showing head 1 of 2: click another in "All heads"\. The link keeps/);
  // Another setting keeps the loaded data.
  await page.evaluate(() => window.attentionLab.setState({ step: 'softmax' }));
  assert.equal(await note(), null, 'the note outlived the state it described');
  assertClose((await page.evaluate(() => window.attentionLab.trace())).output, expected.output, 1e-5, 'output after a step');

  // The loaded data is where the history starts: Ctrl+Z takes back the head chosen after it,
  // and no more (before, it put back the built-in 3 × 3 example).
  await page.evaluate(() => window.attentionLab.setState({ head: 0 }));
  assertClose((await page.evaluate(() => window.attentionLab.trace())).weights,
              attention(q[0], k[0], v[0], 1 / Math.sqrt(dk), (i, j) => j <= i + (nk - nq)).weights, 1e-5, 'head 0');
  await page.focus('#canvas');
  for (let i = 0; i < 3; ++i) await press(page, 'Control+z');
  const undone = await page.evaluate(() => ({ head: window.attentionLab.getState().head, trace: window.attentionLab.trace() }));
  assert.equal(undone.head, '1');
  assertClose(undone.trace.weights, expected.weights, 1e-5, 'weights after Undo');
  assert.deepEqual([undone.trace.weights.length, undone.trace.weights[0].length], [nq, nk]);
  assert.deepEqual(errors, []);
  await page.close();
});

test('.npy files from the file button (float32 and float64) with tokens.json', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url);
  const [nq, nk, dk, dv] = [5, 4, 3, 2];
  const q = values(nq * dk, 1), k = values(nk * dk, 2), v = values(nk * dv, 3);
  const answered = await choose(page, [
    asFile('layer0_q.npy', npy(q, [nq, dk])),
    asFile('layer0_k.npy', npy(k, [nk, dk], { dtype: '<f8' })),
    asFile('layer0_v.npy', npy(v, [nk, dv])),
    asFile('tokens.json', JSON.stringify({ queries: ['a', 'b', 'c', 'd', 'e'], keys: ['w', 'x', 'y', 'z'] })),
  ]);
  assert.equal(answered.error, false, answered.text);
  assert.match(answered.text, /^Loaded\. /);
  const trace = await page.evaluate(() => window.attentionLab.trace());
  const expected = attention(matrix(q, nq, dk), matrix(k, nk, dk), matrix(v, nk, dv), 1 / Math.sqrt(dk));
  assertClose(trace.weights, expected.weights, 1e-5, 'weights');
  assertClose(trace.output, expected.output, 1e-5, 'output');
  assert.deepEqual(errors, []);
  await page.close();
});

test('.npy files dropped on the canvas: a batch becomes the padded batch, a boolean mask its padding', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url);
  const [b, n, d] = [2, 3, 2];
  const q = values(b * n * d, 4), k = values(b * n * d, 5), v = values(b * n * d, 6);
  const dropped = await drop(page, [
    { name: 'q.npy', buffer: npy(q, [b, 1, n, d], { dtype: '<f8' }) },
    { name: 'k.npy', buffer: npy(k, [b, 1, n, d]) },
    { name: 'v.npy', buffer: npy(v, [b, 1, n, d]) },
  ]);
  assert.equal(dropped.error, false, dropped.text);
  const trace = await page.evaluate(() => window.attentionLab.trace());
  for (let s = 0; s < b; ++s) {
    const part = t => matrix(t.slice(s * n * d, (s + 1) * n * d), n, d);
    const expected = attention(part(q), part(k), part(v), 1 / Math.sqrt(d));
    assertClose(trace.output[s][0], expected.output, 1e-5, `output of sequence ${s}`);
  }
  // The same batch through the JSON API, with key padding as a boolean mask (batch, 1, 1, n_k).
  const mask = [[[[true, true, false]]], [[[true, false, false]]]];
  const nested = t => [0, 1].map(s => [matrix(t.slice(s * n * d, (s + 1) * n * d), n, d)]);
  const result = await page.evaluate(r => window.attentionLab.load(r), { q: nested(q), k: nested(k), v: nested(v), mask });
  assert.equal(result.error, undefined, result.error);
  assert.equal((await page.evaluate(() => window.attentionLab.getState())).pad, '2,1');
  const padded = await page.evaluate(() => window.attentionLab.trace());
  for (let s = 0; s < b; ++s) {
    const part = t => matrix(t.slice(s * n * d, (s + 1) * n * d), n, d);
    const expected = attention(part(q), part(k), part(v), 1 / Math.sqrt(d), (i, j) => mask[s][0][0][j]);
    assertClose(padded.weights[s][0], expected.weights, 1e-5, `weights of sequence ${s}`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('bad files and requests: one sentence naming the file or field, the page working and unchanged', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url);
  const good = { q: npy(values(6, 7), [2, 3]), k: npy(values(9, 8), [3, 3]), v: npy(values(6, 9), [3, 2]) };
  const withFile = (role, buffer, name = role + '.npy') =>
    ['q', 'k', 'v'].map(r => asFile(r === role ? name : r + '.npy', r === role ? buffer : good[r]));
  const over = values(6, 7);
  over[5] = 150;
  const nan = values(6, 9);
  nan[1] = NaN;
  const cases = [
    ['truncated', withFile('q', good.q.subarray(0, good.q.length - 5)), /^q\.npy: truncated: shape \(2, 3\)/],
    ['big-endian', withFile('k', npy(values(9, 8), [3, 3], { dtype: '>f4' })), /^k\.npy: big-endian data/],
    ['Fortran order', withFile('v', npy(values(6, 9), [3, 2], { fortran: true })), /^v\.npy: Fortran order/],
    ['float16', withFile('q', npy(values(6, 7), [2, 3], { dtype: '<f2' })), /^q\.npy: float16 data/],
    ['wrong rank', withFile('q', npy(values(6, 7), [6])), /^q\.npy: q: expected rank 2 to 4, got rank 1/],
    ['mismatched shapes', withFile('k', npy(values(12, 8), [3, 4])), /^k\.npy: k: d_k is 4 but q has 3 columns/],
    ['over the interface', withFile('q', npy(over, [2, 3])), /^q\.npy: q\[1\]\[2\]: 150 is outside ±100/],
    ['d_k over the interface', [asFile('q.npy', npy(values(300, 7), [1, 300])), asFile('k.npy', npy(values(900, 8), [3, 300])),
                                asFile('v.npy', good.v)], /^q\.npy: q: d_k is 300, more than the walkthrough's 256/],
    ['NaN', withFile('v', npy(nan, [3, 2])), /^v\.npy: entry \[0\]\[1\] is NaN, not a finite number/],
    ['not .npy', withFile('q', Buffer.from('hello')), /^q\.npy: not a \.npy file/],
    ['unnamed tensor', withFile('q', good.q, 'queries.npy'), /^queries\.npy: name it q\.npy/],
    ['not JSON', [asFile('request.json', '{"q": [[1, 2]], ')], /^request\.json: request: invalid JSON at byte/],
    ['tokens that do not fit', [...withFile('q', good.q), asFile('tokens.json', '{"queries": ["a"]}')],
     /^tokens\.json: tokens\.queries: 1 tokens, but the data has 2 queries/],
  ];
  const before = await page.evaluate(() => [window.attentionLab.getState(), window.attentionLab.trace(), location.hash]);
  for (const [what, files, expected] of cases) {
    const answered = await choose(page, files);
    assert.ok(answered.error, `${what}: shown as an error`);
    assert.match(answered.text, expected, what);
    // One sentence: one line, ending in a full stop, no second sentence inside.
    assert.match(answered.text, /^[^\n]+\.$/, `${what}: ${answered.text}`);
    assert.doesNotMatch(answered.text, /\.\s+[A-Z]/, `${what}: ${answered.text}`);
    const after = await page.evaluate(() => [window.attentionLab.getState(), window.attentionLab.trace(), location.hash]);
    assert.deepEqual(after, before, `${what}: the state is unchanged`);
  }
  // The scripted form answers the same way, without throwing.
  const scripted = [
    [{ q: [[1, 2]], k: [[1, 2]], v: [[1]], mask: [[-0.5]] }, /^mask: the additive value -0\.5 is neither 0 nor -inf/],
    ['not json', /^request: invalid JSON at byte \d+$/],
    [{ request: { q: [[1]], k: [[1]], v: [[1]] }, head: 3 }, /^head: expected a head from 0 to 0/],
  ];
  for (const [request, expected] of scripted) {
    const result = await page.evaluate(r => window.attentionLab.load(r), request);
    assert.match(result.error, expected);
  }
  assert.deepEqual(await page.evaluate(() => [window.attentionLab.getState(), window.attentionLab.trace(), location.hash]), before);
  // Still working: a good load after the bad ones.
  const answered = await choose(page, withFile('q', good.q));
  assert.equal(answered.error, false, answered.text);
  assert.equal((await page.evaluate(() => window.attentionLab.getState())).attn, 'cross');
  assert.deepEqual(errors, []);
  await page.close();
});
