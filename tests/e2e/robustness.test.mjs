// Input from strangers: garbage links, hostile messages, and a soak of thousands of random
// state changes through the page API. The page must keep working, show a note for what it
// ignores, never show NaN, log no errors, and keep its WebAssembly heap bounded.
import test from 'node:test';
import assert from 'node:assert/strict';
import { frames, labSession, openLab, until } from './harness.mjs';

// A generous bound on heap growth across the soak, after a warm-up that fills the caches
// (font atlas, textures): a leak of even one small allocation per change would exceed it.
const HEAP_GROWTH_LIMIT = 4 << 20;
const CHANGES = 3000;

const flat = (x) => (Array.isArray(x) ? x.flatMap(flat) : [x]);
const hasNaN = (trace) => flat([trace.output, trace.weights]).some((x) => typeof x !== 'number' || Number.isNaN(x));

const session = labSession();

test('garbage links are ignored with a visible note and the page keeps working', async () => {
  const garbage = [
    'n=abc', 'dk=-5', 'query=99999999999999', 'preset=../../etc/passwd', 'scale=NaN', 'q=1e40,2',
    '%%%&&&==&=', 'step=%E2%88%9E', 'view=<script>alert(1)</script>', 'seed=1e99&causal=maybe',
    'x'.repeat(100000), 'theme=dark&theme=purple&ui=tiny',
  ];
  for (const fragment of garbage) {
    const { page, errors } = await openLab(session.browser.context, session.server.url, fragment);
    const notes = await page.evaluate(() => document.getElementById('notes').textContent);
    assert.notEqual(notes.trim(), '', `a note for #${fragment.slice(0, 40)}`);
    const trace = await page.evaluate(() => window.attentionLab.trace());
    assert.ok(!hasNaN(trace), `no NaN after #${fragment.slice(0, 40)}`);
    await page.keyboard.press('ArrowRight');  // still responding to input
    await frames(page, 2);
    assert.deepEqual(errors, [], fragment.slice(0, 40));
    await page.close();
  }
});

test('hostile messages change nothing and break nothing', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url, 'preset=causal-3x2&step=mask');
  const before = await page.evaluate(() => window.attentionLab.getState());
  const sent = await page.evaluate(() => {
    // Counted as they arrive, after the page's own listener has handled each.
    window.messagesSeen = 0;
    addEventListener('message', () => { window.messagesSeen += 1; });
    const cyclic = {}; cyclic.self = cyclic;
    let count = 0;
    for (const bad of [null, 42, 'attention-lab:set', [], { type: 'attention-lab:set' },
                       { type: 'attention-lab:set', state: 'step=output' }, { type: 'attention-lab:set', state: [1] },
                       { type: 'attention-lab:set', state: { a: { b: { c: { d: 1 } } } } }, { type: 'evil', state: { step: 'output' } },
                       { type: 'attention-lab:set', state: cyclic }, { type: 'attention-lab:set', state: { n: 1e308, dk: '-1e9' } },
                       { type: 'attention-lab:set', state: { ['x'.repeat(300000)]: 1 } }]) {
      window.postMessage(bad, '*');
      count += 1;
    }
    return count;
  });
  await until(page, (sent) => window.messagesSeen === sent, sent);
  await frames(page);  // and the frames that would apply a state they set
  const after = await page.evaluate(() => window.attentionLab.getState());
  assert.deepEqual(after, before);
  await page.evaluate(() => window.postMessage({ type: 'attention-lab:set', state: { step: 'output' } }, '*'));
  await page.waitForFunction(() => window.attentionLab.getState().step === 'output');
  assert.deepEqual(errors, []);
  await page.close();
});

test(`soak: ${CHANGES} random state changes keep the trace right and the heap bounded`, async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url, 'preset=causal-3x2');
  const result = await page.evaluate(async ({ changes }) => {
    const lab = window.attentionLab;
    let seed = 12345;  // a fixed pseudo-random sequence, so a failure can be replayed
    const rand = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
    const pick = (xs) => xs[rand(xs.length)];
    const moves = [
      () => ({ step: pick(['scores', 'scale', 'mask', 'softmax', 'output']) }),
      () => ({ query: rand(12) }),
      () => ({ n: 1 + rand(24) }),
      () => ({ dk: 1 + rand(64) }),
      () => ({ seed: rand(1000) }),
      () => ({ scale: pick(['sqrt', 'none', 'dk', String(rand(100) / 10)]) }),
      () => ({ causal: pick(['0', '1', 'br']) }),
      () => ({ preset: pick(['causal-3x2', 'saturation', 'random', 'cross', 'padding']) }),
      () => ({ view: pick(['walkthrough', 'compare']) }),
      () => ({ theme: pick(['light', 'dark']) }),
      () => ({ nq: 'garbage', dk: -rand(5) }),
    ];
    const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
    let warm = 0;
    for (let i = 0; i < changes; i++) {
      lab.setState(pick(moves)());
      if (i % 50 === 0) await frame();  // let the app draw now and then, as a person would see it
      if (i === 300) warm = lab.memoryBytes();
    }
    await frame();
    return { warm, end: lab.memoryBytes() };
  }, { changes: CHANGES });
  console.log(`heap in use: ${result.warm} B after warm-up, ${result.end} B after ${CHANGES} changes`);
  assert.ok(result.end - result.warm <= HEAP_GROWTH_LIMIT,
            `the heap grew by ${result.end - result.warm} B, over ${HEAP_GROWTH_LIMIT} B`);

  // Still right afterwards: the worked example against its closed form.
  await page.evaluate(() => window.attentionLab.setState({ preset: 'causal-3x2', view: 'walkthrough' }));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
  const trace = await page.evaluate(() => window.attentionLab.trace());
  const r2 = Math.SQRT2, z = Math.exp(3 / r2) + Math.exp(6 / r2) + Math.exp(9 / r2);
  const want = [Math.exp(3 / r2) / z, Math.exp(6 / r2) / z, Math.exp(9 / r2) / z];
  trace.weights[2].forEach((w, j) => assert.ok(Math.abs(w - want[j]) < 1e-5, `weights[2][${j}] ${w} vs ${want[j]}`));
  assert.deepEqual(errors, []);
  await page.close();
});

// The interface's largest configuration: n = 2048, d = 256 and a padded batch (cut to what the
// walkthrough keeps, with a note), then random changes that recompute at that size. The heap
// must fit well within the page's 2 GiB, and come back to where it was when the first state does.
const LIMIT_CHANGES = 24;
const LIMIT_HEAP_BYTES = 512 << 20;
test(`soak at the limits: ${LIMIT_CHANGES} changes at n = 2048, d = 256 with a padded batch`, async () => {
  const start = { preset: 'random', n: 2048, dk: 256, pad: '2048,1536,1024,512,2048,256,2048,64', step: 'softmax' };
  const { page, errors } = await openLab(session.browser.context, session.server.url, 'preset=causal-3x2');
  page.setDefaultTimeout(240000);
  const result = await page.evaluate(async ({ start, changes }) => {
    const lab = window.attentionLab;
    const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
    let seed = 777;
    const rand = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
    const pick = (xs) => xs[rand(xs.length)];
    const moves = [
      () => ({ query: rand(2048) }),
      () => ({ step: pick(['scores', 'scale', 'mask', 'softmax', 'output']) }),
      () => ({ batch: rand(2) }),
      () => ({ seed: 1 + rand(1000) }),
      () => ({ scale: pick(['sqrt', 'none', 'dk']) }),
      () => ({ causal: pick(['0', '1', 'br']) }),
      () => ({ pad: `${1 + rand(2048)},${1 + rand(2048)}` }),
      () => ({ dk: pick([64, 256]) }),
      () => ({ view: pick(['walkthrough', 'compare']) }),
    ];
    lab.setState(start);
    await frame();
    const notes = document.getElementById('notes').textContent;
    const shown = lab.getState();
    const warm = lab.memoryBytes();
    let peak = warm;
    for (let i = 0; i < changes; i++) {
      lab.setState(pick(moves)());
      await frame();
      peak = Math.max(peak, lab.memoryBytes());
    }
    lab.setState({ ...start, seed: shown.seed, query: 0, batch: 0, scale: 'sqrt', causal: '0', view: 'walkthrough' });
    await frame();
    const end = lab.memoryBytes();
    // What is on screen, as the screen-reader table reads it (trace() would hold its 2048 × 2048
    // matrices as JSON text in the heap being measured).
    const table = document.getElementById('stage-table').textContent;
    return { notes, sequences: shown.pad.split(',').length, warm, peak, end, table };
  }, { start, changes: LIMIT_CHANGES });
  console.log(`heap at the limits: ${result.warm >> 20} MiB at first, peak ${result.peak >> 20} MiB, ` +
              `${result.end >> 20} MiB after ${LIMIT_CHANGES} changes`);
  assert.match(result.notes, /the first 2 are used/, 'the cut batch is said');
  assert.equal(result.sequences, 2);
  assert.ok(result.peak <= LIMIT_HEAP_BYTES, `the heap reached ${result.peak} B, over ${LIMIT_HEAP_BYTES} B`);
  assert.ok(result.end - result.warm <= HEAP_GROWTH_LIMIT,
            `back at the first state the heap is ${result.end - result.warm} B larger`);
  assert.match(result.table, /\d\.\d/, 'the softmax step\'s numbers are on screen');
  assert.doesNotMatch(result.table, /NaN|nan|inf/i);
  assert.deepEqual(errors, []);
  await page.close();
});
