// The lesson's plots in narrow columns (issue 45, item 7), printed one line a figure, to compare
// two builds:
//   node tests/e2e/plot_heights_measure.mjs                      (build/web)
//   ATTN_WEB_DIR=/path/to/other/build/web node tests/e2e/plot_heights_measure.mjs
// At 320, 390 and 692 px wide (the lesson's column then 288, 358 and 660 px: a small phone, the
// lesson's phone, a documentation theme's column), with touch: each figure's height once its
// instance has told it, and the height of each of its plot areas (the items of kind "plot" in
// the instance's layout(): the area inside the axes, CSS pixels).
// WIDTHS=390 or FIGURES=fig-scaling,fig-training narrow the run; PAGE=leccion.html measures the
// Spanish page; MOUSE=1 measures with a mouse (a laptop); SHOTS=dir also saves each figure's picture there (dir/<width>-<id>.png).
import { frames, startServer, launchBrowser, until } from './harness.mjs';
import { figureHeight, openLesson } from './lesson_frames.mjs';

const widths = (process.env.WIDTHS || '320,390,692').split(',').map(Number);
const ids = (process.env.FIGURES || 'fig-scaling,fig-stability,fig-tiling,fig-cost,fig-training').split(',');
const server = await startServer();
try {
  for (const width of widths) {
    const touch = { deviceScaleFactor: 2, hasTouch: true, isMobile: true };
    const { context, close } = await launchBrowser({ viewport: { width, height: 844 }, ...(process.env.MOUSE ? {} : touch) });
    try {
      const page = await openLesson(context, server, process.env.PAGE);
      for (const id of ids) {
        const height = await figureHeight(page, id);
        const frame = await (await page.locator('#' + id).locator('iframe').elementHandle()).contentFrame();
        const plots = await until(frame, () => window.attentionLab.layout().filter((i) => i.kind === 'plot').map((i) => Math.round(i.h)));
        const column = await page.evaluate((id) => document.getElementById(id).getBoundingClientRect().width, id);
        if (process.env.SHOTS) {
          // The screen with the figure at its top (an element's own screenshot resizes the
          // page, which restarts the figure).
          await page.evaluate((id) => document.getElementById(id).scrollIntoView({ block: 'start' }), id);
          await frames(page, 10);
          await page.screenshot({ path: `${process.env.SHOTS}/${width}-${id}.png` });
        }
        console.log(`${width} px (column ${Math.round(column)}) ${id}: figure ${Math.round(height)} px, plots ${plots.join(', ')} px`);
      }
    } finally {
      await close();
    }
  }
} finally {
  await server.close();
}
