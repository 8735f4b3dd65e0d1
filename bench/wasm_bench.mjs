// The WebAssembly benchmark: the tiled kernel and the reference of build/web/attention.js
// beside TensorFlow.js (wasm backend) and ONNX Runtime Web (wasm backend), and a plain SIMD128
// matrix multiply as the practical ceiling, all single-threaded in this one Node process. The
// tiled kernel runs on each path: SIMD128, and where Node runs relaxed SIMD (scripts/bench.sh
// passes --experimental-wasm-relaxed-simd) attention-relaxed.wasm with fused multiply-add,
// beside the same multiply built with relaxed SIMD.
// Per size: every contender is checked against a float64 attention first (the tiled kernel
// must be within 1e-4), then timed in interleaved rounds; medians are reported.
//   node bench/wasm_bench.mjs [native.json] [out.json]
// With native.json (Google Benchmark's JSON from native_bench) the table has the native
// columns too. Writes out.json (default build/bench/bench.json) and prints the table.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { tfjsWasm, onnxRuntimeWeb } from './competitors.mjs';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const [nativeJson, outJson = path.join(root, 'build/bench/bench.json')] = process.argv.slice(2);

const D = 64;
// (heads, n), by growing reference footprint: a WebAssembly heap never shrinks, so each
// module's heap size after a size is that size's peak.
const SIZES = [[1, 128], [1, 256], [1, 512], [1, 1024], [8, 512], [1, 2048], [1, 4096]];
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

// [SECTION] Contenders -------------------------------------------------------------------------
// Each kernel of ours gets its own module instance, so its heap size is its own peak.
// `name` "tiled-relaxed" is the tiled kernel with relaxed SIMD (null where Node does not run
// it), "tiled" the SIMD128 one, "tiled-2-threads" the fastest path through forwardParallel()
// on two threads.
async function ourKernel(name) {
  const kernel = name === 'reference' ? 'reference' : 'tiled';
  const createAttention = require(path.join(root, 'build/web/attention.js'));
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

function ceilingOf(name, prepare, slice) {
  return {
    name, note: 'Q·Kᵀ in 64-key slices, same register block, no softmax',
    prepare: ({ n }) => {
      prepare(n, D);
      return { run: () => { for (let j0 = 0; j0 < n; j0 += 64) slice(j0); }, dispose: () => {} };
    },
  };
}

async function ceilings() {
  const dir = path.join(root, 'build/bench/wasm');
  const module = await require(path.join(dir, 'ceiling.js'))({ wasmBinary: fs.readFileSync(path.join(dir, 'ceiling.wasm')) });
  const found = [ceilingOf('simd128-matmul', module._ceiling_prepare, module._ceiling_slice)];
  const bytes = fs.readFileSync(path.join(dir, 'ceiling-relaxed.wasm'));
  if (WebAssembly.validate(bytes)) {  // only where Node runs relaxed SIMD
    const wasm = new WebAssembly.Module(bytes);
    const wasi = Object.fromEntries(WebAssembly.Module.imports(wasm).map((i) => [i.name, () => { throw new Error(i.name); }]));
    const e = new WebAssembly.Instance(wasm, { wasi_snapshot_preview1: wasi }).exports;
    e._initialize();
    found.push(ceilingOf('relaxed-matmul', e.ceiling_prepare, e.ceiling_slice));
  }
  return found;
}

// [SECTION] Timing ------------------------------------------------------------------------------
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timeOnce(run) {
  const t0 = performance.now();
  await run();
  return performance.now() - t0;
}

// Warms each contender up (V8 swaps in optimised code between calls), then times them in
// interleaved rounds so machine noise falls on all alike.
async function timeAll(prepared) {
  const warm = [];
  for (const p of prepared) {
    let t = Infinity;
    for (let i = 0; i < 3 && (i === 0 || t < 500); i++) t = await timeOnce(p.run);
    warm.push(t);
  }
  const reps = warm.map((t) => Math.max(3, Math.min(25, Math.round(TIME_PER_CONTENDER_MS / t))));
  const times = prepared.map(() => []);
  for (let round = 0; round < Math.max(...reps); round++)
    for (let c = 0; c < prepared.length; c++) if (round < reps[c]) times[c].push(await timeOnce(prepared[c].run));
  return times.map(median);
}

// [SECTION] Native results ---------------------------------------------------------------------
function nativeResults(file) {
  if (!file || !fs.existsSync(file)) return {};
  const out = {};
  for (const b of JSON.parse(fs.readFileSync(file, 'utf8')).benchmarks) {
    const m = b.name.match(/^BM_(\w+)\/heads:(\d+)\/n:(\d+)/);
    if (m) out[`${m[1]}/${m[2]}/${m[3]}`] = { gflops: b.GFLOPS, peak_mib: b.peak_MiB, ms: b.cpu_time };
  }
  return out;
}

// [SECTION] Main --------------------------------------------------------------------------------
const ours = ['tiled-relaxed', 'tiled', 'tiled-2-threads'];
const contenders = [await ourKernel('tiled-relaxed'), await ourKernel('tiled'), await ourKernel('tiled-2-threads'),
                    await ourKernel('reference'),
                    await tfjsWasm(), await onnxRuntimeWeb()].filter(Boolean);
const roofs = await ceilings();
const native = nativeResults(nativeJson);
const results = [];

for (const [heads, n] of SIZES) {
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
      if (ours.includes(c.name) && !(error <= 1e-4)) throw new Error(`${c.name}: max error ${error} at heads ${heads}, n ${n}`);
      entrants.push({ c, p });
      row.wasm[c.name] = { max_error: error };
    } catch (e) {
      if (ours.includes(c.name)) throw e;
      row.wasm[c.name] = { failed: String(e.message ?? e).split('\n')[0] };
    }
  }
  const ms = await timeAll([...entrants.map((e) => e.p), ...roofs.map((r) => r.prepare(problem))]);
  entrants.forEach(({ c, p }, i) => {
    Object.assign(row.wasm[c.name], { ms: ms[i], gflops: flops(heads, n) / ms[i] / 1e6 });
    const heap = c.heapBytes();
    if (heap !== null) row.wasm[c.name].heap_mib = heap / 2 ** 20;
    p.dispose();
  });
  roofs.forEach((r, i) => {
    const t = ms[entrants.length + i];
    row.wasm[r.name] = { ms: t, gflops: (2 * n * n * D) / t / 1e6 };
  });
  const best = Math.max(row.wasm['tfjs-wasm'].gflops ?? 0, row.wasm['onnxruntime-web'].gflops ?? 0);
  row.ratio_to_best_competitor = row.wasm.tiled.gflops / best;
  if (row.wasm['tiled-relaxed']) {
    row.relaxed_ratio_to_best_competitor = row.wasm['tiled-relaxed'].gflops / best;
    row.relaxed_fraction_of_matmul = row.wasm['tiled-relaxed'].gflops / row.wasm['relaxed-matmul'].gflops;
  }
  // Two threads over one: the fastest single-threaded path of this run.
  row.two_threads_over_one = row.wasm['tiled-2-threads'].gflops / (row.wasm['tiled-relaxed'] ?? row.wasm.tiled).gflops;
  for (const kernel of ['reference', 'eigen', 'tiled']) {
    const r = native[`${kernel}/${heads}/${n}`];
    if (r) row.native[kernel] = r;
  }
  results.push(row);
  console.error(`heads ${heads} n ${n}: tiled ${row.wasm.tiled.gflops.toFixed(1)} GFLOP/s, ×${row.ratio_to_best_competitor.toFixed(2)} the best competitor` +
                (row.wasm['tiled-relaxed'] ? `; relaxed ${row.wasm['tiled-relaxed'].gflops.toFixed(1)}, ×${row.relaxed_ratio_to_best_competitor.toFixed(2)}` : ''));
}

// [SECTION] Report ------------------------------------------------------------------------------
const f1 = (x) => (x === undefined ? '–' : x.toFixed(1));
const ratio = (x) => (x === undefined ? '–' : `×${x.toFixed(2)}`);
const header = ['heads×n', 'nat ref', 'nat eigen', 'nat tiled', 'wasm ref', 'wasm tiled', 'tfjs-wasm', 'ort-web',
                'simd128 mm', 'tiled/best', 'wasm tiled relaxed', 'relaxed mm', 'relaxed/best', 'relaxed/mm',
                'wasm tiled 2 threads', '2 threads/1',
                'peak MiB nat tiled/ref', 'wasm heap MiB tiled/ref'];
const lines = results.map((r) => [
  `${r.heads}×${r.n}`, f1(r.native.reference?.gflops), f1(r.native.eigen?.gflops), f1(r.native.tiled?.gflops),
  f1(r.wasm.reference.gflops), f1(r.wasm.tiled.gflops), f1(r.wasm['tfjs-wasm'].gflops), f1(r.wasm['onnxruntime-web'].gflops),
  f1(r.wasm['simd128-matmul'].gflops), ratio(r.ratio_to_best_competitor), f1(r.wasm['tiled-relaxed']?.gflops),
  f1(r.wasm['relaxed-matmul']?.gflops), ratio(r.relaxed_ratio_to_best_competitor), ratio(r.relaxed_fraction_of_matmul),
  f1(r.wasm['tiled-2-threads'].gflops), ratio(r.two_threads_over_one),
  `${r.native.tiled ? r.native.tiled.peak_mib.toFixed(2) : '–'} / ${r.native.reference ? r.native.reference.peak_mib.toFixed(0) : '–'}`,
  `${f1(r.wasm.tiled.heap_mib)} / ${f1(r.wasm.reference.heap_mib)}`,
]);
console.log('GFLOP/s (4·n²·d per head; d = 64; single thread; medians)\n');
console.log(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
for (const l of lines) console.log(`| ${l.join(' | ')} |`);

fs.mkdirSync(path.dirname(outJson), { recursive: true });
fs.writeFileSync(outJson, JSON.stringify({
  node: process.version, date: new Date().toISOString(), d: D,
  cpu: os.cpus()[0].model, cores: os.cpus().length, load_average: os.loadavg(),
  contenders: [...contenders, ...roofs].map(({ name, version, note }) => ({ name, version, note })),
  results,
}, null, 1));
console.error(`wrote ${path.relative(process.cwd(), outJson)}`);
