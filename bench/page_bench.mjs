// The page's speed (issue 12), in headless Chromium (SwiftShader) with the site served from
// build/web: the first frame after navigation, the time from setState to the frame that
// shows the change at n = 64 … 2048 (d_k = 64), and the frames drawn while nobody touches the
// page, alone and in a lesson with four embedded instances. Figures, not assertions.
//   node bench/page_bench.mjs [out.json]
//
// "A frame drawn" is an animation-frame callback that issued WebGL work (a clear or a draw):
// counted by harness.mjs's countDrawnFrames in every frame of the page before its scripts
// run, so the figures do not depend on the app's cooperation.
import fs from 'node:fs';
import path from 'node:path';
import { countDrawnFrames, launchBrowser, startServer } from '../tests/e2e/harness.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const [outJson = path.join(root, 'build/bench/page.json')] = process.argv.slice(2);
const LOADS = 5;
const SIZES = [64, 256, 512, 1024, 2048];
const IDLE_MS = 3000;
const CHANGE_TIMEOUT_MS = 300000;  // before the work on issue 12, n = 2048 took 211 s

// Four instances, as a course page would hold them; the last ones sit below the fold.
const FOUR_PRESETS = ['causal-3x2', 'saturation', 'cross', 'padding'];
const FOUR = `<!doctype html><html><head><meta charset="utf-8"><script src="embed.js"></script></head>
<body style="margin:0;font:18px serif"><main style="max-width:46rem;margin:0 auto">
${FOUR_PRESETS.map((p) => `<p>Text around the figure.</p>
<attention-lab preset="${p}" step="softmax" height="520"></attention-lab>`).join('\n')}
</main></body></html>`;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const say = (s) => process.stderr.write(`page bench: ${s}\n`);

async function openPage(context, url) {
  const page = await context.newPage();
  page.on('pageerror', (e) => say(`page error: ${e}`));
  await page.goto(url);
  await page.waitForFunction(() => window.attentionLab, null, { timeout: 60000 });
  await page.evaluate(() => window.attentionLab.ready);
  return page;
}

async function framesWhileIdle(page) {
  await page.waitForTimeout(1000);  // let the page settle after loading
  const count = () => Promise.all(page.frames().map((f) => f.evaluate(() => window.__drawnFrames?.drawn ?? 0)
    .catch(() => 0)));
  const sum = (xs) => xs.reduce((a, b) => a + b, 0);
  const before = sum(await count());
  await page.waitForTimeout(IDLE_MS);
  return sum(await count()) - before;
}

// setState, then the first drawn frame that began after it, then the browser's next
// animation frame (by then the drawn frame, and any DOM it changed, is on screen).
async function changeSeconds(page, state) {
  return page.evaluate(async (state) => {
    const t0 = performance.now();
    window.attentionLab.setState(state);
    const after = performance.now();
    await new Promise((resolve) => {
      const poll = () => (window.__drawnFrames.lastDrawnEnd > after ? resolve() : setTimeout(poll, 5));
      poll();
    });
    await new Promise((resolve) => requestAnimationFrame(resolve));
    return (performance.now() - t0) / 1000;
  }, state);
}

// Beyond the sizes: the compare view (the weights under three scales) and the interface's
// largest configuration, a padded batch at n = 2048 with d = 256.
const LARGEST = [
  ['view=compare, n = 2048, d_k = 64', { preset: 'random', n: 2048, dk: 64, view: 'compare' }],
  ['n = 2048, d = 256, padded batch', { preset: 'random', n: 2048, dk: 256, pad: '2048,1536,1024,512,2048,256,2048,64' }],
];

const server = await startServer();
const browser = await launchBrowser();
const results = {};
try {
  await browser.context.addInitScript(countDrawnFrames);
  const firsts = [];
  for (let i = 0; i < LOADS; ++i) {
    const page = await openPage(browser.context, server.url + 'index.html');
    firsts.push(await page.evaluate(() => window.attentionLab.firstFrameMs / 1000));
    await page.close();
  }
  results.first_frame_s = { median: median(firsts), loads: firsts };
  say(`first frame: ${firsts.map((s) => s.toFixed(2)).join(', ')} s`);

  const page = await openPage(browser.context, server.url + 'index.html');
  results.idle_frames_page = await framesWhileIdle(page);
  say(`frames drawn in ${IDLE_MS / 1000} s of idleness, page alone: ${results.idle_frames_page}`);
  page.setDefaultTimeout(CHANGE_TIMEOUT_MS);
  results.change_s = {};
  for (const n of SIZES) {
    results.change_s[n] = await changeSeconds(page, { preset: 'random', n, dk: 64 });
    say(`n = ${n}: shown after ${results.change_s[n].toFixed(2)} s`);
  }
  results.largest_s = {};
  for (const [name, state] of LARGEST) {
    results.largest_s[name] = await changeSeconds(page, state);
    say(`${name}: shown after ${results.largest_s[name].toFixed(2)} s`);
  }
  results.largest_heap_bytes = await page.evaluate(() => window.attentionLab.memoryBytes());
  results.largest_state = await page.evaluate(() => window.attentionLab.getState());
  results.idle_frames_page_n2048 = await framesWhileIdle(page);
  await page.close();

  await browser.context.route(server.url + 'bench-four.html',
                              (route) => route.fulfill({ contentType: 'text/html', body: FOUR }));
  const lesson = await browser.context.newPage();
  await lesson.goto(server.url + 'bench-four.html');
  // A figure below the fold starts only once scrolled to (docs/embed.md): the reader scrolls
  // to each in turn.
  for (let i = 0; i < FOUR_PRESETS.length; i++) {
    await lesson.evaluate((i) => document.querySelectorAll('attention-lab')[i].scrollIntoView(), i);
    await lesson.waitForFunction((i) => document.querySelectorAll('attention-lab')[i].ready, i, { timeout: 120000 });
  }
  results.idle_frames_lesson4 = await framesWhileIdle(lesson);
  say(`frames drawn in ${IDLE_MS / 1000} s of idleness, four embedded instances: ${results.idle_frames_lesson4}`);
} finally {
  await browser.close();
  await server.close();
}

const rows = [
  ['first frame (median of ' + LOADS + ' loads)', results.first_frame_s.median.toFixed(2) + ' s'],
  ...SIZES.map((n) => [`setState n = ${n}, d_k = 64 → shown`, results.change_s[n].toFixed(2) + ' s']),
  ...LARGEST.map(([name]) => [`setState ${name} → shown`, results.largest_s[name].toFixed(2) + ' s']),
  [`heap in use after the padded batch (${results.largest_state.pad.split(',').length} sequences shown)`,
   (results.largest_heap_bytes / 2 ** 20).toFixed(0) + ' MiB'],
  [`frames drawn in ${IDLE_MS / 1000} s idle, page alone`, String(results.idle_frames_page)],
  [`frames drawn in ${IDLE_MS / 1000} s idle, page at n = 2048`, String(results.idle_frames_page_n2048)],
  [`frames drawn in ${IDLE_MS / 1000} s idle, lesson with 4 instances`, String(results.idle_frames_lesson4)],
];
console.log('| measure | value |\n|---|---|\n' + rows.map(([a, b]) => `| ${a} | ${b} |`).join('\n'));
fs.mkdirSync(path.dirname(outJson), { recursive: true });
fs.writeFileSync(outJson, JSON.stringify(results, null, 2) + '\n');
