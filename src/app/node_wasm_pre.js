// Under Node 20 the Emscripten 3.1.6 loader finds `fetch` and tries it on a file path, which
// fails. Hand it the binary read from beside this script instead (pages and workers fetch).
if (typeof process === 'object' && process.versions && process.versions.node &&
    typeof window !== 'object' && !Module['wasmBinary']) {
  Module['wasmBinary'] = require('fs').readFileSync(
      require('path').join(__dirname, '@WASM_NAME@'));
}
