// Drawing on demand, in headless Chromium: an idle page draws (almost) nothing, an input or a
// change draws again, and an embedded instance scrolled out of view draws nothing until it is
// back in view. Frames are counted, not timed (harness.mjs's countDrawnFrames).
import test from 'node:test';
import assert from 'node:assert/strict';
import { countDrawnFrames, frames, labSession, openLab, until } from './harness.mjs';

const session = labSession();
let counting;  // the context's pages count their frames from the first test on
const countFrames = () => (counting ??= session.browser.context.addInitScript(countDrawnFrames));
// Idleness is counted in animation frames, the chances the page has to draw (180: three
// seconds at 60 Hz), so that a slow machine gives it as many.
const IDLE_FRAMES = 180;
const MAX_IDLE_FRAMES = 3;
const SETTLE_FRAMES = 30;  // the frames that finish drawing what came before
const PLAY_FRAMES = 150;  // 2.5 s at 60 Hz

const drawn = frame => frame.evaluate(() => window.__drawnFrames.drawn);

// The frames the page draws during `count` animation frames.
async function framesDuring(page, count) {
  const before = await drawn(page);
  await frames(page, count);
  return (await drawn(page)) - before;
}

test('an idle page draws nothing; an input or a change draws again', async () => {
  await countFrames();
  const { page, errors } = await openLab(session.browser.context, session.server.url, 'preset=causal-3x2&step=softmax');
  await frames(page, SETTLE_FRAMES);
  const idle = await framesDuring(page, IDLE_FRAMES);
  assert.ok(idle <= MAX_IDLE_FRAMES, `${idle} frames drawn in ${IDLE_FRAMES} animation frames of idleness`);

  const canvas = await page.evaluate(() => JSON.parse(JSON.stringify(document.getElementById('canvas').getBoundingClientRect())));
  let before = await drawn(page);
  await page.mouse.move(canvas.x + canvas.width / 3, canvas.y + canvas.height / 3);
  await frames(page);
  assert.ok(await drawn(page) > before, 'a mouse move draws');

  before = await drawn(page);
  await page.evaluate(() => window.attentionLab.setState({ step: 'mask' }));
  await frames(page);
  assert.ok(await drawn(page) > before, 'a change draws');
  await frames(page, SETTLE_FRAMES);
  const settled = await framesDuring(page, IDLE_FRAMES);
  assert.ok(settled <= MAX_IDLE_FRAMES, `${settled} frames drawn in ${IDLE_FRAMES} animation frames after the change`);

  // Play animates: every frame is drawn while it runs.
  before = await drawn(page);
  await page.evaluate(() => window.attentionLab.setState({ step: 'scores' }));
  await page.keyboard.press('Space');
  await frames(page, PLAY_FRAMES);
  const playing = await drawn(page) - before;
  assert.ok(playing > 10, `Play keeps drawing (${playing} frames drawn in ${PLAY_FRAMES} animation frames)`);
  await until(page, () => window.attentionLab.getState().step !== 'scores');  // its first step: 1.6 s
  assert.notEqual((await page.evaluate(() => window.attentionLab.getState())).step, 'scores', 'Play steps on');
  assert.deepEqual(errors, []);
  await page.close();
});

test('an embedded instance out of view draws nothing until it is scrolled into view', async () => {
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
  const before = await Promise.all(instances.map(drawn));
  await frames(page, IDLE_FRAMES);
  const idle = (await Promise.all(instances.map(drawn))).reduce((sum, n, i) => sum + n - before[i], 0);
  assert.ok(idle <= MAX_IDLE_FRAMES, `${idle} frames drawn by ${instances.length} instances in ${IDLE_FRAMES} animation frames of idleness`);

  // The last one started is below the fold: a change reaches its state but draws nothing there.
  const last = page.locator('attention-lab').nth(count - 1);
  assert.ok(await last.evaluate(el => el.getBoundingClientRect().top > innerHeight), 'it is below the fold');
  const hidden = await (await last.locator('iframe').elementHandle()).contentFrame();
  const start = await drawn(hidden);
  await last.evaluate(el => el.setState({ step: 'mask' }));
  await page.waitForFunction((i) => document.querySelectorAll('attention-lab')[i].state.step === 'mask', count - 1);
  await frames(page, SETTLE_FRAMES);
  assert.equal(await drawn(hidden), start, 'an instance out of view draws nothing');
  await last.scrollIntoViewIfNeeded();
  await until(hidden, (start) => window.__drawnFrames.drawn > start, start);
  assert.ok(await drawn(hidden) > start, 'scrolled into view, it draws the change');
  await page.close();
});
