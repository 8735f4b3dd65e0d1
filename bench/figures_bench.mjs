// A page of many <attention-lab> figures (issue 28), in headless Chromium (SwiftShader) with
// the site served from build/web, scrolled through with the wheel as tests/e2e/figures.mjs
// does, on a laptop-sized and a phone-sized screen, for this tree's embed.js (figures start
// near the viewport, at most six live) and for the one before it (every figure starting at
// load), served in its place. Figures, not assertions:
//   node bench/figures_bench.mjs [page] [out.json]
//   page: a page of the site (default examples/figures.html; the lesson: lesson.html)
//   ATTN_EAGER_EMBED_REF: the git revision whose web/embed.js is the comparison (default
//   2374fbe, the last one that started every figure at load); empty: no comparison.
//
// Per run: the time from navigation to the first figure drawn (its ready event), and until
// every figure has drawn once while the reader scrolls (at each stop, waiting for the figures
// on screen); the peaks, over the stops, of the page's JS heap (CDP Performance.getMetrics,
// every frame of the page sharing its process) and of the wasm heaps (the sum over frames of
// attentionLab.memoryBytes(), in use, and of the wasm memory's size, reserved); the peak of
// live instances and of live WebGL contexts, and contexts lost; then, after the scroll, the
// requestAnimationFrame callbacks per second of every frame while nobody touches the page
// (and of the lesson's own frame, where embed.js runs).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { launchBrowser, startServer } from '../tests/e2e/harness.mjs';
import { instrumentFigures, scrollThrough, untilVisibleReady, watchContexts } from '../tests/e2e/figures.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const [pagePath = 'examples/figures.html', outJson = path.join(root, 'build/bench/figures.json')] = process.argv.slice(2);
const eagerRef = process.env.ATTN_EAGER_EMBED_REF ?? '2374fbe';
const SCREENS = [['laptop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]];
const SETTLE_MS = 1000;  // after the scroll, before idleness is counted
const IDLE_MS = 3000;
const DRAW_TIMEOUT_MS = 60000;  // a figure whose context was taken before its first frame never draws

const say = (s) => process.stderr.write(`figures bench: ${s}\n`);
const MiB = (bytes) => (bytes / 2 ** 20).toFixed(0) + ' MiB';

// What every frame of the page holds now: the wasm heaps and the animation-frame callbacks.
async function overFrames(page, fn) {
  const values = await Promise.all(page.frames().map((f) => f.evaluate(fn).catch(() => 0)));
  return values.reduce((a, b) => a + b, 0);
}
const wasmInUse = () => (window.attentionLab?.memoryBytes && window.Module?.calledRun ? window.attentionLab.memoryBytes() : 0);
const wasmReserved = () => window.Module?.HEAPU8?.buffer.byteLength ?? 0;
const rafCallbacks = () => window.__rafCallbacks ?? 0;

async function run(server, viewport, embedText) {
  const browser = await launchBrowser({ viewport });
  try {
    const { context } = browser;
    await context.addInitScript(instrumentFigures);
    if (embedText) await context.route(server.url + 'embed.js', (route) =>
      route.fulfill({ contentType: 'text/javascript', body: embedText }));
    const page = await context.newPage();
    page.on('pageerror', (e) => say(`page error: ${e}`));
    const contexts = await watchContexts(context, page);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const peak = { jsHeap: 0, wasmInUse: 0, wasmReserved: 0 };
    const sample = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      peak.jsHeap = Math.max(peak.jsHeap, metrics.find((m) => m.name === 'JSHeapUsedSize').value);
      peak.wasmInUse = Math.max(peak.wasmInUse, await overFrames(page, wasmInUse));
      peak.wasmReserved = Math.max(peak.wasmReserved, await overFrames(page, wasmReserved));
    };
    let undrawn = 0;
    await page.goto(server.url + pagePath);
    await scrollThrough(page, {
      atStop: sample,
      waitForFigures: (page) => untilVisibleReady(page, DRAW_TIMEOUT_MS).catch(() => { undrawn += 1; }),
    });
    const figures = await page.evaluate(() => ({ ...window.__figures, count: document.querySelectorAll('attention-lab').length }));
    await page.waitForTimeout(SETTLE_MS);
    const before = [await overFrames(page, rafCallbacks), await page.evaluate(rafCallbacks)];
    await page.waitForTimeout(IDLE_MS);
    const after = [await overFrames(page, rafCallbacks), await page.evaluate(rafCallbacks)];
    const [idleRafPerSecond, idleRafPerSecondLesson] = after.map((n, i) => (n - before[i]) / (IDLE_MS / 1000));
    return {
      figures: figures.count,
      first_drawn_s: figures.firstReadyMs / 1000,
      all_drawn_s: figures.allDrawnMs === null ? null : figures.allDrawnMs / 1000,
      never_drawn: figures.count - figures.drawn,
      stops_waiting_in_vain: undrawn,
      peak_js_heap_bytes: peak.jsHeap,
      peak_wasm_in_use_bytes: peak.wasmInUse,
      peak_wasm_reserved_bytes: peak.wasmReserved,
      peak_instances: figures.peak,
      peak_webgl_contexts: contexts.peak,
      webgl_contexts_lost: contexts.lost,
      idle_raf_per_s: idleRafPerSecond,
      idle_raf_per_s_lesson: idleRafPerSecondLesson,
    };
  } finally {
    await browser.close();
  }
}

const approaches = [['this embed.js', null]];
if (eagerRef) approaches.push([`embed.js of ${eagerRef} (eager)`,
  execFileSync('git', ['show', `${eagerRef}:web/embed.js`], { cwd: root, encoding: 'utf8' })]);

const server = await startServer();
const results = { page: pagePath, runs: [] };
try {
  for (const [screen, viewport] of SCREENS) {
    for (const [approach, embedText] of approaches) {
      say(`${pagePath}, ${screen} ${viewport.width}×${viewport.height}, ${approach}`);
      const r = await run(server, viewport, embedText);
      results.runs.push({ screen, viewport, approach, ...r });
      say(JSON.stringify(r));
    }
  }
} finally {
  await server.close();
}

const columns = results.runs.map((r) => `${r.screen} ${r.viewport.width}×${r.viewport.height}, ${r.approach}`);
const row = (name, f) => `| ${name} | ${results.runs.map(f).join(' | ')} |`;
console.log([
  `${pagePath}: ${results.runs[0]?.figures} figures`,
  '',
  `| measure | ${columns.join(' | ')} |`,
  `|---|${columns.map(() => '---').join('|')}|`,
  row('first figure drawn', (r) => r.first_drawn_s.toFixed(2) + ' s'),
  row('every figure drawn once, scrolling through', (r) => (r.all_drawn_s === null ? `never (${r.never_drawn} not drawn)` : r.all_drawn_s.toFixed(1) + ' s')),
  row('peak JS heap (all frames)', (r) => MiB(r.peak_js_heap_bytes)),
  row('peak wasm heap, in use / reserved (all frames)', (r) => `${MiB(r.peak_wasm_in_use_bytes)} / ${MiB(r.peak_wasm_reserved_bytes)}`),
  row('peak live instances / WebGL contexts', (r) => `${r.peak_instances} / ${r.peak_webgl_contexts}`),
  row('WebGL contexts lost', (r) => String(r.webgl_contexts_lost)),
  row(`requestAnimationFrame callbacks per second, idle (${IDLE_MS / 1000} s): all frames / the lesson's own`,
      (r) => `${r.idle_raf_per_s.toFixed(1)} / ${r.idle_raf_per_s_lesson.toFixed(1)}`),
].join('\n'));
fs.mkdirSync(path.dirname(outJson), { recursive: true });
fs.writeFileSync(outJson, JSON.stringify(results, null, 2) + '\n');
