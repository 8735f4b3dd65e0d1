// A lecture deck (docs/HOSTING.md, "reveal.js"): npm's reveal.js 6 with web/reveal-attention-lab.js
// and four slides of figures, served from the same origin as the lab, as HOSTING.md recommends
// (where a figure's focus would reach the deck). A person's keys and clicks in Chromium: the
// deck's keys on load and inside figures, Escape, the overview, the scale; the speaker view's
// preview; the deck printed with ?print-pdf, read back with poppler (paper.mjs).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { webDir, launchBrowser, countDrawnFrames, frames } from './harness.mjs';
import { serve } from '../../scripts/serve.mjs';
import { pdfPage, pdfPageCount, pdfText, colouredShare } from './paper.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-lab-deck-'));
const shots = process.env.ATTN_SCREENSHOTS || work;
const FIGURE = 'figure="softmax,arithmetic" step="softmax" query="0" theme="light"';
const SLIDES = [['Causal masking', 'preset="causal-3x2"'], ['A sentence', 'preset="random"'],
  ['Padding', 'preset="padding"'], ['Cross-attention', 'preset="cross"']];

// The course's folder: the built lab as attention-lab/, reveal.js's dist as reveal/, the deck:
// a title, a slide per figure, a last slide.
fs.symlinkSync(webDir, path.join(work, 'attention-lab'));
fs.symlinkSync(path.join(root, 'node_modules/reveal.js/dist'), path.join(work, 'reveal'));
const deck = (plugin) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<link rel="stylesheet" href="reveal/reveal.css"><link rel="stylesheet" href="reveal/theme/white.css">
<script src="attention-lab/embed.js"></script><script src="attention-lab/reveal-attention-lab.js"></script></head>
<body><div class="reveal"><div class="slides">
<section><h2>Attention</h2><p>softmax(QKᵀ/√d)V</p></section>
${SLIDES.map(([title, preset]) => `<section><h3>${title}</h3><attention-lab ${FIGURE} ${preset} title="${title}"></attention-lab>
<aside class="notes">Pick a row.</aside></section>`).join('\n')}
<section><h2>Questions</h2></section>
</div></div>
<script src="reveal/reveal.js"></script><script src="reveal/plugin/notes.js"></script>
<script>Reveal.initialize({ hash: true, plugins: [RevealNotes, ${plugin}] });</script></body></html>`;
fs.writeFileSync(path.join(work, 'deck.html'), deck('RevealAttentionLab'));
// The same deck whose plugin hears that the printed pages are laid out only once the first
// figure has drawn out of view (a slow deck): that figure has been ready, and asked for its
// picture, before the plugin brings it into view.
fs.writeFileSync(path.join(work, 'deck-late.html'), deck(`() => {
  const plugin = RevealAttentionLab();
  // Ready, a second without a change (embed.js asks for a picture 0.6 s after one), then three
  // frames of its own: every picture asked for out of view has been answered.
  const drawnOutOfView = () => new Promise((resolve) => {
    const el = document.querySelector('attention-lab');
    const frames = (n) => (n ? el.shadowRoot.querySelector('iframe').contentWindow.requestAnimationFrame(() => frames(n - 1)) : resolve());
    let quiet;
    const wait = () => { clearTimeout(quiet); quiet = setTimeout(() => frames(3), 1000); };
    el.addEventListener('change', wait);
    if (el.ready) wait(); else el.addEventListener('ready', wait, { once: true });
  });
  const late = (deck) => new Proxy(deck, { get: (target, key) => key === 'on'
    ? (name, listener) => target.on(name, (...args) => drawnOutOfView().then(() => listener(...args))) : target[key] });
  return { id: plugin.id, init: (deck) => plugin.init(late(deck)) };
}`));
const LAST = SLIDES.length + 1;

let server;
test.before(async () => { server = await serve(work, 0); });
test.after(async () => { await server?.close(); fs.rmSync(work, { recursive: true, force: true }); });

async function open(url, viewport) {
  const browser = await launchBrowser({ viewport });
  await browser.context.addInitScript(countDrawnFrames);
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  await page.waitForFunction(() => window.Reveal?.isReady());
  return { browser, page, errors };
}
// The figure of slide h (1…4) once its instance has drawn and the slide has stopped moving (a
// click lands where the figure is), and its instance's frame.
async function figureOf(page, h) {
  await page.waitForFunction((i) => document.querySelectorAll('attention-lab')[i].ready &&
    !document.querySelector('.reveal .slides').getAnimations({ subtree: true }).length, h - 1, { timeout: 60000 });
  const iframe = await page.evaluateHandle((i) => document.querySelectorAll('attention-lab')[i].shadowRoot.querySelector('iframe'), h - 1);
  return iframe.asElement().contentFrame();
}
const slide = (page) => page.evaluate(() => Reveal.getIndices().h);
const moved = (page, h) => page.waitForFunction((i) => Reveal.getIndices().h === i, h);
const query = (page, h) => page.evaluate((i) => document.querySelectorAll('attention-lab')[i].state.query, h - 1);
const pageHasKeyboard = (page) => page.evaluate(() => document.activeElement === document.body);

test('reveal.js: the deck\'s keys move it on load and from inside a figure; a figure keeps its own keys; Escape hands them back', async (t) => {
  const { browser, page, errors } = await open(server.url + 'deck.html', { width: 1280, height: 720 });
  try {
    // On load, nobody has clicked: each key moves the deck, and each slide's figure draws
    // without taking the keyboard.
    for (const [key, h] of [['Space', 1], ['PageDown', 2], ['ArrowRight', 3], ['n', 4]]) {
      await page.keyboard.press(key);
      await moved(page, h);
      await figureOf(page, h);
      if (h === 1) await page.screenshot({ path: path.join(shots, 'deck-1280.png') });
      assert.ok(await pageHasKeyboard(page), `slide ${h}'s figure did not take the keyboard`);
    }
    // Clicked into, a figure keeps the keys it uses (↓: the next query), and the deck still
    // moves on Space, PageDown and N (the last figure's slide: no further, but reveal hears it).
    await page.evaluate(() => Reveal.slide(1));
    await page.evaluate(() => document.addEventListener('keydown', (e) => { window.__deckHeard = e.key; }));
    for (const [key, h] of [['Space', 1], ['PageDown', 2], ['n', 3], ['Space', 4]]) {
      const frame = await figureOf(page, h);
      const box = await page.locator('attention-lab').nth(h - 1).boundingBox();
      await page.mouse.click(box.x + 6, box.y + 6);
      assert.equal(await frame.evaluate(() => document.activeElement.id), 'canvas', `slide ${h}'s figure has the keyboard once clicked`);
      await page.keyboard.press('ArrowDown');
      await page.waitForFunction((i) => document.querySelectorAll('attention-lab')[i].state.query === '1', h - 1);
      assert.equal(await slide(page), h, `↓ stayed in slide ${h}'s figure`);
      await page.keyboard.press(key);
      if (h < 4) {
        await moved(page, h + 1);
        continue;
      }
      await page.waitForFunction(() => window.__deckHeard === ' ');
      // Space in the figure started no frame loop: idle, its instance runs no callback.
      await frames(page, 30);
      const before = await frame.evaluate(() => window.__drawnFrames.callbacks);
      await frames(page, 180);
      const idle = await frame.evaluate(() => window.__drawnFrames.callbacks) - before;
      t.diagnostic(`after Space in a figure: ${idle} of its callbacks in 180 animation frames`);
      assert.equal(idle, 0, 'after Space in a figure, it runs no frame loop');
    }
    // Escape gives the keyboard back: → (which the figure uses) moves the deck again.
    await page.keyboard.press('Escape');
    assert.ok(await pageHasKeyboard(page), 'Escape gave the keyboard back to the deck');
    assert.equal(await query(page, 4), '1');
    await page.keyboard.press('ArrowRight');
    await moved(page, LAST);
    assert.deepEqual(errors, []);
  } finally { await browser.close(); }
});

test('reveal.js: a click on a figure in the overview goes to its slide, and the figure draws at the slide\'s scale', async () => {
  const { browser, page, errors } = await open(server.url + 'deck.html#/1', { width: 1920, height: 1080 });
  try {
    const frame = await figureOf(page, 1);
    // reveal scales the 960 × 700 slide to the screen; the canvas's bitmap follows what is shown.
    const shown = await page.evaluate(() => document.querySelector('attention-lab').getBoundingClientRect().width);
    assert.ok(shown > 1.3 * 760, `the slide is scaled up (the figure is ${shown} px wide)`);
    // (The scale is told to two decimals: within 1 %.)
    await frame.waitForFunction((w) => Math.abs(document.getElementById('canvas').width - w) <= 0.01 * w, shown, { timeout: 30000 });
    await page.screenshot({ path: path.join(shots, 'deck-1920.png') });

    await page.evaluate(() => { Reveal.slide(0); Reveal.toggleOverview(true); });
    await page.waitForFunction(() => document.querySelector('.reveal.overview'));
    const box = await page.locator('attention-lab').first().boundingBox();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForFunction(() => !document.querySelector('.reveal.overview') && Reveal.getIndices().h === 1);
    assert.equal(await query(page, 1), '0', 'the figure did not change');
    assert.deepEqual(errors, []);
  } finally { await browser.close(); }
});

test('reveal.js: the speaker view\'s preview shows the row picked on the audience\'s screen', async () => {
  const { browser, page, errors } = await open(server.url + 'deck.html#/1', { width: 1280, height: 720 });
  try {
    const frame = await figureOf(page, 1);
    // A row picked before the speaker view opens, and one after.
    await frame.evaluate(() => attentionLab.setState({ query: 2 }));
    await page.waitForFunction(() => document.querySelector('attention-lab').state.query === '2');
    const [notes] = await Promise.all([page.waitForEvent('popup'), page.keyboard.press('s')]);
    // The preview of the current slide: the deck again, with ?receiver, in the speaker window.
    const previewShows = (row) => notes.waitForFunction((q) => document.querySelector('#current-slide iframe')
      ?.contentDocument?.querySelector('attention-lab')?.state.query === String(q), row, { timeout: 60000 });
    await previewShows(2);
    await frame.evaluate(() => attentionLab.setState({ query: 1 }));
    await previewShows(1);
    assert.deepEqual(errors, []);
  } finally { await browser.close(); }
});

for (const [name, file] of [['', 'deck.html'], [', figures drawn before they were in view among them', 'deck-late.html']])
test(`paper: the deck printed with ?print-pdf shows every figure as its picture${name}`, async (t) => {
  const { browser, page, errors } = await open(server.url + file + '?print-pdf', { width: 1280, height: 720 });
  try {
    // The plugin brings each figure into view until it has its picture, then goes to the top.
    await page.waitForFunction(() => document.querySelector('.reveal').dataset.attentionLabPictures === 'ready', null, { timeout: 120000 });
    assert.deepEqual(await page.evaluate(() => [scrollY, [...document.querySelectorAll('attention-lab')].map((el) => el.pictured)]),
                     [0, [true, true, true, true]], 'at the top, every figure with its picture');
    const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
    assert.equal(pdfPageCount(work, pdf), LAST + 1, 'a page a slide');
    const shares = [];
    for (let n = 1; n <= LAST + 1; n++) shares.push(colouredShare(pdfPage(work, pdf, n, path.join(shots, `${path.basename(file, '.html')}-printed-${n}.png`))));
    t.diagnostic(`coloured share of each printed slide: ${shares.map((s) => s.toFixed(3)).join(', ')}`);
    assert.ok(shares[0] < 0.002 && shares[LAST] < 0.002, 'the slides without a figure have no colour');
    for (let h = 1; h < LAST; h++) assert.ok(shares[h] > 0.02, `slide ${h}'s figure is its picture (${shares[h]} coloured)`);
    const text = pdfText(work, pdf);
    assert.doesNotMatch(text, /Open in the full lab/);
    assert.doesNotMatch(text, /index\.html#/, 'no figure printed as its placeholder\'s link');
    assert.deepEqual(errors, []);
  } finally { await browser.close(); }
});
