// Screenshots of the page for the README and for looking at changes:
//   node tests/e2e/screenshot.mjs OUT.png [FRAGMENT] [WIDTHxHEIGHT] [DEVICE_SCALE]
// e.g. node tests/e2e/screenshot.mjs docs/screenshots/walkthrough-web.png "preset=causal-3x2&step=softmax"
import { startServer, launchBrowser, openLab } from './harness.mjs';

const [out, fragment = '', size = '1280x800', scale = '1'] = process.argv.slice(2);
if (!out) {
  console.error('usage: node tests/e2e/screenshot.mjs OUT.png [FRAGMENT] [WIDTHxHEIGHT] [DEVICE_SCALE]');
  process.exit(2);
}
const [width, height] = size.split('x').map(Number);
const server = await startServer();
const { context, close } = await launchBrowser({ viewport: { width, height }, deviceScaleFactor: Number(scale) });
try {
  const { page, errors } = await openLab(context, server.url, fragment);
  await page.waitForTimeout(300);  // a few frames after the first
  await page.screenshot({ path: out });
  if (errors.length) console.error('console errors:\n' + errors.join('\n'));
} finally {
  await close();
  await server.close();
}
