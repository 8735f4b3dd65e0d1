// Convenience over the string API: an object in, an object out.
Module['computeObject'] = function (request) {
  return JSON.parse(Module['compute'](JSON.stringify(request)));
};
Module['trainObject'] = function (request) {
  return JSON.parse(Module['train'](JSON.stringify(request)));
};

// The typed-array API, for speed: no JSON, no nested arrays.
//   forward(q, k, v, {batch, heads, kvHeads, nq, nk, dk, dv}, {scale, causal, kernel})
// q, k, v are Float32Arrays laid out (batch, heads, n, d); batch and heads default to 1,
// kvHeads to heads. Options are those of the JSON contract (scale defaults to 1/√dk).
// Returns the output (batch, heads, nq, dv) as a new Float32Array. On bad input it throws an
// Error whose message is the sentence compute() would return as {"error": ...}.
Module['forward'] = function (q, k, v, dims, options) {
  const a = forwardArguments(q, k, v, dims, options);
  const d = a.dims;
  const out = Module['forwardArrays'](q, k, v, d.batch, d.heads, d.kvHeads, d.nq, d.nk, d.dk, d.dv,
                                      a.scale, a.causal, a.kernel);
  if (typeof out === 'string') throw new Error(out);
  return out;
};

// forward()'s arguments checked and completed: {dims (with batch, heads, kvHeads), scale, and
// the codes of attn::Causal and attn::Kernel}. Throws forward()'s errors.
function forwardArguments(q, k, v, dims, options) {
  dims = dims || {};
  options = options || {};
  for (const [name, x] of [['q', q], ['k', k], ['v', v]])
    if (!(x instanceof Float32Array)) throw new Error(name + ': expected a Float32Array');
  const d = Object.assign({ batch: 1, heads: 1 }, dims);
  if (d.kvHeads === undefined) d.kvHeads = d.heads;
  for (const name of ['batch', 'heads', 'kvHeads', 'nq', 'nk', 'dk', 'dv'])
    if (!Number.isInteger(d[name]) || d[name] < 1 || d[name] > 0x7fffffff)
      throw new Error('dims.' + name + ': expected a positive integer, got ' + d[name]);
  const scale = options.scale === undefined ? 1 / Math.sqrt(d.dk) : options.scale;
  if (typeof scale !== 'number' || !Number.isFinite(scale)) throw new Error('scale: expected a finite number');
  // Codes of attn::Causal and attn::Kernel.
  const causals = new Map([[false, 0], [true, 1], ['top_left', 1], ['bottom_right', 2]]);
  const causal = causals.get(options.causal === undefined ? false : options.causal);
  if (causal === undefined) throw new Error('causal: expected false, true, "top_left" or "bottom_right"');
  const kernel = new Map([['auto', 0], ['reference', 1], ['tiled', 2]]).get(
      options.kernel === undefined ? 'auto' : options.kernel);
  if (kernel === undefined) throw new Error('kernel: expected "auto", "reference" or "tiled"');
  return { dims: d, scale, causal, kernel };
}
