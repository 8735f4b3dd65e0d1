// A notebook's lab (python/attention_lab, docs/notebooks.md): this document carries the app and
// the data inside itself, because a notebook's output, its HTML export or a course page built
// from it has no files beside it and may have no network. The Python side writes the payload
// (#lab-payload) and this script before index.html's own; index.html then asks
// window.labBundle(Module) for the app instead of fetching attention-lab.js and .wasm.
//
// Payload: {app, wasm: gzip + base 85 of attention-lab.js and .wasm (_page.py's encode());
//           request: the contract's request without its tensors (scale, causal);
//           tensors: {q, k, v (a layers axis first), mask? (every layer's):
//                     {shape, dtype: "float32" | "bool", data: gzip + base 85; float32 values
//                      little-endian in four byte planes}};
//           layered: whether to load {"layers": [request, ...]} rather than one request;
//           options: attentionLab.load()'s (tokens, head, layer, name); state: setState()'s;
//           files: {name: gzip + base 85} of files the page would fetch beside it (view=model's
//                  model/tiny-lm.bin and model/report.json), in place of tensors to load;
//           model: {name: gzip + base 85} of a model's own files (show_model(model=DIR)), opened
//                  with attentionLab.loadModel, then model_state set (its heads, its tokens)}.
// window.labNotebook.loaded resolves to load()'s answer ({notes} or {error}) once shown ({}
// where nothing is loaded).
'use strict';
(function () {
  const payload = JSON.parse(document.getElementById('lab-payload').textContent);

  // Python's base 85 with '&', '<', '>' written ',', '.', ':' (nothing HTML or JSON escapes):
  // each 5 digits, most significant first, are 4 bytes; a last group of k digits, padded with
  // the highest digit, gives k - 1.
  const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%,()*+-;.=:?@^_`{|}~';
  const digit = new Uint8Array(128);
  for (let i = 0; i < DIGITS.length; i++) digit[DIGITS.charCodeAt(i)] = i;
  function base85(text) {
    const bytes = new Uint8Array(Math.floor(text.length / 5) * 4 + Math.max(text.length % 5 - 1, 0));
    for (let at = 0, out = 0; at < text.length; at += 5, out += 4) {
      let value = 0;
      for (let i = at; i < at + 5; i++) value = value * 85 + (i < text.length ? digit[text.charCodeAt(i)] : 84);
      for (let b = 0; b < 4 && out + b < bytes.length; b++) bytes[out + b] = Math.floor(value / 2 ** (24 - 8 * b)) % 256;
    }
    return bytes;
  }

  const unpacked = (text) => new Response(new Blob([base85(text)]).stream().pipeThrough(new DecompressionStream('gzip')));
  const unpack = (text) => unpacked(text).arrayBuffer();

  // The page's fetch() of a file beside it (page.js) asks here first: a Response for a file
  // this document carries, undefined for any other.
  window.labBundledFile = (name) => (payload.files && Object.hasOwn(payload.files, name) ? unpacked(payload.files[name]) : undefined);

  // Flat C-order values as the contract's nested arrays.
  function nest(values, shape, axis = 0, offset = 0) {
    if (axis === shape.length) return values[offset];
    const stride = shape.slice(axis + 1).reduce((a, d) => a * d, 1);
    return Array.from({ length: shape[axis] }, (_, i) => nest(values, shape, axis + 1, offset + i * stride));
  }

  async function request() {
    const t = {};
    for (const [name, tensor] of Object.entries(payload.tensors)) {
      const bytes = new Uint8Array(await unpack(tensor.data));
      let values;
      if (tensor.dtype === 'float32') {
        const count = bytes.length / 4, joined = new Uint8Array(bytes.length);
        for (let plane = 0; plane < 4; plane++) {
          for (let i = 0; i < count; i++) joined[4 * i + plane] = bytes[plane * count + i];
        }
        values = new Float32Array(joined.buffer);  // little-endian, as every browser's typed arrays
      } else {
        values = Array.from(bytes, (b) => b !== 0);
      }
      t[name] = nest(values, tensor.shape);
    }
    const layers = t.q.map((q, l) => Object.assign({}, payload.request, { q, k: t.k[l], v: t.v[l] },
                                                   t.mask ? { mask: t.mask } : {}));
    return payload.layered ? { layers } : layers[0];
  }

  // Keys stay in the lab: its document does not scroll, so the browser would scroll the
  // notebook around it instead (an arrow key moved the query and the notebook 40 px). Arrows,
  // Home, End and the page keys scroll on keydown, Space on keypress; the app reads both from
  // its own listeners all the same. (Escape gives the focus back to the notebook: page.js.)
  const SCROLLING = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);
  window.addEventListener('keydown', (event) => { if (SCROLLING.has(event.key)) event.preventDefault(); });
  window.addEventListener('keypress', (event) => { if (event.key === ' ') event.preventDefault(); });

  let loaded;
  window.labNotebook = { loaded: new Promise((resolve) => { loaded = resolve; }) };

  window.labBundle = async function (Module) {
    const [script, wasm, data] = await Promise.all([unpack(payload.app), unpack(payload.wasm),
                                                    payload.tensors ? request() : null]);
    Module.wasmBinary = wasm;
    // The SIMD128 kernel: attention-relaxed.wasm would be one more file to carry in every
    // output for a speed a notebook's sizes do not need.
    Module.relaxedSimd = false;
    window.attentionLab.ready.then((api) => {
      // An output whose frame takes the lab's height (_page.py's output(), height=None, names
      // the frame so; its name is the window's, whatever the origins): one column at every
      // width, the layout that height is measured for.
      if (window.name === 'attention-lab-content-height') Module.ccall('lab_fit_content', null, ['number'], [1]);
      // The state first (a load keeps the step, theme and language): the load's note is then in
      // the language asked for, and no change after it hides it at once (load.js).
      api.setState(payload.state);
      if (payload.model) {
        Promise.all(Object.entries(payload.model).map(async ([name, text]) => ({ name, data: await unpack(text) })))
          .then((files) => api.loadModel(files))
          .then((model) => { api.setState(payload.model_state); loaded({ model }); }, (e) => loaded({ error: e.message }));
        return;
      }
      loaded(data ? api.load(data, { ...payload.options, link: false }) : {});
    });
    return URL.createObjectURL(new Blob([script], { type: 'text/javascript' }));
  };
})();
