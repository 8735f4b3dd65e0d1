// The interface in English and Spanish (issue 15): lang=en|es|auto in the link, the page's
// <html lang> and its own words following, auto following the browser's language, the
// switch kept across presets, <attention-lab lang="es"> and a Spanish lesson page's
// instances. What the canvas says is read where the page exposes it as text: the notes, the
// screen-reader table, the About text and the practice questions; the expected Spanish is
// looked up in src/i18n/es/*.json, the table the app itself reads.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../../scripts/serve.mjs';
import { centre, click, findItem, labSession, openLab, launchBrowser, startServer } from './harness.mjs';

const session = labSession();
const here = path.dirname(fileURLToPath(import.meta.url));
const esDir = path.join(here, '../../src/i18n/es');
const spanish = Object.assign({}, ...fs.readdirSync(esDir).filter((n) => n.endsWith('.json'))
  .map((n) => JSON.parse(fs.readFileSync(path.join(esDir, n), 'utf8'))));
const es = (english) => {
  assert.ok(spanish[english], `no Spanish for "${english}"`);
  return spanish[english];
};

const page_words = (page) => page.evaluate(() => ({
  lang: document.documentElement.lang,
  open: document.querySelector('#load-bar span').textContent,
  canvas: document.getElementById('canvas').getAttribute('aria-label'),
  notes: document.getElementById('notes').textContent,
  caption: document.querySelector('#stage-table caption')?.textContent || '',
  about: window.attentionLab.about(),
  state: window.attentionLab.getState(),
}));

test('lang=es: the page, its notes, its table and its About text are in Spanish', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url, 'preset=causal-3x2&lang=es&n=abc');
  const w = await page_words(page);
  assert.equal(w.lang, 'es');
  assert.equal(w.state.lang, 'es');
  assert.equal(w.open, es('Open data…'));
  assert.equal(w.canvas, es('Attention Lab: the attention computation, step by step'));
  // The note about the bad value, written in the link's language from the first frame.
  assert.ok(w.notes.startsWith(es('ignored %s=%s: expected %s').replace('%s=%s', 'n=abc').split('%s')[0]), w.notes);
  assert.ok(w.about.length > 0 && w.about !== (await englishAbout()), 'the About text is translated');
  assert.deepEqual(errors, []);
  await page.close();
});

let aboutEn;
async function englishAbout() {
  if (aboutEn) return aboutEn;
  const { page } = await openLab(session.browser.context, session.server.url, 'lang=en');
  aboutEn = await page.evaluate(() => window.attentionLab.about());
  await page.close();
  return aboutEn;
}

test('switching the language redraws the words, keeps the state, and survives a preset', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url, 'preset=random&step=softmax&query=3&lang=en');
  const before = await page_words(page);
  assert.equal(before.lang, 'en');
  assert.equal(before.open, 'Open data…');
  await page.evaluate(() => window.attentionLab.setState({ lang: 'es' }));
  await page.waitForFunction(() => document.documentElement.lang === 'es');
  const after = await page_words(page);
  assert.equal(after.open, es('Open data…'));
  assert.notEqual(after.caption, before.caption, 'the screen-reader table speaks Spanish');
  for (const key of ['preset', 'step', 'query', 'n'])
    assert.equal(after.state[key], before.state[key], `${key} is kept`);
  assert.match(page.url(), /lang=es/, 'the link carries the language');
  await page.evaluate(() => window.attentionLab.setState({ preset: 'cross' }));
  assert.equal((await page_words(page)).state.lang, 'es', 'a preset is content: the language stays');
  assert.deepEqual(errors, []);
  await page.close();
});

// The header's language button: it names the other language.
const LANGUAGE_BUTTON = { kind: 'button', label: 'Español' };

test('the language button: the link\'s notes on screen follow it', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url, 'preset=causal-3x2&lang=en&n=abc');
  const english = (await page_words(page)).notes;
  assert.ok(english.includes('ignored n=abc: expected a size from 1 to 2048'), english);
  await click(page, centre(await findItem(page, LANGUAGE_BUTTON)));
  await page.waitForFunction(() => document.documentElement.lang === 'es');
  const spanish = (await page_words(page)).notes;
  const expected = es('ignored %s=%s: expected %s').replace('%s=%s', 'n=abc')
    .replace('%s', es('a size from 1 to %d').replace('%d', '2048'));
  assert.ok(spanish.includes(expected), `${spanish} has ${expected}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('lang=auto follows the browser: Spanish for es-ES, English for en-US', async () => {
  for (const [locale, expected] of [['es-ES', 'es'], ['en-US', 'en']]) {
    const browser = await launchBrowser({ locale });
    const { page, errors } = await openLab(browser.context, session.server.url, 'preset=causal-3x2');
    const w = await page_words(page);
    assert.equal(w.state.lang, 'auto');
    assert.equal(w.lang, expected, `${locale} → ${w.lang}`);
    assert.equal(w.open, expected === 'es' ? es('Open data…') : 'Open data…');
    assert.deepEqual(errors, []);
    await browser.close();
  }
});

test('practice questions are asked in Spanish', async () => {
  const ask = async (lang) => {
    const { page, errors } = await openLab(session.browser.context, session.server.url, `preset=causal-3x2&mode=practice&lang=${lang}`);
    const q = await page.evaluate(() => window.attentionLab.practice());
    // A wrong answer's verdict explains in the same language.
    const verdict = await page.evaluate(() => window.attentionLab.answer('not a key'));
    assert.deepEqual(errors, []);
    await page.close();
    return { q, verdict };
  };
  const english = await ask('en');
  const inSpanish = await ask('es');
  assert.equal(inSpanish.q.kind, english.q.kind, 'the same question');
  assert.deepEqual(inSpanish.q.choices, english.q.choices, 'its choices are values, the same in both languages');
  assert.notEqual(inSpanish.q.text, english.q.text, 'asked in Spanish');
  assert.notEqual(JSON.stringify(inSpanish.verdict), JSON.stringify(english.verdict), 'answered in Spanish');
});

test('<attention-lab lang="es"> and the instances of a Spanish lesson page speak Spanish', async (t) => {
  const site = await startServer();
  const hostDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-lab-lang-'));
  const lesson = (lang, body) => `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><link rel="icon" href="data:,">
    <script src="${site.url}embed.js"></script></head><body>${body}</body></html>`;
  fs.writeFileSync(path.join(hostDir, 'en.html'), lesson('en',
    '<attention-lab id="a" lang="es" preset="causal-3x2"></attention-lab><attention-lab id="b" preset="cross"></attention-lab>'));
  fs.writeFileSync(path.join(hostDir, 'es.html'), lesson('es-MX', '<attention-lab id="c" preset="causal-3x2"></attention-lab>'));
  const host = await serve(hostDir, 0);
  t.after(async () => { await site.close(); await host.close(); fs.rmSync(hostDir, { recursive: true, force: true }); });
  const page = await session.browser.context.newPage();
  const langOf = async (id) => {
    await page.waitForFunction((i) => document.getElementById(i).ready, id, { timeout: 60000 });
    const frame = await (await page.$(`#${id}`)).evaluateHandle((el) => el.shadowRoot.querySelector('iframe'));
    const content = await (await frame.asElement().contentFrame()).evaluate(() => document.documentElement.lang);
    return { state: await page.evaluate((i) => document.getElementById(i).state.lang, id), content };
  };
  await page.goto(host.url + 'en.html');
  assert.deepEqual(await langOf('a'), { state: 'es', content: 'es' });
  assert.deepEqual(await langOf('b'), { state: 'en', content: 'en' });
  await page.goto(host.url + 'es.html');
  assert.deepEqual(await langOf('c'), { state: 'es', content: 'es' });
  await page.close();
});
