// A student at the lesson, on a phone by touch or on a laptop with a mouse: the two devices, and
// what a test does as that student (tap or click an item of a figure, find an item once it is on
// screen and stands still), and a chapter's check answered wrong, then right. Shared by the
// lesson's tests.
import assert from 'node:assert/strict';
import path from 'node:path';
import { centre, frames, launchBrowser, startServer, touchTap, until } from './harness.mjs';
import { figureHeight, frameAtTop } from './lesson_frames.mjs';

export const DEVICES = [
  { name: 'phone', viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true },
  { name: 'laptop', viewport: { width: 1280, height: 800 } },
];

// A server, a browser of the device's size and a page; `close()` ends all three.
export async function student(device) {
  const server = await startServer();
  const { context, close } = await launchBrowser(device);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', e => errors.push(String(e)));
  const cdp = device.hasTouch ? await context.newCDPSession(page) : null;
  const { width, height } = device.viewport;
  // A tap or a click on an item found by seen() (in the page's coordinates).
  const tap = async (frame, item) => {
    const at = centre(item);
    if (cdp) await touchTap(cdp, at);
    else await page.mouse.click(...at);
    await frames(frame, 4);
  };
  // The items of an instance's last frame inside the page's viewport, in page coordinates.
  const onScreen = async (frame) => {
    const box = await (await frame.frameElement()).boundingBox();
    const items = await frame.evaluate(() => window.attentionLab.layout());
    return items.map(i => ({ ...i, x: i.x + box.x, y: i.y + box.y }))
      .filter(i => i.y >= 0 && i.x >= 0 && i.y + Math.min(i.h, 40) <= height && i.x + Math.min(i.w, 40) <= width);
  };
  // The first item on screen that `match` accepts, once it stands still: waiting frames for it
  // (a figure draws its first frames as it starts) and until two reads agree on where it is (a
  // smooth wheel scroll still gliding, or a figure above resizing as it starts, moves it).
  const seen = async (frame, match, what) => {
    let last;
    for (let i = 0; i < 300; i++) {
      const items = await onScreen(frame);
      const item = items.find(match);
      if (item && last && item.x === last.x && item.y === last.y) return item;
      last = item;
      if (i === 299) throw new Error(`${what} not on screen; on screen: ${items.map(i => `${i.kind}:${i.label}`).join(', ')}`);
      await frames(frame, 2);
    }
  };
  // Types `text` into a figure's answer field, as the device's keyboard does, then presses the
  // button labelled `check` (the interface's language).
  const typeAnswer = async (frame, text, check) => {
    await tap(frame, await seen(frame, i => i.kind === 'input' || i.kind === 'text', 'the answer field'));
    if (cdp) {  // the phone's keyboard: an input of the page, typing without key events
      await until(frame, () => document.activeElement?.tagName === 'INPUT');
      await page.keyboard.insertText(text);
    } else {
      await page.keyboard.type(text);
    }
    await frames(frame, 2);
    // `check` the button's label, or 'Enter': the keyboard's key, pressed as a test presses it
    // (down and up at once, both before the lab's next frame).
    if (check === 'Enter') await page.keyboard.press('Enter');
    else await tap(frame, await seen(frame, i => i.kind === 'button' && i.label === check, check));
  };
  return { server, page, errors, cdp, touch: !!cdp, width, height, tap, seen, typeAnswer,
           close: async () => { await close(); await server.close(); } };
}

// The lesson page `file` as a new student opens it: no progress kept from an earlier test.
export async function openFresh(page, server, file) {
  await page.goto(server.url + file);
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await until(page, () => document.documentElement.dataset.lesson === 'ready');
}

// The page's words a test reads or presses: the English page on the laptop, the Spanish one on
// the phone.
export const WORDS = {
  en: { file: 'lesson.html', check: 'Check', next: 'Next question', right: /^Right/, again: /^Not this time/ },
  es: { file: 'leccion.html', check: 'Comprobar', next: 'Siguiente pregunta', right: /^Correcto/, again: /^Esta vez no/ },
};

// A chapter's check (figure `id` in section `chapter`) as a student meets it: one screen tall,
// brought to the top; the first question answered wrong by `wrong(frame, first)`, its verdict
// read; Next question; the next answered right by `right(frame, next)`, the check done.
// Screenshots of both verdicts as build/e2e-<name>-<device>-check-{wrong,right}.png. Returns
// both questions for the caller's own assertions.
export async function wrongThenRight(who, { id, chapter, words, device, name, shots, wrong, right }) {
  const { page, tap, seen, height } = who;
  const tall = await figureHeight(page, id);
  assert.ok(tall <= height, `${id} is ${tall} px tall`);
  const frame = await frameAtTop(page, id);
  const status = () => page.evaluate(chapter => document.querySelector(`#${chapter} .status`).textContent, chapter);
  const first = await until(frame, () => window.attentionLab.practice());
  await wrong(frame, first);
  await until(page, chapter => document.querySelector(`#${chapter} .status`).textContent.length > 0, chapter);
  assert.match(await status(), words.again);
  await page.screenshot({ path: path.join(shots, `e2e-${name}-${device.name}-check-wrong.png`) });
  await tap(frame, await seen(frame, i => i.kind === 'button' && i.label === words.next, words.next));
  const next = await until(frame, id => { const q = window.attentionLab.practice(); return q.id !== id && q; }, first.id);
  await until(page, chapter => document.querySelector(`#${chapter} .status`).textContent === '', chapter);
  await right(frame, next);
  await until(page, chapter => document.querySelector(`#${chapter} .status`).classList.contains('done'), chapter);
  assert.match(await status(), words.right);
  await page.screenshot({ path: path.join(shots, `e2e-${name}-${device.name}-check-right.png`) });
  return { first, next };
}
