// The lesson's figures as a student sees them (issue 34), at 1280 × 800 with a mouse and at
// 390 × 844 with touch: every figure at most one screen tall (measured in the page, each figure's
// frame once its instance has told its height), so that a control and what it changes are seen
// together; on both pages, whose figures' Spanish texts are longer. Each figure's height is
// printed (node --test lesson_figures.test.mjs, or ATTN_WEB_DIR=… to measure another build).
// On the phone, and in a small phone's and a documentation theme's columns (320 and 692 pixels
// wide, the English page), every plot of the plotted figures keeps a plot area (inside its axes,
// as the instance's layout() reports it) at least LEAST_PLOT px tall (issue 45, item 7).
import test from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, startServer, until } from './harness.mjs';
import { DEVICES, TABLET, figureHeight, openLesson } from './lesson_frames.mjs';

// Three y ticks (2.2 text lines apart) and a curve's shape between them.
const LEAST_PLOT = 90;
const PLOTTED = ['fig-scaling', 'fig-stability', 'fig-tiling', 'fig-cost', 'fig-training'];

// The plot areas' heights of figure `id` (measured once figureHeight has settled it).
async function plotHeights(page, id) {
  const frame = await (await page.locator('#' + id).locator('iframe').elementHandle()).contentFrame();
  return until(frame, () => window.attentionLab.layout().filter((i) => i.kind === 'plot').map((i) => i.h));
}

// Every figure of `ids` (all of the page's when null, or those whose id matches a RegExp): at
// most one screen tall, and the plotted ones' plots at least LEAST_PLOT tall when `plots`.
async function measure(t, device, file, ids, plots) {
  const server = await startServer();
  const { context, close } = await launchBrowser(device);
  try {
    const page = await openLesson(context, server, file);
    if (!Array.isArray(ids)) {
      const all = await page.evaluate(() => [...document.querySelectorAll('attention-lab[id]')].map(el => el.id));
      ids = all.filter((id) => !ids || ids.test(id));
    }
    const screen = await page.evaluate(() => innerHeight);
    const tall = [], low = [];
    for (const id of ids) {
      const h = await figureHeight(page, id);
      const areas = plots && PLOTTED.includes(id) ? await plotHeights(page, id) : [];
      t.diagnostic(`${id}: ${Math.round(h)} px${areas.length ? `, plots ${areas.map(Math.round).join(', ')} px` : ''}`);
      if (h > screen) tall.push(id);
      if (areas.some((a) => a < LEAST_PLOT)) low.push(id);
    }
    return { count: ids.length, screen, tall, low };
  } finally {
    await close();
    await server.close();
  }
}

for (const [name, device] of Object.entries(DEVICES)) {
  for (const file of ['lesson.html', 'leccion.html']) {
    const phone = name === 'phone';
    test(`${file}: every figure is at most one screen tall on a ${name} (${device.viewport.width} × ${device.viewport.height})${phone ? `, every plot at least ${LEAST_PLOT} px` : ''}`, async (t) => {
      const { count, screen, tall, low } = await measure(t, device, file, null, phone);
      assert.ok(count >= 20, `${count} figures`);
      assert.deepEqual(tall, [], `taller than the ${screen}-pixel screen`);
      assert.deepEqual(low, [], `a plot lower than ${LEAST_PLOT} px`);
    });
  }
}

// At 320 pixels the training figure is still taller than the screen (its two runs' maps one
// under the other): there only the plots are checked.
for (const [width, heights] of [[320, false], [692, true]]) {
  test(`lesson.html at ${width} px wide: every plot at least ${LEAST_PLOT} px${heights ? ', the plotted figures at most one screen tall' : ''}`, async (t) => {
    const device = { ...DEVICES.phone, viewport: { width, height: DEVICES.phone.viewport.height } };
    const { screen, tall, low } = await measure(t, device, 'lesson.html', PLOTTED, true);
    if (heights) assert.deepEqual(tall, [], `taller than the ${screen}-pixel screen`);
    assert.deepEqual(low, [], `a plot lower than ${LEAST_PLOT} px`);
  });
}

// On a tablet in landscape (its lesson column wider than a laptop's) every figure fits too, but
// fig-training (862 px in English, 878 in Spanish: its controls, four curves and two maps).
for (const file of ['lesson.html', 'leccion.html']) {
  test(`${file}: the figures are at most one screen tall on a tablet (1024 × 768), but the training one`, async (t) => {
    const { count, screen, tall } = await measure(t, TABLET, file, /^(?!fig-training$)/, false);
    assert.ok(count >= 40, `${count} figures`);
    assert.deepEqual(tall, [], `taller than the ${screen}-pixel screen`);
  });
}
