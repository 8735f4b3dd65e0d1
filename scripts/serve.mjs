#!/usr/bin/env node
// A static file server for build/web (or any folder), loopback only: what run.sh serves and
// what the browser tests load pages from. Usage: node scripts/serve.mjs [dir] [port]
// Also importable: `const { url, close } = await serve(dir, port)`; port 0 picks a free one.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import finalhandler from 'finalhandler';
import serveStatic from 'serve-static';

// serve-static (send) resolves every path inside the root and answers 400 or 403 for
// malformed escapes, NUL bytes and climbs out of it, encoded or not; its MIME table knows
// .wasm, which browsers compile streaming only as application/wasm.
export function serve(dir, port = 0, host = '127.0.0.1') {
  const files = serveStatic(path.resolve(dir), {
    dotfiles: 'deny',
    setHeaders: (res) => res.setHeader('cache-control', 'no-cache'),
  });
  const server = http.createServer((req, res) => files(req, res, finalhandler(req, res)));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const { port: actual } = server.address();
      // close() also ends idle keep-alive connections: a browser that is still open keeps its
      // sockets for minutes, and server.close() alone would wait for them.
      const close = () => new Promise((r) => { server.close(r); server.closeAllConnections(); });
      resolve({ url: `http://${host}:${actual}/`, port: actual, close });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? 'build/web';
  const wanted = Number(process.argv[3] ?? 8080);
  if (!fs.existsSync(path.join(dir, 'index.html'))) {
    console.error(`serve: ${dir}/index.html is missing: build the page first (scripts/build.sh web)`);
    process.exit(1);
  }
  let served;
  try {
    served = await serve(dir, wanted);
  } catch (e) {
    if (e.code !== 'EADDRINUSE') throw e;
    served = await serve(dir, 0);
    console.log(`Port ${wanted} is busy; using a free port instead.`);
  }
  console.log(`Attention Lab is served at ${served.url}  (Ctrl+C stops it)`);
  // The front door for someone new to attention: the lesson, in English and in Spanish.
  console.log(`The lesson: ${served.url}lesson.html  (en español: ${served.url}leccion.html)`);
}
