// The dot product as geometry (d_k = 2): the scores step draws queries and keys as arrows in
// the explanation panel, and dragging an arrow's tip with the mouse (or a finger, on a phone,
// where a swipe elsewhere on the plane scrolls) edits that row of K (or Q), after which the
// trace is what float64 computes here from the new matrices.
import test from 'node:test';
import assert from 'node:assert/strict';
import { findItem, findSteadyItem, frames, labSession, launchBrowser, openLab, startServer, swipe } from './harness.mjs';

const session = labSession();

async function drag(page, from, to) {
  await page.mouse.move(...from);
  await frames(page);
  await page.mouse.down();
  await frames(page);
  await page.mouse.move(...to, { steps: 8 });
  await frames(page);
  await page.mouse.up();
  await frames(page);
}

const rows = (text, cols) => {
  const flat = text.split(',').map(Number);
  return Array.from({ length: flat.length / cols }, (_, r) => flat.slice(r * cols, r * cols + cols));
};

function assertScores(trace, q, k, scale) {
  trace.scores.forEach((row, i) => row.forEach((s, j) => {
    const expected = scale * (q[i][0] * k[j][0] + q[i][1] * k[j][1]);
    assert.ok(Math.abs(s - expected) <= 1e-5 * Math.max(1, Math.abs(expected)), `S[${i}][${j}]: ${s} vs ${expected}`);
  }));
}

// Where the point (x, y) is drawn: the plot is a square (its layout() item "geometry") centred
// on the origin, whose edges are at ± 1.2 × the largest coordinate drawn (its axes' label
// says "edges ±…"); 1.2 in both states below.
const LARGEST = 1.2;
async function pointAt(page) {
  const plot = await findItem(page, { kind: 'plot', label: 'geometry' });
  const unit = plot.w / 2 / (1.2 * LARGEST);
  return ([x, y]) => [plot.x + plot.w / 2 + x * unit, plot.y + plot.h / 2 - y * unit];
}

test('dragging a key arrow edits that row of K, and the scores follow', async () => {
  const before = { q: '1,0.5,-0.5,1', k: '1.2,0.8,-0.4,0.9,-1,-0.6,0.3,-1.1' };
  const { page, errors } = await openLab(session.browser.context, session.server.url,
    `attn=cross&nq=2&nk=4&dk=2&dv=2&causal=0&step=scores&query=0&q=${before.q}&k=${before.k}`);
  const at = await pointAt(page);
  await drag(page, at([-0.4, 0.9]), at([1, 1]));  // k1's tip to (1, 1)
  const state = await page.evaluate(() => window.attentionLab.getState());
  assert.equal(state.q, before.q, 'Q is unchanged');
  const k = rows(state.k, 2), old = rows(before.k, 2);
  assert.ok(Math.abs(k[1][0] - 1) < 0.05 && Math.abs(k[1][1] - 1) < 0.05, `k1 is now ${k[1]}`);
  for (const j of [0, 2, 3]) assert.deepEqual(k[j], old[j], `k${j} is unchanged`);
  assertScores(await page.evaluate(() => window.attentionLab.trace()), rows(state.q, 2), k, 1 / Math.sqrt(2));
  assert.deepEqual(errors, []);
  await page.close();
});

test('without projections, Q = K = V = X: dragging an arrow edits that row of all three', async () => {
  const x = '1,0.5,-0.5,1,1.2,0.8,-1,-0.6';
  const { page, errors } = await openLab(session.browser.context, session.server.url,
    `attn=self&proj=0&n=4&dk=2&causal=0&step=scores&query=0&q=${x}`);
  const at = await pointAt(page);
  await drag(page, at([-0.5, 1]), at([0.5, -1]));  // row 1's tip to (0.5, −1)
  const state = await page.evaluate(() => window.attentionLab.getState());
  const q = rows(state.q, 2), old = rows(x, 2);
  assert.ok(Math.abs(q[1][0] - 0.5) < 0.05 && Math.abs(q[1][1] + 1) < 0.05, `row 1 is now ${q[1]}`);
  for (const j of [0, 2, 3]) assert.deepEqual(q[j], old[j], `row ${j} is unchanged`);
  assert.equal(state.proj, '0');
  assertScores(await page.evaluate(() => window.attentionLab.trace()), q, q, 1 / Math.sqrt(2));
  assert.deepEqual(errors, []);
  await page.close();
});

test('on a phone a swipe across the plane scrolls, and a finger on a tip drags that row', async (t) => {
  const server = await startServer();
  const { context, close } = await launchBrowser({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  t.after(async () => { await close(); await server.close(); });
  const x = '1,0.5,-0.5,1,1.2,0.8,-1,-0.6';
  const { page, errors } = await openLab(context, server.url, `attn=self&proj=0&n=4&dk=2&causal=0&step=scores&query=0&q=${x}`);
  const cdp = await context.newCDPSession(page);
  // The plane, under the first card, brought on screen by a swipe on the card.
  await swipe(cdp, [200, 700], { dy: -300 });
  const plane = await findItem(page, { kind: 'plot', label: 'geometry' });
  // A swipe that starts on the plane's empty top corner scrolls the column and edits nothing.
  await swipe(cdp, [plane.x + 12, plane.y + 12], { dy: -120 });
  const { y } = await findSteadyItem(page, { kind: 'plot', label: 'geometry' });  // its glide ended
  assert.ok(y < plane.y - 60, `the column scrolled: the plane from ${plane.y} to ${y}`);
  assert.equal((await page.evaluate(() => window.attentionLab.getState())).q, x, 'nothing edited');
  // A finger on row 1's tip, (−0.5, 1), moved to (0.5, −1): that row follows it (and becomes
  // the query, without the column jumping to its card).
  const at = await pointAt(page);
  const send = (type, [px, py]) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x: px, y: py }] });
  await send('touchStart', at([-0.5, 1]));
  for (let i = 1; i <= 8; i++) {
    await send('touchMove', at([-0.5 + i / 8, 1 - 2 * i / 8]));
    await frames(page, 1);
  }
  const finger = at([0.5, -1]);
  await send('touchEnd', finger);
  await frames(page, 6);
  // The tip ends under the finger, wherever the plane is drawn now (the numbers written above
  // it can take another line as they change).
  const q = rows((await page.evaluate(() => window.attentionLab.getState())).q, 2), old = rows(x, 2);
  const tip = (await pointAt(page))(q[1]);
  assert.ok(Math.hypot(tip[0] - finger[0], tip[1] - finger[1]) < 6, `row 1 is now ${q[1]}, its tip at ${tip}, the finger at ${finger}`);
  for (const j of [0, 2, 3]) assert.deepEqual(q[j], old[j], `row ${j} is unchanged`);
  assert.deepEqual(errors, []);
});
