// view=model as a student reads it (issue 42, item 0), with a mouse at 1280 × 800: the
// attribution at a linked character adds up and fits a screen; an opened head's large map is
// zoomed so that every row in view is labelled and a line tall, the chosen row among them; its
// OV map is labelled; "Open in the walkthrough" keeps the chosen character as the query. Screenshots of each step in build/ (ATTN_SCREENSHOT_DIR).
import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { centre, click, findSteadyItem, frames, launchBrowser, openLab, reach as reachItem, startServer,
         until } from './harness.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const shots = process.env.ATTN_SCREENSHOT_DIR || path.join(root, 'build');
const sentence = 'We missed the last train, so we walked home in the rain.';

const numbers = (page, text) => until(page, (text) => {
  const e = window.attentionLab.experiment();
  return e && e.tokens && (text === undefined || e.text === text) && e;
}, text);
const shown = (t) => (t === ' ' ? '␣' : t === '\n' ? '↵' : t);

// The large map's rows in view: every one labelled (consecutive characters of the text), each
// at least `line` CSS pixels tall, the chosen one among them; and the map on screen.
async function readableMap(page, e, chosen, { height, line }) {
  const item = await findSteadyItem(page, { label: 'model head', kind: 'heatmap' });
  assert.ok(item.y >= 0 && item.y + item.h <= height, `the opened head's map at ${item.y}…${item.y + item.h} of ${height}`);
  const labels = item.rowLabels, tokens = e.tokens.map(shown);
  assert.ok(labels.length >= 8, `${labels.length} rows labelled`);
  // Where they are in the text (a text typed twice has two such places).
  const places = tokens.map((_, a) => a).filter((a) => labels.every((l, k) => tokens[a + k] === l));
  assert.ok(places.length, `the labels ${JSON.stringify(labels)} are not consecutive characters of the text`);
  assert.ok(places.some((a) => chosen >= a && chosen < a + labels.length), `row ${chosen} not in view (${places})`);
  assert.ok(item.h / labels.length >= line, `rows of ${item.h / labels.length} px`);
  return item;
}

test('with a mouse at 1280 × 800: a link to a character of a head, its attribution, its walkthrough', async (t) => {
  const server = await startServer();
  const { context, close } = await launchBrowser();
  t.after(async () => { await close(); await server.close(); });
  const text = sentence + ' ' + sentence, chosen = 70;
  const { page, errors } = await openLab(context, server.url,
                                         `view=model&text=${encodeURIComponent(text)}&head=1.0&at=${chosen}`);
  const e = await numbers(page, text);
  const a = e.attribution;
  assert.equal(a.position, chosen);
  const sum = a.parts.reduce((t, p) => t + p.direct, 0);
  assert.ok(Math.abs(sum - a.value) < 1e-3, `the parts add up to ${sum}, the logit is ${a.value}`);
  const reach = (query) => reachItem(page, query, { bottom: 800 });
  const bars = await reach({ label: 'attribution', kind: 'plot' });
  assert.ok(bars.h <= 800 - 60, `the attribution is ${bars.h} px tall`);
  await page.screenshot({ path: path.join(shots, 'e2e-model-reading-laptop-attribution.png') });
  await reach({ label: 'model head', kind: 'heatmap' });
  await readableMap(page, e, chosen, { height: 800, line: 14 });
  await page.screenshot({ path: path.join(shots, 'e2e-model-reading-laptop-head.png') });
  const ov = await reach({ label: 'model ov', kind: 'heatmap' });
  assert.ok(ov.h <= 800 - 60 && ov.rowLabels.includes('a'), JSON.stringify(ov));
  await page.screenshot({ path: path.join(shots, 'e2e-model-reading-laptop-ov.png') });
  await reach({ label: 'model composition', kind: 'heatmap' });
  await page.screenshot({ path: path.join(shots, 'e2e-model-reading-laptop-composition.png') });
  await click(page, centre(await reach({ label: 'Open in the walkthrough', kind: 'button' })));
  const s = await until(page, () => { const s = window.attentionLab.getState(); return s.view === 'walkthrough' && s; });
  assert.equal(Number(s.query), chosen);
  await page.evaluate(() => window.attentionLab.setState({ step: 'softmax' }));
  await frames(page, 4);
  await page.screenshot({ path: path.join(shots, 'e2e-model-reading-laptop-walkthrough.png') });
  assert.deepEqual(errors, []);
});
