// Screenshots of the page for the README and for looking at changes:
//   node tests/e2e/screenshot.mjs OUT.png [FRAGMENT] [WIDTHxHEIGHT] [DEVICE_SCALE] [touch]
// e.g. node tests/e2e/screenshot.mjs docs/screenshots/walkthrough-web.png "preset=causal-3x2&step=softmax"
// `touch`: a touch screen (a phone below 600 CSS pixels wide, else a tablet).
import { startServer, launchBrowser, openLab, frames } from './harness.mjs';

const [out, fragment = '', size = '1280x800', scale = '1', touch = ''] = process.argv.slice(2);
if (!out) {
  console.error('usage: node tests/e2e/screenshot.mjs OUT.png [FRAGMENT] [WIDTHxHEIGHT] [DEVICE_SCALE] [touch]');
  process.exit(2);
}
const [width, height] = size.split('x').map(Number);
const server = await startServer();
const { context, close } = await launchBrowser({ viewport: { width, height }, deviceScaleFactor: Number(scale),
                                                 hasTouch: touch === 'touch', isMobile: touch === 'touch' && width < 600 });
try {
  const { page, errors } = await openLab(context, server.url, fragment);
  await frames(page, 10);  // a few frames after the first
  await page.screenshot({ path: out });
  if (errors.length) console.error('console errors:\n' + errors.join('\n'));
} finally {
  await close();
  await server.close();
}
