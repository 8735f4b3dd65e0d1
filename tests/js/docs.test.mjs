// The documents' examples run: each ```json request block of docs/contract.md through
// attention-cli and the kernel module's compute(), answered by the ```json response block that
// follows it; and each shell session of the README and docs/ that pipes a request into
// attention-cli, answered by the line it shows.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { webDir, nativeDir, badRequests } from './cases.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const doc = fs.readFileSync(path.join(root, 'docs/contract.md'), 'utf8');

// The fenced blocks tagged "json request" and "json response", in order, paired.
const blocks = [...doc.matchAll(/^```json (request|response)\n([\s\S]*?)^```$/gm)].map((m) => ({ kind: m[1], text: m[2] }));
const examples = [];
for (let i = 0; i < blocks.length; i += 2) {
  assert.equal(blocks[i].kind, 'request', `block ${i} of docs/contract.md should be a request`);
  assert.equal(blocks[i + 1]?.kind, 'response', `the request in block ${i} of docs/contract.md has no response after it`);
  examples.push({ request: blocks[i].text, response: JSON.parse(blocks[i + 1].text) });
}

// Numbers within a float32 rounding or two: the WebAssembly build's exp, and a native build for
// this machine's instruction set (-DATTN_NATIVE_ARCH=ON: fused multiply-adds), may round
// differently in the last place.
function assertSame(got, want, where) {
  if (typeof want === 'number') {
    assert.equal(typeof got, 'number', where);
    assert.ok(Math.abs(got - want) <= 1e-6 * Math.max(1, Math.abs(want)), `${where}: ${got}, documented ${want}`);
  } else if (Array.isArray(want)) {
    assert.ok(Array.isArray(got) && got.length === want.length, `${where}: ${JSON.stringify(got)}`);
    want.forEach((w, i) => assertSame(got[i], w, `${where}[${i}]`));
  } else if (want !== null && typeof want === 'object') {
    assert.deepEqual(Object.keys(got).sort(), Object.keys(want).sort(), where);
    for (const key of Object.keys(want)) assertSame(got[key], want[key], `${where}.${key}`);
  } else {
    assert.equal(got, want, where);
  }
}

test('docs/contract.md has examples of responses and of errors', () => {
  assert.ok(examples.filter((e) => e.response.error === undefined).length >= 4);
  assert.ok(examples.some((e) => e.response.error !== undefined));
});

// The table of error sentences: each first cell's `templates` as regular expressions, capitals
// standing for values, [i] and [j] for positions and … for the rest (markdown escapes | as \|).
const errorSection = doc.slice(doc.indexOf('\n## Errors'), doc.indexOf('\n## ', doc.indexOf('\n## Errors') + 1));
const sentences = [...errorSection.matchAll(/^\| ((?:[^|\\]|\\.)+)\|/gm)]
  .flatMap((row) => [...row[1].matchAll(/`([^`]+)`/g)].map((m) => m[1].replace(/\\\|/g, '|')))
  .map((template) => new RegExp('^' + template.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/\\\[[ij]\\\]/g, '\\[\\d+\\]').replace(/\b[A-Z]\b/g, '.+?').replace(/…/g, '.*') + '$'));

test("every error sentence the tests know is in docs/contract.md's table", () => {
  assert.ok(sentences.length >= 30, `only ${sentences.length} sentences found`);
  for (const { name, error } of badRequests)
    assert.ok(sentences.some((s) => s.test(error)), `${name}: "${error}" is not in docs/contract.md's table of errors`);
});

test('attention-cli prints each documented response, with exit status 0, or 2 for an error', () => {
  for (const { request, response } of examples) {
    const r = spawnSync(path.join(nativeDir, 'attention-cli'), [], { input: request, encoding: 'utf8' });
    assert.equal(r.status, response.error === undefined ? 0 : 2, request);
    assertSame(JSON.parse(r.stdout), response, request);
  }
});

// "$ echo '<request>' | build/native/attention-cli [train]" and the next line, its output.
const sessions = ['README.md', ...fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]
  .flatMap((file) => [...fs.readFileSync(path.join(root, file), 'utf8').matchAll(/^\$ echo '(.*)' \| build\/native\/attention-cli( train)?\n(.*)$/gm)]
    .map((m) => ({ file, request: m[1], args: m[2] ? ['train'] : [], output: m[3] })));

test('the shell sessions of the README and docs/ print what they show', () => {
  assert.ok(sessions.length >= 3, `only ${sessions.length} sessions found`);
  for (const { file, request, args, output } of sessions) {
    const r = spawnSync(path.join(nativeDir, 'attention-cli'), args, { input: request, encoding: 'utf8' });
    assertSame(JSON.parse(r.stdout), JSON.parse(output), `${file}: ${request}`);
    assert.equal(r.status, JSON.parse(output).error === undefined ? 0 : 2, `${file}: ${request}`);
  }
});

test("the kernel module's compute() returns each documented response", async () => {
  const createAttention = createRequire(import.meta.url)(path.join(webDir, 'attention.js'));
  const attention = await createAttention();
  for (const { request, response } of examples) assertSame(JSON.parse(attention.compute(request)), response, request);
});
