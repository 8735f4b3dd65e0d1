// The lab in notebooks (python/attention_lab, docs/notebooks.md), end to end: a fresh virtual
// environment installs the package with `pip install ./python` (no network: its backend needs
// nothing from PyPI), executes notebook/labs.ipynb with Debian's jupyter-nbconvert, and the
// exported HTML is opened from file:// in Chromium with every network request refused. Each
// lab must show the weights of the references the notebook wrote: float64 NumPy and PyTorch's
// own per-head weights, for the head shown and for every other head it keeps. Then a page
// save_html() wrote, from a file too, where a click on a head's small map shows that head.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { centre, click, findItem, frames, launchBrowser } from './harness.mjs';
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
let browser;
test.before(async () => {
  const venv = path.join(work, 'venv');
  // Jupyter's folders inside the test's own: a kernel that runs the venv's Python, found first.
  const env = {
    ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1', JUPYTER_PATH: path.join(venv, 'share', 'jupyter'),
    JUPYTER_DATA_DIR: path.join(work, 'jupyter'), JUPYTER_RUNTIME_DIR: path.join(work, 'jupyter', 'runtime'),
    ATTN_REFERENCE: referencePath, PYDEVD_DISABLE_FILE_VALIDATION: '1',
  };
  run(python, ['-m', 'venv', '--system-site-packages', venv]);
  run(venvPython, ['-m', 'pip', 'install', '--quiet', path.join(root, 'python')], { env });
  run(venvPython, ['-m', 'ipykernel', 'install', '--sys-prefix', '--name', 'attention-lab-test'], { env });
  fs.copyFileSync(path.join(root, 'tests/e2e/notebook/labs.ipynb'), path.join(work, 'labs.ipynb'));
  run(venvPython, ['-m', 'nbconvert', '--to', 'html', '--execute', '--ExecutePreprocessor.timeout=300',
                   '--ExecutePreprocessor.kernel_name=attention-lab-test', path.join(work, 'labs.ipynb')],
      { env, cwd: work });
  browser = await launchBrowser();
  // Every request but for a file is refused, in every test.
  await browser.context.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
});
test.after(async () => {
  await browser?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

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
  assert.equal(iframes.length, reference.labs.length, 'one lab per show() or show_mha() output');
  for (const [index, iframe] of iframes.entries()) {
    const what = `lab ${index + 1}`;
    const size = await iframe.evaluate((el) => el.outerHTML.length);
    assert.ok(size <= MAX_OUTPUT_BYTES, `${what}: its output is ${size} bytes, over ${MAX_OUTPUT_BYTES}`);
    const frame = await iframe.contentFrame();
    const answer = await frame.evaluate(() => window.labNotebook.loaded);
    assert.equal(answer.error, undefined, `${what}: ${answer.error}`);
    const weights = perSequence(await frame.evaluate(() => window.attentionLab.trace().weights));
    for (const source of ['numpy', 'torch']) {
      if (reference.labs[index][source]) assertClose(weights, reference.labs[index][source], TOLERANCE, `${what} against ${source}`);
    }
    // With several heads the lab keeps them all: each one shown in turn (the page API's head
    // key, as the heads' card and selector set it) has its reference's weights.
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
  await click(page, centre(await findItem(page, { kind: 'heatmap', label: 'head 2' })));
  await frames(page);
  const shown = await page.evaluate(() => ({ head: window.attentionLab.getState().head, weights: window.attentionLab.trace().weights }));
  assert.equal(shown.head, '2', 'a click on head 2\'s map shows head 2');
  assertClose(shown.weights, attention(q[2], k[2], v[2], 1 / Math.sqrt(8)).weights, TOLERANCE, 'head 2\'s weights');
  await page.close();
});
