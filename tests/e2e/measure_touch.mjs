// Measures what issue 29's legibility and touch items are about, for a before/after note (not a
// test: it prints figures). ATTN_WEB_DIR picks the built site (default build/web).
//   node tests/e2e/measure_touch.mjs
// - laptop (1280×800): each heatmap's width, and the pitch of the stage cards (x of one
//   heatmap to the next: the card's width with its gap);
// - the smallest cell-value text and the column labels of a 16-token lab (where layout()
//   reports them);
// - phone (390×844, touch): how far the content moves for a 100 px swipe whose finger is held
//   still for 0, 60 and 100 ms before it lifts (event timestamps given to the protocol, so
//   the hold is exact however busy the machine is), and for the protocol's own synthesized
//   swipe that holds 100 ms (preventFling).
import { launchBrowser, openLab, startServer, frames, layout, swipe } from './harness.mjs';

const server = await startServer();
const stable = async (page, read) => {
  let last = await read(), same = 0;
  while (same < 12) { await frames(page, 2); const now = await read(); same = now === last ? same + 1 : 0; last = now; }
  return last;
};

{
  const b = await launchBrowser({ viewport: { width: 1280, height: 800 } });
  const { page } = await openLab(b.context, server.url);
  await frames(page, 4);
  const maps = (await layout(page)).filter((i) => i.kind === 'heatmap').sort((a, c) => a.x - c.x);
  console.log('laptop 1280x800 heatmaps:', maps.map((m) => `${m.label}: w ${m.w.toFixed(0)} at x ${m.x.toFixed(0)}`).join('; '));
  const pitch = maps.slice(1).map((m, i) => m.x - maps[i].x).filter((d) => d > 0);
  if (pitch.length) console.log('laptop card pitch (x of one heatmap to the next):', Math.min(...pitch).toFixed(0));
  const text = maps.map((m) => m.valuePx).filter((v) => v > 0);
  console.log('smallest cell-value text, CSS px (em):', text.length ? Math.min(...text).toFixed(1) : 'not reported');
  await page.evaluate(() => window.attentionLab.setState({ n: 16 }));
  await frames(page, 4);
  const wide = (await layout(page)).filter((i) => i.kind === 'heatmap');
  console.log('16 tokens, column labels shown:', wide.map((m) => `${m.label}: ${m.colLabels ? m.colLabels.join(' ') : 'not reported'}`).join('; '));
  await b.close();
}

{
  const b = await launchBrowser({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const { page } = await openLab(b.context, server.url);
  const cdp = await b.context.newCDPSession(page);
  // Where the heatmaps are, by label: how far the content moved is how far the ones on screen
  // both before and after moved (the median).
  const maps = async () => new Map((await layout(page)).filter((i) => i.kind === 'heatmap').map((i) => [i.label, i.y]));
  const contentY = async () => [...(await maps()).values()].join();
  const moved = (a, b) => {
    const d = [...a].filter(([k]) => b.has(k)).map(([k, y]) => y - b.get(k)).sort((x, y) => x - y);
    return d.length ? d[d.length >> 1] : NaN;
  };
  // Ten moves of `step` px (16 ms apart), lifted `hold` s after the last, timed so the lift
  // is about now (a glide runs from the lift's time).
  const swipeBy = async (step, hold) => {
    const base = (await page.evaluate(() => Date.now())) / 1000 - 0.16 - hold;
    const send = (type, y, t) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x: 200, y }], timestamp: t });
    const from = step > 0 ? 700 : 300;  // step > 0: the finger goes up, the content with it
    await send('touchStart', from, base);
    for (let i = 1; i <= 10; i++) await send('touchMove', from - step * i, base + i * 0.016);
    await send('touchEnd', from - step * 10, base + 0.16 + hold);
  };
  for (const hold of [0, 0.06, 0.1]) {
    await stable(page, contentY);
    const before = await maps();
    await swipeBy(10, hold);
    await stable(page, contentY);
    console.log(`phone: 100 px swipe (625 px/s) held ${hold * 1000} ms before the lift moved the content ${moved(before, await maps()).toFixed(0)} px`);
    // Back to the top: slow swipes down.
    for (let i = 0; i < 4; i++) await swipeBy(-40, 0.2);
  }
  await stable(page, contentY);
  const before = await maps();
  await swipe(cdp, [200, 700], { dy: -200 });
  await stable(page, contentY);
  console.log(`phone: synthesizeScrollGesture 200 px, preventFling (held 100 ms): moved ${moved(before, await maps()).toFixed(0)} px`);
  await b.close();
}
await server.close();
