// Embedding across origins: a lesson page on one origin loads embed.js and two
// <attention-lab> instances from the site on another, as a course author would.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve } from '../../scripts/serve.mjs';
import { frames, webDir, startServer, launchBrowser } from './harness.mjs';

test('two instances embedded from another origin', async (t) => {
  const site = await startServer(webDir);
  const hostDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-lab-host-'));
  fs.writeFileSync(path.join(hostDir, 'index.html'), `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
    <script src="${site.url}embed.js"></script></head><body>
    <p><a id="before" href="#x">a link before the demos</a></p>
    <attention-lab id="a" preset="causal-3x2" step="softmax" query="2" height="520"></attention-lab>
    <attention-lab id="b" preset="cross" step="scores" ui="compact" height="420"></attention-lab>
    </body></html>`);
  const host = await serve(hostDir, 0);
  assert.notEqual(new URL(site.url).origin, new URL(host.url).origin);
  const { context, close } = await launchBrowser();
  t.after(async () => { await close(); await site.close(); await host.close(); });

  const page = await context.newPage();
  const foreign = [], errors = [];
  page.on('request', (r) => {
    const origin = new URL(r.url()).origin;
    if (![new URL(site.url).origin, new URL(host.url).origin].includes(origin) && !r.url().startsWith('data:'))
      foreign.push(r.url());
  });
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(host.url);

  // Both become ready, each with its own state.
  await page.waitForFunction(() => document.getElementById('a').ready && document.getElementById('b').ready,
                             null, { timeout: 60000 });
  const states = await page.evaluate(() => ['a', 'b'].map((id) => document.getElementById(id).state));
  assert.equal(states[0].preset, 'causal-3x2');
  assert.equal(states[0].step, 'softmax');
  assert.equal(states[0].query, '2');
  assert.equal(states[1].preset, 'cross');
  assert.equal(states[1].step, 'scores');

  // setState crosses the origin boundary and comes back as a change event, on that instance only.
  const changed = await page.evaluate(() => new Promise((resolve) => {
    const a = document.getElementById('a');
    a.addEventListener('change', (e) => resolve(e.detail), { once: true });
    a.setState({ step: 'output', query: 1 });
  }));
  assert.equal(changed.step, 'output');
  assert.equal(changed.query, '1');
  assert.equal(await page.evaluate(() => document.getElementById('b').state.step), 'scores');

  // Hostile messages from the host page are ignored; the instance keeps working.
  await page.evaluate(() => {
    const frame = document.getElementById('a').shadowRoot.querySelector('iframe');
    for (const bad of [null, 'x', { type: 'attention-lab:set' }, { type: 'attention-lab:set', state: [1, 2] },
                       { type: 'attention-lab:set', state: { step: { toString: 1 } } }, { type: 'other', state: {} }])
      frame.contentWindow.postMessage(bad, '*');
  });
  const after = await page.evaluate(() => new Promise((resolve) => {
    const a = document.getElementById('a');
    a.addEventListener('change', (e) => resolve(e.detail), { once: true });
    a.setState({ step: 'mask' });
  }));
  assert.equal(after.step, 'mask');

  // Keyboard: tab from the host's link into the first instance, then → moves a step.
  await page.focus('#before');
  await page.keyboard.press('Tab');
  await frames(page);
  const stepped = page.evaluate(() => new Promise((resolve) => {
    document.getElementById('a').addEventListener('change', (e) => resolve(e.detail), { once: true });
  }));
  await page.keyboard.press('ArrowRight');
  assert.equal((await stepped).step, 'softmax');

  assert.deepEqual(foreign, [], 'nothing is requested from other hosts');
  assert.deepEqual(errors, []);
});
