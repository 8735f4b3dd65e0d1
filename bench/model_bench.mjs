// view=model's speed (issue 35, item 6), in headless Chromium (SwiftShader) with the site served
// from build/web. Figures, not assertions:
//   node bench/model_bench.mjs [out.json]
//
// - a keystroke → the updated maps on screen, at the full context: the text typed up to the
//   model's context one character at a time, each keystroke timed from its keydown (or, on a
//   phone's on-screen keyboard, its beforeinput) to the end of the frame that shows the change it
//   made (the frame that changes the state draws it again before it is shown), read back from
//   the GPU (a pixel read waits for the GPU process to finish the frame);
//   on a laptop-sized screen with a mouse and keyboard, and as a phone (390 × 844, touch, CPU
//   slowed by CDP's Emulation.setCPUThrottlingRate at PHONE_CPU_SLOWDOWN);
// - the weights' download: their size, their time on the local server (the resource timing of
//   model/tiny-lm.bin and model/report.json), and under CDP's network throttling at SLOW_LINK;
// - view=model's first frame after it opens (setState from the walkthrough), and until its maps
//   are on screen (the weights fetched and the forward pass done);
// - the lab's first frame in the walkthrough, and that it fetches nothing of the model.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { centre, click, countDrawnFrames, findItem, launchBrowser, openLab, press, startServer, touchTap, until } from '../tests/e2e/harness.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const [outJson = path.join(root, 'build/bench/model.json')] = process.argv.slice(2);
const report = JSON.parse(fs.readFileSync(path.join(root, 'web/model/report.json'), 'utf8'));
const CONTEXT = report.model.context;
const KEYSTROKES = 8;  // typed one by one up to the context
const LOADS = 3;
// A mid-range phone against this machine's core, as Lighthouse's mobile preset slows the CPU.
const PHONE_CPU_SLOWDOWN = 4;
// Lighthouse's "slow 4G": 1.6 Mbit/s down, 750 kbit/s up, 150 ms round trip.
const SLOW_LINK = { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 };
const MODEL_FILES = ['model/tiny-lm.bin', 'model/report.json'];

const say = (s) => process.stderr.write(`model bench: ${s}\n`);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => (x === null || x === undefined ? '–' : `${Math.round(x)} ms`);

// Ordinary text up to `length` characters: a sentence typed again and again.
const SENTENCE = 'We missed the last train, so we walked home in the rain. ';
const textOf = (length) => SENTENCE.repeat(Math.ceil(length / SENTENCE.length)).slice(0, length);

// In the page: the time of each keystroke's first event, and of each change of the text.
function watchKeystrokes() {
  window.__keys = { down: [], changes: [] };
  for (const type of ['keydown', 'beforeinput']) {
    window.addEventListener(type, (e) => window.__keys.down.push({ type, t: e.timeStamp }), true);
  }
}

// The milliseconds from the last keystroke's first event to the end of the frame that shows the
// text as `text` with its maps (total: the frame whose callback made the change, which the app
// draws again for the new state before showing it, main.cpp's frame(); its end when the GPU has
// drawn it), and to that change (the frame's callback took the key and computed the model's
// numbers for it: change); and its parts: waited for the frame's callback, the callback (both
// drawings, the model's numbers), the GPU's drawing.
const keystrokeMs = (page, text) => until(page, (text) => {
  const k = window.__keys, f = window.__drawnFrames;
  const change = k.changes.find((c) => c.text === text);
  const shown = change && f.log.find((frame) => frame.callback === change.callback);
  if (!shown) return null;
  const down = k.down.filter((d) => d.t <= change.t).pop();
  return down ? { total: shown.end - down.t, change: change.t - down.t, waited: shown.start - down.t,
                  callback: shown.issued - shown.start, gpu: shown.end - shown.issued } : null;
}, text, { timeout: 120000 });

async function typing(page, { focus, key }) {
  const start = textOf(CONTEXT - KEYSTROKES);
  await page.evaluate((text) => window.attentionLab.setState({ view: 'model', text }), start);
  await until(page, (text) => window.attentionLab.experiment()?.text === text, start, { timeout: 120000 });
  await page.evaluate(() => window.attentionLab.on('change', (s) => window.__keys.changes.push({ text: s.text, t: performance.now(), callback: window.__drawnFrames.running })));
  await focus();
  const times = [];
  for (let i = 0; i < KEYSTROKES; i++) {
    const text = textOf(CONTEXT - KEYSTROKES + i + 1);
    await key(text[text.length - 1]);
    times.push(await keystrokeMs(page, text));
  }
  const e = await page.evaluate(() => window.attentionLab.experiment());
  if (e.tokens.length !== CONTEXT) throw new Error(`the text read is ${e.tokens.length} characters, not ${CONTEXT}`);
  return times;
}

async function laptopTyping(server) {
  const { context, close } = await launchBrowser();
  try {
    await context.addInitScript(countDrawnFrames, { waitForGpu: true });
    await context.addInitScript(watchKeystrokes);
    const { page } = await openLab(context, server.url, 'view=model');
    return await typing(page, {
      focus: async () => {
        await click(page, centre(await findItem(page, { label: 'Your text', kind: 'text' })));
        await press(page, 'Control+End');
      },
      key: (c) => page.keyboard.press(c === ' ' ? 'Space' : c),
    });
  } finally { await close(); }
}

async function phoneTyping(server) {
  const { context, close } = await launchBrowser({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2,
                                                   hasTouch: true, isMobile: true });
  try {
    await context.addInitScript(countDrawnFrames, { waitForGpu: true });
    await context.addInitScript(watchKeystrokes);
    const { page } = await openLab(context, server.url, 'view=model');
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE_CPU_SLOWDOWN });
    return await typing(page, {
      focus: async () => {
        await touchTap(cdp, centre(await findItem(page, { label: 'Your text', kind: 'text' })));
        await until(page, () => document.activeElement?.tagName === 'INPUT' || document.activeElement?.tagName === 'TEXTAREA');
        // The tap puts the caret where it landed, inside the wrapped text: to its end, as on
        // the laptop (a tablet's keyboard; a phone's user would tap after the last word).
        await press(page, 'Control+End');
      },
      key: (c) => page.keyboard.type(c),
    });
  } finally { await close(); }
}

// Each model file's size and download time from the page's resource timing, once the view has
// its numbers; `link`: network conditions for CDP (null: as served).
async function download(server, link) {
  const { context, close } = await launchBrowser();
  try {
    const { page } = await openLab(context, server.url);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    if (link) await cdp.send('Network.emulateNetworkConditions', link);
    await page.evaluate(() => window.attentionLab.setState({ view: 'model' }));
    await until(page, () => window.attentionLab.experiment()?.tokens, undefined, { timeout: 120000 });
    return await page.evaluate((names) => Object.fromEntries(names.map((name) => {
      const entry = performance.getEntriesByType('resource').find((r) => r.name.endsWith(name));
      return [name, { bytes: entry.encodedBodySize, ms: entry.responseEnd - entry.startTime }];
    })), MODEL_FILES);
  } finally { await close(); }
}

// From the walkthrough: the view's first frame after setState({view: 'model'}), and until its
// maps are on screen; and the walkthrough's own first frame, with the model's files it fetched.
async function opening(server) {
  const { context, close } = await launchBrowser();
  try {
    await context.addInitScript(countDrawnFrames, { waitForGpu: true });
    const requested = [];
    context.on('request', (r) => { if (MODEL_FILES.some((f) => r.url().endsWith(f))) requested.push(r.url()); });
    const { page } = await openLab(context, server.url);
    const firstFrame = await page.evaluate(() => window.attentionLab.firstFrameMs);
    await page.waitForTimeout(1000);
    const fetchedBeforeOpening = requested.length;
    const times = await page.evaluate(async () => {
      const f = window.__drawnFrames;
      const drawnAfter = (t) => new Promise((resolve) => {
        const poll = () => (f.lastDrawnStart > t ? resolve(f.lastDrawnEnd) : setTimeout(poll, 2));
        poll();
      });
      const t0 = performance.now();
      window.attentionLab.setState({ view: 'model' });
      const opened = await drawnAfter(performance.now());
      await new Promise((resolve) => {
        const poll = () => (window.attentionLab.experiment()?.tokens ? resolve() : setTimeout(poll, 2));
        poll();
      });
      const maps = await drawnAfter(performance.now());
      return { first_frame: opened - t0, maps_shown: maps - t0 };
    });
    return { lab_first_frame: firstFrame, fetched_before_opening: fetchedBeforeOpening, ...times };
  } finally { await close(); }
}

const server = await startServer();
const results = { load_average: os.loadavg(), context: CONTEXT, phone_cpu_slowdown: PHONE_CPU_SLOWDOWN, slow_link: SLOW_LINK };
try {
  results.opening = [];
  for (let i = 0; i < LOADS; i++) {
    results.opening.push(await opening(server));
    say(`opening ${i + 1}: ${JSON.stringify(results.opening[i])}`);
  }
  results.download_local = await download(server, null);
  say(`download, local: ${JSON.stringify(results.download_local)}`);
  results.download_slow = await download(server, SLOW_LINK);
  say(`download, slow link: ${JSON.stringify(results.download_slow)}`);
  results.keystroke_laptop = await laptopTyping(server);
  say(`keystroke → maps, laptop: ${results.keystroke_laptop.map((k) => `${ms(k.total)} (${ms(k.change)} to the change)`).join(', ')}`);
  results.keystroke_phone = await phoneTyping(server);
  say(`keystroke → maps, phone: ${results.keystroke_phone.map((k) => `${ms(k.total)} (${ms(k.change)} to the change)`).join(', ')}`);
} finally {
  await server.close();
}
results.load_average_after = os.loadavg();

const kB = (bytes) => (bytes / 1000).toFixed(1) + ' kB';
const open = (key) => ms(median(results.opening.map((o) => o[key])));
// The median and range of the keystrokes' totals, and the medians of their parts.
const keys = (times) => {
  const totals = times.map((k) => k.total);
  const part = (key) => ms(median(times.map((k) => k[key])));
  return `${ms(median(totals))} (${ms(Math.min(...totals))}–${ms(Math.max(...totals))}); medians: waiting for the frame ${part('waited')}, ` +
         `its callback ${part('callback')} (to the change ${part('change')}), the GPU ${part('gpu')}`;
};
const rows = [
  [`keystroke → maps on screen, ${CONTEXT - KEYSTROKES + 1}–${CONTEXT} characters, 1280 × 800 (median of ${KEYSTROKES}; range)`,
   keys(results.keystroke_laptop)],
  [`the same, 390 × 844 touch, CPU slowed ${PHONE_CPU_SLOWDOWN}×`, keys(results.keystroke_phone)],
  ...MODEL_FILES.map((f) => [`${f}: size; download, local server / slow 4G (1.6 Mbit/s, 150 ms)`,
                             `${kB(results.download_local[f].bytes)}; ${ms(results.download_local[f].ms)} / ${ms(results.download_slow[f].ms)}`]),
  [`view=model opened from the walkthrough → its first frame (median of ${LOADS})`, open('first_frame')],
  [`… → its maps on screen (weights fetched, forward pass done)`, open('maps_shown')],
  [`the lab's first frame (walkthrough; median of ${LOADS})`, open('lab_first_frame')],
  ['model files fetched before view=model opens', String(Math.max(...results.opening.map((o) => o.fetched_before_opening)))],
  ['load average (1 min) before / after', `${results.load_average[0].toFixed(1)} / ${results.load_average_after[0].toFixed(1)}`],
];
console.log('| measure | value |\n|---|---|\n' + rows.map(([a, b]) => `| ${a} | ${b} |`).join('\n'));
fs.mkdirSync(path.dirname(outJson), { recursive: true });
fs.writeFileSync(outJson, JSON.stringify(results, null, 2) + '\n');
