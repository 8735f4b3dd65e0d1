// The lab in notebooks (python/attention_lab, docs/notebooks.md), end to end: a fresh virtual
// environment installs the package with `pip install ./python` (no network: its backend needs
// nothing from PyPI), executes notebook/labs.ipynb with Debian's jupyter-nbconvert, and the
// exported HTML is opened from file:// in Chromium with every network request refused. Each
// lab must show the weights of the references the notebook wrote: float64 NumPy and PyTorch's
// own per-head weights, for the head shown and for every other head it keeps. Then a page
// save_html() wrote, from a file too, where a click on a head's small map shows that head.
// Then Debian's classic Notebook server (jupyter-notebook), started here: the notebook run in
// its interface (Cell > Run All) shows the labs with the same weights, Undo keeps the loaded
// data, the arrow keys move the lab and not the notebook, an output 1,400 px wide keeps square
// cells, and the same notebook executed elsewhere (not trusted here) shows each lab's picture.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { centre, click, findItem, frames, launchBrowser, until } from './harness.mjs';
import { assertClose, attention } from './reference.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// Debian's Python, whose packages (NumPy, PyTorch, nbconvert, ipykernel) the venv sees.
const python = process.env.ATTN_PYTHON || '/usr/bin/python3';
const MAX_OUTPUT_BYTES = 1.5e6;

function run(command, args, options = {}) {
  return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });
}

// Lab weights as one matrix per sequence: the trace is rank 2 for one sequence, rank 4
// (batch, 1 head, n_q, n_k) for a batch.
const perSequence = (weights) => (Array.isArray(weights[0][0]) ? weights.map((b) => b[0]) : [weights]);
const TOLERANCE = 2e-6;

// One venv and one executed notebook for the file's tests.
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-lab-notebook-'));
const venvPython = path.join(work, 'venv', 'bin', 'python');
const referencePath = path.join(work, 'reference.json');
let browser, env;
// Requests the tests let through: files, and the notebook server once started.
const allowed = ['file:'];
test.before(async () => {
  const venv = path.join(work, 'venv');
  // Jupyter's folders inside the test's own: a kernel that runs the venv's Python, found first.
  env = {
    ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1', JUPYTER_PATH: path.join(venv, 'share', 'jupyter'),
    JUPYTER_DATA_DIR: path.join(work, 'jupyter'), JUPYTER_RUNTIME_DIR: path.join(work, 'jupyter', 'runtime'),
    ATTN_REFERENCE: referencePath, PYDEVD_DISABLE_FILE_VALIDATION: '1',
  };
  run(python, ['-m', 'venv', '--system-site-packages', venv]);
  run(venvPython, ['-m', 'pip', 'install', '--quiet', path.join(root, 'python')], { env });
  run(venvPython, ['-m', 'ipykernel', 'install', '--sys-prefix', '--name', 'attention-lab-test'], { env });
  fs.copyFileSync(path.join(root, 'tests/e2e/notebook/labs.ipynb'), path.join(work, 'labs.ipynb'));
  // Executed once, to a notebook with its outputs (labs.nbconvert.ipynb: unsigned, so not
  // trusted by the server below), then exported to HTML.
  run(venvPython, ['-m', 'nbconvert', '--to', 'notebook', '--execute', '--ExecutePreprocessor.timeout=300',
                   '--ExecutePreprocessor.kernel_name=attention-lab-test', path.join(work, 'labs.ipynb')],
      { env, cwd: work });
  run(venvPython, ['-m', 'nbconvert', '--to', 'html', '--output', 'labs', path.join(work, 'labs.nbconvert.ipynb')],
      { env, cwd: work });
  browser = await launchBrowser({ viewport: { width: 1600, height: 1000 } });
  // Every request but for a file (or the test's notebook server) is refused, in every test.
  await browser.context.route('**/*', (route) => (allowed.some((start) => route.request().url().startsWith(start))
    ? route.continue() : route.abort()));
});
test.after(async () => {
  await browser?.close();
  // The server writes in the folder (checkpoints, kernels' files) until it has exited.
  if (server && server.exitCode === null && server.signalCode === null) {
    await new Promise((resolve) => { server.on('exit', resolve); server.kill(); });
  }
  fs.rmSync(work, { recursive: true, force: true, maxRetries: 5 });
});

// Each output's lab against the references: loaded without error, the head shown and every
// other head it keeps (the page API's head key, as the heads' card and selector set it) with
// its reference's weights; then the head first shown again.
async function checkLabs(iframes, reference) {
  assert.equal(iframes.length, reference.labs.length, 'one lab per show() or show_mha() output');
  for (const [index, iframe] of iframes.entries()) {
    const what = `lab ${index + 1}`;
    const frame = await iframe.contentFrame();
    const answer = await frame.evaluate(() => window.labNotebook.loaded);
    assert.equal(answer.error, undefined, `${what}: ${answer.error}`);
    const weights = perSequence(await frame.evaluate(() => window.attentionLab.trace().weights));
    for (const source of ['numpy', 'torch']) {
      if (reference.labs[index][source]) assertClose(weights, reference.labs[index][source], TOLERANCE, `${what} against ${source}`);
    }
    const heads = reference.labs[index].heads;
    if (!heads) continue;
    const shownHead = Number((await frame.evaluate(() => window.attentionLab.getState())).head);
    for (let h = 0; h < heads[0].length; h++) {
      const shown = await frame.evaluate((head) => {
        window.attentionLab.setState({ head });
        return { head: window.attentionLab.getState().head, weights: window.attentionLab.trace().weights };
      }, h);
      assert.equal(shown.head, String(h), `${what}: setState({head: ${h}})`);
      assertClose(perSequence(shown.weights), heads.map((sequence) => sequence[h]), TOLERANCE, `${what}, head ${h}`);
    }
    await frame.evaluate((head) => window.attentionLab.setState({ head }), shownHead);
  }
}

test('a notebook executed in a fresh venv shows labs with the references\' weights, from a file, offline', async (t) => {
  const reference = JSON.parse(fs.readFileSync(referencePath, 'utf8'));
  assert.ok(reference.package.startsWith(path.join(work, 'venv') + path.sep), `the kernel imported ${reference.package}, not the venv's`);

  const page = await browser.context.newPage();
  const refused = [], fromLabs = [], errors = [];
  page.on('requestfailed', (request) => refused.push(request.url()));
  page.on('request', (request) => { if (request.frame() !== page.mainFrame()) fromLabs.push(request.url()); });
  page.on('console', (m) => { if (m.type() === 'error' && m.location().url.startsWith('about:srcdoc')) errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(pathToFileURL(path.join(work, 'labs.html')).href);

  const iframes = await page.$$('iframe[srcdoc]');
  for (const iframe of iframes) {
    const size = await iframe.evaluate((el) => el.outerHTML.length);
    assert.ok(size <= MAX_OUTPUT_BYTES, `an output is ${size} bytes, over ${MAX_OUTPUT_BYTES}`);
  }
  await checkLabs(iframes, reference);
  // Where scripts run, the live lab replaces each picture.
  assert.equal(await page.locator('[id^="attention-lab-picture-"]').count(), 0, 'a picture beside its live lab');
  // The fourth lab asked for Spanish and the dark theme, the first for the softmax step.
  const states = await Promise.all([iframes[0], iframes[3]].map(async (el) =>
    (await el.contentFrame()).evaluate(() => window.attentionLab.getState())));
  assert.equal(states[0].step, 'softmax');
  assert.deepEqual([states[1].lang, states[1].theme], ['es', 'dark']);

  assert.deepEqual(fromLabs.filter((url) => !url.startsWith('blob:')), [], 'the labs fetched something');
  assert.deepEqual(errors, []);
  // Requests the notebook's template makes (its scripts from a CDN, or Debian's copies where
  // not installed) are not the labs'; they fail, and the labs work without them.
  if (refused.length) t.diagnostic(`failed: ${refused.join(', ')}`);
  await page.close();
});


test('save_html() writes one page that works from a file, whose heads\' card opens the head clicked', async () => {
  const file = path.join(work, 'heads.html'), data = path.join(work, 'heads.json');
  run(venvPython, ['-c', `
import json, sys
import numpy as np
import attention_lab
rng = np.random.default_rng(5)
q, k, v = (rng.standard_normal((4, 5, 8)).astype(np.float32) for _ in range(3))
attention_lab.save_html(sys.argv[1], q, k, v, tokens=list("abcde"))
json.dump({"q": q.tolist(), "k": k.tolist(), "v": v.tolist()}, open(sys.argv[2], "w"))`, file, data]);
  const { q, k, v } = JSON.parse(fs.readFileSync(data, 'utf8'));
  const page = await browser.context.newPage();
  await page.goto(pathToFileURL(file).href);
  assert.equal((await page.evaluate(() => window.labNotebook.loaded)).error, undefined);
  await page.evaluate(() => { document.getElementById('load-message').hidden = true; });
  await frames(page);
  assert.equal((await page.evaluate(() => window.attentionLab.getState())).head, '0');
  // The heads' card, beside the five stages: head 2's map opens head 2 in the walkthrough.
  // (Each card as tall as its matrix needs: a person scrolls the stages to the heads' card.)
  let map = await findItem(page, { kind: 'heatmap', label: 'head 2' });
  for (const height = await page.evaluate(() => innerHeight); map.y + map.h > height - 16;) {
    await page.mouse.move(...centre(map).map((c, i) => Math.min(c, i ? height - 40 : c)));
    await page.mouse.wheel(0, 100);
    await frames(page);
    map = await findItem(page, { kind: 'heatmap', label: 'head 2' });
  }
  await click(page, centre(map));
  await frames(page);
  const shown = await page.evaluate(() => ({ head: window.attentionLab.getState().head, weights: window.attentionLab.trace().weights }));
  assert.equal(shown.head, '2', 'a click on head 2\'s map shows head 2');
  assertClose(shown.weights, attention(q[2], k[2], v[2], 1 / Math.sqrt(8)).weights, TOLERANCE, 'head 2\'s weights');
  await page.close();
});

test('show_model() writes a page that shows the trained model on the text, from a file, with the native numbers', async () => {
  const trainModel = process.env.ATTN_TRAIN_MODEL || path.join(root, 'build/native/attention-train-model');
  const text = 'The cat sat on the mat. The cat sat on the mat.';
  const file = path.join(work, 'model.html');
  run(venvPython, ['-c', `
import sys
import attention_lab
attention_lab.save_html(sys.argv[1], attention_lab.show_model(sys.argv[2], ablate=[(1, 0), (0, 3)]))`, file, text]);
  const page = await browser.context.newPage();
  const fetched = [];
  page.on('request', (request) => fetched.push(request.url()));
  await page.goto(pathToFileURL(file).href);
  assert.deepEqual(await page.evaluate(() => window.labNotebook.loaded), {}, 'nothing loaded but the model');
  const e = await until(page, () => { const e = window.attentionLab.experiment(); return (e?.tokens || e?.error) && e; });
  assert.equal(e.error, undefined);
  assert.equal(e.text, text);
  assert.deepEqual(e.ablate, [[0, 3], [1, 0]]);
  // The same weights (the package's copy of the site's) through the native forward pass.
  const n = JSON.parse(run(trainModel, ['dump', '--weights', path.join(root, 'web/model/tiny-lm.bin'), '--text', text,
                                        '--ablate', '1.0,0.3'], { maxBuffer: 1 << 28 }));
  assert.equal(e.tokens.join(''), text);
  assert.equal(e.tokens.length, n.tokens.length);
  const heads = e.maps[0].length;
  e.maps.forEach((layer, l) => layer.forEach((map, h) => assertClose(map, n.maps[l * heads + h], 1e-5, `head ${l}.${h}`)));
  n.loss.forEach((loss, i) => assert.ok(Math.abs(e.loss[i] - loss) < 1e-4, `loss at ${i}: ${e.loss[i]} against ${loss}`));
  assert.equal(e.loss.at(-1), null);
  assert.deepEqual(fetched.filter((url) => !url.startsWith('file:') && !url.startsWith('blob:')), [], 'the page fetched something');
  await page.close();
});

test('show_model(model=DIR) carries a model of its own and the page opens it, with the native numbers', async () => {
  const trainModel = process.env.ATTN_TRAIN_MODEL || path.join(root, 'build/native/attention-train-model');
  const text = 'The cat sat on the mat. The cat sat on the mat.';
  const folder = path.join(work, 'my-gpt2'), file = path.join(work, 'my-model.html');
  run(venvPython, [path.join(root, 'tests/model/gpt2_files.py'), folder]);
  run(venvPython, ['-c', `
import sys
import attention_lab
attention_lab.save_html(sys.argv[1], attention_lab.show_model(sys.argv[2], model=sys.argv[3], ablate=[(1, 2)]))`, file, text, folder]);
  const page = await browser.context.newPage();
  await page.goto(pathToFileURL(file).href);
  const loaded = await page.evaluate(() => window.labNotebook.loaded);
  assert.equal(loaded.model?.name, 'test-gpt2', JSON.stringify(loaded));
  const e = await until(page, () => { const e = window.attentionLab.experiment(); return e?.model?.name === 'test-gpt2' && e.ablate?.length && e; });
  assert.deepEqual(e.ablate, [[1, 2]]);
  assert.equal(e.tokens.join(''), text);
  const n = JSON.parse(run(trainModel, ['dump', '--weights', folder, '--text', text, '--ablate', '1.2'], { maxBuffer: 1 << 28 }));
  n.loss.forEach((loss, i) => assert.ok(Math.abs(e.loss[i] - loss) < 1e-4, `loss at ${i}: ${e.loss[i]} against ${loss}`));
  await page.close();
});

// [the classic Notebook server] Debian's jupyter-notebook on a free port of this machine, its
// kernels found through the test's JUPYTER_PATH (the venv's), serving the test's folder.
let server;
async function startNotebookServer(environment) {
  const port = await new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => { const { port: p } = probe.address(); probe.close(() => resolve(p)); });
  });
  const token = crypto.randomBytes(16).toString('hex');
  server = spawn('/usr/bin/jupyter-notebook', ['--no-browser', '--ip=127.0.0.1', `--port=${port}`, '--port-retries=0',
                                               `--NotebookApp.token=${token}`, `--notebook-dir=${work}`,
                                               '--MappingKernelManager.default_kernel_name=attention-lab-test',
                                               // It refuses root (a container's user) unless told.
                                               ...(process.getuid?.() === 0 ? ['--allow-root'] : [])],
                 { env: environment, stdio: ['ignore', 'ignore', 'pipe'] });
  // It says on stderr when it listens (or why it stopped).
  let said = '';
  await new Promise((resolve, reject) => {
    server.stderr.on('data', (chunk) => { said += chunk; if (/is running at/.test(said)) resolve(); });
    server.on('exit', (code) => reject(new Error(`jupyter-notebook exited (${code}): ${said}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  allowed.push(base + '/');
  return { url: (file) => `${base}/notebooks/${file}?token=${token}` };
}

// A notebook for the server: its kernel the venv's (the file names Debian's python3).
function serve(source, file) {
  const notebook = JSON.parse(fs.readFileSync(source, 'utf8'));
  notebook.metadata.kernelspec = { name: 'attention-lab-test', display_name: 'attention-lab-test', language: 'python' };
  fs.writeFileSync(path.join(work, file), JSON.stringify(notebook));
}

// A key pressed with the focus in a lab, held for a few of its frames (press() in harness.mjs).
async function pressIn(page, frame, key) {
  const keys = key.split('+');
  for (const k of keys) await page.keyboard.down(k);
  await frames(frame, 2);
  for (const k of keys.reverse()) await page.keyboard.up(k);
  await frames(frame, 2);
}

const shape = (weights) => [weights.length, weights[0].length];

const shots = process.env.ATTN_SCREENSHOTS;  // a folder: the screenshots of docs/notebooks.md
// What the notebook's window shows with `element`'s cell at the top of its scrolling area.
async function screenshot(page, element, file) {
  if (!shots) return;
  await element.evaluate((el) => el.closest('.cell').scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: path.join(shots, file) });
}

test('in the classic Notebook server: labs run in its interface, Undo keeps the data, keys stay in the lab, wide outputs keep square cells, untrusted shows the picture', async (t) => {
  const liveReference = path.join(work, 'reference-live.json');
  const jupyter = await startNotebookServer({ ...env, ATTN_REFERENCE: liveReference });
  serve(path.join(work, 'labs.ipynb'), 'live.ipynb');
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(jupyter.url('live.ipynb'));
  await until(page, () => window.Jupyter?.notebook?.kernel?.is_connected());
  // Cell > Run All, as a person runs it; then every code cell has its number.
  await page.click('#celllink');
  await page.click('#run_all_cells');
  await until(page, () => window.Jupyter.notebook.get_cells().every((c) => c.cell_type !== 'code' || typeof c.input_prompt_number === 'number'),
              null, { timeout: 300000 });
  const reference = JSON.parse(fs.readFileSync(liveReference, 'utf8'));
  await until(page, (n) => document.querySelectorAll('.output_subarea iframe[srcdoc]').length === n, reference.labs.length);
  const iframes = await page.$$('.output_subarea iframe[srcdoc]');
  const first = await iframes[0].contentFrame();
  assert.equal((await first.evaluate(() => window.labNotebook.loaded)).error, undefined);
  await until(page, () => !document.querySelector('[id^="attention-lab-picture-"]'));  // the live labs only

  // Undo after the load keeps the loaded data (6 × 6, head 1), and takes back an edit made on it.
  await first.focus('#canvas');
  for (let i = 0; i < 3; ++i) await pressIn(page, first, 'Control+z');
  let state = await first.evaluate(() => ({ head: window.attentionLab.getState().head, weights: window.attentionLab.trace().weights }));
  assert.equal(state.head, '1');
  assertClose(perSequence(state.weights), reference.labs[0].numpy, TOLERANCE, 'lab 1 after Undo');
  await first.evaluate(() => window.attentionLab.setState({ head: 0 }));
  await pressIn(page, first, 'Control+z');
  state = await first.evaluate(() => ({ head: window.attentionLab.getState().head, weights: window.attentionLab.trace().weights }));
  assert.equal(state.head, '1', 'Undo took back the head chosen');
  assertClose(perSequence(state.weights), reference.labs[0].numpy, TOLERANCE, 'lab 1 after undoing a head');

  // ArrowDown moves the lab's query, and the notebook (its #site scrolls) stays where it was.
  await iframes[0].evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await first.focus('#canvas');
  const before = { site: await page.evaluate(() => document.getElementById('site').scrollTop),
                   query: (await first.evaluate(() => window.attentionLab.getState())).query };
  await pressIn(page, first, 'ArrowDown');
  assert.notEqual((await first.evaluate(() => window.attentionLab.getState())).query, before.query, 'the lab took ArrowDown');
  assert.equal(await page.evaluate(() => document.getElementById('site').scrollTop), before.site, 'the notebook scrolled');
  // Escape gives the focus back to the notebook.
  await page.keyboard.press('Escape');
  assert.equal(await first.evaluate(() => document.hasFocus()), false, 'the lab kept the focus');
  await screenshot(page, iframes[0], 'notebook-live.png');

  // Every lab as the notebook computed it.
  await checkLabs(iframes, reference);

  // The 64-token lab in an output 1,400 px wide (the notebook's column widened, as
  // JupyterLab's full-width outputs are): square cells, and a frame as tall as the lab needs.
  const wide = iframes[5], wideFrame = await wide.contentFrame();
  const widths = await wide.evaluate((el) => ({ frame: el.getBoundingClientRect().width, column: document.getElementById('notebook-container').getBoundingClientRect().width }));
  await page.addStyleTag({ content: `#notebook-container { width: ${widths.column + 1400 - widths.frame}px !important; }` });
  await until(page, () => document.querySelectorAll('.output_subarea iframe[srcdoc]')[5].getBoundingClientRect().width === 1400);
  await wide.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  // Drawn at that width, and the frame sized to what the lab then told it (attention-lab:size).
  const settled = async () => {
    const a = await wide.evaluate((el) => el.getBoundingClientRect().height);
    await frames(wideFrame, 6);
    return a === await wide.evaluate((el) => el.getBoundingClientRect().height) ? a : 0;
  };
  let height = 0;
  while (!(height = await settled()));
  const maps = (await wideFrame.evaluate(() => window.attentionLab.layout()))
    .filter((item) => item.kind === 'heatmap' && !/^head /.test(item.label));
  assert.ok(maps.length >= 5, `the five stages' heatmaps: ${maps.map((m) => m.label)}`);
  for (const map of maps) {
    const cols = /O = /.test(map.label) ? 16 : 64;  // the output's columns are d_v's
    const cell = { w: map.w / cols, h: map.h / 64 };
    t.diagnostic(`1,400 px output, ${height} px tall: ${map.label} ${map.w.toFixed(0)} × ${map.h.toFixed(0)} px, cells ${cell.w.toFixed(2)} × ${cell.h.toFixed(2)}`);
    assert.ok(Math.abs(cell.w / cell.h - 1) < 0.05 || cols === 16, `${map.label}: cells ${cell.w} × ${cell.h}, not square`);
    assert.ok(cell.h >= 4, `${map.label}: cells ${cell.h} px tall`);
  }
  const bottom = Math.max(...(await wideFrame.evaluate(() => window.attentionLab.layout())).map((item) => item.y + item.h));
  assert.ok(height > 560 && bottom <= height + 1, `the frame (${height} px) shows the lab down to ${bottom}`);
  await screenshot(page, wide, 'notebook-wide.png');
  // The view comparing scales sizes itself to the window elsewhere: here its frame settles too.
  await wideFrame.evaluate(() => window.attentionLab.setState({ view: 'compare' }));
  while (!(height = await settled()));
  const compared = Math.max(...(await wideFrame.evaluate(() => window.attentionLab.layout())).map((item) => item.y + item.h));
  assert.ok(compared <= height + 1 && height < 2000, `compare: the frame (${height} px) shows the lab down to ${compared}`);
  assert.deepEqual(errors, []);
  await page.close();

  // The notebook executed elsewhere (nbconvert): not signed here, so not trusted, and its
  // outputs' scripts and iframes are left out. Each lab's picture shows instead.
  serve(path.join(work, 'labs.nbconvert.ipynb'), 'shared.ipynb');
  const shared = await browser.context.newPage();
  await shared.goto(jupyter.url('shared.ipynb'));
  await until(shared, () => window.Jupyter?.notebook?._fully_loaded);
  assert.equal(await shared.evaluate(() => window.Jupyter.notebook.trusted), false);
  assert.equal(await shared.locator('.output_subarea iframe').count(), 0);
  const pictures = shared.locator('.output_subarea img[src^="data:image/png;base64,"]');
  assert.equal(await pictures.count(), reference.labs.length, 'a picture per lab');
  await until(shared, () => Array.from(document.querySelectorAll('.output_subarea img')).every((img) => img.complete && img.naturalWidth > 0));
  const texts = await shared.locator('.output_subarea').allInnerTexts();
  // The fourth lab asked for Spanish.
  const trustLines = texts.map((text) => (/Trust the notebook, or run the cell, to see the live Attention Lab/.test(text) ? 'en'
    : /Confía en el cuaderno \(Trust Notebook\), o ejecuta la celda, para ver Attention Lab en vivo/.test(text) ? 'es' : null))
    .filter(Boolean);
  assert.deepEqual(trustLines, reference.labs.map((_, i) => (i === 3 ? 'es' : 'en')));
  assert.ok(texts.some((text) => /head 2 of 4: rows are queries \(t0, t1/.test(text)));
  await screenshot(shared, pictures.nth(0), 'notebook-untrusted.png');
  await shared.close();
});
