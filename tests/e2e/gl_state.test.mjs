// The WebGL state the page keeps for ImGui's OpenGL backend (page-tools.js's [gl]): in headless
// Chromium, after frames of view=model and of the walkthrough drawn by mouse moves, a frame
// reads none of the kept state from WebGL itself (each such read waits for the GPU process),
// and the kept state is what WebGL's own answers are.
import test from 'node:test';
import assert from 'node:assert/strict';
import { frames, labSession, openLab, until } from './harness.mjs';

const session = labSession();
const KEPT = { SCISSOR_BOX: 0x0c10, BLEND_SRC_RGB: 0x80c9, BLEND_DST_RGB: 0x80c8, BLEND_SRC_ALPHA: 0x80cb,
               BLEND_DST_ALPHA: 0x80ca, BLEND_EQUATION_RGB: 0x8009, BLEND_EQUATION_ALPHA: 0x883d };

// Counts the reads of the kept state that reach WebGL (its prototype's getParameter).
function countWebGLReads(kept) {
  const reads = window.__keptReads = { count: 0 };
  const getParameter = WebGL2RenderingContext.prototype.getParameter;
  WebGL2RenderingContext.prototype.getParameter = function (name) {
    if (kept.includes(name)) reads.count += 1;
    return getParameter.call(this, name);
  };
}

for (const fragment of ['view=model&text=' + encodeURIComponent('Pablo bought six green pears. Pablo bought six green pears.'),
                        'preset=causal-3x2&step=softmax']) {
  test(`${fragment.split('&')[0]}: a frame reads no kept state from WebGL, and the kept state is WebGL's`, async () => {
    const context = session.browser.context;
    await context.addInitScript(countWebGLReads, Object.values(KEPT));
    const { page, errors } = await openLab(context, session.server.url, fragment);
    if (fragment.startsWith('view=model')) await until(page, () => window.attentionLab.experiment().tokens?.length > 0);
    await frames(page, 4);
    const before = await page.evaluate(() => window.__keptReads.count);
    for (let i = 0; i < 10; i++) {
      await page.mouse.move(300 + 40 * i, 300 + 20 * i);
      await frames(page, 2);
    }
    const drawn = await page.evaluate(() => window.__keptReads.count);
    assert.equal(drawn - before, 0, 'reads of the kept state that reached WebGL while the mouse moved');
    const compared = await page.evaluate((kept) => {
      const gl = window.Module.canvas.getContext('webgl2');
      const real = (name) => WebGL2RenderingContext.prototype.getParameter.call(gl, name);
      const list = (value) => (ArrayBuffer.isView(value) ? Array.from(value) : [value]);
      return Object.entries(kept).map(([what, name]) => ({ what, kept: list(gl.getParameter(name)), real: list(real(name)) }));
    }, KEPT);
    for (const { what, kept, real } of compared) assert.deepEqual(kept, real, what);
    assert.deepEqual(errors, []);
    await page.close();
  });
}
