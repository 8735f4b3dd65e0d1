// The WebAssembly benchmark under Node: the tiled kernel on each path (SIMD128; relaxed SIMD,
// where Node runs it: scripts/bench.sh passes --experimental-wasm-relaxed-simd; two threads
// through forwardParallel()) and the reference of build/web/attention.js beside TensorFlow.js
// (wasm backend) and ONNX Runtime Web (wasm backend), and a plain matrix multiply of each path
// as the practical ceiling, all in this one Node process. The measuring is runner.mjs's, the
// same as in headless Chromium (browser_bench.mjs).
//   node bench/wasm_bench.mjs [native.json] [out.json]
// With native.json (Google Benchmark's JSON from native_bench) the table has the native
// columns too. Writes out.json (default build/bench/bench.json) and prints the table (report.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { ceilings, measure, ourKernels } from './runner.mjs';
import { report } from './report.mjs';
import { onnxRuntimeWeb, tfjsWasm } from './competitors.mjs';
import { attentionModel } from './onnx_model.mjs';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const modules = path.join(root, 'node_modules');
const [nativeJson, outJson = path.join(root, 'build/bench/bench.json')] = process.argv.slice(2);

function nativeResults(file) {
  if (!file || !fs.existsSync(file)) return {};
  const out = {};
  for (const b of JSON.parse(fs.readFileSync(file, 'utf8')).benchmarks) {
    const m = b.name.match(/^BM_(\w+)\/heads:(\d+)\/n:(\d+)/);
    if (m) out[`${m[1]}/${m[2]}/${m[3]}`] = { gflops: b.GFLOPS, peak_mib: b.peak_MiB, ms: b.cpu_time };
  }
  return out;
}

const contenders = [
  ...await ourKernels(require(path.join(root, 'build/web/attention.js'))),
  await tfjsWasm({ tf: require('@tensorflow/tfjs-core'), wasm: require('@tensorflow/tfjs-backend-wasm'),
                   wasmDir: path.join(modules, '@tensorflow/tfjs-backend-wasm/dist') + '/' }),
  await onnxRuntimeWeb({ ort: require('onnxruntime-web'), model: attentionModel,
                         version: JSON.parse(fs.readFileSync(path.join(modules, 'onnxruntime-web/package.json'), 'utf8')).version,
                         wasmDir: path.join(modules, 'onnxruntime-web/dist') + '/' }),
];
const ceilingDir = path.join(root, 'build/bench/wasm');
const { roofs, peaks } = ceilings(await require(path.join(ceilingDir, 'ceiling.js'))({ wasmBinary: fs.readFileSync(path.join(ceilingDir, 'ceiling.wasm')) }),
                       fs.readFileSync(path.join(ceilingDir, 'ceiling-relaxed.wasm')));

const results = await measure({ contenders, roofs, log: (s) => console.error(s) });
const native = nativeResults(nativeJson);
for (const row of results)
  for (const kernel of ['reference', 'eigen', 'tiled']) {
    const r = native[`${kernel}/${row.heads}/${row.n}`];
    if (r) row.native[kernel] = r;
  }

report(outJson, `Node ${process.version}`, {
  results, peaks, contenders: [...contenders, ...roofs].map(({ name, version, note }) => ({ name, version, note })),
}, { native: Object.keys(native).length > 0 });
