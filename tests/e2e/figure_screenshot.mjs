// Screenshots of figures (figure=…) in a plain lesson page, at a phone's and a laptop's width,
// for docs/embed.md and for looking at them:
//   node tests/e2e/figure_screenshot.mjs OUT_DIR
// writes OUT_DIR/figure-<name>-<phone|laptop>.png for each figure below.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve } from '../../scripts/serve.mjs';
import { frames, startServer, launchBrowser } from './harness.mjs';

const figures = {
  softmax: 'figure="softmax,arithmetic" preset="causal-3x2" step="softmax" query="2"',
  steps: 'figure="steps,scores,geometry" preset="causal-3x2" step="scores" query="2"',
  scaling: 'figure="controls,histograms" view="scaling" dk="64"',
  practice: 'figure="practice,softmax" preset="causal-3x2" step="softmax" mode="practice"',
  control: 'figure="scale-control,softmax" preset="saturation" step="softmax" scale="none"',
};
const devices = {
  // Tall enough for the whole lesson: a full-page screenshot would change the device's
  // emulation while it is taken (a phone's coarse pointer turns fine, and the figure with it).
  phone: { viewport: { width: 390, height: 2000 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true },
  laptop: { viewport: { width: 1280, height: 1400 } },
};

const out = process.argv[2];
if (!out) {
  console.error('usage: node tests/e2e/figure_screenshot.mjs OUT_DIR');
  process.exit(2);
}
fs.mkdirSync(out, { recursive: true });
const site = await startServer();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-lab-figures-'));
for (const [name, attributes] of Object.entries(figures))
  fs.writeFileSync(path.join(dir, `${name}.html`), `<!doctype html><html lang="en"><head><meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
    <script src="${site.url}embed.js"></script></head>
    <body style="margin:0 auto;max-width:760px;padding:16px;font:17px/1.5 Georgia,serif;color:#1d2330">
    <h2 style="font-family:system-ui,sans-serif">A figure in a lesson</h2>
    <p>The text around the figure says what to look at; the figure shows exactly that.</p>
    <attention-lab ${attributes} theme="light"></attention-lab>
    <p>The lesson goes on under the figure.</p></body></html>`);
const host = await serve(dir, 0);
try {
  for (const [device, options] of Object.entries(devices)) {
    const { context, close } = await launchBrowser(options);
    try {
      for (const name of Object.keys(figures)) {
        const page = await context.newPage();
        await page.goto(`${host.url}${name}.html`);
        // Ready, and sized: its frame has taken the figure's height and holds it.
        await page.waitForFunction(() => document.querySelector('attention-lab').ready, null, { timeout: 60000 });
        // The instance runs in a frame of its own (another origin): its frames, not the lesson's.
        const lab = page.frames().find((f) => f.url().includes('index.html'));
        let last = -1;
        for (let i = 0; i < 50; i++) {
          await frames(lab, 6);
          const h = await page.evaluate(() => document.querySelector('attention-lab').getBoundingClientRect().height);
          if (h === last) break;
          last = h;
        }
        const height = await page.evaluate(() => Math.ceil(document.body.getBoundingClientRect().bottom) + 16);
        const { width } = options.viewport;
        await page.screenshot({ path: path.join(out, `figure-${name}-${device}.png`), clip: { x: 0, y: 0, width, height } });
        await page.close();
      }
    } finally {
      await close();
    }
  }
} finally {
  await host.close();
  await site.close();
}
