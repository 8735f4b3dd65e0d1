// Shared by the browser tests and the screenshot tool: a static server for the built site
// (build/web, or $ATTN_WEB_DIR) on a free port of 127.0.0.1, and Debian's Chromium driven by
// playwright-core with the flags that give headless WebGL2 through SwiftShader.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'node:test';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const webDir = path.resolve(root, process.env.ATTN_WEB_DIR || 'build/web');

export async function startServer(dir = webDir) {
  if (!fs.existsSync(path.join(dir, 'index.html')))
    throw new Error(`${dir}/index.html not found: run ./scripts/build.sh web first`);
  return serve(dir, 0);
}

// The server and the browser a test file shares: started before its first test, stopped
// after its last. Use as `const session = labSession();` then session.server.url and
// session.browser.context inside the tests.
export function labSession(options) {
  const session = {};
  test.before(async () => {
    session.server = await startServer();
    session.browser = await launchBrowser(options);
  });
  test.after(async () => {
    await session.browser?.close();
    await session.server?.close();
  });
  return session;
}

// A browser context with a fresh profile (playwright passes it as --user-data-dir).
// `locale` sets the browser's language (navigator.language), as a reader's system would;
// `hasTouch` and `isMobile` make a tablet or a phone (a touch screen, a coarse pointer);
// `colorScheme` the system's light or dark mode (prefers-color-scheme).
export async function launchBrowser({ viewport = { width: 1280, height: 800 }, deviceScaleFactor = 1, locale = 'en-US',
                                      hasTouch = false, isMobile = false, colorScheme = 'light' } = {}) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-lab-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport,
    deviceScaleFactor,
    locale,
    hasTouch,
    isMobile,
    colorScheme,
    args: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--no-sandbox', '--disable-gpu-sandbox',
           '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    context,
    close: async () => { await context.close(); fs.rmSync(profile, { recursive: true, force: true }); },
  };
}

// Opens the page at `fragment`, collecting console errors and page errors, and waits until
// attentionLab.ready has resolved (the first frame is on screen).
export async function openLab(context, baseUrl, fragment = '') {
  const page = await context.newPage();
  const errors = [];
  page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', e => errors.push(String(e)));
  await page.goto(baseUrl + 'index.html' + (fragment ? '#' + fragment : ''));
  await page.waitForFunction(() => window.attentionLab, null, { timeout: 30000 });
  await page.evaluate(() => window.attentionLab.ready);
  return { page, errors };
}

// The lab alone on a phone (390 × 844 at 2×, touch) at `fragment`, with its own server and
// browser, closed when the test `t` ends; `cdp` sends the finger's touches (touchTap, reach).
export async function openOnPhone(t, fragment) {
  const server = await startServer();
  const { context, close } = await launchBrowser({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2,
                                                   hasTouch: true, isMobile: true });
  t.after(async () => { await close(); await server.close(); });
  const { page, errors } = await openLab(context, server.url, fragment);
  return { page, errors, cdp: await context.newCDPSession(page) };
}

// Input reaches the app in its next frames: its loop runs in animation frames (drawing only
// when something changed), so waiting for `count` of them waits for the app however slow the
// machine is, where a fixed time would not.
export const frames = (page, count = 4) => page.evaluate((count) => new Promise((resolve) => {
  let n = 0;
  const tick = () => (++n >= count ? resolve() : requestAnimationFrame(tick));
  requestAnimationFrame(tick);
}), count);

// A scroll of the page has ended when two frames see it at the same place: a wheel's smooth
// glide goes on for frames after the event, the longer the busier the machine, and a position
// read during it is not where the page stops.
export async function scrollEnded(page) {
  for (let last = NaN, now = await page.evaluate(() => scrollY); now !== last;) {
    await frames(page, 2);
    [last, now] = [now, await page.evaluate(() => scrollY)];
  }
}

// `count` clicks at [x, y] on the canvas (2: a double-click), as a person's: the browser
// counts them (each press's `detail`), and the app hands ImGui every press and release in a
// frame of its own with that count (src/app/web_input.cpp), so ImGui sees each click and the
// double-click however slowly the page draws. Then the frames that take: one a state, and one
// more for what they did to be drawn.
export async function click(page, [x, y], count = 1) {
  await page.mouse.click(x, y, { clickCount: count });
  await frames(page, 2 * count + 2);
}

// A key or a chord ('Control+Shift+z') pressed for a few frames, as a person holds a key:
// Dear ImGui 1.86 reads whether a key is down once a frame, so a press and release sent
// between two frames (on a busy machine) would never reach it.
export async function press(page, chord) {
  const keys = chord.split('+');
  for (const key of keys) await page.keyboard.down(key);
  await frames(page, 2);
  for (const key of keys.reverse()) await page.keyboard.up(key);
  await frames(page, 2);
}

// For page.addInitScript / context.addInitScript: counts the frames the page draws, i.e. the
// animation-frame callbacks that issued WebGL work (a clear or a draw), and the app's own
// animation-frame callbacks, drawing or not (Emscripten's main loop runner, known by its
// function's name: the harness's `frames` has callbacks of its own), in
// window.__drawnFrames = { drawn, lastDrawnStart, lastDrawnEnd, callbacks, running }. Behaviour, not timing: an idle page
// draws none and runs no callback, whatever the machine's speed. `running`: the number of the
// animation-frame callback under way (0 between them). `waitForGpu` (for benches): a frame's end
// is when the GPU has drawn it, not when its commands were issued, and each frame drawn is kept
// in `log` ({callback, start, issued, end}: `issued` once the callback returned).
export function countDrawnFrames({ waitForGpu = false } = {}) {
  let drew = null;  // the context drawn to in this callback
  const stats = { drawn: 0, lastDrawnStart: 0, lastDrawnEnd: 0, callbacks: 0, running: 0, log: [] };
  window.__drawnFrames = stats;
  for (const name of ['clear', 'drawElements', 'drawArrays']) {
    const original = WebGL2RenderingContext.prototype[name];
    WebGL2RenderingContext.prototype[name] = function (...args) { drew = this; return original.apply(this, args); };
  }
  const pixel = new Uint8Array(4);
  const raf = window.requestAnimationFrame.bind(window);
  let callbacks = 0;
  window.requestAnimationFrame = (callback) => {
    const app = callback.name === 'Browser_mainLoop_runner';
    return raf((time) => {
      drew = null;
      const start = performance.now();
      if (app) stats.callbacks += 1;
      stats.running = ++callbacks;
      try { callback(time); } finally {
        if (drew) {
          const issued = performance.now();
          // A pixel read waits for the GPU (SwiftShader's process here) to finish the frame.
          if (waitForGpu) drew.readPixels(0, 0, 1, 1, drew.RGBA, drew.UNSIGNED_BYTE, pixel);
          stats.drawn += 1; stats.lastDrawnStart = start; stats.lastDrawnEnd = performance.now();
          if (waitForGpu) stats.log.push({ callback: callbacks, start, issued, end: stats.lastDrawnEnd });
        }
        stats.running = 0;
      }
    });
  };
}

// [layout] Controls by their label, from attentionLab.layout() (the items of the last frame
// drawn, in CSS pixels of the page), waiting frames until one matches: no fixed coordinates.
export const layout = (page) => page.evaluate(() => window.attentionLab.layout());
export async function findItem(page, { label, kind, near }, { timeout = 30000 } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const items = (await layout(page)).filter((i) => (label === undefined || (label instanceof RegExp ? label.test(i.label) : i.label === label)) &&
                                                    (kind === undefined || i.kind === kind));
    if (items.length) {
      if (!near) return items[0];
      const d = (i) => Math.hypot(i.x - near.x, i.y - near.y);
      return items.reduce((a, b) => (d(b) < d(a) ? b : a));
    }
    if (Date.now() > deadline) throw new Error(`no ${kind ?? 'item'} labelled ${label} on screen`);
    await frames(page, 2);
  }
}
// findItem, once the item stands still: two reads a few frames apart agree on where it is (a
// region still scrolling to the step's card, or a glide, moves it).
export async function findSteadyItem(page, query, options) {
  let item = await findItem(page, query, options);
  for (let last; !last || last.x !== item.x || last.y !== item.y;) {
    last = item;
    await frames(page, 3);
    item = await findItem(page, query, options);
  }
  return item;
}
export const centre = (item) => [item.x + item.w / 2, item.y + item.h / 2];

// Frames until `fn` (evaluated in the page, and awaited there) returns something truthy, and
// that value: a wait on a condition, never on the clock.
export async function until(page, fn, arg, { timeout = 30000 } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await page.evaluate(fn, arg);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${fn}`);
    await frames(page, 1);
  }
}

// [touch] Real touch input through the DevTools protocol (a page of a context made with
// hasTouch): a tap, and a swipe or a pinch as Chromium's gesture synthesizer makes them.
// `count` taps: sent together (the protocol keeps their order), each stamped with the time a
// finger makes it (a tap of 50 ms every 150 ms), so that a double tap is one however slowly this
// process or the page runs: unstamped, an event is stamped when the browser dispatches it, and
// it dispatches a touch only once the page has handled the one before (the lab's listeners can
// cancel it), so on a page drawing slow frames two taps came out further apart than a double
// tap's 0.4 s.
export async function touchTap(cdp, [x, y], count = 1) {
  const sent = [];
  const at = Date.now() / 1000;
  for (let i = 0; i < count; i++) {
    const down = at + i * 0.15;
    sent.push(cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }], timestamp: down }));
    sent.push(cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [], timestamp: down + 0.05 }));
  }
  await Promise.all(sent);
}
// `dy` > 0: the finger moves down (the content follows it, as reading back up).
export const swipe = (cdp, [x, y], { dx = 0, dy = 0, speed = 800 } = {}) =>
  cdp.send('Input.synthesizeScrollGesture', { x, y, xDistance: dx, yDistance: dy, speed, gestureSourceType: 'touch',
                                              preventFling: true });
export const pinch = (cdp, [x, y], scaleFactor) =>
  cdp.send('Input.synthesizePinchGesture', { x, y, scaleFactor, relativeSpeed: 300, gestureSourceType: 'touch' });

// A control found as a person brings it into view (view=model's long column): the mouse wheel
// over the page until it is wholly above `bottom`, or (given `cdp`, a phone's DevTools session)
// a finger's swipes until it is between the header and the foot of an 844 px screen.
// A control not drawn at all (ImGui skips what is out of its window) is looked for below first,
// then, past `DOWN_FIRST` misses (the column's end reached), above.
export async function reach(page, query, { cdp, bottom = 780 } = {}) {
  const DOWN_FIRST = 10;
  let misses = 0;
  for (let i = 0; i < 28; i++) {
    let item = null;
    try {
      item = await findItem(page, query, { timeout: 500 });
      if (cdp ? item.y > 60 && item.y + item.h < 800 : item.y >= 0 && item.y + item.h < bottom) return item;
    } catch { misses += 1; }
    const up = item ? item.y < (cdp ? 60 : 0) : misses > DOWN_FIRST;
    if (cdp) await swipe(cdp, item ? [368, 420] : [368, 650], { dy: up ? 300 : -(item ? Math.min(400, item.y - 300) : 350) });
    else {
      await page.mouse.move(640, 400);
      await page.mouse.wheel(0, up ? -300 : 300);
    }
    await frames(page, 6);
  }
  return findItem(page, query, { timeout: 500 });
}
