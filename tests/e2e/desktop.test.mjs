// The desktop build under a virtual X server (xvfb-run, Mesa llvmpipe): --screenshot writes a
// PNG of the real window, which must be the right size and show more than one colour.
//   ATTN_APP=build/native/attention-lab node --test tests/e2e/desktop.test.mjs
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

const app = process.env.ATTN_APP || 'build/native/attention-lab';

// Decodes an 8-bit RGBA PNG (what stb_image_write produces) into its rows of pixels.
function decodePng(buffer) {
  assert.equal(buffer.toString('latin1', 1, 4), 'PNG');
  let offset = 8, width = 0, height = 0;
  const idat = [];
  while (offset < buffer.length) {
    const length = buffer.readUInt32BE(offset);
    const type = buffer.toString('latin1', offset + 4, offset + 8);
    const data = buffer.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      assert.equal(data[8], 8, 'bit depth');
      assert.equal(data[9], 6, 'colour type RGBA');
    }
    if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * 4, pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; ++y) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; ++x) {
      const a = x >= 4 ? pixels[y * stride + x - 4] : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + x] : 0;
      const c = x >= 4 && y > 0 ? pixels[(y - 1) * stride + x - 4] : 0;
      const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
      const predictor = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][filter];
      pixels[y * stride + x] = (line[x] + predictor) & 255;
    }
  }
  return { width, height, pixels };
}

test('attention-lab --screenshot draws the walkthrough under xvfb-run', () => {
  assert.ok(fs.existsSync(app), `${app} not found: run ./scripts/build.sh native first`);
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'attention-lab-')), 'desktop.png');
  execFileSync('xvfb-run', ['-a', app, '--screenshot', out, '--frames', '3', '--state', 'preset=random&step=softmax'],
               { stdio: 'inherit', timeout: 60000, env: { ...process.env, LIBGL_ALWAYS_SOFTWARE: '1' } });
  const { width, height, pixels } = decodePng(fs.readFileSync(out));
  assert.equal(width, 1280);
  assert.equal(height, 800);
  const colours = new Set();
  for (let i = 0; i < pixels.length; i += 4 * 97) colours.add(pixels.readUInt32BE(i));
  assert.ok(colours.size > 50, `only ${colours.size} colours: the window looks empty`);
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
});
