// attention-cli: requests from a file or standard input, exit status 0 or 2.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nativeDir, conformanceCases, badRequests, badTrainRequests, requestText, assertClose } from './cases.mjs';

const cli = path.join(nativeDir, 'attention-cli');
const run = (args, input) => spawnSync(cli, args, { input, encoding: 'utf8' });

test('conformance cases from standard input', () => {
  for (const c of conformanceCases()) {
    const r = run([], JSON.stringify(c.request));
    assert.equal(r.status, 0, `${c.file}: ${r.stdout}`);
    assertClose(assert, JSON.parse(r.stdout).output, c.expected.output, c.atol, c.file);
  }
});

test('a request from a file argument', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-cli-'));
  const file = path.join(dir, 'request.json');
  fs.writeFileSync(file, JSON.stringify({ q: [[1, 0], [0, 1]], k: [[1, 0], [0, 1]], v: [[2], [4]], scale: 0 }));
  const r = run([file]);
  assert.equal(r.status, 0);
  assert.deepEqual(JSON.parse(r.stdout), { output: [[3], [3]] });
  const missing = run([path.join(dir, 'nope.json')]);
  assert.equal(missing.status, 2);
  assert.match(JSON.parse(missing.stdout).error, /^request: cannot read file /);
});

test('bad requests exit 2 with the error object and nothing else', () => {
  for (const c of badRequests) {
    const r = run([], requestText(c));
    assert.equal(r.status, 2, c.name);
    assert.deepEqual(JSON.parse(r.stdout), { error: c.error }, c.name);
  }
});

test('train: a training request from standard input or a file argument', () => {
  const request = JSON.stringify({ task: 'sort', steps: 3 });
  const stdin = run(['train'], request);
  assert.equal(stdin.status, 0, stdin.stdout);
  assert.equal(JSON.parse(stdin.stdout).loss.length, 3);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-cli-'));
  const file = path.join(dir, 'train.json');
  fs.writeFileSync(file, request);
  const fromFile = run(['train', file]);
  assert.equal(fromFile.status, 0);
  assert.equal(fromFile.stdout, stdin.stdout);
  const missing = run(['train', path.join(dir, 'nope.json')]);
  assert.equal(missing.status, 2);
  assert.match(JSON.parse(missing.stdout).error, /^request: cannot read file /);
});

test('train: bad requests exit 2 with the error object and nothing else', () => {
  for (const c of badTrainRequests) {
    const r = run(['train'], requestText(c));
    assert.equal(r.status, 2, c.name);
    assert.deepEqual(JSON.parse(r.stdout), { error: c.error }, c.name);
  }
});
