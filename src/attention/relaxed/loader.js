// A --pre-js of every Emscripten module that links the kernel: where the browser or Node accepts
// relaxed SIMD, loads attention-relaxed.wasm (module.cpp) from beside the module's script before
// main() runs and sets Module.relaxedKernel, which attn::forward() then uses for the tiled
// kernel (relaxed.cpp). Elsewhere, or with Module.relaxedSimd = false, nothing is loaded and
// the SIMD128 kernel runs. Module.kernelPath says which: "wasm-relaxed-simd" or "wasm-simd128";
// Module.relaxedSimdSupported whether the runtime could run relaxed SIMD.
(function () {
  const name = 'attention-relaxed.wasm';
  Module['kernelPath'] = 'wasm-simd128';
  // A function whose body is f32x4.relaxed_madd: valid only where relaxed SIMD is on.
  const probe = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 19, 1, 17, 0,
                                65, 0, 253, 15, 65, 0, 253, 15, 65, 0, 253, 15, 253, 133, 2, 11]);
  Module['relaxedSimdSupported'] = typeof WebAssembly === 'object' && WebAssembly.validate(probe);
  if (Module['relaxedSimd'] === false || !Module['relaxedSimdSupported']) return;

  // wasi-libc links a few WASI imports that the kernel never reaches (stdio for abort messages).
  function imports(module) {
    const wasi = {};
    for (const i of WebAssembly.Module.imports(module))
      if (i.module === 'wasi_snapshot_preview1')
        wasi[i.name] = () => { throw new Error(name + ' called WASI ' + i.name); };
    return { wasi_snapshot_preview1: wasi };
  }

  function adopt(module) {
    const e = new WebAssembly.Instance(module, imports(module)).exports;
    e._initialize();
    const at = e.attn_instruction_set();
    const text = new Uint8Array(e.memory.buffer, at, new Uint8Array(e.memory.buffer, at).indexOf(0));
    Module['relaxedKernel'] = {
      instructionSet: new TextDecoder().decode(text),  // simd.h's kName there
      maddChains: e.attn_madd_chains,  // attn::madd_chains with fused multiply-add
      // The arguments of relaxed.cpp's attn_relaxed_forward, pointers into the caller's heap
      // (unsigned: the heap may pass 2 GiB). False when this module's memory cannot hold them.
      forward(HEAP32, HEAPF32, args, scale, q, k, v, mask, out) {
        // (No destructuring: Emscripten 3.1.6's JS optimizer mangles it.)
        const a = HEAP32.subarray(args >>> 2, (args >>> 2) + 14);
        const batch = a[0], heads = a[1], kvHeads = a[2], nq = a[3], nk = a[4], dk = a[5], dv = a[6];
        const maskCount = a[13];
        const pointers = [q, k, v, mask];
        const counts = [batch * heads * nq * dk, batch * kvHeads * nk * dk, batch * kvHeads * nk * dv, maskCount];
        const outCount = batch * heads * nq * dv;
        const bytes = 4 * (counts[0] + counts[1] + counts[2] + counts[3] + outCount);
        if (bytes > 0xffffffff) return false;
        const base = e.attn_alloc(bytes);
        if (!base) return false;
        try {
          const memory = new Float32Array(e.memory.buffer);  // after the allocation, which may grow it
          const at = [];
          let offset = base >>> 2;
          for (let i = 0; i < 4; i++) {
            memory.set(HEAPF32.subarray(pointers[i] >>> 2, (pointers[i] >>> 2) + counts[i]), offset);
            at.push(offset * 4);
            offset += counts[i];
          }
          e.attn_tiled_forward(batch, heads, kvHeads, nq, nk, dk, dv, at[0], at[1], at[2], scale, a[7], a[8],
                               a[9], a[10], a[11], a[12], at[3], maskCount, offset * 4);
          HEAPF32.set(new Float32Array(e.memory.buffer, offset * 4, outCount), out >>> 2);
          return true;
        } finally {
          e.attn_free(base);
        }
      },
    };
    // What the module says it was compiled for ("wasm-relaxed-simd"), not what was hoped.
    Module['kernelPath'] = Module['relaxedKernel'].instructionSet;
  }

  const fallBack = (error) => console.warn('Attention Lab: the SIMD128 kernel runs (' + error.message + ')');
  if (typeof process === 'object' && process.versions && process.versions.node && typeof window !== 'object') {
    // Node: beside this script, read synchronously (as node_wasm_pre.js reads the main module).
    try {
      adopt(new WebAssembly.Module(require('fs').readFileSync(require('path').join(__dirname, name))));
    } catch (error) {
      fallBack(error);
    }
    return;
  }
  // Pages and workers: fetched before main() runs (a run dependency). Where it cannot be had,
  // the SIMD128 kernel runs and the console says why.
  const before = Module['preRun'];
  Module['preRun'] = [].concat(before || [], function () {
    addRunDependency(name);
    fetch(locateFile(name))
      .then((response) => {
        if (!response.ok) throw new Error(name + ': HTTP ' + response.status);
        return response.arrayBuffer();
      })
      .then((bytes) => WebAssembly.compile(bytes))
      .then(adopt)
      .catch(fallBack)
      .finally(() => removeRunDependency(name));
  });
})();
