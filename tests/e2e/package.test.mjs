// The release archive (scripts/package.sh) as a course author uses it: unpacked into a temporary
// folder, served as a static site, and embedded from a lesson page on another origin. Both
// archives (.tar.gz and .zip) hold the same files; the version everywhere is CMakeLists.txt's.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { serve } from '../../scripts/serve.mjs';
import { launchBrowser } from './harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const version = /^project\(attention_lab VERSION ([0-9.]+)/m.exec(fs.readFileSync(path.join(root, 'CMakeLists.txt'), 'utf8'))[1];
const name = `attention-lab-${version}`;

// package.sh builds first (nothing to do after scripts/build.sh) and prints the archives' paths,
// then the Python package's wheel.
const printed = execFileSync(path.join(root, 'scripts/package.sh'), { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 1800000 });
const wheel = `dist/attention_lab-${version}-py3-none-any.whl`;
assert.deepEqual(printed.trim().split('\n'), [`dist/${name}.tar.gz`, `dist/${name}.zip`, wheel]);

const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-lab-package-'));
test.after(() => fs.rmSync(temp, { recursive: true, force: true }));
const fromTar = path.join(temp, 'tar'), fromZip = path.join(temp, 'zip');
fs.mkdirSync(fromTar);
fs.mkdirSync(fromZip);
execFileSync('tar', ['-xzf', path.join(root, 'dist', `${name}.tar.gz`), '-C', fromTar]);
execFileSync('unzip', ['-q', path.join(root, 'dist', `${name}.zip`), '-d', fromZip]);

function files(dir, prefix = '') {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(e =>
    e.isDirectory() ? files(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`]).sort();
}

test('both archives hold one versioned folder with the same, complete site', () => {
  assert.deepEqual(fs.readdirSync(fromTar), [name]);
  assert.deepEqual(fs.readdirSync(fromZip), [name]);
  const listed = files(path.join(fromTar, name));
  assert.deepEqual(files(path.join(fromZip, name)), listed);
  for (const f of listed)
    assert.ok(fs.readFileSync(path.join(fromTar, name, f)).equals(fs.readFileSync(path.join(fromZip, name, f))), f);
  for (const f of ['index.html', 'attention-lab.js', 'attention-lab.wasm', 'attention-relaxed.wasm', 'page-tools.js',
                   'embed.js', 'attention.js', 'attention.wasm', 'lesson.html', 'leccion.html', 'lesson.js', 'lesson.css', 'LICENSE', 'THIRD_PARTY_NOTICES.md', 'HOSTING.md',
                   'reveal-attention-lab.js', 'hugo/layouts/shortcodes/attention-lab.html',
                   'CHANGELOG.md', 'docs/embed.md', 'docs/contract.md', 'docs/loading-data.md', 'docs/training.md'])
    assert.ok(listed.includes(f), `${f} in the archive`);

  const site = path.join(fromZip, name);
  const read = f => fs.readFileSync(path.join(site, f), 'utf8');
  assert.equal(read('LICENSE'), fs.readFileSync(path.join(root, 'LICENSE'), 'utf8'));
  assert.match(read('LICENSE'), /MIT License/);
  assert.match(read('LICENSE'), /Attention Lab contributors/);
  for (const shipped of ['Dear ImGui', 'Eigen', 'MPL', 'nlohmann/json', 'DejaVu', 'Bitstream Vera', 'Emscripten'])
    assert.ok(read('THIRD_PARTY_NOTICES.md').includes(shipped), `the notices name ${shipped}`);
  assert.match(read('HOSTING.md'), /application\/wasm/);
  assert.match(read('HOSTING.md'), /GitHub Pages/);
  for (const doc of ['CHANGELOG.md', 'docs/embed.md', 'docs/contract.md'])
    assert.equal(read(doc), fs.readFileSync(path.join(root, doc), 'utf8'), `${doc} as in the repository`);
  // The changelog says what this version changed, for whoever upgrades a hosted copy to it.
  assert.match(read('CHANGELOG.md'), new RegExp(`^## \\[${version.replace(/\./g, '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm'));
  // The shipped documents' links stay inside what is shipped.
  for (const doc of listed.filter((f) => f.startsWith('docs/') && f.endsWith('.md')))
    for (const [, target] of read(doc).matchAll(/\]\(([^)#:]+)(#[^)]*)?\)/g))
      assert.ok(listed.includes(path.posix.join('docs', target)), `${doc} links to ${target}, which is not in the archive`);
});

test("the wheel carries the archive's page and app, and the notices", () => {
  const inWheel = (f) => execFileSync('unzip', ['-p', path.join(root, wheel), `attention_lab/site/${f}`],
                                        { maxBuffer: 64 << 20 });
  for (const f of ['index.html', 'attention-lab.js', 'attention-lab.wasm', 'page-tools.js', 'load.js', 'embed.js', 'LICENSE',
                   'THIRD_PARTY_NOTICES.md'])
    assert.ok(inWheel(f).equals(fs.readFileSync(path.join(fromTar, name, f))), `${f} in the wheel`);
  assert.equal(inWheel('VERSION').toString().trim(), version);
});

test("the archive's kernel module runs under Node and reports the version", async () => {
  const createAttention = (await import(pathToFileURL(path.join(fromTar, name, 'attention.js')).href)).default;
  const m = await createAttention();
  assert.equal(m.version, version);
  // One query, two keys: the weights are softmax([1·0, 1·1] / √1), computed here.
  const out = m.computeObject({ q: [[[[1]]]], k: [[[[0], [1]]]], v: [[[[10], [20]]]] });
  assert.equal(out.error, undefined, out.error);
  const e = Math.exp(1);
  assert.ok(Math.abs(out.output[0][0][0][0] - (10 + 20 * e) / (1 + e)) < 1e-5, JSON.stringify(out.output));
});

test('a lesson page embeds an instance from the unpacked archive, with its version and About text', async (t) => {
  const site = await serve(path.join(fromZip, name), 0);
  const lessonDir = path.join(temp, 'lesson');
  fs.mkdirSync(lessonDir);
  fs.writeFileSync(path.join(lessonDir, 'index.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8">
    <link rel="icon" href="data:,"><title>A lesson</title><script src="${site.url}embed.js"></script></head>
    <body><h1>Attention</h1><attention-lab id="lab" preset="causal-3x2" step="softmax" height="520"></attention-lab></body></html>`);
  const lesson = await serve(lessonDir, 0);
  const { context, close } = await launchBrowser();
  t.after(async () => { await close(); await site.close(); await lesson.close(); });

  const page = await context.newPage();
  const errors = [];
  page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', e => errors.push(String(e)));
  await page.goto(lesson.url);
  await page.waitForFunction(() => document.getElementById('lab').ready, null, { timeout: 60000 });
  const state = await page.evaluate(() => document.getElementById('lab').state);
  assert.equal(state.preset, 'causal-3x2');
  assert.equal(state.step, 'softmax');

  // The instance is the archive's page, drawn (ready resolves after the first frame).
  const frame = page.frames().find(f => f.url().startsWith(site.url + 'index.html'));
  assert.ok(frame, 'the instance loads index.html from the archive');
  await frame.evaluate(() => window.attentionLab.ready);
  assert.equal(await frame.evaluate(() => window.attentionLab.version), version);
  // Chromium runs relaxed SIMD: the archive's attention-relaxed.wasm was found and used.
  assert.equal(await frame.evaluate(() => window.attentionLab.kernelPath), 'wasm-relaxed-simd');
  const about = await frame.evaluate(() => window.attentionLab.about());
  assert.ok(about.startsWith(`Attention Lab ${version}\n`), about);
  for (const text of ['MIT License', 'LICENSE', 'THIRD_PARTY_NOTICES.md', 'Dear ImGui', 'Eigen', 'DejaVu'])
    assert.ok(about.includes(text), `the About box names ${text}`);
  const box = await page.locator('#lab').boundingBox();
  assert.ok(box.width > 300 && box.height >= 500, JSON.stringify(box));
  assert.deepEqual(errors, []);
});
