// A notebook's lab (python/attention_lab, docs/notebooks.md): this document carries the app and
// the data inside itself, because a notebook's output, its HTML export or a course page built
// from it has no files beside it and may have no network. The Python side writes the payload
// (#lab-payload) and this script before index.html's own; index.html then asks
// window.labBundle(Module) for the app instead of fetching attention-lab.js and .wasm.
//
// Payload: {app, wasm: gzip + base64 of attention-lab.js and .wasm;
//           request: the contract's request without its tensors (scale, causal);
//           tensors: {q, k, v (a layers axis first), mask? (every layer's):
//                     {shape, dtype: "float32" | "bool", data: gzip + base64}};
//           layered: whether to load {"layers": [request, ...]} rather than one request;
//           options: attentionLab.load()'s (tokens, head, layer, name); state: setState()'s}.
// window.labNotebook.loaded resolves to load()'s answer ({notes} or {error}) once shown.
'use strict';
(function () {
  const payload = JSON.parse(document.getElementById('lab-payload').textContent);

  async function unpack(base64) {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    return new Response(stream).arrayBuffer();
  }

  // Flat C-order values as the contract's nested arrays.
  function nest(values, shape, axis = 0, offset = 0) {
    if (axis === shape.length) return values[offset];
    const stride = shape.slice(axis + 1).reduce((a, d) => a * d, 1);
    return Array.from({ length: shape[axis] }, (_, i) => nest(values, shape, axis + 1, offset + i * stride));
  }

  async function request() {
    const t = {};
    for (const [name, tensor] of Object.entries(payload.tensors)) {
      const bytes = await unpack(tensor.data);
      const values = tensor.dtype === 'float32' ? new Float32Array(bytes) : Array.from(new Uint8Array(bytes), (b) => b !== 0);
      t[name] = nest(values, tensor.shape);
    }
    const layers = t.q.map((q, l) => Object.assign({}, payload.request, { q, k: t.k[l], v: t.v[l] },
                                                   t.mask ? { mask: t.mask } : {}));
    return payload.layered ? { layers } : layers[0];
  }

  let loaded;
  window.labNotebook = { loaded: new Promise((resolve) => { loaded = resolve; }) };

  window.labBundle = async function (Module) {
    const [script, wasm, data] = await Promise.all([unpack(payload.app), unpack(payload.wasm), request()]);
    Module.wasmBinary = wasm;
    // The SIMD128 kernel: attention-relaxed.wasm would be one more file to carry in every
    // output for a speed a notebook's sizes do not need.
    Module.relaxedSimd = false;
    window.attentionLab.ready.then((api) => {
      const answer = api.load(data, payload.options);
      if (!answer.error) api.setState(payload.state);
      loaded(answer);
    });
    return URL.createObjectURL(new Blob([script], { type: 'text/javascript' }));
  };
})();
