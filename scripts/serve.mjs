#!/usr/bin/env node
// A static file server for build/web (or any folder), loopback only: what run.sh serves and
// what the browser tests load pages from. Usage: node scripts/serve.mjs [dir] [port]
// Also importable: `const { url, close } = await serve(dir, port)`; port 0 picks a free one.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8', '.wasm': 'application/wasm', '.json': 'application/json',
  '.css': 'text/css; charset=utf-8', '.png': 'image/png', '.svg': 'image/svg+xml',
  '.ttf': 'font/ttf', '.csv': 'text/csv; charset=utf-8', '.txt': 'text/plain; charset=utf-8',
};

export function serve(dir, port = 0, host = '127.0.0.1') {
  const root = path.resolve(dir);
  const server = http.createServer((req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file = path.join(root, urlPath);
    if (!file.startsWith(root)) { res.writeHead(403).end(); return; }
    if (urlPath.endsWith('/')) file = path.join(file, 'index.html');
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404, { 'content-type': 'text/plain' }).end('not found'); return; }
      res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream',
                           'cache-control': 'no-cache' });
      res.end(data);
    });
  });
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
}
