// Shared by the JS tests: where the builds and the data are, and the conformance cases.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
export const webDir = process.env.ATTN_WEB_DIR ?? path.join(root, 'build/web');
export const nativeDir = process.env.ATTN_NATIVE_DIR ?? path.join(root, 'build/native');
export const conformanceDir = path.join(root, 'tests/data/onnx-attention');

// Every conformance case, read in place; throws when the folder is missing.
export function conformanceCases() {
  const files = fs.readdirSync(conformanceDir).filter((f) => f.endsWith('.json')).sort();
  if (files.length === 0) throw new Error(`no conformance cases in ${conformanceDir}`);
  return files.map((f) => ({ file: f, ...JSON.parse(fs.readFileSync(path.join(conformanceDir, f), 'utf8')) }));
}

export const badRequests = JSON.parse(fs.readFileSync(path.join(root, 'tests/data/bad_requests.json'), 'utf8'));
export const requestText = (c) => c.raw ?? JSON.stringify(c.request);

const flat = (x) => (Array.isArray(x) ? x.flatMap(flat) : [x]);

// Asserts every element of `got` is within atol of `want` (nested arrays of equal shape).
export function assertClose(assert, got, want, atol, what) {
  const g = flat(got), w = flat(want);
  assert.equal(g.length, w.length, `${what}: element count`);
  for (let i = 0; i < g.length; i++) {
    if (!(Math.abs(g[i] - w[i]) <= atol)) assert.fail(`${what}: element ${i} is ${g[i]}, expected ${w[i]} ± ${atol}`);
  }
}

// Training requests that must each get their one-sentence error (docs/training.md).
export const badTrainRequests =
  JSON.parse(fs.readFileSync(path.join(root, 'tests/data/bad_train_requests.json'), 'utf8'));
