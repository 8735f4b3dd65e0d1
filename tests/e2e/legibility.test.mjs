// Numbers a reader can read (issue 29 item 4, issue 30 item 6), on a phone (390 × 844, touch)
// and a laptop (1280 × 800): where a heatmap writes its values they are at least 12 CSS px,
// each axis shows the last label whole (a stride when they do not all fit), and the view menu
// shows every one of its choices. What a heatmap writes comes from layout() (docs/embed.md).
import fs from 'node:fs';
import test from 'node:test';
import assert from 'node:assert/strict';
import { centre, findItem, frames, launchBrowser, layout, openLab, startServer, touchTap, until } from './harness.mjs';

let server;
test.before(async () => { server = await startServer(); });
test.after(async () => { await server?.close(); });

const sizes = [
  { name: 'phone', viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true },
  { name: 'laptop', viewport: { width: 1280, height: 800 } },
];
// The `view` key's choices in docs/embed.md's table: the menu's entries.
const VIEWS = fs.readFileSync(new URL('../../docs/embed.md', import.meta.url), 'utf8')
  .split('\n').find((l) => l.startsWith('| `view` |')).split('|')[2].match(/`[a-z]+`/g).length;
const heatmaps = async (page) => (await layout(page)).filter((i) => i.kind === 'heatmap');

for (const size of sizes) {
  test(`${size.name}: cell values are 12 CSS px or more, or not written`, async () => {
    const browser = await launchBrowser(size);
    try {
      const { page, errors } = await openLab(browser.context, server.url, 'step=output');
      const maps = await until(page, async () => {
        const m = (await window.attentionLab.layout()).filter((i) => i.kind === 'heatmap');
        return m.length ? m : null;
      });
      const written = maps.filter((m) => m.valuePx > 0);
      assert.ok(written.length, 'a 3 × 3 lab writes its values');
      for (const m of written) assert.ok(m.valuePx >= 12, `${m.label}: values at ${m.valuePx} px`);
      // 64 tokens: cells of a few pixels write no value rather than a cramped one.
      await page.evaluate(() => window.attentionLab.setState({ n: 64 }));
      await frames(page, 4);
      for (const m of await heatmaps(page)) assert.ok(m.valuePx === 0 || m.valuePx >= 12, `${m.label} at n = 64`);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });

  for (const n of [16, 64]) {
    test(`${size.name}: with ${n} tokens every heatmap shows its last row and column labels`, async () => {
      const browser = await launchBrowser(size);
      try {
        const { page, errors } = await openLab(browser.context, server.url, `n=${n}&step=output`);
        await frames(page, 4);
        const maps = await heatmaps(page);
        assert.ok(maps.length, 'heatmaps on screen');
        const trace = await page.evaluate(() => window.attentionLab.trace());
        for (const m of maps) {
          assert.ok(m.colLabels.length >= 2, `${m.label}: some column labels`);
          // The last label of each axis, whole: the keys' (or d_v's) and the queries'.
          const lastCol = m.colLabels.at(-1), lastRow = m.rowLabels.at(-1);
          assert.match(lastCol, new RegExp(`^(k${n - 1}|d${trace.output[0].length - 1})$`), `${m.label}: last column label`);
          assert.equal(lastRow, `q${n - 1}`, `${m.label}: last row label`);
          // In order from the first: a stride (and any shorter label with room), never a repeat.
          const cols = m.colLabels.map((l) => Number(l.slice(1)));
          assert.equal(cols[0], 0, `${m.label}: the first column's label`);
          for (let i = 1; i < cols.length; i++) assert.ok(cols[i] > cols[i - 1], `${m.label}: ${m.colLabels}`);
        }
        assert.deepEqual(errors, []);
      } finally {
        await browser.close();
      }
    });
  }
}

// Issue 30: a 6-token lab's key axis showed "I", "a", "fox" of six words.
const WORDS = ['I', 'saw', 'a', 'quick', 'brown', 'fox'];
const matrix = (seed) => Array.from({ length: 6 }, (_, i) => Array.from({ length: 4 }, (_, c) => Math.sin(seed + 3 * i + c)));
for (const size of sizes) {
  test(`${size.name}: a loaded lab's word labels, every one that fits and always the last`, async () => {
    const browser = await launchBrowser(size);
    try {
      const { page, errors } = await openLab(browser.context, server.url, '');
      const loaded = await page.evaluate(({ q, k, v, tokens }) => window.attentionLab.load({ q, k, v }, { tokens }),
                                         { q: matrix(1), k: matrix(2), v: matrix(3), tokens: WORDS });
      assert.equal(loaded.error, undefined);
      await page.evaluate(() => window.attentionLab.setState({ step: 'scores' }));
      const scores = await until(page, () => window.attentionLab.layout().find((i) => i.kind === 'heatmap' && i.colLabels.includes('fox')));
      const at = scores.colLabels.map((w) => WORDS.indexOf(w));
      assert.ok(at.every((i) => i >= 0), `${scores.colLabels} are the words`);
      assert.equal(at.at(-1), 5, 'the last word is shown');
      for (let i = 1; i < at.length; i++) assert.ok(at[i] > at[i - 1], `${scores.colLabels} in order`);
      assert.ok(at.length > 3, `more than the three words of issue 30 (${scores.colLabels})`);
      console.log(`${size.name}: ${scores.label} shows ${scores.colLabels.join(' ')} (${scores.w.toFixed(0)} px wide)`);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });
}

test('phone: the view menu shows all its choices', async () => {
  const browser = await launchBrowser(sizes[0]);
  try {
    const { page, errors } = await openLab(browser.context, server.url, '');
    const cdp = await browser.context.newCDPSession(page);
    const view = await findItem(page, { label: 'Walkthrough', kind: 'combo' });
    await touchTap(cdp, centre(view));
    // layout() lists the items its popup shows (at least partly): every view, none scrolled away.
    await until(page, () => window.attentionLab.layout().some((i) => i.kind === 'menu'));
    await frames(page, 2);
    const shown = (await layout(page)).filter((i) => i.kind === 'menu');
    assert.equal(shown.length, VIEWS, `${shown.length} of the ${VIEWS} views shown`);
    for (const m of shown) assert.ok(m.y >= 0 && m.y + m.h <= 844, `${m.label} on screen`);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
