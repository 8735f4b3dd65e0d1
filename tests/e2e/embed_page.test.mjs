// The page around an embedded figure decides two things a course author expects (issue 45):
// - a figure that is not visible (a slide three screens to the side, past the two within which
//   a live figure keeps its instance; in a `display: none` or a `visibility: hidden` slide)
//   starts no instance, starts one when shown, and releases it when hidden again (web/embed.js's
//   [visibility]);
// - the page-wide theme (`--attention-lab-theme` on the page) wins over the reader's system
//   scheme: a light course page keeps light figures when the system is dark; an element's own
//   `theme` wins over the page's (web/embed.js's [theme]).
// A page on its own origin embedding the built site, in Chromium, as in embed.test.mjs.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve } from '../../scripts/serve.mjs';
import { frames, launchBrowser, startServer, until, webDir } from './harness.mjs';

// A page whose <head> adds `head` and whose body is `body`, embedding the built site; closed
// after test `t`.
async function hostPage(t, head, body, browserOptions) {
  const site = await startServer(webDir);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-lab-page-'));
  fs.writeFileSync(path.join(dir, 'index.html'), `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
    <script src="${site.url}embed.js"></script>${head}</head><body>${body}</body></html>`);
  const host = await serve(dir, 0);
  const { context, close } = await launchBrowser(browserOptions);
  t.after(async () => { await close(); await site.close(); await host.close(); fs.rmSync(dir, { recursive: true, force: true }); });
  const page = await context.newPage();
  await page.goto(host.url);
  return page;
}

// Whether each figure holds an instance (a frame in its box) and whether that instance is ready.
const live = (page, ids) => page.evaluate((ids) => Object.fromEntries(ids.map((id) => {
  const el = document.getElementById(id);
  return [id, { frame: !!el.shadowRoot.querySelector('iframe'), ready: !!el.ready }];
})), ids);

test('a figure not visible (to the side, display: none, visibility: hidden) does not start, starts when shown, stops when hidden again', async (t) => {
  // Slides as a deck lays them out: all at the same place, the others hidden or moved aside.
  const page = await hostPage(t, `<style>
      body { margin: 0; overflow: hidden; }
      section { position: absolute; inset: 0; }
      .aside { transform: translateX(400vw); }
      .none { display: none; }
      .invisible { visibility: hidden; }
    </style>`, `
    <section><attention-lab id="here" preset="causal-3x2" figure="scores" height="240"></attention-lab></section>
    <section id="s-aside" class="aside"><attention-lab id="aside" preset="causal-3x2" figure="scores" height="240"></attention-lab></section>
    <section id="s-none" class="none"><attention-lab id="none" preset="causal-3x2" figure="scores" height="240"></attention-lab></section>
    <section id="s-invisible" class="invisible"><attention-lab id="invisible" preset="causal-3x2" figure="scores" height="240"></attention-lab></section>`);
  const hidden = ['aside', 'none', 'invisible'];
  // The figure on screen draws: by then the page has decided for every figure.
  await until(page, () => document.getElementById('here').ready, undefined, { timeout: 60000 });
  await frames(page, 10);
  for (const [id, state] of Object.entries(await live(page, hidden)))
    assert.deepEqual(state, { frame: false, ready: false }, `${id} has no instance while not visible`);

  for (const id of hidden) {
    const cls = id;
    await page.evaluate(([id, cls]) => document.getElementById('s-' + id).classList.remove(cls), [id, cls]);
    await until(page, (id) => document.getElementById(id).ready, id, { timeout: 60000 });
    await page.evaluate(([id, cls]) => document.getElementById('s-' + id).classList.add(cls), [id, cls]);
    await until(page, (id) => !document.getElementById(id).shadowRoot.querySelector('iframe'), id);
    assert.deepEqual((await live(page, [id]))[id], { frame: false, ready: false }, `${id} released once hidden again`);
  }
  assert.deepEqual((await live(page, ['here'])).here, { frame: true, ready: true }, 'the figure on screen stays');
});

// The mean brightness (0–255) of what the figure `id` shows, from the browser's own screenshot.
async function brightness(page, id) {
  const png = (await page.locator('#' + id).screenshot()).toString('base64');
  return page.evaluate(async (png) => {
    const image = new Image();
    image.src = 'data:image/png;base64,' + png;
    await image.decode();
    const g = Object.assign(document.createElement('canvas'), { width: image.width, height: image.height }).getContext('2d');
    g.drawImage(image, 0, 0);
    const data = g.getImageData(0, 0, image.width, image.height).data;
    let sum = 0;
    for (let i = 0; i < data.length; i += 4) sum += (data[i] + data[i + 1] + data[i + 2]) / 3;
    return sum / (data.length / 4);
  }, png);
}

test('the page-wide theme: --attention-lab-theme: light keeps figures light with the system in dark mode', async (t) => {
  const page = await hostPage(t, '<style>:root { --attention-lab-theme: light; }</style>', `
    <attention-lab id="page" preset="causal-3x2" figure="scores" height="260"></attention-lab>
    <div style="--attention-lab-theme: auto"><attention-lab id="system" preset="causal-3x2" figure="scores" height="260"></attention-lab></div>
    <attention-lab id="own" theme="dark" preset="causal-3x2" figure="scores" height="260"></attention-lab>`,
  { colorScheme: 'dark' });
  assert.ok(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches), 'the system is in dark mode');
  const ids = ['page', 'system', 'own'];
  await until(page, (ids) => ids.every((id) => document.getElementById(id).ready), ids, { timeout: 60000 });
  await frames(page, 4);
  const seen = {};
  for (const id of ids) seen[id] = await brightness(page, id);
  t.diagnostic(`mean brightness: ${JSON.stringify(seen, (k, v) => (typeof v === 'number' ? Math.round(v) : v))}`);
  assert.ok(seen.page > 170, `the page's light theme: a light figure (${seen.page})`);
  assert.ok(seen.system < 90, `a part of the page that follows the system: a dark figure (${seen.system})`);
  assert.ok(seen.own < 90, `theme="dark" on the element wins over the page (${seen.own})`);
});
