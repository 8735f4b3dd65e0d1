// The phone and tablet layout's figures (issue 29), printed as JSON, to compare two builds:
//   node tests/e2e/layout_measure.mjs                      (build/web)
//   ATTN_WEB_DIR=/path/to/other/build/web node tests/e2e/layout_measure.mjs
// At 390 × 844 with touch: the fixed header's height (the lowest of its controls), where each
// step's card lands after a tap on its chip (its heatmap's top and bottom, and the query picker's
// top), the narrowest number field of the inputs, and the
// training lab's Play and first plot (their y in the column, measured in a 390-pixel-wide page
// tall enough to show the whole column at once). Controls are found by label (layout()).
import { startServer, launchBrowser, openLab, frames, layout, findItem, centre, until, touchTap, swipe } from './harness.mjs';

const HEADER = /^([0-5]( .*)?|← Previous|▶ Play|Next →|←|▶|❚❚|→|Practice|Undo|Redo|☰|Lesson|Walkthrough)$/;
const TITLES = ['S = QKᵀ', 'S · scale', '+ mask', 'A = softmax(row)', 'O = A·V'];

// The items once two frames in a row lay them out alike (a tap's scroll has applied).
const settled = (page) => until(page, async () => {
  const a = JSON.stringify(window.attentionLab.layout());
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(r))));
  return a === JSON.stringify(window.attentionLab.layout()) ? window.attentionLab.layout() : null;
});

async function phone(server, height) {
  const browser = await launchBrowser({ viewport: { width: 390, height }, deviceScaleFactor: 2, hasTouch: true, isMobile: true });
  return browser;
}

const server = await startServer();
const out = {};
try {
  // [header and cards] at 390 × 844.
  {
    const { context, close } = await phone(server, 844);
    const { page } = await openLab(context, server.url, 'preset=causal-3x2');
    const cdp = await context.newCDPSession(page);
    const items = await settled(page);
    out.header_height = Math.max(...items.filter((i) => HEADER.test(i.label) && i.kind !== 'combo' || i.label === 'Walkthrough').map((i) => i.y + i.h));
    out.cards = {};
    for (let step = 1; step <= 5; step++) {
      const chip = await findItem(page, { kind: 'button', label: new RegExp(`^${step}( |$)`) });
      await touchTap(cdp, centre(chip));
      await until(page, (step) => ['input', 'scores', 'scale', 'mask', 'softmax', 'output'][step] === (window.attentionLab.getState().step ?? 'scores'), step);
      const now = await settled(page);
      const card = now.find((i) => i.kind === 'heatmap' && i.label === TITLES[step - 1]);
      const query = now.filter((i) => i.kind === 'combo' && /^\d+ /.test(i.label)).pop();
      out.cards[step] = { card: card ? { y: Math.round(card.y), bottom: Math.round(card.y + card.h) } : 'not on screen',
                          query_picker_y: query ? Math.round(query.y) : 'not on screen' };
    }
    // [inputs] swiped to, opened, and every number field read.
    const seek = async (query) => {
      for (let i = 0; i < 20; i++) {
        try { return await findItem(page, query, { timeout: 300 }); } catch { /* further down */ }
        await swipe(cdp, [368, 650], { dy: -300 });
        await frames(page, 4);
      }
      return null;
    };
    // Through the ☰ menu where the header has one, else the column's folded header.
    const menu = (await settled(page)).find((i) => i.label === '☰');
    if (menu) await touchTap(cdp, centre(menu));
    const entry = menu && await findItem(page, { kind: 'menu', label: /^Inputs/ }, { timeout: 3000 }).catch(() => null);
    if (entry) {
      await touchTap(cdp, centre(entry));
    } else {
      if (menu) await touchTap(cdp, [20, 800]);  // a build without the entry: the menu closes
      const header = await seek({ kind: 'header', label: /^Inputs/ });
      if (header) await touchTap(cdp, centre(header));
    }
    await seek({ kind: 'input', label: 'seed' });
    const fields = (await settled(page)).filter((i) => i.kind === 'input');
    out.number_fields = fields.map((i) => ({ label: i.label, w: Math.round(i.w) }));
    out.smallest_field = fields.length ? Math.round(Math.min(...fields.map((i) => i.w))) : null;
    await close();
  }
  // [training lab] the whole column at once: 390 pixels wide, very tall.
  {
    const { context, close } = await phone(server, 6000);
    const { page } = await openLab(context, server.url, 'view=train');
    const items = await settled(page);
    const play = items.find((i) => i.label === '▶ Play');
    const plot = items.find((i) => i.kind === 'plot');
    const map = items.find((i) => i.kind === 'heatmap');
    out.train = { play_y: play && Math.round(play.y), first_plot_y: plot && Math.round(plot.y), first_map_y: map && Math.round(map.y) };
    await close();
  }
} finally {
  await server.close();
}
console.log(JSON.stringify(out, null, 1));
