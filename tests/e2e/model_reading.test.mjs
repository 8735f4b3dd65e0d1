// view=model as a student reads it (issue 42, item 0), on a phone (390 × 844, a finger, the
// on-screen keyboard) and with a mouse at 1280 × 800: the text box takes a sentence from a
// text keyboard and grows to show it wrapped; a tapped character's attribution adds up and fits
// a screen; an opened head comes on screen, its large map zoomed so that every row in view is
// labelled and a line tall, the chosen row among them; its OV map is labelled, its colour scale's
// ends to a few digits; the attribution's bars beside their names; the composition table's
// headings each within its column, in English and Spanish; "Open in the walkthrough" keeps the
// chosen character as the query. Screenshots of each step in build/ (ATTN_SCREENSHOT_DIR).
import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { centre, click, findSteadyItem, frames, launchBrowser, layout, openLab, openOnPhone, reach as reachItem, startServer,
         touchTap, until } from './harness.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const shots = process.env.ATTN_SCREENSHOT_DIR || path.join(root, 'build');
const sentence = 'We missed the last train, so we walked home in the rain.';

const numbers = (page, text) => until(page, (text) => {
  const e = window.attentionLab.experiment();
  return e && e.tokens && (text === undefined || e.text === text) && e;
}, text);
const shown = (t) => (t === ' ' ? '␣' : t === '\n' ? '↵' : t);

// The OV map's colour scale: its ends as written are ±max|OV| (the head's numbers) to a few
// significant digits, not every decimal ("−8.01", not "−8.0076").
function shortLegend(item, circuit) {
  const top = Math.max(...circuit.ov.map.flat().map(Math.abs));
  const [lo, hi] = item.legend, value = (s) => Number(s.replace('−', '-'));
  assert.ok([lo, hi].every(s => Array.from(s).length <= 5), `the legend reads ${lo} … ${hi}`);
  assert.ok(Math.abs(value(hi) - top) <= 0.005 * top && value(lo) === -value(hi), `${lo} … ${hi} for ±${top}`);
}

// The composition table's headings (items of kind "label"), each within its column: none runs
// into the next one's or past the screen's edge (a word cut by its column would).
async function headingsFit(page, names, width) {
  const items = (await layout(page)).filter(i => i.kind === 'label' && names.includes(i.label)).sort((a, b) => a.x - b.x);
  assert.deepEqual(items.map(i => i.label), names, 'the headings in view, in order');
  items.forEach((item, k) => {
    const end = k + 1 < items.length ? items[k + 1].x : width;
    assert.ok(item.x + item.w <= end, `"${item.label}" ends at ${item.x + item.w}, its column at ${end}`);
  });
}
const headings = { en: ['earlier → later', 'share', 'score', 'with the earlier off'],
                   es: ['anterior → posterior', 'proporción', 'puntuación', 'con la anterior apagada'] };

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

test('on a phone: a sentence typed with a text keyboard, wrapped; an opened head readable; its walkthrough', async (t) => {
  const { page, errors, cdp } = await openOnPhone(t, 'view=model&text=');
  await numbers(page);
  const reach = (query) => reachItem(page, query, { cdp });
  const box = await reach({ label: 'Your text', kind: 'text' });
  await touchTap(cdp, centre(box));
  // The phone's keyboard is a text one: the hidden field it types into asks for text.
  const field = await until(page, () => document.activeElement?.tagName === 'INPUT' &&
                                         { type: document.activeElement.type, mode: document.activeElement.inputMode });
  assert.deepEqual(field, { type: 'text', mode: 'text' });
  await page.keyboard.insertText(sentence);
  await until(page, (s) => window.attentionLab.getState().text === s, sentence);
  await touchTap(cdp, centre(await reach({ label: 'Repeat my text', kind: 'button' })));
  const e = await numbers(page, sentence + ' ' + sentence);
  // The box grew to show the repeated sentence on its lines, within the phone's width.
  const grown = await reach({ label: 'Your text', kind: 'text' });
  assert.ok(grown.h > box.h && grown.x + grown.w <= 390, `the box ${box.w}×${box.h} → ${grown.w}×${grown.h}`);
  await page.screenshot({ path: path.join(shots, 'e2e-model-reading-phone-text.png') });
  // Open the induction head: it comes on screen, its rows readable, the last character's row in view.
  const induction = e.scores.find(s => /induction/.test(s.label));
  const name = `${induction.layer}.${induction.head}`;
  await touchTap(cdp, centre(await reach({ label: 'head ' + name, kind: 'heatmap' })));
  await until(page, (h) => JSON.stringify(window.attentionLab.experiment().head) === h,
              JSON.stringify([induction.layer, induction.head]));
  await readableMap(page, e, e.tokens.length - 1, { height: 844, line: 14 });
  await page.screenshot({ path: path.join(shots, 'e2e-model-reading-phone-head.png') });
  // Tap a character of the second copy in the loss strip (its lines of characters are its row labels).
  const chosen = 70;
  const strip = await reach({ label: 'loss', kind: 'heatmap' });
  const perLine = Array.from(strip.rowLabels[0]).length, line = strip.h / strip.rowLabels.length;
  await touchTap(cdp, [strip.x + (chosen % perLine + 0.5) * (strip.w / perLine), strip.y + (Math.floor(chosen / perLine) + 0.5) * line]);
  await until(page, (at) => Number(window.attentionLab.getState().at) === at, chosen);
  // Its attribution: the parts add up to the logit, and the figure is on screen, one screen tall.
  const a = (await until(page, (at) => { const e = window.attentionLab.experiment(); return e.attribution?.position === at && e; },
                         chosen)).attribution;
  const sum = a.parts.reduce((t, p) => t + p.direct, 0);
  assert.ok(Math.abs(sum - a.value) < 1e-3, `the parts add up to ${sum}, the logit is ${a.value}`);
  const bars = await reach({ label: 'attribution', kind: 'plot' });
  assert.ok(bars.h <= 844 - 60, `the attribution is ${bars.h} px tall`);
  assert.ok(bars.x >= 0 && bars.x + bars.w <= 390 && bars.w >= 280, `the attribution at ${bars.x}, ${bars.w} px wide`);
  await page.screenshot({ path: path.join(shots, 'e2e-model-reading-phone-attribution.png') });
  // The opened head's OV map: the readable characters label it, on screen.
  const ov = await reach({ label: 'model ov', kind: 'heatmap' });
  // (A label on every character where that fits: here about 36 characters in 270 px, every third.)
  assert.ok(ov.h <= 844 - 60 && ov.rowLabels.includes('a') && ov.rowLabels.length >= 8 && ov.h / ov.rowLabels.length >= 14,
            JSON.stringify(ov));
  const circuit = (await numbers(page)).heads.find(h => h.layer === induction.layer && h.head === induction.head);
  assert.ok(circuit.copying > 0.9, `the induction head's copying score ${circuit.copying}`);
  shortLegend(ov, circuit);
  await page.screenshot({ path: path.join(shots, 'e2e-model-reading-phone-ov.png') });
  // The composition table's headings on a phone, in both languages.
  for (const lang of ['en', 'es']) {
    await page.evaluate((lang) => window.attentionLab.setState({ lang }), lang);
    await reach({ label: headings[lang][3], kind: 'label' });
    await headingsFit(page, headings[lang], 390);
    await page.screenshot({ path: path.join(shots, `e2e-model-reading-phone-composition-${lang}.png`) });
  }
  await page.evaluate(() => window.attentionLab.setState({ lang: 'en' }));
  // The large map, with the chosen row in view.
  await reach({ label: 'model head', kind: 'heatmap' });
  await readableMap(page, e, chosen, { height: 844, line: 14 });
  // The walkthrough from it: the same character as its query.
  await touchTap(cdp, centre(await reach({ label: 'Open in the walkthrough', kind: 'button' })));
  const s = await until(page, () => { const s = window.attentionLab.getState(); return s.view === 'walkthrough' && s; });
  assert.equal(Number(s.query), chosen);
  await frames(page, 3);
  await page.screenshot({ path: path.join(shots, 'e2e-model-reading-phone-walkthrough.png') });
  assert.deepEqual(errors, []);
});

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
  // Its bars beside their names, not spread over the wide card: the figure (names, bars,
  // numbers) keeps to a bounded width.
  assert.ok(bars.w <= 560, `the attribution is ${bars.w} px wide`);
  await page.screenshot({ path: path.join(shots, 'e2e-model-reading-laptop-attribution.png') });
  await reach({ label: 'model head', kind: 'heatmap' });
  await readableMap(page, e, chosen, { height: 800, line: 14 });
  await page.screenshot({ path: path.join(shots, 'e2e-model-reading-laptop-head.png') });
  const ov = await reach({ label: 'model ov', kind: 'heatmap' });
  assert.ok(ov.h <= 800 - 60 && ov.rowLabels.includes('a'), JSON.stringify(ov));
  shortLegend(ov, e.heads.find(h => h.layer === 1 && h.head === 0));
  await page.screenshot({ path: path.join(shots, 'e2e-model-reading-laptop-ov.png') });
  await reach({ label: headings.en[3], kind: 'label' });
  await headingsFit(page, headings.en, 1280);
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
