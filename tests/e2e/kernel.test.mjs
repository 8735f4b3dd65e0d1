// The tiled kernel in the page: Chromium runs relaxed SIMD, so the page loads
// attention-relaxed.wasm and the tiled kernel runs with fused multiply-add; in a browser
// without relaxed SIMD (WebAssembly.validate refusing the page's probe, as such a browser
// does) it falls back to the SIMD128 kernel, with the same results within rounding.
// Checked through the tiling view, whose data hold the tiled kernel's output beside the
// reference kernel's for the same inputs, and through the cost view's data.
import test from 'node:test';
import assert from 'node:assert/strict';
import { labSession, launchBrowser, openLab, startServer } from './harness.mjs';

const session = labSession();

// What a browser without relaxed SIMD answers: the probe (a function using f32x4.relaxed_madd,
// opcode 0xfd 0x85 0x02) does not validate; everything else does as before.
function withoutRelaxedSimd() {
  const validate = WebAssembly.validate;
  WebAssembly.validate = function (bytes, ...rest) {
    const b = new Uint8Array(bytes.buffer ? bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) : bytes);
    for (let i = 0; i + 2 < b.length; i++) if (b[i] === 0xfd && b[i + 1] === 0x85 && b[i + 2] === 0x02) return false;
    return validate.call(this, bytes, ...rest);
  };
}

// The tiled kernel's output at n = 63 (the tiling view's largest odd size: rows ending mid
// register block, scalar tails) against the reference kernel's, which computes every score and
// softmax in full. Larger shapes are checked against float64 by unit_wasm_relaxed.
async function tiledAgainstReference(page) {
  await page.evaluate(() => window.attentionLab.setState({ view: 'tiling', n: 63, tile: 16 }));
  await page.waitForFunction(() => window.attentionLab.experiment()?.n === 63);
  const data = await page.evaluate(() => window.attentionLab.experiment());
  let worst = 0;
  data.tiled_output.forEach((row, i) => row.forEach((x, c) => {
    const want = data.reference_output[i][c];
    worst = Math.max(worst, Math.abs(x - want) / (1 + Math.abs(want)));
  }));
  assert.ok(worst <= 1e-5, `tiled vs reference: ${worst}`);
  return data.tiled_output;
}

test('Chromium runs the tiled kernel with relaxed SIMD; without it, the SIMD128 kernel gives the same results', async (t) => {
  const { page, errors } = await openLab(session.browser.context, session.server.url, 'preset=random');
  assert.equal(await page.evaluate(() => window.attentionLab.kernelPath), 'wasm-relaxed-simd');
  const fused = await tiledAgainstReference(page);
  // The cost view names the instruction set its timings (the tiled kernel's and the peak loop's)
  // come from.
  await page.evaluate(() => window.attentionLab.setState({ view: 'cost' }));
  assert.equal(await page.evaluate(() => window.attentionLab.experiment().simd), 'wasm-relaxed-simd');
  assert.deepEqual(errors, []);
  await page.close();

  const server = await startServer();
  const browser = await launchBrowser();
  t.after(async () => { await browser.close(); await server.close(); });
  await browser.context.addInitScript(withoutRelaxedSimd);
  const requests = [];
  browser.context.on('request', (r) => requests.push(r.url()));
  const plain = await openLab(browser.context, server.url, 'preset=random');
  assert.equal(await plain.page.evaluate(() => window.attentionLab.kernelPath), 'wasm-simd128');
  const simd128 = await tiledAgainstReference(plain.page);
  fused.forEach((row, i) => row.forEach((x, c) => assert.ok(Math.abs(x - simd128[i][c]) <= 1e-5 * (1 + Math.abs(x)),
                                                          `[${i}][${c}]: ${x} vs ${simd128[i][c]}`)));
  assert.ok(!requests.some((u) => u.endsWith('attention-relaxed.wasm')), 'a module that cannot run is not fetched');
  await plain.page.evaluate(() => window.attentionLab.setState({ view: 'cost' }));
  assert.equal(await plain.page.evaluate(() => window.attentionLab.experiment().simd), 'wasm-simd128');
  assert.deepEqual(plain.errors, []);
});

// forwardParallel() on a page of the site, three threads, against forward() on the same page.
async function parallelOnPage(page) {
  return page.evaluate(async () => {
    await new Promise((resolve, reject) => {
      const s = Object.assign(document.createElement('script'), { src: '../attention.js', onload: resolve, onerror: reject });
      document.head.append(s);
    });
    const m = await createAttention();
    const n = 700, d = 32;
    const x = (seed) => Float32Array.from({ length: n * d }, (_, i) => Math.sin(seed * 3.1 + i * 0.37));
    const dims = { nq: n, nk: n, dk: d, dv: d };  // one head: split by queries, three blocks
    const want = m.forward(x(1), x(2), x(3), dims, { causal: true, kernel: 'tiled' });
    const got = await m.forwardParallel(x(1), x(2), x(3), dims, { causal: true, kernel: 'tiled' }, { threads: 3 });
    return { kernelPath: m.kernelPath, workers: m.kernelWorkers(), length: got.length,
             differing: got.findIndex((v, i) => v !== want[i]) };
  });
}

test('the kernel module in a page: forwardParallel() on Web Workers gives forward()\'s output', async () => {
  const page = await session.browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(session.server.url + 'examples/minimal.html');
  const result = await parallelOnPage(page);
  assert.equal(result.kernelPath, 'wasm-relaxed-simd');
  assert.equal(result.workers, 2, 'two workers beside the page');
  assert.equal(result.length, 700 * 32);
  assert.equal(result.differing, -1);
  assert.deepEqual(errors, []);
  await page.close();
});

test('on a page whose Content-Security-Policy forbids workers, forwardParallel() still gives forward()\'s output', async () => {
  const page = await session.browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.route('**/examples/minimal.html', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': "worker-src 'none'" } });
  });
  await page.goto(session.server.url + 'examples/minimal.html');
  await page.evaluate(() => {
    window.refused = 0;
    document.addEventListener('securitypolicyviolation', () => window.refused++);
  });
  const result = await parallelOnPage(page);
  assert.equal(result.workers, 0, 'no worker could start');
  assert.equal(result.length, 700 * 32);
  assert.equal(result.differing, -1, 'the same output, from this thread');
  // The next call does not try again.
  const refused = await page.evaluate(() => window.refused);
  assert.ok(refused >= 1, 'the policy refused the worker');
  const again = await page.evaluate(async () => {
    const m = await createAttention();
    const x = Float32Array.from({ length: 700 * 32 }, (_, i) => Math.sin(i * 0.37));
    const dims = { nq: 700, nk: 700, dk: 32, dv: 32 };
    const want = m.forward(x, x, x, dims);
    const first = await m.forwardParallel(x, x, x, dims, {}, { threads: 2 });
    const refusedAfterFirst = window.refused;
    const second = await m.forwardParallel(x, x, x, dims, {}, { threads: 2 });
    return { same: [first, second].every((o) => o.every((v, i) => v === want[i])), refusedAfterFirst,
             refusedAfterSecond: window.refused };
  });
  assert.ok(again.same, 'both calls give forward()\'s output');
  assert.equal(again.refusedAfterSecond, again.refusedAfterFirst, 'no second attempt to start a worker');
  assert.deepEqual(errors, []);
  await page.close();
});
