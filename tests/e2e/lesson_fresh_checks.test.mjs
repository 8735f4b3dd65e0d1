// The lesson's checks ask what the page has not shown (issue 44): each check's expected answer,
// read from the verdict of a wrong answer, against the numbers its chapter's figures display
// (their trace()) and the numbers its chapter's text states; and a wrong answer to a question
// about the screen leaves the stage holding the rest of the matrix hidden. English page, one
// laptop-sized browser; about a minute. And on a phone, the practice set's example is written
// out: a student cannot work out a weight from Q, K and V drawn as colours alone.
import test from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, labSession, startServer, until } from './harness.mjs';
import { DEVICES, openLesson } from './lesson_frames.mjs';

const session = labSession();

async function instance(page, id) {
  await page.evaluate(id => document.getElementById(id).scrollIntoView({ block: 'center' }), id);
  await until(page, id => document.getElementById(id).ready, id, { timeout: 60000 });
  return (await page.locator('#' + id + ' iframe').elementHandle()).contentFrame();
}

const numbersIn = text => (text.replace(/−/g, '-').match(/-?\d+(\.\d+)?/g) || []).map(Number);
const flat = m => (Array.isArray(m) ? m.flatMap(flat) : [m]);
// Two numbers a student could take for one another: within 1 % or 0.01.
const same = (a, b) => Math.abs(a - b) <= Math.max(0.01, 0.01 * Math.abs(b));

// The numbers the figures `ids` display: their scores, weights and outputs.
async function displayed(page, ids) {
  const shown = [];
  for (const id of ids) {
    const trace = await (await instance(page, id)).evaluate(() => window.attentionLab.trace());
    for (const key of ['scores', 'weights', 'output']) shown.push(...flat(trace[key] ?? []).filter(Number.isFinite));
  }
  return shown;
}

// Each reworked check, the figures beside it whose matrices it must not repeat, and what its
// chapter's argument states that the answer must not be.
const CHECKS = [
  { check: 'check-similarity', figures: ['fig-similarity'] },
  { check: 'check-softmax', figures: ['fig-softmax'] },
  { check: 'check-output', figures: ['fig-output', 'fig-softmax'] },
  // Not fig-padding: its random weights may fall near any number by chance.
  { check: 'check-masks', figures: ['fig-causal'], stated: () => [0, 1] },
  // √d_k, 1 and 1/√d_k at the question's own d_k: what unit-variance components give.
  { check: 'check-scaling', figures: [], stated: q => { const dk = numbersIn(q.text)[0]; return [Math.sqrt(dk), 1, 1 / Math.sqrt(dk)]; } },
  // K's shape, which the chapter spells out: its three numbers.
  { check: 'check-heads', figures: [], stated: q => numbersIn(q.text).slice(1, 4) },
  { check: 'check-training', figures: [], formula: /a\(g|Σ aᵢgᵢ/ },
  // The derivative it asks for, w(1 − w), is stated in the chapter: the question does not repeat it.
  { check: 'check-saturation', figures: [], formula: /w\(1 − w\)/ },
];

test('every reworked check asks for a number its chapter\'s figures and text do not show', { timeout: 300000 }, async () => {
  const page = await session.browser.context.newPage();
  const errors = [];
  page.on('pageerror', e => errors.push(String(e)));
  await page.goto(session.server.url + 'lesson.html');
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await until(page, () => document.documentElement.dataset.lesson === 'ready');
  for (const { check, figures, stated, formula } of CHECKS) {
    const shown = await displayed(page, figures);
    // The chapter's own words, but its check's box (the question's example is stated there).
    const text = await page.evaluate(id => {
      const section = document.getElementById(id).closest('section').cloneNode(true);
      section.querySelectorAll('.check').forEach(c => c.remove());
      return section.textContent;
    }, check);
    const frame = await instance(page, check);
    const question = await until(frame, () => window.attentionLab.practice());
    if (formula) assert.doesNotMatch(question.text, formula, `${check}: the question does not give its formula`);
    const heatmaps = () => frame.evaluate(() => window.attentionLab.layout().filter(i => i.kind === 'heatmap').length);
    const before = await heatmaps();
    // A wrong answer: far from any number these questions ask (a shape's is 1×1, a row's two numbers).
    const verdict = await frame.evaluate(a => window.attentionLab.answer(a), question.kind === 'shape' ? '1x1' : question.kind === 'output_row' ? '123456, 123456' : '123456');
    assert.equal(verdict.correct, false, `${check}: ${question.text}`);
    const expected = numbersIn(verdict.expected);
    assert.ok(expected.length > 0, `${check}: the verdict names the answer (${verdict.expected})`);
    for (const x of expected) {
      const echoes = shown.filter(y => same(x, y));
      assert.deepEqual(echoes, [], `${check}: "${question.text}" is answered ${x}, which ${figures.join(', ')} display`);
      if (x !== 0 && !Number.isInteger(x))  // a whole number in the text may be a count, not this answer
        assert.ok(!numbersIn(text).some(y => same(x, y)), `${check}: ${x} is written in its chapter`);
      for (const y of stated ? stated(question) : [])
        assert.ok(!same(x, y), `${check}: "${question.text}" is answered ${x}, which the chapter states (${y})`);
    }
    // A wrong answer shows the asked cell's working, not the stage that holds the others.
    assert.equal(await heatmaps(), before, `${check}: the hidden stages stay hidden after a wrong answer`);
  }
  // The practice set asks about the example beside it: its own, none of whose scores, weights
  // or outputs the worked example's figures display (but the 0s and 1s any causal row has).
  const shown = await displayed(page, ['fig-softmax', 'fig-output']);
  const own = await (await instance(page, 'check-practice')).evaluate(() => window.attentionLab.trace());
  for (const key of ['scores', 'weights', 'output'])
    for (const x of flat(own[key]).filter(x => Number.isFinite(x) && x !== 0 && x !== 1))
      assert.deepEqual(shown.filter(y => same(x, y)), [], `check-practice's ${key} ${x} is displayed by the worked example's figures`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('on a phone the practice set writes its example\'s numbers: Q, K and V with their values', { timeout: 180000 }, async () => {
  const server = await startServer();
  const { context, close } = await launchBrowser(DEVICES.phone);
  try {
    const page = await openLesson(context, server);
    const frame = await instance(page, 'check-practice');
    const maps = await until(frame, () => {
      const m = window.attentionLab.layout().filter(i => i.kind === 'heatmap');
      return m.length >= 3 ? m : null;
    });
    assert.equal(maps.length, 3, 'Q, K and V, the rest hidden until the question is answered');
    for (const m of maps) assert.ok(m.valuePx >= 12, `${m.label}: values at ${m.valuePx} px`);
  } finally {
    await close();
    await server.close();
  }
});
