// Loading in headless Chromium: the first frame's time since navigation started, printed as
// a figure (the target is 1 s on this machine; speed is measured, never asserted, since a busy
// machine would make such a test fail for nothing), and the message instead of the app where
// WebGL2 is missing.
import test from 'node:test';
import assert from 'node:assert/strict';
import { labSession, openLab } from './harness.mjs';

const session = labSession();

test('first frame after navigation (printed)', async () => {
  // The best of three loads: the first also pays for the server's and the disk's cold start.
  const times = [];
  for (let i = 0; i < 3; i++) {
    const { page } = await openLab(session.browser.context, session.server.url, 'preset=causal-3x2');
    times.push(await page.evaluate(() => window.attentionLab.firstFrameMs));
    await page.close();
  }
  const best = Math.min(...times);
  console.log(`first frame after navigation: ${times.map(t => t.toFixed(0)).join(', ')} ms (best ${best.toFixed(0)}, target 1000)`);
  assert.ok(times.every(Number.isFinite), 'every load reached its first frame');
});

test('without WebGL2 the page says what is missing instead of loading', async () => {
  const page = await session.browser.context.newPage();
  await page.addInitScript(() => {
    const original = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
      return kind === 'webgl2' ? null : original.call(this, kind, ...rest);
    };
  });
  const requests = [];
  page.on('request', r => requests.push(r.url()));
  await page.goto(session.server.url + 'index.html');
  const status = await page.evaluate(() => ({
    hidden: document.getElementById('status').hidden,
    text: document.getElementById('status-text').textContent,
  }));
  assert.equal(status.hidden, false);
  assert.match(status.text, /needs WebGL2/);
  assert.ok(!requests.some(u => u.endsWith('attention-lab.js')), 'the app is not loaded');
  await page.close();
});
