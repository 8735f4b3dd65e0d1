import path from 'node:path';
import { until } from './harness.mjs';
import { figureHeight } from './lesson_frames.mjs';
import { DEVICES, student, WORDS, openFresh } from './lesson_student.mjs';
const ids = process.argv.slice(3);
const device = DEVICES.find(d => d.name === process.argv[2]);
const words = device.hasTouch ? WORDS.es : WORDS.en;
const { server, page, close } = await student(device);
await openFresh(page, server, words.file);
for (const id of ids) {
  await page.evaluate(id => document.getElementById(id).scrollIntoView({ block: 'start' }), id);
  const frame = await (await page.locator(`#${id} iframe`).elementHandle()).contentFrame();
  await until(frame, () => { let e; try { e = window.attentionLab.experiment(); } catch (x) { return 'ERR ' + x.stack; } return e.tokens && e; }, undefined, { timeout: 90000 }).then(v => typeof v === 'string' && console.log(v));
  await new Promise(r => setTimeout(r, 1500));
  await page.evaluate(id => document.getElementById(id).scrollIntoView({ block: 'start' }), id);
  console.log(id, await figureHeight(page, id));
  await page.screenshot({ path: `/tmp/runs/shot-${device.name}-${id}.png` });
}
await close();
