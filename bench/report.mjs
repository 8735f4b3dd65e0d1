// The WebAssembly benchmark's report, for the Node drivers (wasm_bench.mjs, browser_bench.mjs):
// the title, the table of bench/README.md and the JSON file, from runner.mjs's results.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { D } from './runner.mjs';

// [SECTION] Report ------------------------------------------------------------------------------
// The Markdown table of bench/README.md; `native` adds the native columns (Google Benchmark's
// figures, merged into each row's `native` by wasm_bench.mjs).
function table(results, { native = false, peaks = {} } = {}) {
  const f1 = (x) => (x === undefined ? '–' : x.toFixed(1));
  const ratio = (x) => (x === undefined ? '–' : `×${x.toFixed(2)}`);
  const columns = [
    ['heads×n', (r) => `${r.heads}×${r.n}`],
    ...(native ? [['nat ref', (r) => f1(r.native.reference?.gflops)], ['nat eigen', (r) => f1(r.native.eigen?.gflops)],
                  ['nat tiled', (r) => f1(r.native.tiled?.gflops)]] : []),
    ['wasm ref', (r) => f1(r.wasm.reference.gflops)], ['wasm tiled', (r) => f1(r.wasm.tiled.gflops)],
    ['tfjs-wasm', (r) => f1(r.wasm['tfjs-wasm']?.gflops)], ['ort-web', (r) => f1(r.wasm['onnxruntime-web']?.gflops)],
    ['simd128 mm', (r) => f1(r.wasm['simd128-matmul'].gflops)], ['tiled/best', (r) => ratio(r.ratio_to_best_competitor)],
    ['wasm tiled relaxed', (r) => f1(r.wasm['tiled-relaxed']?.gflops)], ['relaxed mm', (r) => f1(r.wasm['relaxed-matmul']?.gflops)],
    ['relaxed/best', (r) => ratio(r.relaxed_ratio_to_best_competitor)], ['relaxed/mm', (r) => ratio(r.relaxed_fraction_of_matmul)],
    ['wasm tiled 2 threads', (r) => f1(r.wasm['tiled-2-threads'].gflops)], ['2 threads/1', (r) => ratio(r.two_threads_over_one)],
    ...(native ? [['peak MiB nat tiled/ref', (r) => `${r.native.tiled ? r.native.tiled.peak_mib.toFixed(2) : '–'} / ${r.native.reference ? r.native.reference.peak_mib.toFixed(0) : '–'}`]] : []),
    ['wasm heap MiB tiled/ref', (r) => `${f1(r.wasm.tiled.heap_mib)} / ${f1(r.wasm.reference.heap_mib)}`],
  ];
  const peakLine = Object.keys(peaks).length
    ? [`Arithmetic peak (multiply-adds alone): ${Object.entries(peaks).map(([b, g]) => `${b} ${g.toFixed(1)}`).join(', ')} GFLOP/s\n`] : [];
  return [...peakLine, `| ${columns.map(([h]) => h).join(' | ')} |`, `|${columns.map(() => '---').join('|')}|`,
          ...results.map((r) => `| ${columns.map(([, cell]) => cell(r)).join(' | ')} |`)].join('\n');
}

// Prints the title and the table, and writes `outJson`: `runtime` names where it ran
// ("Node v20…", "Chrome/156…"); `native` as for the table.
export function report(outJson, runtime, { results, peaks, contenders }, { native = false } = {}) {
  console.log(`GFLOP/s (4·n²·d per head; d = ${D}; single thread but the 2-thread column; medians), ${runtime}\n`);
  console.log(table(results, { native, peaks }));
  fs.mkdirSync(path.dirname(outJson), { recursive: true });
  fs.writeFileSync(outJson, JSON.stringify({
    runtime, date: new Date().toISOString(), d: D, cpu: os.cpus()[0].model, cores: os.cpus().length,
    load_average: os.loadavg(), peak_gflops: peaks, contenders, results,
  }, null, 1));
  console.error(`wrote ${path.relative(process.cwd(), outJson)}`);
}
