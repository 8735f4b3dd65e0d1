// The static site must stay small enough to embed in a lesson: at most 1.2 MB gzip-compressed,
// font included, examples aside (1 MB until view=model's circuits, issue 42, added 87 KB to the
// app: its attribution, OV, QK and composition views and their eigenvalue solver; 1.1 MB until a
// user's own model, issue 54: the readers of its files, 43 KB, GPT-2's BPE with Unicode's letter
// and number tables, and the transformer's layer norms and MLPs). Prints the per-file figures so a change's cost is visible.
// The tiny language model's files (model/: docs/model.md) are fetched only when its view
// opens: they have a budget of their own, 1 MB as stored; its twin's (model/one-layer/) and the
// checkpoints of its training (model/checkpoints/) only when the view is asked for them, each
// folder 1.6 MB at most (ten checkpoints of the three-layer model, 151 KB each; 1.5 MB until it
// had a third layer).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { webDir } from './cases.mjs';

const LIMIT = 1200 * 1000;
const MODEL_LIMIT = 1000 * 1000;
const ASKED_LIMIT = 1600 * 1000;

function files(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'examples' || e.name === 'model' ? [] : files(p);
    return [p];
  });
}

test('build/web is at most 1.2 MB gzip-compressed', () => {
  const sizes = files(webDir).map((f) => ({
    file: path.relative(webDir, f),
    raw: fs.statSync(f).size,
    gzip: zlib.gzipSync(fs.readFileSync(f), { level: 9 }).length,
  }));
  assert.ok(sizes.some((s) => s.file === 'index.html'), 'the site has no index.html: build it first');
  const total = sizes.reduce((sum, s) => sum + s.gzip, 0);
  for (const s of sizes.sort((a, b) => b.gzip - a.gzip))
    console.log(`${String(s.gzip).padStart(9)} B gzip  ${String(s.raw).padStart(9)} B raw  ${s.file}`);
  console.log(`${String(total).padStart(9)} B gzip in all (limit ${LIMIT})`);
  assert.ok(total <= LIMIT, `the site is ${total} B gzip-compressed, over the ${LIMIT} B limit`);
});

test('the language model (build/web/model) is at most 1 MB, its twin and its checkpoints 1.6 MB each', () => {
  const dir = path.join(webDir, 'model');
  assert.ok(fs.existsSync(path.join(dir, 'tiny-lm.bin')), 'the site has no model/tiny-lm.bin: build it first');
  const bytes = (files) => files.reduce((sum, f) => sum + fs.statSync(f).size, 0);
  const model = bytes(['tiny-lm.bin', 'report.json'].map(f => path.join(dir, f)));
  console.log(`${String(model).padStart(9)} B in model/tiny-lm.bin and report.json (limit ${MODEL_LIMIT})`);
  assert.ok(model <= MODEL_LIMIT, `the model is ${model} B, over the ${MODEL_LIMIT} B limit`);
  for (const folder of ['one-layer', 'checkpoints']) {
    const total = bytes(files(path.join(dir, folder)));
    console.log(`${String(total).padStart(9)} B in model/${folder}/ (limit ${ASKED_LIMIT})`);
    assert.ok(total > 0 && total <= ASKED_LIMIT, `model/${folder}/ is ${total} B, over the ${ASKED_LIMIT} B limit (or empty)`);
  }
});
