// A model a user brings (issue 54, docs/your-model.md), in the page: a GPT-2-shaped model made
// with PyTorch (tests/model/gpt2_files.py) opened with "Open model…" (the page's chooser, the
// files picked at once) at 1280 × 800 and dropped on the lab on a phone (390 × 844). The page
// shows the model's own tokens and numbers, the same as attention-train-model's (which
// tests/model/your_model_test.py holds to PyTorch); every bad file is refused with a sentence
// naming it, the model and text shown before kept; a link naming the model says it cannot
// carry its files.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { centre, click, findSteadyItem, frames, launchBrowser, openLab, openOnPhone, press, reach, startServer, until } from './harness.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const trainModel = process.env.ATTN_TRAIN_MODEL || path.join(root, 'build/native/attention-train-model');
const shots = process.env.ATTN_SCREENSHOT_DIR || path.join(root, 'build');
const TEXT = 'The cat sat on the mat. The cat sat on the mat.';

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-lab-your-model-'));
execFileSync('/usr/bin/python3', [path.join(root, 'tests/model/gpt2_files.py'), folder]);
const files = fs.readdirSync(folder).sort().map(name => path.join(folder, name));
const native = JSON.parse(execFileSync(trainModel, ['dump', '--weights', folder, '--text', TEXT],
                                       { encoding: 'utf8', maxBuffer: 1 << 28 }));

// The view's numbers once the opened model's passes have run.
const opened = (page) => until(page, () => {
  const e = window.attentionLab.experiment();
  return e?.model?.name === 'test-gpt2' && e.scores?.[0]?.matters !== undefined && e;
});

function sameAsNative(e) {
  assert.equal(e.model.format, 'safetensors');
  assert.equal(e.model.tokenizer, 'gpt2-bpe');
  assert.deepEqual(e.tokens, native.pieces, 'the pieces of the tokenizer');
  assert.deepEqual(e.token_ids, native.tokens, 'their ids');
  assert.equal(e.tokens.join(''), TEXT);
  e.loss.slice(0, -1).forEach((l, i) => assert.ok(Math.abs(l - native.loss[i]) < 1e-4, `loss at ${i}: ${l} against ${native.loss[i]}`));
  const parts = e.attribution.parts.map(p => p.part);
  for (const name of ['embedding', '0.0', '1.3', '0.attn_bias', '0.mlp', '1.mlp', 'final_ln_bias']) assert.ok(parts.includes(name), name);
  const sum = e.attribution.parts.reduce((s, p) => s + p.direct, 0);
  assert.ok(Math.abs(sum - e.attribution.value) < 1e-4, `the parts sum to the logit: ${sum} against ${e.attribution.value}`);
}

// Bad copies of the model's files: one file changed by a function run in the page (its source
// here), the rest as they are; and the sentence expected.
const BAD = [
  ['model.safetensors', 'b => b.subarray(0, b.length >> 1)', /model\.safetensors.*truncated/],
  ['model.safetensors', 'b => { const c = b.slice(); new DataView(c.buffer).setBigUint64(0, BigInt(b.length + 10), true); return c; }',
   /model\.safetensors.*runs past the end/],
  ['model.safetensors', 'b => { const c = b.slice(); new DataView(c.buffer).setBigUint64(0, 200000000n, true); return c; }',
   /model\.safetensors.*100 MB/],
  ['model.safetensors', 'b => replace(b, \'"dtype": "F32", "shape": [50257\', \'"dtype": "I32", "shape": [50257\')',
   /model\.safetensors.*wte\.weight.*I32/],
  ['model.safetensors', 'b => replace(b, \'"ln_f.weight"\', \'"ln_f.weighx"\')', /model\.safetensors.*ln_f\.weight/],
  ['config.json', 'b => json(b, { n_head: 5 })', /config\.json.*multiple/],
  ['config.json', 'b => json(b, { n_positions: 16 })', /model\.safetensors.*wpe\.weight/],
  ['model.safetensors', 'b => { const c = b.slice(); c.set([0, 0, 0x80, 0x7f], c.length - 4); return c; }', /model\.safetensors.*not finite/],
  ['model.safetensors', '() => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(64).fill(0)])',
   /model\.safetensors.*not a safetensors file/],
  ['vocab.json', 'b => json(b, { "<extra>": 50257 })', /vocab\.json.*past the embedding's 50257 rows/],
];

async function triesBadFiles(page) {
  const before = await opened(page);
  // The good files, once, into the page.
  await page.evaluate((files) => {
    window.goodFiles = files.map(f => ({ name: f.name, bytes: Uint8Array.from(atob(f.base64), c => c.charCodeAt(0)) }));
  }, files.map(f => ({ name: path.basename(f), base64: fs.readFileSync(f).toString('base64') })));
  for (const [name, change, want] of BAD) {
    const message = await page.evaluate(async ([name, change]) => {
      const latin1 = b => Array.from(b, c => String.fromCharCode(c)).join('');
      const replace = (b, from, to) => Uint8Array.from(latin1(b).replace(from, to), c => c.charCodeAt(0));
      const json = (b, fields) => new TextEncoder().encode(JSON.stringify({ ...JSON.parse(new TextDecoder().decode(b)), ...fields }));
      const f = new Function('replace', 'json', 'return ' + change)(replace, json);
      const set = window.goodFiles.map(g => ({ name: g.name, data: (g.name === name ? f(g.bytes) : g.bytes).slice().buffer }));
      try {
        await window.attentionLab.loadModel(set);
        return 'opened';
      } catch (e) { return e instanceof Error ? e.message : 'not an Error: ' + e; }
    }, [name, change]);
    assert.match(message, want);
    // The message is shown beside the buttons, and the model and text are still those shown before.
    assert.match(await page.locator('#load-message').textContent(), want);
    const now = await page.evaluate(() => window.attentionLab.experiment());
    assert.equal(now.model.name, 'test-gpt2');
    assert.equal(now.text, before.text);
  }
}

test.after(() => fs.rmSync(folder, { recursive: true, force: true }));

test('with a mouse at 1280 × 800: Open model… picks the files, the page shows the model, bad files are refused', async (t) => {
  const server = await startServer();
  const { context, close } = await launchBrowser();
  t.after(async () => { await close(); await server.close(); });
  const { page, errors } = await openLab(context, server.url, 'view=model&text=' + encodeURIComponent(TEXT));
  await until(page, () => window.attentionLab.experiment()?.tokens?.length > 0);
  const chooser = page.waitForEvent('filechooser');
  await click(page, centre(await reach(page, { label: 'Open model…', kind: 'button' })));
  await (await chooser).setFiles(files);
  const e = await opened(page);
  sameAsNative(e);
  assert.equal(e.text, TEXT, 'the text is kept');
  assert.equal(await page.evaluate(() => window.attentionLab.getState().model), 'test-gpt2');
  await frames(page, 3);
  await page.screenshot({ path: path.join(shots, 'e2e-your-model-laptop.png') });
  await triesBadFiles(page);
  // Undo goes back to the lab's model; the opened one is still among the choices.
  await press(page, 'Control+z');  // held for frames, as ImGui reads keys once a frame
  await until(page, () => window.attentionLab.getState().model === 'lab' &&
                          window.attentionLab.experiment()?.weights?.file === 'model/tiny-lm.bin');
  // Its choice is on screen (the radios' clicks are model_weights.test.mjs's); chosen, the same numbers.
  await findSteadyItem(page, { label: 'test-gpt2', kind: 'radio' });
  await page.evaluate(() => window.attentionLab.setState({ model: 'test-gpt2' }));
  sameAsNative(await opened(page));
  // A link cannot carry the files: opened afresh, it says so.
  const { page: linked } = await openLab(context, server.url, 'view=model&model=test-gpt2');
  const said = await until(linked, () => window.attentionLab.experiment()?.error);
  assert.match(said, /a link cannot carry/);
  assert.deepEqual(errors, []);
});

test('with a finger on a phone (390 × 844): the files dropped on the lab', async (t) => {
  const { page, errors } = await openOnPhone(t, 'view=model&text=' + encodeURIComponent(TEXT));
  await until(page, () => window.attentionLab.experiment()?.tokens?.length > 0);
  const payload = files.map(f => ({ name: path.basename(f), base64: fs.readFileSync(f).toString('base64') }));
  await page.evaluate((payload) => {
    const transfer = new DataTransfer();
    for (const f of payload) transfer.items.add(new File([Uint8Array.from(atob(f.base64), c => c.charCodeAt(0))], f.name));
    document.getElementById('canvas').dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, payload);
  sameAsNative(await opened(page));
  await frames(page, 3);
  await page.screenshot({ path: path.join(shots, 'e2e-your-model-phone.png') });
  assert.deepEqual(errors, []);
});
