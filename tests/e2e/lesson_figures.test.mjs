// The lesson's figures as a student sees them (issue 34), at 1280 × 800 with a mouse and at
// 390 × 844 with touch: every figure at most one screen tall (measured in the page, each figure's
// frame once its instance has told its height), so that a control and what it changes are seen
// together; on both pages, whose figures' Spanish texts are longer. Each figure's height is
// printed (node --test lesson_figures.test.mjs, or ATTN_WEB_DIR=… to measure another build).
import test from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, startServer } from './harness.mjs';
import { DEVICES, figureHeight, openLesson } from './lesson_frames.mjs';

for (const [name, device] of Object.entries(DEVICES)) {
  for (const file of ['lesson.html', 'leccion.html']) {
    test(`${file}: every figure is at most one screen tall on a ${name} (${device.viewport.width} × ${device.viewport.height})`, async (t) => {
      const server = await startServer();
      const { context, close } = await launchBrowser(device);
      try {
        const page = await openLesson(context, server, file);
        const ids = await page.evaluate(() => [...document.querySelectorAll('attention-lab[id]')].map(el => el.id));
        assert.ok(ids.length >= 20, `${ids.length} figures`);
        const screen = await page.evaluate(() => innerHeight);
        const tall = [];
        for (const id of ids) {
          const h = await figureHeight(page, id);
          t.diagnostic(`${id}: ${Math.round(h)} px`);
          if (h > screen) tall.push(id);
        }
        assert.deepEqual(tall, [], `taller than the ${screen}-pixel screen`);
      } finally {
        await close();
        await server.close();
      }
    });
  }
}
