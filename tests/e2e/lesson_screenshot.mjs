// Screenshots of the lesson for the README: a chapter on a phone (touch) and on a laptop, each
// scrolled so that the chapter's figure is on screen with the text above it.
//   node tests/e2e/lesson_screenshot.mjs docs/screenshots/lesson-phone.png docs/screenshots/lesson-laptop.png [chapter]
import { frames, startServer, launchBrowser, until } from './harness.mjs';

const [phoneOut, laptopOut, chapter = 'softmax'] = process.argv.slice(2);
if (!phoneOut || !laptopOut) {
  console.error('usage: node tests/e2e/lesson_screenshot.mjs PHONE.png LAPTOP.png [chapter]');
  process.exit(2);
}
const server = await startServer();
const devices = [
  [phoneOut, { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true }],
  [laptopOut, { viewport: { width: 1280, height: 800 } }],
];
try {
  for (const [out, device] of devices) {
    const { context, close } = await launchBrowser(device);
    try {
      const page = await context.newPage();
      await page.goto(server.url + 'lesson.html#' + chapter);
      await until(page, () => document.documentElement.dataset.lesson === 'ready');
      // The chapter's first figure, with the paragraph before it.
      await page.evaluate(id => {
        const figure = document.querySelector(`#${id} figure`);
        window.scrollTo(0, figure.getBoundingClientRect().top + scrollY - innerHeight * 0.3);
      }, chapter);
      await until(page, id => document.querySelector(`#${id} figure attention-lab`).ready, chapter, { timeout: 60000 });
      await frames(page, 10);
      await page.screenshot({ path: out });
    } finally {
      await close();
    }
  }
} finally {
  await server.close();
}
