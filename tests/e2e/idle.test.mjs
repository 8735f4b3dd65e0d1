// Drawing on demand, in headless Chromium: an idle page draws nothing and runs no frame loop at
// all (not one of the app's requestAnimationFrame callbacks), in the walkthrough, in view=train
// paused, in view=cost and embedded; an input, a change of state, a resize, a change of the
// system's scheme and scrolling an embedded instance into view each start it again. Frames and
// callbacks are counted (harness.mjs's countDrawnFrames), over a stretch of animation frames
// that the harness's own callbacks count: a slow machine gives the app as many chances.
import test from 'node:test';
import assert from 'node:assert/strict';
import { countDrawnFrames, frames, labSession, openLab, press, until } from './harness.mjs';

const session = labSession();
let counting;  // the context's pages count their frames from the first test on
const countFrames = () => (counting ??= session.browser.context.addInitScript(countDrawnFrames));
// Idleness is counted in animation frames, the chances the page has to draw (180: three
// seconds at 60 Hz).
const IDLE_FRAMES = 180;
const SETTLE_FRAMES = 30;  // the frames that finish drawing what came before
const PLAY_FRAMES = 150;  // 2.5 s at 60 Hz

const counts = (frame) => frame.evaluate(() => ({ ...window.__drawnFrames, now: performance.now() }));

// The frames `frame` draws and the app's callbacks there during `count` animation frames of
// `page`, and the seconds they took.
async function during(page, count, frame = page) {
  const before = await counts(frame);
  await frames(page, count);
  const after = await counts(frame);
  return { drawn: after.drawn - before.drawn, callbacks: after.callbacks - before.callbacks,
           seconds: (after.now - before.now) / 1000 };
}

// After what came before has settled: no callback and no frame drawn while nothing changes.
async function assertIdle(t, page, what) {
  await frames(page, SETTLE_FRAMES);
  const idle = await during(page, IDLE_FRAMES);
  t.diagnostic(`${what}: ${(idle.callbacks / idle.seconds).toFixed(1)} app callbacks a second while idle ` +
               `(${idle.callbacks} in ${idle.seconds.toFixed(2)} s, ${IDLE_FRAMES} animation frames)`);
  assert.equal(idle.callbacks, 0, `${what}: ${idle.callbacks} of the app's callbacks in ${IDLE_FRAMES} animation frames of idleness`);
  assert.equal(idle.drawn, 0, `${what}: ${idle.drawn} frames drawn in ${IDLE_FRAMES} animation frames of idleness`);
}

// Waits until `frame` has drawn since `before` (its counts), the app woken by what came between.
const drawsAgain = (frame, before) => until(frame, (n) => window.__drawnFrames.drawn > n, before.drawn);

test('an idle walkthrough runs no frame loop; input, a change, a resize and the scheme draw again', async (t) => {
  await countFrames();
  const { page, errors } = await openLab(session.browser.context, session.server.url,
                                         'preset=causal-3x2&step=softmax&theme=auto');
  await assertIdle(t, page, 'walkthrough');

  const canvas = await page.evaluate(() => JSON.parse(JSON.stringify(document.getElementById('canvas').getBoundingClientRect())));
  let before = await counts(page);
  await page.mouse.move(canvas.x + canvas.width / 3, canvas.y + canvas.height / 3);
  await drawsAgain(page, before);  // a mouse move

  before = await counts(page);
  await page.evaluate(() => window.attentionLab.setState({ step: 'mask' }));
  await drawsAgain(page, before);  // a change
  await assertIdle(t, page, 'after a change');

  // A resize: the backing store follows the canvas's new size (fit_canvas in the next frame).
  before = await counts(page);
  await page.setViewportSize({ width: 1000, height: 700 });
  await until(page, () => document.getElementById('canvas').width === Math.round(innerWidth * devicePixelRatio));
  await drawsAgain(page, before);
  await assertIdle(t, page, 'after a resize');
  // The system's scheme, which theme=auto follows.
  before = await counts(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await drawsAgain(page, before);
  await assertIdle(t, page, 'after a change of scheme');

  // Play runs the loop every frame (and the callbacks counted are the app's), and draws a frame
  // only when its picture changes (a step; main.cpp's present()), not the same picture again.
  before = await counts(page);
  await page.evaluate(() => window.attentionLab.setState({ step: 'scores' }));
  await page.keyboard.press('Space');
  const playing = await during(page, PLAY_FRAMES);
  assert.ok(playing.callbacks > 10, `Play runs the loop (${playing.callbacks} callbacks in ${PLAY_FRAMES} animation frames)`);
  assert.ok(playing.drawn >= 1 && playing.drawn < playing.callbacks,
            `Play draws what changes, not every callback (${playing.drawn} frames drawn in ${playing.callbacks} callbacks)`);
  await until(page, () => window.attentionLab.getState().step !== 'scores');  // its first step: 1.6 s
  assert.deepEqual(errors, []);
  await page.close();
});

test('view=train paused and view=cost idle run no frame loop; training runs one', async (t) => {
  await countFrames();
  const { page, errors } = await openLab(session.browser.context, session.server.url, 'view=train');
  await assertIdle(t, page, 'view=train, paused');
  await page.evaluate(() => window.attentionLab.setState({ play: 1 }));
  const training = await during(page, 30);
  assert.ok(training.callbacks > 5 && training.drawn > 5, `training draws (${training.drawn} frames, ${training.callbacks} callbacks)`);
  await page.evaluate(() => window.attentionLab.setState({ play: 0 }));
  await assertIdle(t, page, 'view=train, paused again');

  await page.evaluate(() => window.attentionLab.setState({ view: 'cost' }));
  await assertIdle(t, page, 'view=cost');
  assert.deepEqual(errors, []);
  await page.close();
});

test('embedded instances run no frame loop while idle; one out of view draws once scrolled into view', async (t) => {
  await countFrames();
  const page = await session.browser.context.newPage();
  await page.goto(session.server.url + 'examples/figures.html');
  // The figures near the viewport start (embed.js), the first on screen and the next below it.
  const count = await (await page.waitForFunction(() => {
    const live = [...document.querySelectorAll('attention-lab')].filter(e => e.shadowRoot.querySelector('iframe'));
    return live.every(e => e.ready) && live.length;
  }, null, { timeout: 60000 })).jsonValue();
  assert.ok(count >= 2, `${count} figures started`);
  const instances = page.frames().filter(f => f.url().includes('index.html'));
  assert.equal(instances.length, count);
  await frames(page, SETTLE_FRAMES);
  const idle = await Promise.all(instances.map((frame) => counts(frame)));
  const stretch = await during(page, IDLE_FRAMES);
  const after = await Promise.all(instances.map((frame) => counts(frame)));
  const callbacks = after.reduce((sum, a, i) => sum + a.callbacks - idle[i].callbacks, 0);
  const drawn = after.reduce((sum, a, i) => sum + a.drawn - idle[i].drawn, 0);
  t.diagnostic(`${instances.length} embedded instances: ${(callbacks / stretch.seconds).toFixed(1)} app callbacks a second while idle`);
  assert.equal(callbacks, 0, `${callbacks} callbacks of ${instances.length} instances in ${IDLE_FRAMES} animation frames of idleness`);
  assert.equal(drawn, 0, `${drawn} frames drawn by ${instances.length} instances in ${IDLE_FRAMES} animation frames of idleness`);

  // The last one started is below the fold: a change reaches its state but runs nothing there.
  const last = page.locator('attention-lab').nth(count - 1);
  assert.ok(await last.evaluate(el => el.getBoundingClientRect().top > innerHeight), 'it is below the fold');
  const hidden = await (await last.locator('iframe').elementHandle()).contentFrame();
  const start = await counts(hidden);
  await last.evaluate(el => el.setState({ step: 'mask' }));
  await page.waitForFunction((i) => document.querySelectorAll('attention-lab')[i].state.step === 'mask', count - 1);
  await frames(page, SETTLE_FRAMES);
  const out = await counts(hidden);
  assert.equal(out.drawn, start.drawn, 'an instance out of view draws nothing');
  assert.equal(out.callbacks, start.callbacks, 'an instance out of view runs no callback');
  await last.scrollIntoViewIfNeeded();
  await drawsAgain(hidden, start);  // becoming visible draws the change
  await frames(page, SETTLE_FRAMES);
  const settled = await during(page, IDLE_FRAMES, hidden);
  assert.deepEqual([settled.callbacks, settled.drawn], [0, 0], 'then it rests again');
  await page.close();
});

// A page of our own around two figures, among the lesson's: a walkthrough figure without a
// stepper and the scaling view, with text below to scroll through.
async function keysPage() {
  const page = await session.browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(session.server.url + 'examples/figures.html');
  await page.evaluate(() => {
    document.body.innerHTML =
      '<attention-lab title="softmax" preset="causal-3x2" step="softmax" figure="softmax,arithmetic"></attention-lab>' +
      '<attention-lab title="scaling" view="scaling" height="400"></attention-lab>' +
      '<div style="height: 6000px">the rest of the lesson</div>';
    scrollTo(0, 0);
  });
  const figures = page.locator('attention-lab');
  return { page, errors, figures, instances: await instancesOf(page, figures) };
}
// The figures' instances once all are ready (scrolled far, a figure starts a new one).
async function instancesOf(page, figures) {
  await page.waitForFunction(() => [...document.querySelectorAll('attention-lab')].every((e) => e.ready), null, { timeout: 60000 });
  return Promise.all([0, 1].map(async (i) => (await figures.nth(i).locator('iframe').elementHandle()).contentFrame()));
}

test('figures take no focus, hand the keys they do not use to the page, and no key leaves a frame loop', async (t) => {
  await countFrames();
  const { page, errors, figures, ...opened } = await keysPage();
  let { instances } = opened;
  // Loaded, no figure has the keyboard: Space scrolls the page.
  for (const frame of instances) assert.notEqual(await frame.evaluate(() => document.activeElement.id), 'canvas');
  assert.equal(await page.evaluate(() => document.activeElement.tagName), 'BODY');
  await page.keyboard.press('Space');
  await until(page, () => scrollY > 0);
  await page.evaluate(() => scrollTo(0, 0));

  for (const i of [0, 1]) {
    const frame = instances[i];
    // The reader presses into the figure (its top edge: padding, no control), then types
    // before the app has seen the release: the press has reached the app (a frame of its own
    // since), the button is still down.
    await figures.nth(i).scrollIntoViewIfNeeded();
    const box = await figures.nth(i).boundingBox();
    await page.mouse.move(box.x + 4, box.y + 4);
    await frames(page, SETTLE_FRAMES);
    const pressed = await counts(frame);
    await page.mouse.down();
    await until(frame, (n) => window.__drawnFrames.callbacks > n, pressed.callbacks);
    assert.equal(await frame.evaluate(() => document.activeElement.id), 'canvas', `figure ${i} has the keyboard once clicked`);
    const heard = await page.evaluate(() => {
      if (!window.__keys) document.addEventListener('keydown', (e) => window.__keys.push(e.key + ':' + e.keyCode));
      window.__keys = [];
      return scrollY;
    });
    // Space and PageDown scroll the page by a screen, as the browser would; the page's own
    // listeners hear them, keyCode and all (a slide deck reads it).
    await press(page, 'Space');
    await until(page, (y) => scrollY > y, heard);
    await page.mouse.up();
    const spaced = await page.evaluate(() => scrollY);
    await press(page, 'PageDown');
    await until(page, (y) => scrollY > y, spaced);
    // (Tab, which moves on to the next figure here, is accessibility.test.mjs's.)
    for (const key of ['n', 'o', 'ArrowRight', 'ArrowLeft', 'ArrowDown', 'Enter', 'Escape']) await press(page, key);
    assert.deepEqual(await page.evaluate(() => window.__keys), [' :32', 'PageDown:34', 'n:78', 'o:79', 'Escape:27'],
                     `figure ${i}: the page hears exactly the keys the figure does not use`);
    // Escape gave the keyboard back: the page's own PageDown scrolls it.
    assert.equal(await page.evaluate(() => document.activeElement.tagName), 'BODY', `figure ${i}: Escape releases it`);
    const released = await page.evaluate(() => scrollY);
    await page.keyboard.press('PageDown');
    await until(page, (y) => scrollY > y, released);
    await page.evaluate(() => scrollTo(0, 0));
    instances = await instancesOf(page, figures);
    // Then nothing runs, in either figure.
    await frames(page, SETTLE_FRAMES);
    const before = await Promise.all(instances.map((f) => counts(f)));
    await frames(page, IDLE_FRAMES);
    const after = await Promise.all(instances.map((f) => counts(f)));
    const callbacks = after.map((a, j) => a.callbacks - before[j].callbacks);
    t.diagnostic(`after keys in figure ${i}: ${callbacks} app callbacks in ${IDLE_FRAMES} animation frames`);
    assert.deepEqual(callbacks, [0, 0], `after keys in figure ${i}, idle figures run no callback`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});
