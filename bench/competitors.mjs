// The browser ML runtimes the tiled kernel is measured against, in Node and in a page alike:
// each factory takes the library as its environment loaded it (wasm_bench.mjs by require(),
// browser.html from node_modules' browser bundles) and returns a contender of runner.mjs, set
// up per problem (heads, n, d) given as Float32Arrays laid out (heads, n, d).
// Single-threaded WebAssembly with SIMD throughout.

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
// `tf` is tfjs-core, `wasm` tfjs-backend-wasm, `wasmDir` the URL or folder of its .wasm files.
export async function tfjsWasm({ tf, wasm, wasmDir }) {
  wasm.setWasmPaths(wasmDir);
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
// Its fused com.microsoft.MultiHeadAttention in a one-node model: `model(heads, n, d, scale)`
// gives the model's bytes (onnx_model.mjs builds them in Node). `wasmDir` as for tfjs.
export async function onnxRuntimeWeb({ ort, version, wasmDir, model }) {
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.wasmPaths = wasmDir;
  return {
    name: 'onnxruntime-web',
    version,
    note: 'com.microsoft.MultiHeadAttention, wasm backend, 1 thread',
    heapBytes: () => null,
    async prepare({ q, k, v, heads, n, d, scale }) {
      const session = await ort.InferenceSession.create(await model(heads, n, d, scale), { executionProviders: ['wasm'] });
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
