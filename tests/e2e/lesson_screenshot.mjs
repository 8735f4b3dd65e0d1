// Screenshots of embedded instances for the README: the example lesson scrolled to its first
// instance, and a compact instance in a narrow column.
//   node tests/e2e/lesson_screenshot.mjs docs/screenshots/embed-lesson.png docs/screenshots/embed-compact.png
import { frames, startServer, launchBrowser } from './harness.mjs';

const [lessonOut, compactOut] = process.argv.slice(2);
if (!lessonOut || !compactOut) {
  console.error('usage: node tests/e2e/lesson_screenshot.mjs LESSON.png COMPACT.png');
  process.exit(2);
}
const server = await startServer();
const { context, close } = await launchBrowser({ viewport: { width: 1280, height: 900 } });
const readyAll = page => page.evaluate(() => Promise.all([...document.querySelectorAll('attention-lab')].map(
  el => el.ready || new Promise(resolve => el.addEventListener('ready', resolve, { once: true })))));
try {
  const page = await context.newPage();
  await page.goto(server.url + 'examples/lesson.html');
  await readyAll(page);
  await page.evaluate(() => document.querySelector('attention-lab').scrollIntoView({ block: 'center' }));
  await frames(page, 10);
  await page.screenshot({ path: lessonOut });

  // A 24rem column, as a sidebar or a phone would give.
  await page.setContent(`<!doctype html><meta charset="utf-8"><script src="${server.url}embed.js"></script>
    <body style="margin:16px;font-family:system-ui,sans-serif"><div style="width:24rem">
    <p>Causal attention, compact:</p>
    <attention-lab preset="causal-3x2" step="softmax" query="2" ui="compact" theme="light" height="640"></attention-lab></div>`);
  await readyAll(page);
  await frames(page, 10);
  await page.screenshot({ path: compactOut, clip: { x: 0, y: 0, width: 440, height: 740 } });
} finally {
  await close();
  await server.close();
}
