// The one-node ONNX model onnxruntime-web runs in the benchmark: com.microsoft.MultiHeadAttention
// over (1, n, heads·d) inputs, encoded with the ONNX protobuf schema onnxruntime-web ships (no
// binary model is stored). Node only (the schema is CommonJS); browser_bench.mjs hands the
// bytes to the page.
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { onnx } = require(path.join(root, 'node_modules/onnxruntime-web/lib/onnxjs/ort-schema/protobuf/onnx.js'));

export function attentionModel(heads, n, d, scale) {
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
}
