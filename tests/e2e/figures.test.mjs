// Many figures on one page (docs/embed.md, "Many figures on one page"), scrolled through end
// to end with the mouse wheel on a phone-sized and a laptop-sized screen: every figure draws
// when reached, never more than embed.js's bound of instances (and WebGL contexts) is live,
// no context is lost and left so, and a figure scrolled away and back has its state. And the
// lab opened alone, whose context is taken, starts again in its state.
// The page is examples/figures.html, or any page of the site given as
//   ATTN_FIGURES_PAGE=lesson.html node --test tests/e2e/figures.test.mjs
import test from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openLab, startServer, until } from './harness.mjs';
import { figureStates, instrumentFigures, scrollThrough, untilVisibleReady, watchContexts } from './figures.mjs';

const PAGE = process.env.ATTN_FIGURES_PAGE || 'examples/figures.html';
const LIVE_LIMIT = 6;  // docs/embed.md: at most six figures hold an instance at once

let server;
test.before(async () => { server = await startServer(); });
test.after(async () => { await server?.close(); });

// The state of the instance inside figure `i`, read from the instance itself.
async function instanceState(page, i) {
  const frame = await (await page.evaluateHandle((i) => document.querySelectorAll('attention-lab')[i]
    .shadowRoot.querySelector('iframe'), i)).asElement().contentFrame();
  return frame.evaluate(async () => { await window.attentionLab.ready; return window.attentionLab.getState(); });
}

for (const [name, viewport] of [['phone', { width: 390, height: 844 }], ['laptop', { width: 1280, height: 800 }]]) {
  test(`${PAGE} at ${viewport.width}×${viewport.height} (${name}), scrolled through with the wheel`, async (t) => {
    const { context, close } = await launchBrowser({ viewport });
    t.after(close);
    await context.addInitScript(instrumentFigures);
    const page = await context.newPage();
    const contexts = await watchContexts(context, page);
    const errors = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(server.url + PAGE);

    const figures = await figureStates(page);
    assert.ok(figures.length >= 12, `${PAGE} has ${figures.length} figures; this test wants at least 12`);
    await untilVisibleReady(page);
    // Lazy start: a figure more than two screens below has not started.
    const far = (await figureStates(page)).filter((f) => f.top > 3 * viewport.height);
    assert.ok(far.length > 0, 'the page is long enough for figures far below the first screen');
    assert.deepEqual(far.filter((f) => f.live), [], 'figures far below the screen hold no instance');

    // A change to the first figure, made before it is scrolled away (queued if it is not
    // ready yet: it may have started below the screen's edge).
    const seed = await page.evaluate(() => new Promise((resolve) => {
      const el = document.querySelector('attention-lab');
      const seed = el.state.seed === '4242' ? '4243' : '4242';
      const changed = (e) => { if (e.detail.seed === seed) { el.removeEventListener('change', changed); resolve(seed); } };
      el.addEventListener('change', changed);
      el.setState({ seed });
    }));

    await scrollThrough(page, {
      atStop: async () => {
        const { live, ready } = await page.evaluate(() => ({
          live: window.__figures.live, ready: [...document.querySelectorAll('attention-lab')].filter((el) => el.ready).length }));
        assert.ok(live <= LIVE_LIMIT, `${live} instances live`);
        // Each instance that has drawn holds one context, and only live instances hold one.
        assert.ok(ready <= contexts.live && contexts.live <= live, `${ready} ready, ${contexts.live} contexts, ${live} live`);
      },
    });
    const bottom = await figureStates(page);
    assert.deepEqual(bottom.map((f, i) => (f.readyCount > 0 ? -1 : i)).filter((i) => i >= 0), [],
                     'every figure has drawn (said ready) once reached');
    assert.equal(bottom[0].live, false, 'the first figure, far above, released its instance');
    assert.equal(await page.evaluate(() => document.querySelector('attention-lab').state.seed), seed,
                 'the released figure keeps its last state');
    const peak = await page.evaluate(() => window.__figures.peak);
    assert.ok(peak <= LIVE_LIMIT, `at most ${LIVE_LIMIT} instances live at once (peak ${peak})`);
    assert.ok(contexts.peak <= LIVE_LIMIT, `at most ${LIVE_LIMIT} WebGL contexts at once (peak ${contexts.peak})`);
    assert.equal(contexts.lost, 0, 'no WebGL context was lost');

    // Back to the top: the first figure draws again, in the state it had.
    await scrollThrough(page, { direction: -1 });
    const top = await figureStates(page);
    assert.ok(top[0].ready && top[0].readyCount >= 2, 'the first figure started again and said ready');
    assert.equal((await instanceState(page, 0)).seed, seed, 'the new instance has the state from before');

    // A context taken anyway (as Chromium takes the oldest past 16): a new instance replaces
    // the lost one, with its state.
    const before = top[0].readyCount;
    await page.evaluate(() => document.querySelector('attention-lab').shadowRoot.querySelector('iframe')
      .contentDocument.getElementById('canvas').getContext('webgl2').getExtension('WEBGL_lose_context').loseContext());
    await until(page, (before) => {
      const el = document.querySelector('attention-lab');
      return el.ready && el.__readyCount > before;
    }, before, { timeout: 120000 });
    assert.equal(contexts.lost, 1);
    assert.equal(contexts.unrestored, 0, 'the lost context was replaced (no frame left without one)');
    assert.equal((await instanceState(page, 0)).seed, seed, 'the replacement has the state');
    assert.deepEqual(errors, []);
  });
}

test('the lab alone, its context lost, loads again from its link', async (t) => {
  const { context, close } = await launchBrowser();
  t.after(close);
  const { page, errors } = await openLab(context, server.url, 'preset=cross&step=softmax');
  await page.evaluate(() => window.attentionLab.setState({ query: 3 }));
  const before = await page.evaluate(() => window.attentionLab.getState());
  const reloaded = page.waitForEvent('load');
  await page.evaluate(() => document.getElementById('canvas').getContext('webgl2').getExtension('WEBGL_lose_context').loseContext());
  await reloaded;
  await page.waitForFunction(() => window.attentionLab, null, { timeout: 30000 });
  await page.evaluate(() => window.attentionLab.ready);
  assert.deepEqual(await page.evaluate(() => window.attentionLab.getState()), before);
  assert.equal(await page.evaluate(() => document.getElementById('canvas').getContext('webgl2').isContextLost()), false);
  assert.deepEqual(errors, []);
});
