// Paper read back: a PDF printed by Chromium (page.pdf), its pages as pixels (poppler's
// pdftoppm) and its text (pdftotext). Shared by hosts.test.mjs and deck.test.mjs.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { PNG } from 'pngjs';

let files = 0;
const scratch = (dir, ext) => path.join(dir, `print-${process.pid}-${++files}${ext}`);

// Page `number` (from 1) of `pdf` as a PNG at 40 dpi; `copyTo` keeps the picture (a screenshot
// to look at).
export function pdfPage(dir, pdf, number, copyTo) {
  const file = scratch(dir, '');
  fs.writeFileSync(file + '.pdf', pdf);
  execFileSync('pdftoppm', ['-png', '-r', '40', '-f', String(number), '-l', String(number), '-singlefile', file + '.pdf', file]);
  if (copyTo) fs.copyFileSync(file + '.png', copyTo);
  return PNG.sync.read(fs.readFileSync(file + '.png'));
}

export function pdfPageCount(dir, pdf) {
  const file = scratch(dir, '.pdf');
  fs.writeFileSync(file, pdf);
  return Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file]).toString())[1]);
}

export function pdfText(dir, pdf) {
  const file = scratch(dir, '.pdf');
  fs.writeFileSync(file, pdf);
  return execFileSync('pdftotext', [file, '-']).toString();
}

// How much of a picture is coloured (a figure's heat map and bars; text, placeholders and an
// empty box are greys), in the rows [top, bottom) of the picture (fractions of its height).
export function colouredShare(png, top = 0, bottom = 1) {
  let coloured = 0;
  const from = Math.floor(top * png.height) * png.width * 4;
  const to = Math.floor(bottom * png.height) * png.width * 4;
  for (let i = from; i < to; i += 4) {
    const [r, g, b] = png.data.subarray(i, i + 3);
    if (Math.max(r, g, b) - Math.min(r, g, b) > 40) coloured++;
  }
  return coloured / Math.max(1, (to - from) / 4);
}
