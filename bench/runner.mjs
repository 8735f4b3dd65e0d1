// The WebAssembly benchmark's measuring, the same in Node (wasm_bench.mjs) and in headless
// Chromium (browser_bench.mjs, through browser.html): the problems, the float64 check, our
// kernels' contenders, the matrix-multiply ceilings and interleaved timing (report.mjs prints). Plain
// JavaScript with no Node or DOM imports; each side hands in what it loaded its own way (the
// kernel module's factory, the ceilings, the competitors of contenders.mjs).
//
// A contender is { name, version, note, heapBytes(), prepare(problem) → { run(), output(result),
// dispose() } }; run() is the timed call (sync or async), output() turns its result into the
// (heads, n, d) layout for the check.

export const D = 64;
// (heads, n), by growing reference footprint: a WebAssembly heap never shrinks, so each
// module's heap size after a size is that size's peak.
export const SIZES = [[1, 128], [1, 256], [1, 512], [1, 1024], [8, 512], [1, 2048], [1, 4096]];
const TIME_PER_CONTENDER_MS = 1500;  // per size; a few minutes in all
const flops = (heads, n) => 4 * heads * n * n * D;

// [SECTION] Inputs and the float64 check -------------------------------------------------------
function randomValues(count, seed) {
  const x = new Float32Array(count);
  let s = seed >>> 0;
  for (let i = 0; i < count; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    x[i] = s / 2 ** 31 - 1;
  }
  return x;
}

// Rows checked against float64: all of them for small n, an even sample beyond.
const checkedRows = (n) => (n <= 512 ? [...Array(n).keys()] : Array.from({ length: 64 }, (_, i) => Math.floor((i * n) / 64)));

function float64Rows({ q, k, v, heads, n, d, scale }) {
  const rows = checkedRows(n);
  const out = new Float64Array(heads * rows.length * d);
  const s = new Float64Array(n);
  for (let h = 0; h < heads; h++)
    rows.forEach((i, r) => {
      let max = -Infinity;
      for (let j = 0; j < n; j++) {
        let dot = 0;
        for (let c = 0; c < d; c++) dot += q[(h * n + i) * d + c] * k[(h * n + j) * d + c];
        s[j] = dot * scale;
        max = Math.max(max, s[j]);
      }
      let sum = 0;
      for (let j = 0; j < n; j++) sum += (s[j] = Math.exp(s[j] - max));
      const o = out.subarray((h * rows.length + r) * d, (h * rows.length + r + 1) * d);
      for (let j = 0; j < n; j++)
        for (let c = 0; c < d; c++) o[c] += (s[j] / sum) * v[(h * n + j) * d + c];
    });
  return { rows, out };
}

function maxError(got, want, heads, n, d) {
  let err = 0;
  for (let h = 0; h < heads; h++)
    want.rows.forEach((i, r) => {
      for (let c = 0; c < d; c++)
        err = Math.max(err, Math.abs(got[(h * n + i) * d + c] - want.out[(h * want.rows.length + r) * d + c]));
    });
  return err;
}

// [SECTION] Our kernels and the ceilings -------------------------------------------------------
// Ours, each on its own module instance from `createAttention` (build/web/attention.js), so its
// heap size is its own peak: "tiled-relaxed" the tiled kernel with relaxed SIMD (null where the
// runtime does not run it), "tiled" the SIMD128 one, "tiled-2-threads" the fastest path through
// forwardParallel() on two threads (worker threads in Node, Web Workers in a page), "reference".
export const OURS = ['tiled-relaxed', 'tiled', 'tiled-2-threads'];

async function ourKernel(createAttention, name) {
  const kernel = name === 'reference' ? 'reference' : 'tiled';
  const module = await createAttention(name === 'tiled' || name === 'reference' ? { relaxedSimd: false } : {});
  if (name === 'tiled-relaxed' && module.kernelPath !== 'wasm-relaxed-simd') return null;
  const forward = name === 'tiled-2-threads'
    ? (q, k, v, dims, options) => module.forwardParallel(q, k, v, dims, options, { threads: 2 })
    : module.forward;
  return {
    name, version: 'this tree', note: `attention.forward(), ${module.kernelPath}`,
    heapBytes: () => module.HEAPU8.length,
    prepare: ({ q, k, v, heads, n, d, scale }) => ({
      run: () => forward(q, k, v, { heads, nq: n, nk: n, dk: d, dv: d }, { scale, kernel }),
      output: (result) => result,
      dispose: () => {},
    }),
  };
}

export async function ourKernels(createAttention) {
  const found = [];
  for (const name of [...OURS, 'reference']) found.push(await ourKernel(createAttention, name));
  return found.filter(Boolean);
}

function ceilingOf(name, prepare, slice) {
  return {
    name, note: 'Q·Kᵀ in 64-key slices, same register block, no softmax',
    prepare: ({ n }) => {
      prepare(n, D);
      return { run: () => { for (let j0 = 0; j0 < n; j0 += 64) slice(j0); }, dispose: () => {} };
    },
  };
}

// The plain matrix multiply with the kernel's register block (bench/ceiling.cpp): `simd128`, the
// Emscripten build's module; `relaxedBytes`, ceiling-relaxed.wasm (clang 19, WASI), used only
// where the runtime validates it. Also each build's arithmetic peak (ceiling_peak, the kernel's
// attn::madd_chains: GFLOP/s of multiply-adds alone, the best of five runs), measured once.
export function ceilings(simd128, relaxedBytes) {
  const builds = [['simd128', simd128._ceiling_prepare, simd128._ceiling_slice, simd128._ceiling_peak, simd128._ceiling_peak_flops]];
  if (WebAssembly.validate(relaxedBytes)) {
    const wasm = new WebAssembly.Module(relaxedBytes);
    // It calls no WASI function: any call would be a bug, so each stub throws.
    const wasi = Object.fromEntries(WebAssembly.Module.imports(wasm).map((i) => [i.name, () => { throw new Error(i.name); }]));
    const e = new WebAssembly.Instance(wasm, { wasi_snapshot_preview1: wasi }).exports;
    e._initialize();
    builds.push(['relaxed', e.ceiling_prepare, e.ceiling_slice, e.ceiling_peak, e.ceiling_peak_flops]);
  }
  // 2^12 steps a call, as the cost view times it (V8 swaps in optimised code between calls).
  const steps = 4096, calls = 4096;
  const peak = (run, flops) => Math.max(...Array.from({ length: 5 }, () => {
    const t0 = performance.now();
    for (let c = 0; c < calls; c++) run(steps);
    return (calls * flops(steps)) / (performance.now() - t0) / 1e6;
  }));
  return {
    roofs: builds.map(([name, prepare, slice]) => ceilingOf(`${name}-matmul`, prepare, slice)),
    peaks: Object.fromEntries(builds.map(([name, , , run, flops]) => [name, peak(run, flops)])),
  };
}

// [SECTION] Timing ------------------------------------------------------------------------------
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
// A timed sample lasts at least this long, as a batch of calls where one call is shorter: a
// page that is not cross-origin isolated reads performance.now() to 100 µs, and an n = 128
// call takes about that.
const MIN_SAMPLE_MS = 20;

async function timeCalls(run, calls) {
  const t0 = performance.now();
  for (let i = 0; i < calls; i++) await run();
  return performance.now() - t0;
}

// Warms each contender up (V8 swaps in optimised code between calls: three calls, one where a
// call takes half a second), sizes its batch, then times them all in interleaved rounds so
// machine noise falls on all alike. Milliseconds per call, medians.
async function timeAll(prepared) {
  const batches = [];
  for (const p of prepared) {
    let slow = false;
    for (let i = 0; i < 3 && !slow; i++) slow = (await timeCalls(p.run, 1)) >= 500;
    let calls = 1, ms;
    while ((ms = await timeCalls(p.run, calls)) < MIN_SAMPLE_MS) calls *= 2;
    batches.push({ calls, reps: Math.max(3, Math.min(25, Math.round(TIME_PER_CONTENDER_MS / ms))) });
  }
  const times = prepared.map(() => []);
  for (let round = 0; round < Math.max(...batches.map((b) => b.reps)); round++)
    for (let c = 0; c < prepared.length; c++)
      if (round < batches[c].reps) times[c].push((await timeCalls(prepared[c].run, batches[c].calls)) / batches[c].calls);
  return times.map(median);
}

// [SECTION] The run -----------------------------------------------------------------------------
// One row per size: each contender's max error against float64 (ours must be within 1e-4, or
// the run stops), median ms and GFLOP/s, heap; the ceilings' GFLOP/s (2·n²·d: one product);
// the ratios the kernel issues set goals on.
export async function measure({ contenders, roofs, sizes = SIZES, log = () => {} }) {
  const results = [];
  for (const [heads, n] of sizes) {
    const problem = { heads, n, d: D, scale: 1 / Math.sqrt(D),
                      q: randomValues(heads * n * D, 1), k: randomValues(heads * n * D, 2), v: randomValues(heads * n * D, 3) };
    const want = float64Rows(problem);
    const row = { heads, n, d: D, wasm: {}, native: {} };
    // A runtime that fails at a size (out of memory, an overflow) is reported, not timed.
    const entrants = [];
    for (const c of contenders) {
      try {
        const p = await c.prepare(problem);
        const error = maxError(p.output(await p.run()), want, heads, n, D);
        if (OURS.includes(c.name) && !(error <= 1e-4)) throw new Error(`${c.name}: max error ${error} at heads ${heads}, n ${n}`);
        entrants.push({ c, p });
        row.wasm[c.name] = { max_error: error };
      } catch (e) {
        if (OURS.includes(c.name)) throw e;
        row.wasm[c.name] = { failed: String(e.message ?? e).split('\n')[0] };
      }
    }
    // Two threads are timed apart, interleaved with the fastest single-threaded path alone and
    // after a pause: the other runtimes leave garbage that V8 collects on a helper thread, on the
    // very core the worker needs (with tfjs-wasm in the same rounds, two threads measured ×1.16
    // at n = 1024 instead of ×1.6; with --single-threaded-gc the threads recovered and tfjs
    // slowed instead; without the pause, whole phases at n = 2048 read ×1.2 instead of ×1.85).
    const threaded = entrants.filter((e) => e.c.name === 'tiled-2-threads');
    const single = entrants.filter((e) => !threaded.includes(e));
    const ms = await timeAll([...single.map((e) => e.p), ...roofs.map((r) => r.prepare(problem))]);
    const one = single.find((e) => e.c.name === 'tiled-relaxed') ?? single.find((e) => e.c.name === 'tiled');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const [oneMs, twoMs] = await timeAll([one.p, ...threaded.map((e) => e.p)]);
    const timed = [...single.map((e, i) => [e, ms[i]]), ...threaded.map((e) => [e, twoMs])];
    for (const [{ c, p }, t] of timed) {
      Object.assign(row.wasm[c.name], { ms: t, gflops: flops(heads, n) / t / 1e6 });
      const heap = c.heapBytes();
      if (heap !== null) row.wasm[c.name].heap_mib = heap / 2 ** 20;
      p.dispose();
    }
    roofs.forEach((r, i) => {
      const t = ms[single.length + i];
      row.wasm[r.name] = { ms: t, gflops: (2 * n * n * D) / t / 1e6 };
    });
    row.two_threads_over_one = oneMs / twoMs;
    const best = Math.max(row.wasm['tfjs-wasm']?.gflops ?? 0, row.wasm['onnxruntime-web']?.gflops ?? 0);
    row.ratio_to_best_competitor = row.wasm.tiled.gflops / best;
    if (row.wasm['tiled-relaxed']) {
      row.relaxed_ratio_to_best_competitor = row.wasm['tiled-relaxed'].gflops / best;
      row.relaxed_fraction_of_matmul = row.wasm['tiled-relaxed'].gflops / row.wasm['relaxed-matmul'].gflops;
    }
    results.push(row);
    log(`heads ${heads} n ${n}: tiled ${row.wasm.tiled.gflops.toFixed(1)} GFLOP/s, ×${row.ratio_to_best_competitor.toFixed(2)} the best competitor` +
        (row.wasm['tiled-relaxed'] ? `; relaxed ${row.wasm['tiled-relaxed'].gflops.toFixed(1)}, ×${row.relaxed_ratio_to_best_competitor.toFixed(2)}` : '') +
        `; 2 threads ×${row.two_threads_over_one.toFixed(2)}`);
  }
  return results;
}
