// The browser ML runtimes the tiled kernel is measured against, each set up for one problem
// (heads, n, d) given as Float32Arrays laid out (heads, n, d): prepare() returns run(), the
// timed call, and output(result) → the result in that same layout (untimed, for checking).
// Single-threaded WebAssembly with SIMD throughout.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const modules = path.join(root, 'node_modules');

// (heads, n, d) ↔ (n, heads·d): MultiHeadAttention takes the heads side by side.
function toSequenceMajor(x, heads, n, d) {
  const y = new Float32Array(x.length);
  for (let h = 0; h < heads; h++)
    for (let i = 0; i < n; i++) y.set(x.subarray((h * n + i) * d, (h * n + i + 1) * d), (i * heads + h) * d);
  return y;
}
function toHeadMajor(y, heads, n, d) {
  const x = new Float32Array(y.length);
  for (let h = 0; h < heads; h++)
    for (let i = 0; i < n; i++) x.set(y.subarray((i * heads + h) * d, (i * heads + h + 1) * d), (h * n + i) * d);
  return x;
}

// [SECTION] TensorFlow.js, WebAssembly backend -------------------------------------------------
// Its XNNPACK path takes only un-transposed 2-D products with the right operand as "weights"
// (batch 1, no transpose flags; anything else falls back to a naive loop), so each head runs
// matMul(q·scale, Kᵀ) → softmax → matMul(·, V) with Kᵀ prepared once, like a weight.
export async function tfjsWasm() {
  const tf = require('@tensorflow/tfjs-core');
  const wasm = require('@tensorflow/tfjs-backend-wasm');
  wasm.setWasmPaths(path.join(modules, '@tensorflow/tfjs-backend-wasm/dist') + '/');
  wasm.setThreadsCount(1);
  await tf.setBackend('wasm');
  const simd = await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT');
  return {
    name: 'tfjs-wasm',
    version: tf.version_core,
    note: `XNNPACK, SIMD ${simd}, threads ${tf.backend().wasm.tfjs.getThreadsCount()}`,
    heapBytes: () => tf.backend().wasm.HEAPU8.length,
    prepare({ q, k, v, heads, n, d, scale }) {
      const head = (x, h, shape) => tf.tensor3d(x.subarray(h * n * d, (h + 1) * n * d), shape);
      const qs = [], kts = [], vs = [];
      for (let h = 0; h < heads; h++) {
        qs.push(head(q, h, [1, n, d]));
        kts.push(tf.tidy(() => tf.transpose(head(k, h, [1, n, d]), [0, 2, 1])));
        vs.push(head(v, h, [1, n, d]));
      }
      return {
        run: () => {
          const out = tf.tidy(() =>
            tf.concat(qs.map((qh, h) => tf.matMul(tf.softmax(tf.matMul(tf.mul(qh, scale), kts[h])), vs[h])), 0));
          // Read outside tidy(): dataSync() inside it costs several times the whole attention.
          const data = out.dataSync();
          out.dispose();
          return data;
        },
        output: (result) => result,
        dispose: () => [...qs, ...kts, ...vs].forEach((t) => t.dispose()),
      };
    },
  };
}

// [SECTION] ONNX Runtime Web, wasm backend -----------------------------------------------------
// Its fused com.microsoft.MultiHeadAttention in a one-node model built here with the ONNX
// protobuf schema that onnxruntime-web ships (no binary model is stored).
export async function onnxRuntimeWeb() {
  const ort = require('onnxruntime-web');
  const { onnx } = require(path.join(modules, 'onnxruntime-web/lib/onnxjs/ort-schema/protobuf/onnx.js'));
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.wasmPaths = path.join(modules, 'onnxruntime-web/dist') + '/';
  const version = JSON.parse(fs.readFileSync(path.join(modules, 'onnxruntime-web/package.json'), 'utf8')).version;

  const model = (heads, n, d, scale) => {
    const FLOAT = onnx.TensorProto.DataType.FLOAT;
    const io = (name) => ({ name, type: { tensorType: { elemType: FLOAT, shape: { dim: [1, n, heads * d].map((x) => ({ dimValue: x })) } } } });
    const A = onnx.AttributeProto.AttributeType;
    return onnx.ModelProto.encode(onnx.ModelProto.create({
      irVersion: 8,
      opsetImport: [{ domain: '', version: 17 }, { domain: 'com.microsoft', version: 1 }],
      graph: {
        name: 'attention',
        node: [{ opType: 'MultiHeadAttention', domain: 'com.microsoft', input: ['q', 'k', 'v'], output: ['o'],
                 attribute: [{ name: 'num_heads', type: A.INT, i: heads }, { name: 'scale', type: A.FLOAT, f: scale }] }],
        input: [io('q'), io('k'), io('v')],
        output: [io('o')],
      },
    })).finish();
  };

  return {
    name: 'onnxruntime-web',
    version,
    note: 'com.microsoft.MultiHeadAttention, wasm backend, 1 thread',
    heapBytes: () => null,
    async prepare({ q, k, v, heads, n, d, scale }) {
      const session = await ort.InferenceSession.create(model(heads, n, d, scale), { executionProviders: ['wasm'] });
      const tensor = (x) => new ort.Tensor('float32', toSequenceMajor(x, heads, n, d), [1, n, heads * d]);
      const feeds = { q: tensor(q), k: tensor(k), v: tensor(v) };
      return {
        run: async () => (await session.run(feeds)).o.data,
        output: (result) => toHeadMajor(result, heads, n, d),
        dispose: () => session.release(),
      };
    },
  };
}
