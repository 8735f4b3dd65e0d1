// A swipe on a phone (390 × 844, touch) that starts on a slider scrolls the lesson and leaves
// the slider alone; a sideways drag still moves it (issue 45): chapter 4's d_k and chapter 11's
// "steps / frame", as a reader meets them. The drag ends past the track's right end, so the
// slider must stand at its largest value: a drag whose press reached the app where the finger
// lifted rather than where it went down (its moves all arriving before the app's next frame)
// pressed beside the track and moved nothing. Real touch gestures through the DevTools
// protocol (Chromium's gesture synthesizer), the sliders found by their labels in the
// instance's own layout().
import test from 'node:test';
import assert from 'node:assert/strict';
import { labSession, swipe, until } from './harness.mjs';
import { DEVICES, openLesson } from './lesson_frames.mjs';

const session = labSession(DEVICES.phone);

// The figure `id` on screen and ready, its instance's frame, and the slider labelled `label`
// there, in the lesson's viewport coordinates: a point on its track, and its right end.
async function sliderOf(page, id, label) {
  await page.evaluate((id) => document.getElementById(id).scrollIntoView({ block: 'start' }), id);
  await until(page, (id) => document.getElementById(id).ready, id, { timeout: 90000 });
  const frame = await (await page.locator('#' + id).locator('iframe').elementHandle()).contentFrame();
  const item = await until(frame, (label) => window.attentionLab.layout().find((i) => i.label === label), label);
  const box = await page.locator('#' + id).locator('iframe').boundingBox();
  // Off the grab handle's centre (a press anywhere on the track moves it). The item's width
  // includes its label, beside the track on the right.
  return { frame, at: [box.x + item.x + item.w * 0.3, box.y + item.y + item.h / 2], end: box.x + item.x + item.w };
}

for (const [id, label, key, max] of [['fig-scaling', 'd_k', 'dk', 512], ['fig-training', 'steps / frame', 'spf', 100]]) {
  test(`a vertical swipe on ${id}'s "${label}" slider scrolls the lesson; a sideways drag moves it`, async () => {
    const page = await openLesson(session.browser.context, session.server);
    const cdp = await session.browser.context.newCDPSession(page);
    const { frame, at } = await sliderOf(page, id, label);
    const value = await frame.evaluate((key) => window.attentionLab.getState()[key], key);
    assert.notEqual(String(value), String(max), `${label} starts below its largest value`);
    for (const dy of [-300, 300]) {  // up the lesson, then back down
      const y = await page.evaluate(() => scrollY);
      await swipe(cdp, at, { dy });
      await until(page, ([y, dy]) => Math.sign(scrollY - y) === -Math.sign(dy), [y, dy]);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      assert.equal(await frame.evaluate((key) => window.attentionLab.getState()[key], key), value,
                   `${label} is unchanged by a ${dy < 0 ? 'upward' : 'downward'} swipe`);
    }
    // Sideways, from the track to past its right end (and its label's).
    const again = await sliderOf(page, id, label);
    await swipe(cdp, again.at, { dx: again.end + 10 - again.at[0] });
    await until(again.frame, ([key, max]) => String(window.attentionLab.getState()[key]) === String(max), [key, max]);
    await page.close();
  });
}
