// view=model's weights (issue 43): a person opens "Watch it learn", moves the training slider to
// its first step and sees the model before the induction head formed, then switches to the
// one-layer twin; with a mouse at 1280 × 800 and with a finger on a phone (390 × 844). The
// checkpoints and the twin are fetched only once asked for (the requests are counted), and the
// numbers on screen are those weights' own (each file's forward pass is checked against PyTorch
// by tests/model/forward_test.py; here, that the page shows the file the slider names).
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { centre, click, frames, launchBrowser, openLab, openOnPhone, reach as reachItem, startServer, touchTap, until } from './harness.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const trainModel = process.env.ATTN_TRAIN_MODEL || path.join(root, 'build/native/attention-train-model');
const shots = process.env.ATTN_SCREENSHOT_DIR || path.join(root, 'build');
const TEXT = 'gqzvmkw bdxj gqzvmkw bdxj';  // letters that do not repeat, typed twice
const fragment = 'view=model&text=' + encodeURIComponent(TEXT);

// The view's numbers once the weights asked for are in and computed.
const numbers = (page, test) => until(page, (test) => {
  const e = window.attentionLab.experiment();
  return e && e.tokens && e.scores?.[0]?.matters !== undefined && new Function('e', 'return ' + test)(e) && e;
}, test);

const nativeLoss = (file) =>
  JSON.parse(execFileSync(trainModel, ['dump', '--weights', path.join(root, 'web', file), '--text', TEXT],
                          { encoding: 'utf8', maxBuffer: 1 << 28 })).loss;

// The model's files the page has fetched since it opened, by path under the site ("model/…").
const fetched = (page) => page.evaluate(() => performance.getEntriesByType('resource')
  .map(r => new URL(r.name).pathname).filter(p => p.includes('/model/')).map(p => p.slice(p.indexOf('/model/') + 1)));

const copyRatio = (e) => e.copy_loss.second / e.copy_loss.first;

async function watchItLearn(page, { tap, reach, name }) {
  const trained = await numbers(page, 'true');
  assert.equal(trained.weights.file, 'model/tiny-lm.bin');
  await frames(page, 10);
  assert.deepEqual((await fetched(page)).sort(), ['model/report.json', 'model/tiny-lm.bin'],
                   'nothing but the model before the slider opens');
  assert.ok(copyRatio(trained) < 0.5, `the trained model copies: ratio ${copyRatio(trained)}`);

  await tap(await reach({ label: 'Watch it learn', kind: 'checkbox' }));
  const last = trained.weights.checkpoints.at(-1);
  await until(page, (last) => window.attentionLab.getState().checkpoint === String(last), last);
  // Every kept step's file, fetched when the slider opened.
  const kept = trained.weights.checkpoints.slice(0, -1);
  await until(page, (n) => performance.getEntriesByType('resource').filter(r => /checkpoints\//.test(r.name)).length >= n,
              kept.length);
  assert.deepEqual((await fetched(page)).filter(f => /checkpoints/.test(f)).sort(),
                   kept.map(s => `model/checkpoints/step-${s}.bin`).sort());

  // The slider's first step: before the induction head formed, the copy is no easier.
  const slider = await reach({ label: 'Training step', kind: 'slider' });
  await tap([slider.x + 3, slider.y + slider.h / 2]);
  const early = await numbers(page, `e.weights.checkpoint?.step === ${kept[0]} && !e.weights.checkpoint.loading`);
  assert.equal(early.weights.file, `model/checkpoints/step-${kept[0]}.bin`);
  const want = nativeLoss(early.weights.file);
  early.loss.slice(0, -1).forEach((l, i) => assert.ok(Math.abs(l - want[i]) < 1e-4, `loss at ${i}: ${l} against ${want[i]}`));
  assert.ok(copyRatio(early) > 0.8, `step ${kept[0]} copies already: ratio ${copyRatio(early)}`);
  assert.ok(early.weights.checkpoint.copy_ratio_sentences > 0.9, JSON.stringify(early.weights.checkpoint));
  await frames(page, 3);
  await page.screenshot({ path: path.join(shots, `e2e-model-weights-${name}-early.png`) });

  // The twin: its own file and report, fetched when chosen; one layer, no copying.
  await tap(await reach({ label: 'Its one-layer twin', kind: 'radio' }));
  const twin = await numbers(page, "e.weights.file === 'model/one-layer/tiny-lm.bin'");
  assert.equal(twin.model.layers, 1);
  assert.deepEqual((await fetched(page)).filter(f => /one-layer/.test(f)).sort(),
                   ['model/one-layer/report.json', 'model/one-layer/tiny-lm.bin']);
  assert.equal(await page.evaluate(() => window.attentionLab.getState().checkpoint), '0');
  assert.ok(copyRatio(twin) > 0.8, `the twin copies: ratio ${copyRatio(twin)}`);
  await frames(page, 3);
  await page.screenshot({ path: path.join(shots, `e2e-model-weights-${name}-twin.png`) });
}

test('with a mouse at 1280 × 800: watch the model learn, then its one-layer twin', async (t) => {
  const server = await startServer();
  const { context, close } = await launchBrowser();
  t.after(async () => { await close(); await server.close(); });
  const { page, errors } = await openLab(context, server.url, fragment);
  await watchItLearn(page, { tap: (item) => click(page, Array.isArray(item) ? item : centre(item)),
                             reach: (query) => reachItem(page, query), name: 'laptop' });
  assert.deepEqual(errors, []);
});

test('with a finger on a phone (390 × 844): watch the model learn, then its one-layer twin', async (t) => {
  const { page, errors, cdp } = await openOnPhone(t, fragment);
  await watchItLearn(page, { tap: (item) => touchTap(cdp, Array.isArray(item) ? item : centre(item)),
                                    reach: (query) => reachItem(page, query, { cdp }), name: 'phone' });
  assert.deepEqual(errors, []);
});
