// The WebAssembly benchmark in headless Chromium: the same contenders and measuring as
// wasm_bench.mjs under Node (runner.mjs), in a page (bench/browser.html) served from the
// repository's root on loopback, Web Workers for the two-thread column. Chromium runs relaxed
// SIMD by default. Prints the table and writes out.json (default build/bench/browser.json).
//   node bench/browser_bench.mjs [out.json]
import path from 'node:path';
import { launchBrowser } from '../tests/e2e/harness.mjs';
import { serve } from '../scripts/serve.mjs';
import { attentionModel } from './onnx_model.mjs';
import { report } from './report.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const [outJson = path.join(root, 'build/bench/browser.json')] = process.argv.slice(2);

const server = await serve(root, 0);
const browser = await launchBrowser();
try {
  const page = await browser.context.newPage();
  const failures = [];
  page.on('console', (m) => console.error(`browser: ${m.text()}`));
  page.on('pageerror', (e) => failures.push(String(e)));
  await page.exposeFunction('onnxModel', (heads, n, d, scale) => Array.from(attentionModel(heads, n, d, scale)));
  await page.goto(server.url + 'bench/browser.html');
  await page.waitForFunction(() => window.benchmark);
  const chromium = await page.evaluate(() => navigator.userAgent.match(/Chrome\/[\d.]+/)?.[0] ?? navigator.userAgent);
  const run = await page.evaluate(() => window.benchmark());
  if (failures.length) throw new Error(`the page failed: ${failures.join('; ')}`);

  report(outJson, chromium, run);
} finally {
  await browser.close();
  await server.close();
}
