// forwardParallel(q, k, v, dims, options, {threads}): forward() split across workers (Node's
// worker threads, Web Workers in pages), resolving to the same Float32Array. This thread runs
// one block and each worker, with its own instance of this module (on the same kernel path,
// relaxed SIMD or SIMD128), another: whole key/value heads with their query heads where there
// are at least two, else a block of queries of every head. A worker is sent copies of its
// queries and of the keys and values they can see, and returns its part of the output. No
// memory is shared, so no SharedArrayBuffer and no cross-origin isolation (COOP/COEP headers)
// are needed: an embedded page gets the threads too. The copies are O(n·d) per worker against
// the kernel's O(n²·d).
//
// Causal masks survive the split: a block of queries [r0, r1) with bottom-right alignment over
// the first nk' keys sees exactly what those rows see in the whole problem, with nk' = r1 for
// top-left (when nq ≤ nk) and nk' = r1 + nk − nq for bottom-right; a block that sees no key at
// all is 0, as the contract says. Too little work for two threads, the reference kernel, a
// query split of top-left with more queries than keys, or no way to start a worker: forward()
// itself runs.
(function () {
  const isNode = typeof process === 'object' && process.versions && process.versions.node;
  // The script the workers load again (Emscripten's MODULARIZE wrapper records it).
  const script = typeof _scriptDir === 'string' ? _scriptDir : undefined;
  // Scores per thread below which a split costs more than it saves (bench/README.md: n = 512
  // gains 10% on two threads, n = 256 loses 20%).
  const kMinScoresPerThread = 512 * 256;

  function defaultThreads() {
    if (isNode) return require('os').cpus().length;
    return typeof navigator === 'object' && navigator.hardwareConcurrency ? navigator.hardwareConcurrency : 1;
  }

  // What a worker does with a message: forward() on its instance, the output sent back
  // transferred (not copied), or forward()'s error.
  const handle = 'function handle(a, m) {\n' +
                 '  try { return { id: m.id, out: a.forward(m.q, m.k, m.v, m.dims, m.options) }; }\n' +
                 '  catch (e) { return { id: m.id, error: String(e && e.message || e) }; }\n' +
                 '}\n';

  const pool = [];
  const pending = new Map();
  let nextId = 1;
  // Set when a worker failed before answering anything (a Content-Security-Policy without
  // worker-src blob:, say): later calls run in this thread instead of paying for the attempt,
  // and for this thread's block twice, every time.
  let cannotStart = false;

  function settle(message) {
    const p = pending.get(message.id);
    if (!p) return;
    pending.delete(message.id);
    if (message.error !== undefined) p.reject(new Error(message.error));
    else p.resolve(message.out);
  }
  function failAll(error) {
    for (const p of pending.values()) p.reject(error instanceof Error ? error : new Error(String(error)));
    pending.clear();
    for (const w of pool.splice(0)) w.stop();  // not reused after a failure: the next call starts new ones
  }

  function startWorker() {
    // The same kernel path as this instance: a worker declines relaxed SIMD if this one did.
    const settings = JSON.stringify(Module['kernelPath'] === 'wasm-relaxed-simd' ? {} : { relaxedSimd: false });
    if (isNode) {
      const source = 'const { parentPort, workerData } = require("worker_threads");\n' +
                     'const ready = require(workerData.script)(' + settings + ');\n' + handle +
                     'parentPort.on("message", (m) => ready.then((a) => {\n' +
                     '  const r = handle(a, m);\n' +
                     '  parentPort.postMessage(r, r.out ? [r.out.buffer] : []);\n' +
                     '}));\n';
      const w = new (require('worker_threads').Worker)(source, { eval: true, workerData: { script } });
      // Node waits for a worker only while it has a job: an idle pool does not keep it running.
      let jobs = 0;
      w.unref();
      w.on('message', (m) => {
        if (--jobs === 0) w.unref();
        settle(m);
      });
      w.on('error', failAll);
      return {
        post: (m, transfer) => {
          if (jobs++ === 0) w.ref();
          w.postMessage(m, transfer);
        },
        stop: () => w.terminate(),
      };
    }
    const at = JSON.stringify(script);
    const source = 'importScripts(' + at + ');\n' +
                   'const ready = createAttention(Object.assign(' + settings + ', { locateFile: (p) => new URL(p, ' + at +
                   ').href }));\n' + handle +
                   'onmessage = (e) => ready.then((a) => {\n' +
                   '  const r = handle(a, e.data);\n' +
                   '  postMessage(r, r.out ? [r.out.buffer] : []);\n' +
                   '});\n';
    const w = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
    let answered = false;
    w.onmessage = (e) => {
      answered = true;
      settle(e.data);
    };
    w.onerror = (e) => {
      if (!answered) cannotStart = true;
      failAll(new Error(e.message || 'a kernel worker failed'));
    };
    return { post: (m, transfer) => w.postMessage(m, transfer), stop: () => w.terminate() };
  }

  function run(worker, message, transfer) {
    return new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      worker.post(Object.assign({ id }, message), transfer);
    });
  }

  // Rows [r0, r1) of each of `groups` matrices of n rows × d, packed one after the other: a new
  // array for a worker (its buffer is transferred), else a view where the rows are contiguous.
  function rowsOf(x, groups, n, d, r0, r1, copy) {
    if (!copy && groups === 1) return x.subarray(r0 * d, r1 * d);
    if (!copy && r0 === 0 && r1 === n) return x.subarray(0, groups * n * d);
    const out = new Float32Array(groups * (r1 - r0) * d);
    for (let g = 0; g < groups; g++) out.set(x.subarray((g * n + r0) * d, (g * n + r1) * d), g * (r1 - r0) * d);
    return out;
  }

  // Even bounds 0 … total over `parts`, multiples of `step`; `area` for causal rows, whose work
  // grows with the row (blocks of equal work, not of equal rows).
  function split(total, parts, step, area) {
    const bounds = [];
    for (let t = 0; t <= parts; t++) {
      const share = area ? Math.sqrt(t / parts) : t / parts;
      bounds.push(t === parts ? total : Math.round((share * total) / step) * step);
    }
    return bounds;
  }

  // How many workers are running: at least threads − 1 after a split call (this thread runs
  // one block; the pool keeps its workers for later calls), 0 before any, or after a worker
  // failed (that call then ran in this thread alone).
  Module['kernelWorkers'] = () => pool.length;

  Module['forwardParallel'] = function (q, k, v, dims, options, settings) {
    let a;
    try {
      a = forwardArguments(q, k, v, dims, options);
    } catch (e) {
      return Promise.reject(e);
    }
    const d = a.dims;
    const wanted = settings && settings.threads !== undefined ? settings.threads : defaultThreads();
    if (!Number.isInteger(wanted) || wanted < 1) return Promise.reject(new Error('threads: expected a positive integer'));
    const groups = d.batch * d.heads, kvGroups = d.batch * d.kvHeads, perKv = d.heads / d.kvHeads;
    // Whole heads where there are enough of them (each block keeps the kernel's query blocks
    // whole); else blocks of queries of every head.
    const byHeads = kvGroups >= Math.min(wanted, 2);
    const worth = Math.floor((groups * d.nq * d.nk) / kMinScoresPerThread);
    const threads = Math.min(wanted, worth, byHeads ? kvGroups : Math.floor(d.nq / 4));
    const canStart = script && (isNode || typeof Worker === 'function') && !cannotStart;
    // The reference kernel is for small, teaching-sized inputs, and its score limit applies to
    // the whole problem: it is not split.
    const serial = () => new Promise((resolve) => resolve(Module['forward'](q, k, v, dims, options)));
    if (threads < 2 || !canStart || a.kernel === 1 || (!byHeads && a.causal === 1 && d.nq > d.nk)) return serial();
    while (pool.length < threads - 1) pool.push(startWorker());

    const out = new Float32Array(groups * d.nq * d.dv);
    const kernel = ['auto', 'reference', 'tiled'][a.kernel];
    const causal = [false, 'top_left', 'bottom_right'][a.causal];
    // Block t as forward()'s arguments, and where its output goes; null when there is nothing
    // to run (no rows, or no query of the block sees a key: its rows stay 0).
    const bounds = byHeads ? split(kvGroups, threads, 1, false) : split(d.nq, threads, 4, a.causal !== 0);
    const block = (t, copy) => {
      const b0 = bounds[t], b1 = bounds[t + 1];
      if (b1 <= b0) return null;
      if (byHeads) {
        // kv heads [b0, b1) of all batches, flattened, with their query heads: one batch each.
        const slice = (x, rows, dim) => (copy ? x.slice : x.subarray).call(x, b0 * rows * dim, b1 * rows * dim);
        return {
          q: slice(q, perKv * d.nq, d.dk), k: slice(k, d.nk, d.dk), v: slice(v, d.nk, d.dv),
          dims: { batch: b1 - b0, heads: perKv, kvHeads: 1, nq: d.nq, nk: d.nk, dk: d.dk, dv: d.dv },
          options: { scale: a.scale, causal, kernel },
          place: (part) => out.set(part, b0 * perKv * d.nq * d.dv),
        };
      }
      const keys = a.causal === 0 ? d.nk : a.causal === 1 ? b1 : Math.min(d.nk, b1 + d.nk - d.nq);
      if (keys < 1) return null;
      const rows = b1 - b0;
      return {
        q: rowsOf(q, groups, d.nq, d.dk, b0, b1, copy),
        k: rowsOf(k, kvGroups, d.nk, d.dk, 0, keys, copy),
        v: rowsOf(v, kvGroups, d.nk, d.dv, 0, keys, copy),
        dims: { batch: d.batch, heads: d.heads, kvHeads: d.kvHeads, nq: rows, nk: keys, dk: d.dk, dv: d.dv },
        options: { scale: a.scale, causal: a.causal === 0 ? false : 'bottom_right', kernel },
        place: (part) => {
          for (let g = 0; g < groups; g++)
            out.set(part.subarray(g * rows * d.dv, (g + 1) * rows * d.dv), (g * d.nq + b0) * d.dv);
        },
      };
    };
    // Blocks 1 … threads − 1 go to the workers; this thread runs block 0 meanwhile.
    const jobs = [];
    for (let t = 1; t < threads; t++) {
      const b = block(t, true);
      if (b) {
        const message = { q: b.q, k: b.k, v: b.v, dims: b.dims, options: b.options };
        jobs.push(run(pool[t - 1], message, [b.q.buffer, b.k.buffer, b.v.buffer]).then(b.place));
      }
    }
    try {
      const b = block(0, false);
      if (b) b.place(Module['forward'](b.q, b.k, b.v, b.dims, b.options));
    } catch (e) {
      return Promise.allSettled(jobs).then(serial);
    }
    // An error names indices within its block: forward() on the whole input says it as it
    // would (and, should it find nothing wrong, gives the answer).
    return Promise.all(jobs).then(() => out, serial);
  };
})();
