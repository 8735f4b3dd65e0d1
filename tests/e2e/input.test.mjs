// Every input a reader has (issue 21), as real events in Chromium: the wheel in each of its
// modes and a trackpad's stream, touch swipes, taps, double taps and pinches at tablet and
// phone sizes, typing through the on-screen keyboard's field, and an embedded lab handing a
// swipe back to the lesson at its ends. Distances are read from attentionLab.layout(): where
// a control is drawn before and after.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve } from '../../scripts/serve.mjs';
import { webDir, startServer, launchBrowser, openLab, frames, layout, findItem, findSteadyItem, centre, until, touchTap, swipe, pinch, click,
         press } from './harness.mjs';

const shots = process.env.ATTN_SCREENSHOT_DIR;  // set to keep the phone and tablet screenshots

// The y of a control in a long view's scrolling panel, once the app has drawn the last input
// and the content stands still (a swipe's momentum has ended).
async function yOf(page, label) {
  return until(page, async (label) => {
    const y = () => window.attentionLab.layout().find((i) => i.label === label)?.y;
    const before = y();
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(r))));
    return before !== undefined && y() === before ? before : null;
  }, label);
}
// A control drawn low in the panel, in view before and after the content scrolls up a few
// hundred pixels (layout() lists the items drawn, at least partly, in the last frame).
// Waits for the frames that lay the view out (the first frame may hold only part of it).
async function lowItem(page, fraction) {
  return until(page, (fraction) => {
    const items = window.attentionLab.layout().filter((i) => i.label && i.y > innerHeight * fraction && i.y < innerHeight - 30);
    return items.length ? items[0].label : null;
  }, fraction);
}
// Swipes until a control is on screen (a long column on a phone), further down the column
// or (`back`) up it, on the column's scrollbar: a swipe inside a panel that scrolls on its own
// would move that panel first.
async function seek(page, cdp, query, { back = false } = {}) {
  const { width, height } = await page.evaluate(() => ({ width: innerWidth, height: innerHeight }));
  for (let i = 0; i < 16; i++) {
    try { return await findItem(page, query, { timeout: 500 }); } catch { /* not yet in view */ }
    await swipe(cdp, [width - 22, height * (back ? 0.4 : 0.8)], { dy: height * (back ? 0.4 : -0.4) });
  }
  return findItem(page, query, { timeout: 500 });
}

test('the wheel scrolls the way it turns, about 100 CSS pixels a notch, in every mode', async (t) => {
  const server = await startServer();
  const { context, close } = await launchBrowser();
  t.after(async () => { await close(); await server.close(); });
  const { page, errors } = await openLab(context, server.url, 'view=gradients');
  const label = await lowItem(page, 0.6);
  const [x, y] = centre(await findItem(page, { label }));  // the wheel turns over the panel
  await page.mouse.move(x, y);
  const y0 = await yOf(page, label);

  await page.mouse.wheel(0, 100);  // one notch towards the reader: the content moves up
  const y1 = await yOf(page, label);
  assert.ok(y0 - y1 > 60 && y0 - y1 < 140, `one notch down moved the content ${y0 - y1} px`);
  await page.mouse.wheel(0, -100);
  assert.ok(Math.abs(await yOf(page, label) - y0) < 1, 'a notch up brings it back');

  // A trackpad: many small pixel deltas, in proportion.
  for (let i = 0; i < 20; i++) await page.mouse.wheel(0, 5);
  const y2 = await yOf(page, label);
  assert.ok(y0 - y2 > 70 && y0 - y2 < 130, `20 × 5 px of trackpad moved it ${y0 - y2} px`);

  // Firefox's lines (deltaMode 1; Chromium sends pixels only, so this one is a DOM event).
  const wheelLines = (lines) => page.evaluate(({ lines, x, y }) => document.getElementById('canvas').dispatchEvent(
    new WheelEvent('wheel', { deltaY: lines, deltaMode: 1, clientX: x, clientY: y, bubbles: true, cancelable: true })), { lines, x, y });
  await wheelLines(-3);
  assert.ok(Math.abs(await yOf(page, label) - (y2 + 100)) < 2, 'three lines up scroll as far as 100 pixels');
  await wheelLines(-30);
  assert.ok(Math.abs(await yOf(page, label) - y0) < 1, 'the top stops it');
  assert.deepEqual(errors, []);
});

test('Ctrl+wheel zooms the heatmap under the pointer, not the page', async (t) => {
  const server = await startServer();
  const { context, close } = await launchBrowser();
  t.after(async () => { await close(); await server.close(); });
  const { page } = await openLab(context, server.url, 'n=40&dk=8&step=softmax');
  const map = await findSteadyItem(page, { kind: 'heatmap', label: /softmax/ });
  const clip = { x: map.x, y: map.y, width: map.w, height: map.h };
  const before = await page.screenshot({ clip });
  await page.mouse.move(...centre(map));
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, -300);
  await page.keyboard.up('Control');
  await frames(page, 6);
  assert.ok(!before.equals(await page.screenshot({ clip })), 'the heatmap shows fewer, larger cells');
  assert.equal(await page.evaluate(() => window.visualViewport.scale), 1, 'the page itself is not zoomed');
  assert.equal((await findItem(page, { kind: 'heatmap', label: map.label })).y, map.y, 'nothing scrolled');
});

// Every frame from now on takes longer than ImGui's own double-click time (0.3 s), as on a
// very busy machine.
const slowFrames = (page) => page.evaluate(() => {
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) => raf((time) => {
    for (const end = performance.now() + 350; performance.now() < end;);
    callback(time);
  });
});

test('a double-click opens a value for typing however slowly the page draws', async (t) => {
  const server = await startServer();
  const { context, close } = await launchBrowser();
  t.after(async () => { await close(); await server.close(); });
  const { page, errors } = await openLab(context, server.url, 'attn=cross&nq=3&nk=4&dk=2&dv=3&seed=7&causal=0&step=output');
  const cell = centre(await findItem(page, { kind: 'drag', label: 'Q[0,0]' }));
  // ImGui's clock alone would count two single clicks: the browser's count has to reach it.
  await slowFrames(page);
  await click(page, cell, 2);
  await press(page, 'Control+a');
  await page.keyboard.type('7');
  await press(page, 'Enter');
  await until(page, () => Number(window.attentionLab.getState().q?.split(',')[0]) === 7);
  assert.deepEqual(errors, []);
});

// The keyboard opens inside the double tap's own event, and the field it types into a few
// frames later: what is typed at once (a fast thumb on a slow page, or a tablet's keyboard)
// waits for that field.
const KEYBOARDS = [
  { name: 'on-screen', type: (page, text) => page.keyboard.insertText(text) },  // no key events
  { name: 'physical', type: (page, text) => page.keyboard.type(text) },
];
// A lab whose Q[0,0] a double tap has just opened for typing, every frame slow (slowFrames),
// and the hidden field the keyboard types into focused: ImGui's field is not active yet.
async function doubleTappedSlowly(t) {
  const server = await startServer();
  // Tall enough that the inputs' column shows Q without scrolling.
  const { context, close } = await launchBrowser({ viewport: { width: 1280, height: 1400 }, hasTouch: true });
  t.after(async () => { await close(); await server.close(); });
  const { page, errors } = await openLab(context, server.url, 'attn=cross&nq=3&nk=4&dk=2&dv=3&seed=7&causal=0&step=output');
  const cdp = await context.newCDPSession(page);
  const cell = centre(await findItem(page, { kind: 'drag', label: 'Q[0,0]' }));
  await slowFrames(page);
  await touchTap(cdp, cell, 2);
  await until(page, () => document.activeElement?.tagName === 'INPUT');
  return { page, errors };
}

for (const keyboard of KEYBOARDS) test(`typing at once after a double tap, on the ${keyboard.name} keyboard, reaches the field however slowly the page draws`, async (t) => {
  const { page, errors } = await doubleTappedSlowly(t);
  await keyboard.type(page, '0.25');
  await page.keyboard.press('Enter');
  await until(page, () => Number(window.attentionLab.getState().q?.split(',')[0]) === 0.25);
  assert.deepEqual(errors, []);
});

// Every key waits in order behind what was typed before it: a typo corrected at once (text,
// Backspace, text) and the Enter that confirms it reach the field as they were typed, not the
// text first and the keys after (nor a key in the very frame the field opens, which closed it).
test('what is typed at once after a double tap reaches the field in the order it was typed', async (t) => {
  const { page, errors } = await doubleTappedSlowly(t);
  await page.keyboard.insertText('0.7');
  await page.keyboard.press('Backspace');
  await page.keyboard.insertText('5');
  await page.keyboard.press('Enter');
  await until(page, () => window.attentionLab.getState().q?.split(',')[0] === '0.5');
  assert.deepEqual(errors, []);
});

for (const device of [{ name: 'tablet', width: 1024, height: 768, scale: 1 }, { name: 'phone', width: 390, height: 844, scale: 2 }]) {
  test(`touch on a ${device.name} (${device.width} × ${device.height}): swipe, tap, double tap and type, pinch`, async (t) => {
    const server = await startServer();
    const { context, close } = await launchBrowser({ viewport: { width: device.width, height: device.height },
                                                    deviceScaleFactor: device.scale, hasTouch: true, isMobile: device.name === 'phone' });
    t.after(async () => { await close(); await server.close(); });
    const { page, errors } = await openLab(context, server.url, 'view=gradients');
    const cdp = await context.newCDPSession(page);

    // A swipe up scrolls down by about the finger's travel (and glides a little further).
    const label = await lowItem(page, 0.4);
    const y0 = await yOf(page, label);
    // The finger lifts at the gesture's 800 px/s: the glide adds up to 800 × 0.325 s (touch.h).
    await swipe(cdp, [device.width / 2, device.height * 0.8], { dy: -200, speed: 800 });
    const y1 = await yOf(page, label);
    assert.ok(y0 - y1 > 180 && y0 - y1 < 200 + 800 * 0.325 + 20, `a 200 px swipe moved the content ${y0 - y1} px`);
    await swipe(cdp, [device.width / 2, device.height * 0.3], { dy: device.height * 0.6 });
    assert.equal(await yOf(page, label), y0, 'a swipe down brings it back to the top');

    // Nothing extends past the right edge (the page is not widened, no control is cut), and a
    // finger can hit every control.
    assert.deepEqual(await page.evaluate(() => [innerWidth, document.documentElement.scrollWidth]), [device.width, device.width]);
    const items = await layout(page);
    for (const i of items) assert.ok(i.x + i.w <= device.width + 0.5, `${i.kind} "${i.label}" ends at ${i.x + i.w}`);
    for (const i of items.filter((i) => ['button', 'combo', 'checkbox', 'input'].includes(i.kind)))
      assert.ok(i.h >= 38, `${i.kind} "${i.label}" is ${i.h} px tall`);
    if (shots) await page.screenshot({ path: path.join(shots, `touch-${device.name}-gradients.png`) });

    // A tap clicks: back to the walkthrough through the view menu (on a phone, the header's
    // other switches are in the ☰ menu).
    await touchTap(cdp, centre(await findItem(page, { kind: 'combo', label: 'Gradients' })));
    const choice = await findItem(page, { kind: 'menu', label: 'Walkthrough' });
    assert.ok(choice.h >= 38, `a drop-down's choice is ${choice.h} px tall`);
    await touchTap(cdp, centre(choice));
    await until(page, () => window.attentionLab.getState().view === undefined || window.attentionLab.getState().view === 'walkthrough');
    if (device.name === 'phone') {
      await touchTap(cdp, centre(await findItem(page, { label: '☰' })));
      await touchTap(cdp, centre(await findItem(page, { label: 'Español' })));
      await until(page, () => document.documentElement.lang === 'es');
      if (shots) await page.screenshot({ path: path.join(shots, 'touch-phone-walkthrough-es.png') });
      await touchTap(cdp, centre(await findItem(page, { label: '☰' })));
      await touchTap(cdp, centre(await findItem(page, { label: 'English' })));
      await until(page, () => document.documentElement.lang === 'en');
    }

    // A double tap on a value of Q opens a field for typing, and with it the on-screen
    // keyboard's input; what the keyboard types (insertText: no key events) and Enter set it.
    await page.evaluate(() => window.attentionLab.setState({ step: 'scores' }));
    // Both sizes show one column, the inputs folded under a header at its end.
    await touchTap(cdp, centre(await seek(page, cdp, { kind: 'header', label: /^Inputs/ })));
    const cell = await seek(page, cdp, { kind: 'drag', label: /\[0,0\]$/ });
    if (cell.y > device.height * 0.7) await swipe(cdp, [device.width - 22, device.height * 0.8], { dy: -device.height * 0.4 });
    await frames(page, 10);
    const target = centre(await findItem(page, { kind: 'drag', label: /\[0,0\]$/ }));
    await touchTap(cdp, target, 2);
    const mode = await until(page, () => document.activeElement?.tagName === 'INPUT' && document.activeElement.inputMode);
    assert.equal(mode, 'decimal');
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText('0.75');
    await page.keyboard.press('Enter');
    // (The default example is self-attention: its one matrix, X = Q = K = V, is the link's q.)
    await until(page, () => Number(window.attentionLab.getState().q?.split(',')[0]) === 0.75);
    await until(page, () => document.activeElement?.tagName !== 'INPUT');  // the keyboard closes

    // Two fingers zoom a large heatmap and leave the page's own zoom alone.
    await page.evaluate(() => window.attentionLab.setState({ n: 40, dk: 8, step: 'softmax' }));
    const map = await seek(page, cdp, { kind: 'heatmap', label: /softmax/ }, { back: true });
    const clip = { x: map.x, y: Math.max(map.y, 0), width: Math.min(map.w, device.width - map.x),
                   height: Math.min(map.y + map.h, device.height) - Math.max(map.y, 0) };
    const before = await page.screenshot({ clip });
    await pinch(cdp, centre(map), 2.5);
    await frames(page, 6);
    assert.ok(!before.equals(await page.screenshot({ clip })), 'the heatmap zoomed');
    assert.equal(await page.evaluate(() => window.visualViewport.scale), 1);
    assert.deepEqual(errors, []);
  });
}

test('an embedded lab at its top hands the swipe and the wheel back to the lesson', async (t) => {
  const site = await startServer(webDir);
  const hostDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-lab-lesson-'));
  const text = '<p>' + 'Attention weighs every key for each query. '.repeat(40) + '</p>';
  fs.writeFileSync(path.join(hostDir, 'index.html'), `<!doctype html><html><head><meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
    <script src="${site.url}embed.js"></script></head><body>${text}${text}
    <attention-lab id="lab" view="gradients" height="500"></attention-lab>${text}${text}${text}</body></html>`);
  const host = await serve(hostDir, 0);
  const { context, close } = await launchBrowser({ viewport: { width: 1024, height: 768 }, hasTouch: true });
  t.after(async () => { await close(); await site.close(); await host.close(); });
  const page = await context.newPage();
  await page.goto(host.url);
  await page.waitForFunction(() => document.getElementById('lab').ready, null, { timeout: 60000 });
  await page.evaluate(() => document.getElementById('lab').scrollIntoView({ block: 'center' }));
  const box = await page.evaluate(() => JSON.parse(JSON.stringify(document.getElementById('lab').getBoundingClientRect())));
  const at = [box.x + box.width / 2, box.y + box.height / 2];
  const cdp = await context.newCDPSession(page);

  // The lab's panel is at its top: a finger moving down (reading back up) scrolls the lesson.
  const top = await page.evaluate(() => window.scrollY);
  await swipe(cdp, at, { dy: 250 });
  await until(page, (top) => window.scrollY < top - 100, top);
  // And the wheel, turned up over the lab, too.
  const now = await page.evaluate(() => window.scrollY);
  await page.evaluate(() => document.getElementById('lab').scrollIntoView({ block: 'center' }));
  const centred = await page.evaluate(() => window.scrollY);
  await page.mouse.move(...at);
  await page.mouse.wheel(0, -200);
  await until(page, (y) => window.scrollY < y - 100, centred);
  assert.ok(now < top);
});
