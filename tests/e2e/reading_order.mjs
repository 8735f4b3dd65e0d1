// What the reading-order tests share (issue 29; reading_order_*.test.mjs, split so that each
// stays well under its time limit on a busy machine): the four screens, the step cards' titles,
// one server per test file, and a lab opened in real Chromium with touch on a phone and a
// tablet both ways and with a mouse on a laptop. Controls are found by label through
// attentionLab.layout(); every wait is on a condition.
import test from 'node:test';
import { startServer, launchBrowser, openLab, frames, until, touchTap, centre } from './harness.mjs';

export const DEVICES = [
  { name: 'phone', width: 390, height: 844, scale: 2, touch: true, mobile: true },
  { name: 'upright tablet', width: 768, height: 1024, scale: 1, touch: true },
  { name: 'tablet', width: 1024, height: 768, scale: 1, touch: true },
  { name: 'laptop', width: 1280, height: 800, scale: 1, touch: false },
];
export const STEPS = ['input', 'scores', 'scale', 'mask', 'softmax', 'output'];
export const TITLES = [null, 'S = QKᵀ', 'S · scale', '+ mask', 'A = softmax(row)', 'O = A·V'];

// The items once three frames in a row lay them out alike (a scroll asked for has applied).
export const settled = (page) => until(page, async () => {
  const a = JSON.stringify(window.attentionLab.layout());
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(r))));
  return a === JSON.stringify(window.attentionLab.layout()) ? window.attentionLab.layout() : null;
});

// One server for the test file that calls it, started before its first test.
export function sharedServer() {
  const shared = {};
  test.before(async () => { shared.server = await startServer(); });
  test.after(async () => { await shared.server?.close(); });
  return shared;
}

// A browser (a fresh profile) with `device`'s screen.
export const launchFor = (device) => launchBrowser({ viewport: { width: device.width, height: device.height },
                                                     deviceScaleFactor: device.scale, hasTouch: device.touch,
                                                     isMobile: !!device.mobile });

// The lab at `fragment` on `device`'s screen, served by the file's shared server: in a browser of
// its own, or in a new page of `browser` (launchFor's; then close() closes the page alone).
export async function open(shared, device, fragment, browser = null) {
  const own = !browser;
  if (own) browser = await launchFor(device);
  const { page, errors } = await openLab(browser.context, shared.server.url, fragment);
  const cdp = device.touch ? await browser.context.newCDPSession(page) : null;
  // A tap on a touch screen, a click with the mouse: then the frames that apply it.
  const press = async (item) => {
    if (cdp) await touchTap(cdp, centre(item));
    else await page.mouse.click(...centre(item));
    await frames(page, 4);
  };
  return { page, errors, press, cdp, close: () => (own ? browser.close() : page.close()) };
}

export const onScreen = (item, device, top = 0) => item.y >= top - 1 && item.y + item.h <= device.height + 1;
// The fixed header's bottom: the lowest of the step chips (the stepper is its last line).
export const headerBottom = (items) => Math.max(...items.filter((i) => i.kind === 'button' && /^[0-5]( |$)/.test(i.label)).map((i) => i.y + i.h));
