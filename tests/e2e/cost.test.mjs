// view=cost in headless Chromium: `run=1` in the link measures the reference and the tiled
// kernel in the page, in slices (the page keeps drawing, then goes idle); the data behind the
// plots (attentionLab.experiment()) is checked against the lesson's formulas computed here and
// against its own samples. Times are never compared with a number: only the growth between
// sizes (a log–log slope near 2), checked loosely.
import test from 'node:test';
import assert from 'node:assert/strict';
import { centre, countDrawnFrames, findItem, frames, labSession, layout, openLab, openOnPhone, touchTap, until } from './harness.mjs';

const session = labSession();
const value = x => (x === 'nan' ? NaN : x === 'inf' ? Infinity : x === '-inf' ? -Infinity : x);
const DK = 64;
const close = (a, b, rel, what) => assert.ok(Math.abs(a - b) <= rel * Math.abs(b), `${what}: ${a} vs ${b}`);
const median = v => {
  const s = [...v].sort((a, b) => a - b), m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const experiment = page => page.evaluate(() => window.attentionLab.experiment());
const drawn = page => page.evaluate(() => window.__drawnFrames.drawn);

// Polls until the measurement is done, checking on the way that the page keeps drawing its
// progress: measuring alone, it draws every half second (main.cpp's kProgressSeconds), so 120
// animation frames (two seconds at 60 Hz, longer on a busy machine) hold at least three.
async function measured(page) {
  let d = await experiment(page), framesWhileRunning = 0;
  for (const deadline = Date.now() + 600000; d.status !== 'done';) {
    assert.equal(d.status, 'running');
    assert.ok(Date.now() < deadline, 'the measurement ends within ten minutes');
    const before = await drawn(page);
    await frames(page, 120);
    framesWhileRunning = Math.max(framesWhileRunning, (await drawn(page)) - before);
    d = await experiment(page);
  }
  assert.ok(framesWhileRunning >= 3, `the page draws while measuring (${framesWhileRunning} frames in 120)`);
  return d;
}

test('run=1 measures every size; the reference grows as n², memory and FLOPs follow the formulas', async () => {
  await session.browser.context.addInitScript(countDrawnFrames);
  const { page, errors } = await openLab(session.browser.context, session.server.url, 'view=cost&run=1');
  const d = await measured(page);
  assert.equal(d.view, 'cost');
  assert.equal(d.dk, DK);
  assert.equal(d.progress, 1);
  assert.deepEqual(d.sizes, [64, 128, 256, 512, 1024, 2048, 4096]);

  // The formulas, computed here.
  d.sizes.forEach((n, i) => {
    assert.equal(d.flops[i], 4 * n * n * DK, `flops at ${n}`);
    close(d.qk_intensity[i], (2 * n * n * DK) / (8 * n * DK + 4 * n * n), 1e-6, `QKᵀ intensity at ${n}`);
    close(d.tiled_intensity[i], n / 4, 1e-6, `tiled intensity at ${n}`);
    close(d.reference_intensity[i], (4 * n * n * DK) / (16 * n * DK + 48 * n * n), 1e-6, `reference intensity at ${n}`);
    assert.equal(d.fits[i], 24 * n * n <= d.memory_limit, `fits at ${n}`);
  });
  // Memory: the lesson's n × n float32 scores, the reference's six such matrices, and the
  // tiled kernel's scratch (tiled.cpp: packed K tile 64 × 64, packed queries and S/P 512 × 64
  // each, m and l 512 each, per-lane maxima 512 × 4 lanes of SIMD128), the same at every n.
  // Four lanes either way: SIMD128, or relaxed SIMD where Chromium runs it (the page's kernelPath).
  assert.equal(d.simd, await page.evaluate(() => window.attentionLab.kernelPath));
  const scratch = 4 * (64 * 64 + 2 * 512 * 64 + 2 * 512 + 512 * 4);
  d.memory_n.forEach((n, i) => {
    assert.equal(d.score_bytes[i], 4 * n * n, `scores at ${n}`);
    assert.equal(d.reference_bytes[i], 24 * n * n, `reference at ${n}`);
    assert.equal(d.tiled_bytes[i], scratch, `tiled scratch at ${n}`);
  });
  assert.equal(d.memory_n.at(-1), 65536);

  // The machine: positive rates and their ratio.
  assert.ok(d.peak_gflops > 0 && d.bandwidth_gbs > 0);
  close(d.balance, d.peak_gflops / d.bandwidth_gbs, 1e-5, 'balance');

  // Every time is the median of its samples, and every rate the FLOPs over it.
  d.sizes.forEach((n, i) => {
    for (const k of ['reference', 'tiled']) {
      const samples = d[`${k}_samples`][i];
      if (k === 'reference' && !d.fits[i]) {
        assert.deepEqual(samples, []);
        continue;
      }
      assert.equal(samples.length, d.repetitions[i], `${k} passes at ${n}`);
      close(value(d[`${k}_ms`][i]), median(samples), 1e-6, `${k} median at ${n}`);
      close(d[`${k}_gflops`][i], d.flops[i] / (median(samples) * 1e6), 1e-5, `${k} GFLOP/s at ${n}`);
    }
  });

  // The lesson's prediction, loosely: from n = 1024 to 4096 the reference's time grows about
  // 16-fold (slope 2 on log–log axes), and the tiled kernel's too (same FLOPs, no n × n matrix).
  // Each size's fastest pass: the other work of a shared machine only ever adds time.
  const fastest = k => d[`${k}_samples`].map(s => Math.min(...s));
  const slope = (ms, a, b) => Math.log(ms[b] / ms[a]) / Math.log(d.sizes[b] / d.sizes[a]);
  const [i1024, i4096] = [d.sizes.indexOf(1024), d.sizes.indexOf(4096)];
  const referenceSlope = slope(fastest('reference'), i1024, i4096), tiledSlope = slope(fastest('tiled'), i1024, i4096);
  assert.ok(referenceSlope > 1.6 && referenceSlope < 2.4, `reference slope ${referenceSlope}`);
  assert.ok(tiledSlope > 1.5 && tiledSlope < 2.5, `tiled slope ${tiledSlope}`);

  // Done: the page goes idle (after the frames that show the result), 120 animation frames
  // (two seconds at 60 Hz) drawing nothing.
  await frames(page, 30);
  const before = await drawn(page);
  await frames(page, 120);
  assert.ok((await drawn(page)) - before <= 3, 'no drawing once the measurement is done');
  assert.match(await page.evaluate(() => location.hash), /run=1/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('without run the view shows the formulas only; run starts and stops the measurement', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url, 'view=cost');
  let d = await experiment(page);
  assert.equal(d.status, 'idle');
  assert.ok(d.reference_ms.every(x => Number.isNaN(value(x))) && d.tiled_ms.every(x => Number.isNaN(value(x))));
  assert.ok(Number.isNaN(value(d.peak_gflops)));
  await page.evaluate(() => window.attentionLab.setState({ run: 1 }));
  d = await experiment(page);
  assert.equal(d.status, 'running');
  await page.waitForFunction(() => window.attentionLab.experiment().bandwidth_gbs !== 'nan');
  await page.evaluate(() => window.attentionLab.setState({ run: 0 }));
  d = await experiment(page);
  assert.equal(d.status, 'idle');
  assert.ok(Number.isNaN(value(d.peak_gflops)), 'stopping clears the measurement');
  assert.doesNotMatch(await page.evaluate(() => location.hash), /run=1/);
  assert.deepEqual(errors, []);
  await page.close();
});

// The lesson's figure (figure=controls,time-memory): time, memory and the roofline side by side
// on a laptop; on a phone one at a time behind three buttons, the roofline a tap away.
test('the lesson\'s cost figure shows time, memory and the roofline, one at a time on a phone', async (t) => {
  const fragment = 'view=cost&figure=controls,time-memory';
  const { page, errors } = await openLab(session.browser.context, session.server.url, fragment);
  const plots = (await layout(page)).filter(i => i.kind === 'plot');
  assert.equal(new Set(plots.map(p => Math.round(p.x))).size, 3, 'three plots side by side');
  assert.deepEqual(errors, []);
  await page.close();

  const phone = await openOnPhone(t, fragment);
  const shown = async () => (await layout(phone.page)).filter(i => i.kind === 'plot');
  assert.equal((await shown()).length, 1);
  const first = (await shown())[0];
  await touchTap(phone.cdp, centre(await findItem(phone.page, { kind: 'button', label: 'roofline' })));
  // The roofline's plot, under a longer note than the time plot's: lower on the screen.
  await until(phone.page, y => window.attentionLab.layout().some(i => i.kind === 'plot' && Math.abs(i.y - y) > 1), first.y);
  assert.equal((await shown()).length, 1);
  assert.deepEqual(phone.errors, []);
});
