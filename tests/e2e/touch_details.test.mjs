// Touch as a phone reader expects it (issue 29, item 5) at 390 × 844: a swipe whose finger
// stopped before it lifted does not glide (decided by the events' own times, which these tests
// give the protocol, so a busy machine cannot change the verdict); no tooltip stays once the
// finger lifts; choosing a language is not an edit that Undo takes back.
import test from 'node:test';
import assert from 'node:assert/strict';
import { centre, findItem, frames, labSession, launchBrowser, layout, openLab, startServer, touchTap, until } from './harness.mjs';

const session = labSession({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

// The items' tops by kind and label (those named once): the content's place in the scrolling
// column, wherever the swipe left it (between two cards, the explanation has no heatmap).
async function tops(page) {
  const items = (await layout(page)).filter((i) => i.kind !== 'tooltip').map((i) => [`${i.kind} ${i.label}`, i.y]);
  const once = items.filter(([key]) => items.filter(([k]) => k === key).length === 1);
  return new Map(once);
}
// Frames until the items stop moving (a glide has ended), and where they are.
async function settled(page) {
  let last = await tops(page);
  for (;;) {
    await frames(page, 3);
    const now = await tops(page);
    if ([...now].every(([k, y]) => last.get(k) === y) && now.size === last.size) return now;
    last = now;
  }
}
// How far the content moved up from `before` to `after`: the items on screen in both (the
// header's, fixed, move by 0: the column's items move by the most).
function movedUp(before, after) {
  const d = [...before].filter(([k]) => after.has(k)).map(([k, y]) => y - after.get(k));
  assert.ok(d.length, 'an item stays on screen to measure by');
  return Math.max(...d);
}

// A swipe up by 10 × `step` px, a move every 16 ms, lifted `hold` seconds after the last
// move; every event carries its time (Input.dispatchTouchEvent's `timestamp`), placed so the
// lift is about now.
async function swipeUp(page, cdp, { step, hold }) {
  const send = (type, y, t) => cdp.send('Input.dispatchTouchEvent',
    { type, touchPoints: type === 'touchEnd' ? [] : [{ x: 200, y }], timestamp: t });
  const base = (await page.evaluate(() => Date.now())) / 1000 - 0.16 - hold;
  await send('touchStart', 700, base);
  for (let i = 1; i <= 10; i++) await send('touchMove', 700 - step * i, base + 0.016 * i);
  await send('touchEnd', 700 - step * 10, base + 0.16 + hold);
}

test('a swipe whose finger rested before the lift moves the content by the finger\'s travel, no more', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url, 'step=scores');
  const cdp = await session.browser.context.newCDPSession(page);
  // Rested 100 ms (as a person who stops on purpose; touch.h: 50 ms still is a stop).
  let before = await settled(page);
  await swipeUp(page, cdp, { step: 20, hold: 0.1 });
  // (To a device pixel: the column scrolls in the phone's physical pixels.)
  const moved = movedUp(before, await settled(page));
  assert.ok(Math.abs(moved - 200) < 0.5, `the content followed the finger and stopped with it: ${moved} px`);
  // Lifted while moving (8 ms after the last move): it glides on, so the test above can fail.
  before = await settled(page);
  await swipeUp(page, cdp, { step: 10, hold: 0.008 });
  const glided = movedUp(before, await settled(page));
  assert.ok(glided > 140, `a swipe lifted while moving glides past its 100 px (moved ${glided})`);
  assert.deepEqual(errors, []);
});

test('no tooltip stays on screen after a tap ends', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url, '');
  const cdp = await session.browser.context.newCDPSession(page);
  // (The phone's header names its stepper's arrows in their tooltips.)
  const next = await findItem(page, { label: '→', kind: 'button' });
  await touchTap(cdp, centre(next));
  await frames(page, 8);
  assert.deepEqual((await layout(page)).filter((i) => i.kind === 'tooltip'), [], 'the finger left nothing hovered');
  assert.deepEqual(errors, []);

  // With a mouse the same button's tooltip shows (so the check above can fail).
  const server = await startServer();
  const desk = await launchBrowser();
  try {
    const { page: mouse } = await openLab(desk.context, server.url, '');
    const button = await findItem(mouse, { label: 'Undo', kind: 'button' });
    await mouse.mouse.move(...centre(button));
    await until(mouse, () => window.attentionLab.layout().some((i) => i.kind === 'tooltip'));
  } finally {
    await desk.close();
    await server.close();
  }
});

test('Undo after choosing Español undoes the last edit and keeps the language', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url, 'lang=en&n=3');
  const cdp = await session.browser.context.newCDPSession(page);
  await page.evaluate(() => window.attentionLab.setState({ n: 4 }));  // an edit
  await page.evaluate(() => window.attentionLab.setState({ lang: 'es' }));
  await page.waitForFunction(() => document.documentElement.lang === 'es');
  // On a phone, Undo is in the ☰ menu.
  await touchTap(cdp, centre(await findItem(page, { label: '☰' })));
  await touchTap(cdp, centre(await findItem(page, { label: 'Deshacer' })));
  await until(page, () => window.attentionLab.getState().nq === '3');
  const s = await page.evaluate(() => window.attentionLab.getState());
  assert.equal(s.lang, 'es', 'the language is a preference: Undo leaves it');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'es');
  assert.deepEqual(errors, []);
});
