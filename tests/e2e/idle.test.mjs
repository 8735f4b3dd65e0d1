// Drawing on demand, in headless Chromium: an idle page draws (almost) nothing, an input or a
// change draws again, and an embedded instance scrolled out of view draws nothing until it is
// back in view. Frames are counted, not timed (harness.mjs's countDrawnFrames).
import test from 'node:test';
import assert from 'node:assert/strict';
import { countDrawnFrames, labSession, openLab } from './harness.mjs';

const session = labSession();
let counting;  // the context's pages count their frames from the first test on
const countFrames = () => (counting ??= session.browser.context.addInitScript(countDrawnFrames));
const IDLE_MS = 3000;
const MAX_IDLE_FRAMES = 3;

const drawn = frame => frame.evaluate(() => window.__drawnFrames.drawn);

async function framesDuring(frame, ms) {
  const before = await drawn(frame);
  await new Promise(resolve => setTimeout(resolve, ms));
  return (await drawn(frame)) - before;
}

test('an idle page draws nothing; an input or a change draws again', async () => {
  await countFrames();
  const { page, errors } = await openLab(session.browser.context, session.server.url, 'preset=causal-3x2&step=softmax');
  await page.waitForTimeout(500);
  const idle = await framesDuring(page, IDLE_MS);
  assert.ok(idle <= MAX_IDLE_FRAMES, `${idle} frames drawn in ${IDLE_MS / 1000} s of idleness`);

  let before = await drawn(page);
  await page.mouse.move(420, 320);
  await page.waitForTimeout(300);
  assert.ok(await drawn(page) > before, 'a mouse move draws');

  before = await drawn(page);
  await page.evaluate(() => window.attentionLab.setState({ step: 'mask' }));
  await page.waitForTimeout(300);
  assert.ok(await drawn(page) > before, 'a change draws');
  await page.waitForTimeout(500);
  const settled = await framesDuring(page, IDLE_MS);
  assert.ok(settled <= MAX_IDLE_FRAMES, `${settled} frames drawn in ${IDLE_MS / 1000} s after the change`);

  // Play animates: every frame is drawn while it runs.
  before = await drawn(page);
  await page.evaluate(() => window.attentionLab.setState({ step: 'scores' }));
  await page.keyboard.press('Space');
  await page.waitForTimeout(2500);
  const playing = await drawn(page) - before;
  assert.ok(playing > 10, `Play keeps drawing (${playing} frames in 2.5 s)`);
  assert.notEqual((await page.evaluate(() => window.attentionLab.getState())).step, 'scores', 'Play steps on');
  assert.deepEqual(errors, []);
  await page.close();
});

test('an embedded instance out of view draws nothing until it is scrolled into view', async () => {
  await countFrames();
  const page = await session.browser.context.newPage();
  await page.goto(session.server.url + 'examples/lesson.html');
  await page.waitForFunction(() => [...document.querySelectorAll('attention-lab')].every(e => e.ready), null,
                             { timeout: 60000 });
  const frames = page.frames().filter(f => f.url().includes('index.html'));
  assert.equal(frames.length, await page.evaluate(() => document.querySelectorAll('attention-lab').length));
  await page.waitForTimeout(500);
  const before = await Promise.all(frames.map(drawn));
  await page.waitForTimeout(IDLE_MS);
  const idle = (await Promise.all(frames.map(drawn))).reduce((sum, n, i) => sum + n - before[i], 0);
  assert.ok(idle <= MAX_IDLE_FRAMES, `${idle} frames drawn by ${frames.length} instances in ${IDLE_MS / 1000} s of idleness`);

  // The last instance is below the fold: a change reaches its state but draws nothing there.
  const last = page.locator('attention-lab').last();
  const hidden = await (await last.locator('iframe').elementHandle()).contentFrame();
  const start = await drawn(hidden);
  await last.evaluate(el => el.setState({ step: 'mask' }));
  await page.waitForFunction(() => [...document.querySelectorAll('attention-lab')].at(-1).state.step === 'mask');
  await page.waitForTimeout(500);
  assert.equal(await drawn(hidden), start, 'an instance out of view draws nothing');
  await last.scrollIntoViewIfNeeded();
  await page.waitForTimeout(500);
  assert.ok(await drawn(hidden) > start, 'scrolled into view, it draws the change');
  await page.close();
});
