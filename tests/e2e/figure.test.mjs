// Figure mode (docs/embed.md, "Figures"): an embedded figure shows the parts its text names and
// nothing else, on screen at a phone's and a laptop's width, sizes its frame to its content (no
// scrollbar in it), opens the full lab, and notes a part it does not have. Every view's parts,
// read from docs/embed.md's table, each draw something.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../../scripts/serve.mjs';
import { startServer, launchBrowser, openLab, frames, findItem, centre, until, touchTap, click } from './harness.mjs';

const FIGURE = 'preset=causal-3x2&step=softmax&query=2&figure=softmax,arithmetic';
const OPEN = 'Open in the full lab ↗';
const devices = [
  { name: 'phone, touch', viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true },
  { name: 'laptop, mouse', viewport: { width: 1280, height: 800 } },
];

// A lesson page on another origin holding one figure, which records the size messages it gets.
function lessonPage(siteUrl, attributes) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-lab-figure-'));
  fs.writeFileSync(path.join(dir, 'index.html'), `<!doctype html><html><head><meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
    <script src="${siteUrl}embed.js"></script></head><body style="margin:0;padding:12px">
    <p>The weights of the last query:</p>
    <attention-lab id="fig" ${attributes} height="300"></attention-lab>
    <p>After the figure.</p>
    <script>window.sizes = [];
      addEventListener('message', (e) => { if (e.data && e.data.type === 'attention-lab:size') sizes.push(e.data.height); });
    </script></body></html>`);
  return serve(dir, 0);
}

// The frame's height once the figure has told it and it stands still: the element's frame, the
// last height posted, and the figure's document inside (its height and whether it scrolls).
async function settledFrame(page) {
  return until(page, async () => {
    const el = document.getElementById('fig');
    if (!el.ready || !window.sizes.length) return null;
    const frame = el.shadowRoot.querySelector('iframe');
    const before = frame.getBoundingClientRect().height;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(r))));
    const after = frame.getBoundingClientRect().height;
    return before === after ? { frame: after, posted: window.sizes[window.sizes.length - 1], count: window.sizes.length } : null;
  });
}

const inside = (item, box) => item.x >= 0 && item.y >= 0 && item.x + item.w <= box.width + 0.5 && item.y + item.h <= box.height + 0.5;

for (const device of devices) {
  test(`a figure of the softmax and its arithmetic (${device.name})`, async (t) => {
    const site = await startServer();
    const host = await lessonPage(site.url, 'figure="softmax,arithmetic" preset="causal-3x2" step="softmax" query="2"');
    const { context, close } = await launchBrowser(device);
    t.after(async () => { await close(); await site.close(); await host.close(); });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(host.url);
    const first = await settledFrame(page);
    assert.equal(first.frame, Math.min(Math.max(Math.ceil(first.posted), 100), 8000), 'the frame takes the posted height');
    assert.notEqual(first.frame, 300, 'the height attribute was only the placeholder');

    // Inside the frame: the stage and the arithmetic on screen, no header, a way to the full lab.
    const lab = page.frames().find((f) => f.url().includes('index.html'));
    const box = await lab.evaluate(() => ({
      width: innerWidth, height: innerHeight, scrollHeight: document.documentElement.scrollHeight,
      scrollWidth: document.documentElement.scrollWidth, canvas: document.getElementById('canvas').getBoundingClientRect().height,
    }));
    assert.ok(box.scrollHeight <= box.height && box.scrollWidth <= box.width, `no scrollbar in the frame: ${JSON.stringify(box)}`);
    assert.equal(box.canvas, first.frame, 'the canvas is the figure, as tall as the frame');
    const items = await lab.evaluate(() => window.attentionLab.layout());
    const softmax = items.find((i) => i.kind === 'heatmap' && i.label === 'A = softmax(row)');
    const query = items.find((i) => i.kind === 'combo' && /^2 /.test(i.label));  // the arithmetic's query picker
    const open = items.find((i) => i.label === OPEN);
    for (const [name, item] of [['the softmax stage', softmax], ['the arithmetic', query], ['Open in the full lab', open]]) {
      assert.ok(item, `${name} is drawn: ${JSON.stringify(items.map((i) => i.label))}`);
      assert.ok(inside(item, box), `${name} is inside the frame: ${JSON.stringify(item)} in ${JSON.stringify(box)}`);
    }
    for (const label of ['Undo', 'Next →', '← Previous', 'Export ▾', 'S = QKᵀ', '+ mask'])
      assert.ok(!items.some((i) => i.label === label), `no ${label} in this figure`);
    if (device.isMobile) assert.ok(query.y > softmax.y + softmax.h, 'one column on a phone: the arithmetic under the stage');
    else assert.ok(Math.abs(query.y - softmax.y) < 80 && query.x > softmax.x + softmax.w, 'side by side on a laptop');

    // The figure grows with its content, and the frame follows: a longer sequence.
    await page.evaluate(() => document.getElementById('fig').setState({ n: 7 }));
    const grown = await until(page, async (before) => {
      const s = document.getElementById('fig').state;
      const h = document.getElementById('fig').shadowRoot.querySelector('iframe').getBoundingClientRect().height;
      return s.nq === '7' && window.sizes.length > before.count && h > before.frame + 20 ? h : null;
    }, first);
    const after = await settledFrame(page);
    assert.ok(after.frame >= grown, `the frame grew to ${after.frame} from ${first.frame}`);
    assert.equal(after.frame, Math.ceil(after.posted));
    const box2 = await lab.evaluate(() => ({ height: innerHeight, scrollHeight: document.documentElement.scrollHeight }));
    assert.ok(box2.scrollHeight <= box2.height, 'still no scrollbar');

    // Open in the full lab: the same state, without `figure`, in a new tab.
    const open2 = (await lab.evaluate(() => window.attentionLab.layout())).find((i) => i.label === OPEN);
    // Scrolled into the lesson's view (on a phone the grown figure is taller than the screen).
    const frameBox = await page.evaluate((y) => {
      const frame = document.getElementById('fig').shadowRoot.querySelector('iframe');
      window.scrollBy(0, frame.getBoundingClientRect().top + y - innerHeight / 2);
      return frame.getBoundingClientRect().toJSON();
    }, open2.y);
    const at = [frameBox.x + open2.x + open2.w / 2, frameBox.y + open2.y + open2.h / 2];
    const opened = context.waitForEvent('page');
    if (device.hasTouch) await touchTap(await context.newCDPSession(page), at);
    else await page.mouse.click(...at);
    const full = await opened;
    await full.waitForFunction(() => window.attentionLab, null, { timeout: 30000 });
    const url = new URL(full.url());
    assert.equal(url.origin + url.pathname, new URL('index.html', site.url).href);
    const fragment = new URLSearchParams(url.hash.slice(1));
    assert.equal(fragment.get('figure'), null);
    assert.equal(fragment.get('step'), 'softmax');
    assert.equal(fragment.get('n'), '7');
    await full.evaluate(() => window.attentionLab.ready);
    assert.ok(await findItem(full, { label: /^(Next →|→)$/, kind: 'button' }), 'the full lab, with its stepper (arrows on a phone)');
    assert.deepEqual(errors, []);
  });
}

test('a page of its own: the canvas is the figure and the page scrolls; steps drive it', async (t) => {
  const site = await startServer();
  const { context, close } = await launchBrowser({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  t.after(async () => { await close(); await site.close(); });
  const { page, errors } = await openLab(context, site.url, 'preset=random&n=6&step=softmax&figure=steps,mask,softmax,arithmetic,output');
  const height = await until(page, () => document.documentElement.classList.contains('figure') &&
                                          document.getElementById('canvas').getBoundingClientRect().height);
  const doc = await page.evaluate(() => ({ scroll: document.documentElement.scrollHeight, inner: innerHeight }));
  assert.ok(height > doc.inner && doc.scroll >= height, `a figure taller than the phone scrolls the page: ${height}, ${JSON.stringify(doc)}`);
  // The stepper is a part here: Next moves the figure's step.
  const next = await findItem(page, { label: /^(Next →|→)$/, kind: 'button' });
  await touchTap(await context.newCDPSession(page), centre(next));
  await until(page, () => window.attentionLab.getState().step === 'output');
  assert.ok(!(await page.evaluate(() => window.attentionLab.layout())).some((i) => i.label === '☰'), 'no header');
  // Leaving figure mode gives the whole lab back, in the window.
  await page.evaluate(() => window.attentionLab.setState({ figure: '' }));
  await until(page, () => !document.documentElement.classList.contains('figure') &&
                          document.getElementById('canvas').getBoundingClientRect().height === innerHeight);
  await findItem(page, { label: '☰', kind: 'button' });  // the phone's header
  assert.deepEqual(errors, []);
});

test('a part the view does not have is noted, naming it and the parts it has', async (t) => {
  const site = await startServer();
  const { context, close } = await launchBrowser();
  t.after(async () => { await close(); await site.close(); });
  const { page, errors } = await openLab(context, site.url, 'step=softmax&figure=softmax,sofmax');
  const notes = await until(page, () => document.getElementById('notes').textContent);
  assert.match(notes, /ignored figure=sofmax: view=walkthrough has no such part \(its parts are header, steps, .*softmax.* or practice\)/);
  await findItem(page, { label: 'Dismiss', kind: 'button' });  // shown on the figure too
  await findItem(page, { label: 'A = softmax(row)', kind: 'heatmap' });
  assert.equal((await page.evaluate(() => window.attentionLab.getState())).figure, 'softmax');
  assert.deepEqual(errors, []);
});

// docs/embed.md's table of each view's parts (tests/unit/docs_test.cpp holds it to the parser's).
function documentedParts() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const doc = fs.readFileSync(path.join(root, 'docs/embed.md'), 'utf8');
  const from = doc.indexOf('### The parts of each view');
  const table = doc.slice(from, doc.indexOf('\n## ', from));
  const rows = {};
  for (const line of table.split('\n')) {
    const m = line.match(/^\| `(\w+)` \| (.*) \|$/);
    if (m) rows[m[1]] = [...m[2].matchAll(/`([^`]+)`/g)].map((p) => p[1]);
  }
  return rows;
}

test('every part of every view draws something', async (t) => {
  const site = await startServer();
  const { context, close } = await launchBrowser();
  t.after(async () => { await close(); await site.close(); });
  const { page, errors } = await openLab(context, site.url, 'figure=header');
  const parts = documentedParts();
  assert.equal(Object.keys(parts).length, 11);
  for (const [view, names] of Object.entries(parts)) {
    for (const part of names) {
      const extra = part === 'practice' ? { mode: 'practice' } : { mode: 'explore' };
      await page.evaluate(([view, part, extra]) => window.attentionLab.setState({ view, figure: part, ...extra }), [view, part, extra]);
      // The way to the full lab sits under the parts: how far down it is, is how much they hold.
      const y = await until(page, async (part) => {
        if (window.attentionLab.getState().figure !== part) return null;
        const at = () => window.attentionLab.layout().find((i) => i.label === 'Open in the full lab ↗')?.y;
        const before = at();
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(r))));
        return before !== undefined && at() === before ? before : null;
      }, part);
      assert.ok(y > 40, `view=${view} figure=${part} draws something (the link is at y=${y})`);
      assert.equal(await page.evaluate(() => document.getElementById('notes').textContent), '', `${view} ${part}`);
    }
  }
  assert.deepEqual(errors, []);
});
