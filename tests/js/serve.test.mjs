// scripts/serve.mjs, which run.sh and the browser tests serve the page with: nothing outside
// its folder is ever answered, however the path is spelled, and no request stops it.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { serve } from '../../scripts/serve.mjs';

// A site folder and, beside it, a secret the server must never give out.
const top = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-lab-serve-'));
const site = path.join(top, 'web');
fs.mkdirSync(path.join(site, 'sub'), { recursive: true });
fs.writeFileSync(path.join(site, 'index.html'), '<!doctype html>home');
fs.writeFileSync(path.join(site, 'sub', 'page.html'), 'sub page');
fs.writeFileSync(path.join(site, 'kernel.wasm'), Buffer.from([0, 97, 115, 109]));
fs.mkdirSync(path.join(top, 'webx'));
fs.writeFileSync(path.join(top, 'webx', 'secret.txt'), 'SECRET');
fs.writeFileSync(path.join(top, 'secret.txt'), 'SECRET');

const server = await serve(site, 0);
test.after(async () => {
  await server.close();
  fs.rmSync(top, { recursive: true, force: true });
});

// The path exactly as written: fetch() and URL would normalise the dots away first.
function get(rawPath) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: server.port, path: rawPath, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (c) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode, type: res.headers['content-type'], body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('serves the site, with the MIME type streaming WebAssembly compilation needs', async () => {
  assert.equal((await get('/')).body, '<!doctype html>home');
  assert.equal((await get('/sub/page.html')).body, 'sub page');
  assert.equal((await get('/kernel.wasm')).type, 'application/wasm');
  assert.equal((await get('/missing.js')).status, 404);
});

test('nothing outside the folder, however the path is spelled', async () => {
  const attempts = [
    '/../secret.txt', '/..%2fsecret.txt', '/..%2Fsecret.txt', '/%2e%2e/secret.txt', '/%2e%2e%2fsecret.txt',
    '/sub/../../secret.txt', '/sub/..%2f..%2fsecret.txt', '/..%5csecret.txt', '/..\\secret.txt',
    '/../webx/secret.txt', '/..%2fwebx/secret.txt', '/%2e%2e%2fwebx%2fsecret.txt', '/.%2e/webx/secret.txt',
    '/%252e%252e%252fsecret.txt', '/secret.txt%00.html', '/%00', `/${'a/'.repeat(2000)}../secret.txt`,
  ];
  for (const attempt of attempts) {
    const r = await get(attempt);
    assert.ok(r.status >= 400, `${attempt}: status ${r.status}`);
    assert.ok(!r.body.includes('SECRET'), `${attempt} gave out the secret`);
  }
});

test('malformed escapes and very long paths get an error, and the server keeps answering', async () => {
  for (const bad of ['/%E0%A4%A', '/%', '/%zz', '/%C0%AF', `/${'x'.repeat(20000)}`]) {
    const r = await get(bad);
    assert.ok(r.status >= 400 && r.status < 500, `${bad.slice(0, 20)}: status ${r.status}`);
    assert.equal((await get('/')).body, '<!doctype html>home', `the server still answers after ${bad.slice(0, 20)}`);
  }
});
