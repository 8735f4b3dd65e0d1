// Bringing your own data (docs/loading-data.md) and your own model (docs/your-model.md): a
// request in the contract's JSON format (docs/contract.md) or NumPy .npy files, and a model's
// files, opened with the page's file buttons, dropped on the canvas, or passed by a script.
// Everything is read in the page; nothing is uploaded. page.js calls
// attentionLabLoad(Module, api, call) once, before the app loads; it adds:
//
//   attentionLab.load(request[, {tokens, head, name}])  -> {notes: [...]} or {error: "..."}
//   attentionLab.loadFiles(files)                       -> a promise of the same
//   attentionLab.loadModel(files)                       -> a promise of {name, format, architecture,
//                                                          layers, heads, d_model, context,
//                                                          vocabulary, tokenizer, parameters},
//                                                          rejected with an Error naming the file
//
// The request (an object or JSON text; or {"request": ..., "tokens": ..., "head": ...}) is
// parsed and checked in C++ by the contract's parser, then mapped onto the walkthrough
// (src/model/load.h). This file only reads what JSON cannot carry: the .npy format.
'use strict';
window.attentionLabLoad = function (Module, api, call) {
  const ENVELOPE = ['request', 'tokens', 'head'];

  // The strings go through malloc: ccall's strings live on the stack, and a request at the
  // interface's limits is tens of megabytes of text.
  function callLoad(requestText, options) {
    if (!Module.calledRun) return { error: 'attentionLab.load: the app has not loaded yet (await attentionLab.ready)' };
    const texts = [requestText, JSON.stringify(options)].map(text => {
      const size = Module.lengthBytesUTF8(text) + 1;
      const ptr = Module._malloc(size);
      if (!ptr) return 0;
      Module.stringToUTF8(text, ptr, size);
      return ptr;
    });
    try {
      if (!texts[0] || !texts[1]) return { error: 'request: too large for this page\'s memory' };
      return JSON.parse(call('lab_load', ...texts));
    } finally {
      texts.forEach(ptr => ptr && Module._free(ptr));
    }
  }

  // A request, or the envelope {"request": ..., "tokens": ..., "head": ...}, given as an
  // object or as JSON text (kept as it is, so the contract reports its own JSON errors).
  function load(request, options = {}) {
    let parsed = request;
    if (typeof request === 'string') {
      try { parsed = JSON.parse(request); } catch (e) { return callLoad(request, options); }
    }
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed) && 'request' in parsed) {
      const extra = Object.keys(parsed).find(key => !ENVELOPE.includes(key));
      if (extra) return { error: `request: unknown field "${extra}" next to "request" (expected tokens or head)` };
      const { request: inner, ...rest } = parsed;
      return callLoad(JSON.stringify(inner) ?? 'null', { ...rest, ...options });
    }
    return callLoad(typeof request === 'string' ? request : JSON.stringify(request) ?? 'null', options);
  }
  api.load = (request, options) => show(load(request, options));

  // [.npy] NumPy's format, version 1 to 3: magic, header length, a Python dict literal, data.
  const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59];  // \x93NUMPY
  function readNpy(name, buffer) {
    const bytes = new Uint8Array(buffer);
    if (bytes.length < 10 || MAGIC.some((m, i) => bytes[i] !== m))
      throw new Error(`${name}: not a .npy file (it does not begin with NumPy's magic bytes)`);
    const major = bytes[6];
    if (major < 1 || major > 3) throw new Error(`${name}: .npy format version ${major} is not one this page reads (1 to 3)`);
    const start = major === 1 ? 10 : 12;
    if (bytes.length < start) throw new Error(`${name}: truncated inside its header`);
    const view = new DataView(buffer);
    const headerLength = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
    if (bytes.length < start + headerLength) throw new Error(`${name}: truncated inside its header`);
    const header = new TextDecoder(major === 3 ? 'utf-8' : 'latin1').decode(bytes.subarray(start, start + headerLength));
    const descr = /'descr'\s*:\s*'([^']*)'/.exec(header);
    const fortran = /'fortran_order'\s*:\s*(True|False)/.exec(header);
    const shapeText = /'shape'\s*:\s*\(([^)]*)\)/.exec(header);
    if (!descr || !fortran || !shapeText) throw new Error(`${name}: its header does not describe an array (descr, fortran_order, shape)`);
    const dtype = descr[1];
    const kinds = { '<f4': Float32Array, '<f8': Float64Array };
    if (/^>f[248]$/.test(dtype))
      throw new Error(`${name}: big-endian data (${dtype}); save it little-endian, e.g. np.save(path, a.astype('<f4'))`);
    if (/^[<>=|]f2$/.test(dtype))
      throw new Error(`${name}: float16 data; save it as float32 or float64, e.g. np.save(path, a.astype(np.float32))`);
    if (!kinds[dtype]) throw new Error(`${name}: data of type ${dtype}; q, k and v must be float32 or float64 (<f4 or <f8)`);
    if (fortran[1] === 'True')
      throw new Error(`${name}: Fortran order; save it in C order, e.g. np.save(path, np.ascontiguousarray(a))`);
    const dims = shapeText[1].split(',').map(s => s.trim()).filter(s => s !== '').map(Number);
    if (dims.some(d => !Number.isSafeInteger(d) || d < 0)) throw new Error(`${name}: its shape (${shapeText[1]}) is not a list of sizes`);
    const Kind = kinds[dtype];
    const count = dims.reduce((a, d) => a * d, 1);
    const dataStart = start + headerLength, need = count * Kind.BYTES_PER_ELEMENT;
    if (bytes.length - dataStart !== need)
      throw new Error(`${name}: ${bytes.length - dataStart < need ? 'truncated' : 'longer than its shape'}: ` +
                      `shape (${dims.join(', ')}) of ${dtype} needs ${need} bytes of data, the file has ${bytes.length - dataStart}`);
    const values = new Kind(buffer.slice(dataStart, dataStart + need));  // slice: aligned
    // JSON has no NaN or infinity, so they are named here, at their index.
    const bad = values.findIndex(x => !Number.isFinite(x));
    if (bad >= 0) {
      let index = '', at = bad;
      for (let a = dims.length - 1; a >= 0; --a) { index = `[${at % dims[a]}]` + index; at = Math.floor(at / dims[a]); }
      throw new Error(`${name}: entry ${index} is ${values[bad]}, not a finite number`);
    }
    // Nested arrays, C order: the contract's tensors.
    const nest = (axis, offset) => {
      if (axis === dims.length) return values[offset];
      const stride = dims.slice(axis + 1).reduce((a, d) => a * d, 1);
      return Array.from({ length: dims[axis] }, (_, i) => nest(axis + 1, offset + i * stride));
    };
    return nest(0, 0);
  }

  // Which tensor a .npy file holds, from its name: q.npy, k.npy, v.npy, or a name ending in
  // _q, -q or .q (layer0_q.npy).
  const roleOf = name => (/(?:^|[_.-])([qkv])\.npy$/i.exec(name) || [])[1]?.toLowerCase();

  // Files from the button or a drop: one request (.json), or q, k and v (.npy), each with an
  // optional tokens.json. Resolves to load()'s answer; every problem is one sentence naming a file.
  async function loadFiles(fileList) {
    const files = Array.from(fileList || []);
    try {
      if (!files.length) return { error: 'files: none given' };
      const tokensFile = files.find(f => f.name.toLowerCase() === 'tokens.json');
      const options = { name: files.filter(f => f !== tokensFile).map(f => f.name).join(', ') };
      if (tokensFile) {
        try { options.tokens = JSON.parse(await tokensFile.text()); } catch (e) {
          return { error: `${tokensFile.name}: not JSON (expected ["tok", ...] or {"queries": [...], "keys": [...]})` };
        }
      }
      const rest = files.filter(f => f !== tokensFile);
      const prefix = (result, file) => result.error ? { error: `${file}: ${result.error}` } : result;
      const json = rest.filter(f => /\.json$/i.test(f.name));
      const npy = rest.filter(f => /\.npy$/i.test(f.name));
      const other = rest.find(f => !json.includes(f) && !npy.includes(f));
      if (other) return { error: `${other.name}: not a .json request or a .npy array` };
      if (json.length && npy.length) return { error: `${json[0].name}: give either a .json request or .npy files, not both` };
      if (json.length > 1) return { error: `${json[1].name}: one .json request at a time` };
      if (json.length === 1) {
        const result = load(await json[0].text(), options);
        return prefix(result, tokensFile && /^tokens/.test(result.error) ? tokensFile.name : json[0].name);
      }
      const byRole = {};
      for (const f of npy) {
        const role = roleOf(f.name);
        if (!role) return { error: `${f.name}: name it q.npy, k.npy or v.npy (or end its name in _q, _k or _v) to say which tensor it holds` };
        if (byRole[role]) return { error: `${f.name}: a second file for ${role} (${byRole[role].name} is the first)` };
        byRole[role] = f;
      }
      const missing = ['q', 'k', 'v'].filter(r => !byRole[r]);
      if (missing.length) return { error: `files: ${missing.map(r => r + '.npy').join(' and ')} missing (q, k and v are all needed)` };
      const request = {};
      for (const role of ['q', 'k', 'v']) request[role] = readNpy(byRole[role].name, await byRole[role].arrayBuffer());
      const result = callLoad(JSON.stringify(request), options);
      // The contract names the field (q, k, v, tokens): say which file it came from.
      const field = /^(?:([qkv])\b|(tokens))/.exec(result.error || '');
      return field ? prefix(result, field[1] ? byRole[field[1]].name : tokensFile.name) : result;
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) };
    }
  }
  // Reading and checking large files takes seconds: the message says so meanwhile.
  function busy(files) {
    message.textContent = Module.labText('Reading %s…').replace('%s', Array.from(files || [], f => f.name).join(', '));
    message.classList.remove('error');
    message.classList.add('busy');
    message.hidden = false;
  }
  api.loadFiles = async files => {
    busy(files);
    return show(await loadFiles(files));
  };

  // [models] A model's files (Files, or {name, data} with an ArrayBuffer): copied into the app's
  // heap, recognised and checked there (src/lm/formats), and shown in view=model.
  async function loadModel(fileList) {
    if (!Module.calledRun) throw new Error('attentionLab.loadModel: the app has not loaded yet (await attentionLab.ready)');
    const files = Array.from(fileList || []);
    if (!files.length) throw new Error('files: none given (a model\'s files: docs/your-model.md)');
    const listed = [];
    try {
      for (const f of files) {
        if (!f || typeof f.name !== 'string') throw new Error('files: each must be a File or {name, data}');
        const bytes = new Uint8Array(f.data ?? await f.arrayBuffer());
        const ptr = Module._malloc(Math.max(1, bytes.length));
        if (!ptr) throw new Error(`${f.name}: ${bytes.length} bytes do not fit in this page's memory`);
        Module.HEAPU8.set(bytes, ptr);  // the heap after the malloc, which may have grown it
        listed.push({ name: f.name, ptr, size: bytes.length });
      }
    } catch (e) {
      listed.forEach(f => Module._free(f.ptr));
      throw e;
    }
    const result = JSON.parse(call('lab_open_model', JSON.stringify(listed)));  // frees the buffers
    if (result.error) throw new Error(result.error);
    return result.model;
  }
  api.loadModel = async files => {
    busy(files);
    try {
      const m = await loadModel(files);
      show({ text: Module.labText('Opened %s').replace('%s', m.name) + '.' });
      return m;
    } catch (e) {
      show({ error: e.message });
      throw e;
    }
  };
  // A drop holding a model file goes to loadModel, any other to loadFiles.
  const isModel = files => Array.from(files).some(f => /\.(safetensors|bin|pt)$/i.test(f.name));

  // [the page] the file buttons, drops on the canvas, and the answer beside the buttons.
  const input = document.getElementById('load-input');
  const modelInput = document.getElementById('model-input');
  const message = document.getElementById('load-message');
  // What a load says about the data shown then goes by itself after a few seconds, and at once
  // when the state changes (another head, step or edit): it never describes what is no longer
  // on screen, and clicks go through it to the lab. An error stays until clicked or replaced.
  const NOTE_SECONDS = 6;
  let noteTimer = 0, stopWatching = null;
  function hideNote() {
    clearTimeout(noteTimer);
    if (stopWatching) stopWatching();
    stopWatching = null;
    if (!message.classList.contains('note')) return;
    message.classList.remove('note');
    message.hidden = true;
  }
  function show(result) {
    hideNote();
    message.textContent = result.error ? result.error + '.'
                        : result.text ?? [Module.labText('Loaded.'), ...result.notes.map(n => n + '.')].join(' ');
    message.classList.toggle('error', !!result.error);
    message.classList.toggle('note', !result.error);
    message.classList.remove('busy');
    message.hidden = false;
    if (!result.error) {
      noteTimer = setTimeout(hideNote, NOTE_SECONDS * 1000);
      stopWatching = api.on('change', hideNote);
    }
    return result;
  }
  // The app's "Open data…" (its inputs' Example section, a phone's ☰ menu) opens the chooser;
  // the page's own label stays for the keyboard, shown when it has the focus. An instance
  // embedded in a lesson takes drops only.
  if (window.parent !== window) input.parentElement.hidden = modelInput.parentElement.hidden = true;
  else {
    Module.labOpenData = () => input.click();
    Module.labOpenModel = () => modelInput.click();
  }
  message.addEventListener('click', () => { message.hidden = true; });
  input.addEventListener('change', async () => {
    await api.loadFiles(input.files);
    input.value = '';  // the same files again are a new choice
  });
  Module.canvas.addEventListener('dragover', event => {
    if (event.dataTransfer && Array.from(event.dataTransfer.types).includes('Files')) event.preventDefault();
  });
  modelInput.addEventListener('change', async () => {
    await api.loadModel(modelInput.files).catch(() => {});  // the message says why
    modelInput.value = '';
  });
  Module.canvas.addEventListener('drop', event => {
    if (!event.dataTransfer || !event.dataTransfer.files.length) return;
    event.preventDefault();
    const files = event.dataTransfer.files;
    if (isModel(files)) api.loadModel(files).catch(() => {});
    else api.loadFiles(files);
  });
};
