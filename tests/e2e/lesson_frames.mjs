// The lesson's figures at the two sizes a student uses (issue 34): shared by
// lesson_figures.test.mjs (their heights) and figure_changes.test.mjs (what they show).
import { until } from './harness.mjs';

export const DEVICES = {
  laptop: { viewport: { width: 1280, height: 800 } },
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true },
};
// A tablet in landscape, measured where a test says so (not every figure fits it yet).
export const TABLET = { viewport: { width: 1024, height: 768 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true };

// A figure's height once its instance has drawn and its frame holds still (the instance's
// `attention-lab:size` applied): two reads a few frames apart that agree.
export async function figureHeight(page, id) {
  await page.evaluate(id => document.getElementById(id).scrollIntoView({ block: 'start' }), id);
  await until(page, id => document.getElementById(id).ready, id, { timeout: 90000 });
  return until(page, async id => {
    const el = document.getElementById(id);
    const a = el.getBoundingClientRect().height;
    await new Promise(r => setTimeout(r, 250));
    const b = el.getBoundingClientRect().height;
    return a === b && el.shadowRoot.querySelector('iframe') ? b : null;
  }, id, { timeout: 60000 });
}

export async function openLesson(context, server, file = 'lesson.html') {
  const page = await context.newPage();
  await page.goto(server.url + file);
  await until(page, () => document.documentElement.dataset.lesson === 'ready');
  return page;
}

// A figure scrolled to the top of the screen (held there while the figures above it settle),
// and its instance's frame.
export async function frameAtTop(page, id) {
  await until(page, id => {
    const el = document.getElementById(id);
    if (Math.abs(el.getBoundingClientRect().top) <= 1) return true;
    el.scrollIntoView({ block: 'start' });
    return false;
  }, id);
  return (await page.locator(`#${id} iframe`).elementHandle()).contentFrame();
}
