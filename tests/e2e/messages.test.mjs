// What reaches an embedded instance and what it turns into state, across three origins: the
// site serving the tool, the lesson page embedding it, and a third party's frame in that page.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve } from '../../scripts/serve.mjs';
import { frames, launchBrowser, startServer, until } from './harness.mjs';

const servers = {};
let browser;
test.before(async () => {
  servers.site = await startServer();
  browser = await launchBrowser();
});
test.after(async () => {
  await browser?.close();
  for (const s of Object.values(servers)) await s.close();
});

// A page of its own origin holding `body`.
async function origin(name, body) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `attention-lab-${name}-`));
  fs.writeFileSync(path.join(dir, 'index.html'),
                   `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body>${body}</body></html>`);
  servers[name] = await serve(dir, 0);
  return servers[name].url;
}

const stateOf = (frame) => frame.evaluate(() => window.attentionLab.getState());
const notesOf = (frame) => frame.evaluate(() => document.getElementById('notes')?.textContent ?? '');
const instanceFrame = (page) => page.frames().find((f) => f.url().startsWith(servers.site.url));
// el.setState(partial) from the lesson page, resolved with the change event's state.
const setAndWait = (page, partial) => page.evaluate((p) => new Promise((resolve) => {
  const el = document.getElementById('el');
  el.addEventListener('change', (e) => resolve(e.detail), { once: true });
  el.setState(p);
}), partial);

test("a third party's frame in the lesson can neither set an instance's state nor fake its events", async () => {
  const third = await origin('third', `<script>
    const site = new URL(location.hash.slice(1)).origin;
    setInterval(() => {
      // At the plain-iframe instance beside it, and at the lesson page that embeds both.
      parent.frames[0].postMessage({ type: 'attention-lab:set', state: { step: 'output', query: 0 } }, '*');
      parent.postMessage({ type: 'attention-lab:state', state: { step: 'output', evil: '1' } }, '*');
      parent.postMessage({ type: 'attention-lab:ready', state: { step: 'output' } }, site);
    }, 50);
  </script>`);
  const lesson = await origin('lesson', `<script src="${servers.site.url}embed.js"></script>
    <iframe id="plain" src="${servers.site.url}index.html#preset=causal-3x2&step=mask" style="width:600px;height:400px"></iframe>
    <attention-lab id="el" preset="causal-3x2" step="softmax" height="400"></attention-lab>
    <iframe id="third" src="${third}#${servers.site.url}" style="width:10px;height:10px"></iframe>`);
  assert.equal(new Set([servers.site.url, lesson, third].map((u) => new URL(u).origin)).size, 3);

  const page = await browser.context.newPage();
  await page.goto(lesson);
  await page.waitForFunction(() => document.getElementById('el').ready, null, { timeout: 60000 });
  const changes = await page.evaluateHandle(() => {
    const seen = [];
    document.getElementById('el').addEventListener('change', (e) => seen.push(e.detail));
    return seen;
  });
  const plain = page.frames().find((f) => f.url().includes('step=mask'));
  await plain.waitForFunction(() => window.attentionLab, null, { timeout: 60000 });
  await plain.evaluate(() => window.attentionLab.ready);
  // Thirty rounds of the third party's messages, counted as the lesson page receives them
  // (by their state's `evil`), and the frames that would apply a state they set.
  await page.evaluate(() => {
    window.thirdPartyRounds = 0;
    addEventListener('message', (e) => { if (e.data?.state?.evil) window.thirdPartyRounds += 1; });
  });
  await until(page, () => window.thirdPartyRounds >= 30);
  await frames(plain);

  assert.equal((await stateOf(plain)).step, 'mask', 'the plain iframe ignored the third party');
  const el = await page.evaluate(() => document.getElementById('el').state);
  assert.equal(el.step, 'softmax');
  assert.equal(el.evil, undefined);
  assert.deepEqual(await changes.jsonValue(), [], 'no change event from a faked message');

  // The lesson page itself still drives its instance.
  assert.equal((await setAndWait(page, { step: 'scores' })).step, 'scores');
  await page.close();
});

test('an element moved in the document keeps talking to its instance, which keeps its state', async () => {
  const lesson = await origin('moving', `<script src="${servers.site.url}embed.js"></script>
    <section id="one"><attention-lab id="el" preset="causal-3x2" step="softmax" height="400"></attention-lab></section>
    <section id="two"></section>`);
  const page = await browser.context.newPage();
  await page.goto(lesson);
  await page.waitForFunction(() => document.getElementById('el').ready, null, { timeout: 60000 });
  await setAndWait(page, { query: 1 });
  // Moving reloads the element's frame: it says ready again and has the state from before.
  await page.evaluate(() => document.getElementById('two').append(document.getElementById('el')));
  await page.waitForFunction(() => {
    const el = document.getElementById('el');
    return el.ready && el.state.query === '1';
  }, null, { timeout: 20000 });
  const restored = await stateOf(instanceFrame(page));
  assert.equal(restored.step, 'softmax');
  assert.equal(restored.query, '1', 'the state from before the move (the preset shows query 2)');
  assert.equal((await setAndWait(page, { step: 'output' })).step, 'output');
  await page.close();
});

test("the element's own HTML attributes are not state", async () => {
  const lesson = await origin('attributes', `<script src="${servers.site.url}embed.js"></script>
    <attention-lab id="el" class="demo wide" style="margin:4px" title="Attention" role="region" tabindex="0"
      aria-label="An attention demo" aria-describedby="x" data-chapter="3" data-track="1" hidden-not="no"
      preset="causal-3x2" step="mask" height="400"></attention-lab>`);
  const page = await browser.context.newPage();
  await page.goto(lesson);
  await page.waitForFunction(() => document.getElementById('el').ready, null, { timeout: 60000 });
  const frame = instanceFrame(page);
  const state = await stateOf(frame);
  assert.equal(state.step, 'mask');
  for (const key of ['class', 'style', 'title', 'role', 'tabindex', 'aria-label', 'aria-describedby', 'data-chapter'])
    assert.equal(state[key], undefined, key);
  // Only the attribute that is neither a state key nor HTML's own is noted as unknown.
  const notes = await notesOf(frame);
  assert.match(notes, /hidden-not/);
  assert.doesNotMatch(notes, /class|style|aria|data-|role|tabindex|title/);
  await page.close();
});
