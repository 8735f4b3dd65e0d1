// The course hosts of docs/HOSTING.md, each as a course author builds it with the real tool:
// a Hugo site (Debian's hugo, with web/hugo's shortcode), paper (Chromium's PDF, read back with
// poppler: paper.mjs), a Sphinx book (Debian's Sphinx, with attention_lab.sphinx, whose
// other builders python/tests/test_sphinx.py checks), an MkDocs site (Debian's MkDocs, raw
// HTML in Markdown). reveal.js decks are deck.test.mjs's.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { webDir, launchBrowser } from './harness.mjs';
import { serve } from '../../scripts/serve.mjs';
import { pdfPage, pdfText, colouredShare } from './paper.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-lab-hosts-'));
const FIGURE = 'figure="softmax,arithmetic" preset="causal-3x2" step="softmax" query="2" theme="light"';

// The course's folder: the built lab as attention-lab/, and pages.
fs.symlinkSync(webDir, path.join(work, 'attention-lab'));
// A page of figures: one on screen, one three screens below (never started when printed).
fs.writeFileSync(path.join(work, 'page.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8">
<script src="attention-lab/embed.js"></script></head><body style="font:16px sans-serif;max-width:760px;margin:2em auto">
<h1>Figures on paper</h1><attention-lab ${FIGURE} title="The live figure"></attention-lab>
<div style="height:300vh"></div><attention-lab preset="saturation" step="softmax" title="The far figure"></attention-lab></body></html>`);
// embed.js where no lab is beside it.
fs.mkdirSync(path.join(work, 'lonely'));
fs.copyFileSync(path.join(webDir, 'embed.js'), path.join(work, 'lonely/embed.js'));
fs.writeFileSync(path.join(work, 'lonely.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8">
<script src="lonely/embed.js"></script></head><body><attention-lab ${FIGURE}></attention-lab></body></html>`);

let server;
test.before(async () => { server = await serve(work, 0); });
test.after(async () => { await server?.close(); fs.rmSync(work, { recursive: true, force: true }); });

async function open(url, options) {
  const browser = await launchBrowser(options);
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  return { browser, page, errors };
}
const figureReady = (page, index = 0) => page.waitForFunction(
  (i) => document.querySelectorAll('attention-lab')[i]?.ready, index, { timeout: 60000 });
const pictureTaken = (page, index = 0) => page.waitForFunction(
  (i) => document.querySelectorAll('attention-lab')[i]?.pictured, index, { timeout: 60000 });

test('paper: a page prints its live figure as a picture and the far one as its caption and link', async () => {
  const { browser, page, errors } = await open(server.url + 'page.html', { viewport: { width: 1280, height: 800 } });
  try {
    await figureReady(page);
    await pictureTaken(page);
    const pdf = await page.pdf({ format: 'A4', printBackground: true });
    const first = pdfPage(work, pdf, 1, path.join(process.env.ATTN_SCREENSHOTS || work, 'page-printed.png'));
    assert.ok(colouredShare(first) > 0.02, `the live figure is a picture (${colouredShare(first)} coloured)`);
    const text = pdfText(work, pdf);
    assert.match(text, /The far figure/);
    assert.match(text.replace(/\s+/g, ''), /attention-lab\/index\.html#preset=saturation&step=softmax/);
    // The picture stops above the figure's "Open in the full lab ↗", which the canvas draws at its foot.
    const frame = page.frames().find((f) => f.url().includes('attention-lab/index.html'));
    const [canvasHeight, link] = await frame.evaluate(() => [document.getElementById('canvas').height,
      attentionLab.layout().find((item) => item.label === 'Open in the full lab ↗')]);
    assert.ok(link, 'the figure draws its link to the full lab');
    const pictureHeight = await page.evaluate(() => document.querySelector('attention-lab').shadowRoot.querySelector('.picture').naturalHeight);
    assert.ok(pictureHeight < canvasHeight - link.h, `the picture (${pictureHeight} px) stops above the link (canvas ${canvasHeight} px)`);
    assert.deepEqual(errors, []);
  } finally { await browser.close(); }
});

test('a wrong path: embed.js with no lab beside it says so in place of the figure', async () => {
  const { browser, page } = await open(server.url + 'lonely.html');
  try {
    await page.waitForFunction(() => document.querySelector('attention-lab').shadowRoot.querySelector('[role=alert]'));
    const shown = await page.evaluate(() => {
      const el = document.querySelector('attention-lab');
      return { text: el.shadowRoot.querySelector('[role=alert]').textContent, height: el.getBoundingClientRect().height };
    });
    assert.match(shown.text, /could not load .*lonely\/index\.html \(404/);
    assert.ok(shown.height >= 100, `the figure keeps its height (${shown.height} px)`);
  } finally { await browser.close(); }
});

test('Hugo: the shortcode draws a figure on a pretty URL under the default configuration, and a wrong path is named', async () => {
  const site = path.join(work, 'hugo');
  fs.mkdirSync(path.join(site, 'content/lessons'), { recursive: true });
  fs.cpSync(path.join(webDir, 'hugo/layouts'), path.join(site, 'layouts'), { recursive: true });
  fs.mkdirSync(path.join(site, 'layouts/_default'), { recursive: true });
  fs.writeFileSync(path.join(site, 'layouts/_default/single.html'), '<!doctype html><html lang="en"><body><main>{{ .Content }}</main></body></html>');
  fs.writeFileSync(path.join(site, 'config.toml'), 'baseURL = "https://example.org/course/"\ntitle = "Course"\n');
  fs.writeFileSync(path.join(site, 'content/lessons/attention.md'), `---\ntitle: Attention\n---\nText before.\n\n` +
    `{{< attention-lab preset="causal-3x2" step="softmax" title="Causal masking" >}}\n\n` +
    `{{< attention-lab preset="saturation" step="softmax" >}}\n`);
  const out = path.join(work, 'course');
  execFileSync('hugo', ['--quiet', '-s', site, '-d', out]);
  // The lab's folder, as static/attention-lab/ would put it.
  fs.symlinkSync(webDir, path.join(out, 'attention-lab'));
  const html = fs.readFileSync(path.join(out, 'lessons/attention/index.html'), 'utf8');
  assert.doesNotMatch(html, /raw HTML omitted/);
  assert.equal(html.match(/<script src="\/course\/attention-lab\/embed\.js">/g)?.length, 1, 'embed.js once, from the root');

  const { browser, page, errors } = await open(server.url + 'course/lessons/attention/');
  try {
    await figureReady(page);
    assert.deepEqual(errors, []);
    // embed.js itself not found: the link inside the element shows, with the path it tried.
    fs.rmSync(path.join(out, 'attention-lab'));
    await page.goto(server.url + 'course/lessons/attention/');
    const shown = await page.evaluate(() => {
      const el = document.querySelector('attention-lab');
      return { text: el.textContent, height: el.getBoundingClientRect().height };
    });
    assert.match(shown.text, /Causal masking: this figure needs \/course\/attention-lab\/embed\.js, which did not load/);
    assert.ok(shown.height > 10, `the figure's place is not empty (${shown.height} px)`);
  } finally { await browser.close(); }
});

// As HOSTING.md's MkDocs steps say: the lab unpacked into docs/attention-lab/ (MkDocs copies
// what it does not render), raw HTML in a page served as lesson/ (use_directory_urls).
test('MkDocs: a Markdown page\'s raw HTML draws its figure from the lab copied into the site', async () => {
  const site = path.join(work, 'mkdocs');
  fs.mkdirSync(path.join(site, 'docs'), { recursive: true });
  fs.cpSync(webDir, path.join(site, 'docs/attention-lab'), { recursive: true, dereference: true });
  // The nav HOSTING.md asks for; the default theme's highlight.js comes from a CDN, out of reach
  // of this offline machine.
  fs.writeFileSync(path.join(site, 'mkdocs.yml'),
                   'site_name: Course\nnav:\n  - index.md\n  - lesson.md\ntheme:\n  name: mkdocs\n  highlightjs: false\n');
  fs.writeFileSync(path.join(site, 'docs/index.md'), '# Course\n');
  fs.writeFileSync(path.join(site, 'docs/lesson.md'), '# Attention\n\nText before.\n\n' +
    '<script src="../attention-lab/embed.js"></script>\n<attention-lab preset="cross" step="output" height="560"></attention-lab>\n\nText after.\n');
  execFileSync('mkdocs', ['build', '-q', '-f', path.join(site, 'mkdocs.yml'), '-d', path.join(work, 'mkdocs-site')]);
  const html = fs.readFileSync(path.join(work, 'mkdocs-site/lesson/index.html'), 'utf8');
  assert.doesNotMatch(html, /THIRD_PARTY_NOTICES/, 'the lab\'s notices are not in the course\'s navigation');
  const { browser, page, errors } = await open(server.url + 'mkdocs-site/lesson/');
  try {
    await figureReady(page);
    const frame = page.frames().find((f) => f.url().includes('mkdocs-site/attention-lab/index.html'));
    await frame.waitForFunction(() => document.getElementById('canvas').width > 100);
    await page.screenshot({ path: path.join(process.env.ATTN_SCREENSHOTS || work, 'mkdocs-1280.png') });
    assert.deepEqual(errors, []);
  } finally { await browser.close(); }
});

test('Sphinx: the directive\'s page draws its figure at 1280 and 390 px', async () => {
  const source = path.join(work, 'sphinx');
  fs.mkdirSync(source);
  fs.writeFileSync(path.join(source, 'conf.py'), 'project = "Course"\nextensions = ["attention_lab.sphinx"]\n');
  fs.writeFileSync(path.join(source, 'index.rst'), 'Attention\n=========\n\nThe scores of each query, made weights by softmax.\n\n' +
    '.. attention-lab::\n   :preset: causal-3x2\n   :step: softmax\n   :figure: softmax,arithmetic\n   :theme: light\n   :title: Causal masking\n\nAfter the figure.\n');
  execFileSync(process.env.ATTN_PYTHON || '/usr/bin/python3', ['-m', 'sphinx', '-q', '-b', 'html', source, path.join(work, 'book')],
               { env: { ...process.env, PYTHONPATH: path.join(root, 'python') } });
  for (const width of [1280, 390]) {
    const { browser, page, errors } = await open(server.url + 'book/index.html', { viewport: { width, height: 800 } });
    try {
      await figureReady(page);
      const frame = page.frames().find((f) => f.url().includes('_static/attention-lab/index.html'));
      await frame.waitForFunction(() => document.getElementById('canvas').width > 100);
      await page.screenshot({ path: path.join(process.env.ATTN_SCREENSHOTS || work, `sphinx-${width}.png`), fullPage: true });
      assert.deepEqual(errors, []);
    } finally { await browser.close(); }
  }
});
