// The lesson (web/lesson.html, web/leccion.html) as a student uses it: the numbers its text
// cites against the trace() (or experiment()) of the figure beside them, the Spanish page against the English one,
// and the reader's progress across a reload. The walk through every chapter by touch and by
// mouse is lesson_walk.test.mjs.
import test from 'node:test';
import assert from 'node:assert/strict';
import { frames, labSession, until } from './harness.mjs';
import { matmul } from './reference.mjs';

const session = labSession();

async function openLesson(page, file) {
  const errors = [];
  page.on('pageerror', e => errors.push(String(e)));
  page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(session.server.url + file);
  await until(page, () => document.documentElement.dataset.lesson === 'ready');
  return errors;
}

// The instance inside an <attention-lab> element, once it is ready (scrolled to, so that a
// lazily started figure starts).
async function instance(page, id) {
  await page.evaluate(id => document.getElementById(id).scrollIntoView({ block: 'center' }), id);
  await until(page, id => document.getElementById(id).ready, id, { timeout: 60000 });
  const frame = await (await page.locator('#' + id + ' iframe').elementHandle()).contentFrame();
  await frame.evaluate(() => window.attentionLab.ready);
  return frame;
}

for (const [file, lang] of [['lesson.html', 'en'], ['leccion.html', 'es']]) {
  test(`${file}: every number the text cites is the figure's own, written in ${lang}`, async () => {
    const page = await session.browser.context.newPage();
    const errors = await openLesson(page, file);
    // Each cited number is filled in from its figure once that figure has started.
    const cited = await page.evaluate(() => [...new Set([...document.querySelectorAll('[data-cite]')].map(s => s.dataset.figure))]);
    for (const id of cited) {
      await instance(page, id);
      await until(page, id => [...document.querySelectorAll(`[data-cite][data-figure="${id}"]`)].every(s => s.dataset.value !== undefined), id);
    }
    await until(page, () => document.documentElement.dataset.cited === 'true');
    const cites = await page.evaluate(() => [...document.querySelectorAll('[data-cite]')].map(span => ({
      figure: span.dataset.figure, read: span.dataset.read || 'trace', path: span.dataset.path,
      value: Number(span.dataset.value), text: span.textContent })));
    assert.ok(cites.length >= 10, `${cites.length} cited numbers`);
    // Each figure's own read: trace(), or experiment() (view=model's numbers).
    const traces = new Map();
    for (const cite of cites) {
      const key = `${cite.figure} ${cite.read}`;
      if (!traces.has(key)) traces.set(key, await (await instance(page, cite.figure)).evaluate(read => window.attentionLab[read](), cite.read));
      const shown = cite.path.split('/').reduce((at, key) => at[key], traces.get(key));
      assert.equal(typeof shown, 'number', `${cite.figure} ${cite.path} is a number in the figure's ${cite.read}()`);
      assert.ok(Math.abs(cite.value - shown) <= 1e-6 * Math.max(1, Math.abs(shown)),
                `${cite.figure} ${cite.path}: the text computed ${cite.value}, the figure shows ${shown}`);
      // The words read the same number, written as the figures write it in both languages: a
      // decimal point and no grouping (src/i18n/i18n.h), so no comma in a number.
      const mantissa = cite.text.replace(/ × 10.*/, '').replace('−', '-');
      assert.doesNotMatch(mantissa, /,/, `"${cite.text}" is written as the figures write numbers`);
      const read = Number(mantissa);
      const exponent = /10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)/.exec(cite.text);
      const power = exponent ? Number([...exponent[1]].map(c => c === '⁻' ? '-' : '⁰¹²³⁴⁵⁶⁷⁸⁹'.indexOf(c)).join('')) : 0;
      const value = read * 10 ** power;
      assert.ok(Math.abs(value - shown) <= 0.006 * Math.max(Math.abs(shown), 1e-300) + (exponent ? 0 : 5e-4),
                `"${cite.text}" reads ${value}; the figure shows ${shown}`);
    }
    assert.deepEqual(errors, []);
    await page.close();
  });
}

// The shapes chapter's worked example with projections (fig-projections; its scores,
// fig-asymmetry): "the cat sat on the mat", X one-hot on a word's kind (article, noun, verb,
// preposition), W_Q, W_K, W_V chosen by hand, scale 1. Written here again, the scores
// S = (X W_Q)(X W_K)ᵀ are computed in float64 and every number the text cites from the figure is
// compared with them; the pairs it cites are asymmetric (s_ij ≠ s_ji), as the text says.
const KINDS = { the: [1, 0, 0, 0], cat: [0, 1, 0, 0], sat: [0, 0, 1, 0], on: [0, 0, 0, 1], mat: [0, 1, 0, 0] };
const PROJECTED = {
  x: ['the', 'cat', 'sat', 'on', 'the', 'mat'].map(w => KINDS[w]),
  wq: [[0, 0], [0, 0], [2, 0], [0, 2]],  // the verb looks for nouns, the preposition for verbs
  wk: [[0, 0], [2, 0], [0, 2], [0, 0]],  // nouns and verbs say what they are
  wv: [[0, 0], [1, 0], [0, 1], [0, 0]],
};
for (const file of ['lesson.html', 'leccion.html']) {
  test(`${file}: the scores the shapes chapter cites are (X W_Q)(X W_K)ᵀ in float64, and not symmetric`, async () => {
    const page = await session.browser.context.newPage();
    const errors = await openLesson(page, file);
    // The figure of X and the projections, and the figure of their scores, whose numbers are cited.
    for (const id of ['fig-projections', 'fig-asymmetry']) {
      const attributes = await page.evaluate(id => Object.fromEntries(
        [...document.getElementById(id).attributes].map(a => [a.name, a.value])), id);
      for (const name of ['x', 'wq', 'wk', 'wv']) assert.equal(attributes[name], PROJECTED[name].flat().join(','), `${id} ${name}`);
      assert.equal(attributes.scale, '1', id);
    }
    const k = matmul(PROJECTED.x, PROJECTED.wk);
    const scores = matmul(matmul(PROJECTED.x, PROJECTED.wq), k[0].map((_, c) => k.map(row => row[c])));  // Q Kᵀ
    await instance(page, 'fig-asymmetry');
    const selector = '#shapes [data-cite][data-figure="fig-asymmetry"]';
    await until(page, selector => [...document.querySelectorAll(selector)].every(s => s.dataset.value !== undefined), selector);
    const cites = await page.evaluate(selector => [...document.querySelectorAll(selector)].map(s =>
      ({ path: s.dataset.path, value: Number(s.dataset.value), text: s.textContent })), selector);
    assert.ok(cites.length >= 6, `${cites.length} cited scores`);
    const at = path => { const [name, i, j] = path.split('/'); assert.equal(name, 'scores'); return [Number(i), Number(j)]; };
    for (const { path, value, text } of cites) {
      const [i, j] = at(path);
      assert.ok(Math.abs(value - scores[i][j]) <= 1e-6, `${path}: the figure gives ${value}, float64 ${scores[i][j]}`);
      assert.ok(Math.abs(Number(text.replace('−', '-')) - scores[i][j]) <= 5e-4, `"${text}" reads ${scores[i][j]}`);
    }
    // The text's pairs: sat → cat against cat → sat, on → sat against sat → on.
    const cited = new Set(cites.map(c => c.path));
    for (const [i, j] of [[2, 1], [3, 2]]) {
      assert.ok(cited.has(`scores/${i}/${j}`) && cited.has(`scores/${j}/${i}`), `s${i}${j} and s${j}${i} both cited`);
      assert.ok(Math.abs(scores[i][j] - scores[j][i]) >= 1, `s${i}${j} = ${scores[i][j]} against s${j}${i} = ${scores[j][i]}`);
    }
    // "sat" does not score itself highest.
    assert.ok(scores[2][2] < Math.max(...scores[2]), 'sat scores another token above itself');
    assert.deepEqual(errors, []);
    await page.close();
  });
}

// What each data-calc formula gives, written here again from its definition (lesson.js's
// [arithmetic]): √, ln, an n × n float32 matrix in MiB, the top weight of a row and its a(1 − a),
// the spacing of float32 numbers, e^x and a row's sum of them, a KV cache in GiB, and the
// previous-token and induction scores of a head whose row i is 1/(i + 1) on every key j ≤ i.
// A uniform head's weights written out as a matrix, and the score read from it: the mean of
// a[i][key(i)] over rows from … n − 1.
function uniformScore(n, key, from = 1) {
  const a = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (j <= i ? 1 / (i + 1) : 0)));
  const rows = a.slice(from).map((row, r) => row[key(r + from)]);
  return rows.reduce((s, w) => s + w) / rows.length;
}
function expected(calc) {
  const [name, ...args] = calc.split(' ');
  const x = args.map(Number);
  const top = () => { const m = Math.max(...x); const e = x.map(v => Math.exp(v - m)); return Math.max(...e) / e.reduce((a, b) => a + b); };
  return { sqrt: () => Math.sqrt(x[0]), ln: () => Math.log(x[0]), 'mib-square': () => x[0] * x[0] * 4 / (1024 * 1024),
           'softmax-top': top, 'softmax-slope': () => top() * (1 - top()),
           exp: () => Math.E ** x[0], 'sum-exp': () => x.map(v => Math.E ** v).reduce((a, b) => a + b),
           'kv-gib': () => x.reduce((a, b) => a * b, 2) / 1024 ** 3,
           'uniform-previous': () => uniformScore(x[0], (i) => i - 1),
           'uniform-induction': () => uniformScore(x[0], (i) => i - x[1] + 1, x[1]),
           // The next float32 after x, by its bits, minus x.
           'f32-spacing': () => { const f = new Float32Array([x[0]]); new Uint32Array(f.buffer)[0] += 1; return f[0] - Math.fround(x[0]); } }[name]();
}
for (const [file, lang] of [['lesson.html', 'en'], ['leccion.html', 'es']]) {
  test(`${file}: every number from a formula reads its value, written in ${lang}`, async () => {
    const page = await session.browser.context.newPage();
    const errors = await openLesson(page, file);
    const calcs = await page.evaluate(() => [...document.querySelectorAll('[data-calc]')].map(span => ({ calc: span.dataset.calc, text: span.textContent })));
    assert.ok(calcs.length >= 7, `${calcs.length} numbers from formulas`);
    for (const { calc, text } of calcs) {
      const want = expected(calc);
      const mantissa = text.replace(/ × 10.*/, '').replace('−', '-');  // the page writes a minus sign
      assert.doesNotMatch(mantissa, /,/, `"${text}" is written as the figures write numbers`);
      const read = Number(mantissa);
      const exponent = /10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)/.exec(text);
      const power = exponent ? Number([...exponent[1]].map(c => c === '⁻' ? '-' : '⁰¹²³⁴⁵⁶⁷⁸⁹'.indexOf(c)).join('')) : 0;
      // Right to the last digit written: within half a unit of it.
      const decimals = (/[.,](\d+)/.exec(mantissa)?.[1] ?? '').length;
      assert.ok(Math.abs(read * 10 ** power - want) <= 0.5 * 10 ** (power - decimals) * (1 + 1e-9), `${calc}: "${text}" should read ${want}`);
    }
    assert.deepEqual(errors, []);
    await page.close();
  });
}

// The masks chapter's four matrices, written out by lesson.js from data-mask: compared with
// the matrices written by hand here (3 tokens padded to 5; row i a query, column j a key).
const MASKS = {
  causal: ['0 −∞ −∞ −∞ −∞', '0 0 −∞ −∞ −∞', '0 0 0 −∞ −∞', '0 0 0 0 −∞', '0 0 0 0 0'],
  padding: ['0 0 0 −∞ −∞', '0 0 0 −∞ −∞', '0 0 0 −∞ −∞', '0 0 0 −∞ −∞', '0 0 0 −∞ −∞'],
  'causal+padding': ['0 −∞ −∞ −∞ −∞', '0 0 −∞ −∞ −∞', '0 0 0 −∞ −∞', '0 0 0 −∞ −∞', '0 0 0 −∞ −∞'],
  // Padded on the left: rows 0 and 1 (padding) see only padding, empty.
  'causal+left': ['−∞ −∞ −∞ −∞ −∞', '−∞ −∞ −∞ −∞ −∞', '−∞ −∞ 0 −∞ −∞', '−∞ −∞ 0 0 −∞', '−∞ −∞ 0 0 0'],
};
for (const [file, titles] of [['lesson.html', ['causal', 'padding', 'causal + padding', 'causal + left padding']],
                              ['leccion.html', ['causal', 'relleno', 'causal + relleno', 'causal + relleno a la izquierda']]]) {
  test(`${file}: the causal mask, the padding mask, their sum, and the causal mask with left padding, written out`, async () => {
    const page = await session.browser.context.newPage();
    const errors = await openLesson(page, file);
    const shown = await page.evaluate(() => [...document.querySelectorAll('#masks pre[data-mask]')]
      .map(pre => ({ kind: pre.dataset.mask.split(' ')[0], lines: pre.textContent.split('\n') })));
    assert.deepEqual(shown.map(m => m.lines[0]), titles, 'each matrix under its title, in the page\'s language');
    for (const { kind, lines } of shown)
      assert.deepEqual(lines.slice(1).map(l => l.trim().split(/\s+/).join(' ')), MASKS[kind], kind);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('the Spanish lesson has every chapter, figure, check and cited number of the English one', async () => {
  const page = await session.browser.context.newPage();
  const shape = async file => {
    await page.goto(session.server.url + file);
    return page.evaluate(() => ({
      lang: document.documentElement.lang,
      chapters: [...document.querySelectorAll('main section[id]')].map(s => s.id),
      headings: [...document.querySelectorAll('main section h2')].length,
      // Every attribute of every figure but its title, which is in the page's language.
      figures: [...document.querySelectorAll('attention-lab')].map(el =>
        [...el.attributes].filter(a => a.name !== 'title').map(a => `${a.name}=${a.value}`).join(' ')),
      titled: [...document.querySelectorAll('attention-lab')].every(el => el.title.trim().length > 0),
      cites: [...document.querySelectorAll('[data-cite]')].map(s => `${s.dataset.figure} ${s.dataset.path}`),
      calcs: [...document.querySelectorAll('[data-calc]')].map(s => s.dataset.calc),
      tries: document.querySelectorAll('.try').length,
      checks: document.querySelectorAll('.check attention-lab[data-check]').length,
      words: document.body.innerText,
    }));
  };
  const en = await shape('lesson.html');
  const es = await shape('leccion.html');
  assert.equal(en.lang, 'en');
  assert.equal(es.lang, 'es');
  assert.ok(en.chapters.length >= 12, `${en.chapters.length} chapters`);
  assert.equal(en.headings, en.chapters.length, 'every chapter is headed by an <h2>');
  for (const key of ['chapters', 'figures', 'cites', 'calcs', 'tries', 'checks']) assert.deepEqual(es[key], en[key], key);
  assert.equal(en.tries, en.chapters.length - 1, 'a "try this" in every chapter but the practice set');
  assert.equal(en.checks, en.chapters.length, 'a check in every chapter');
  assert.ok(en.titled && es.titled, 'every figure has an accessible title');
  // The script's own words come in the page's language.
  assert.match(es.words, /Contenido/);
  assert.doesNotMatch(es.words, /\bContents\b|Try this|Check yourself/);
  await page.close();
});

test('progress: a check answered right and a chapter read are kept across a reload, and can be cleared', async () => {
  const page = await session.browser.context.newPage();
  await page.goto(session.server.url + 'lesson.html');
  await page.evaluate(() => localStorage.clear());
  const errors = await openLesson(page, 'lesson.html');
  // The student reads the first chapter to its end...
  await page.evaluate(() => document.querySelector('#similarity').lastElementChild.scrollIntoView({ block: 'end' }));
  // ...and answers its check in the figure: the instance's answer event reaches the lesson.
  const frame = await instance(page, 'check-similarity');
  const question = await until(frame, () => window.attentionLab.practice());
  assert.equal(question.kind, 'score', 'the check asks what its chapter taught: a dot product');
  // The check's own example, not the figure's: q = (1, 2) against (2, 1), (−1, 2), (2, −1), scale 1.
  const keys = [[2, 1], [-1, 2], [2, -1]];
  const j = Number(/key k(\d)/.exec(question.text)[1]);
  const verdict = await frame.evaluate(a => window.attentionLab.answer(a), String(1 * keys[j][0] + 2 * keys[j][1]));
  assert.equal(verdict.correct, true, JSON.stringify(verdict));
  await until(page, () => document.querySelector('#similarity .status').classList.contains('done'));
  const ticked = () => page.evaluate(() => document.querySelector('#contents a[href="#similarity"] .mark').textContent);
  await until(page, () => document.querySelector('#contents a[href="#similarity"] .mark').textContent === '✓');

  await page.reload();
  await until(page, () => document.documentElement.dataset.lesson === 'ready');
  assert.equal(await ticked(), '✓', 'the chapter stays done after a reload');
  assert.ok(await page.evaluate(() => document.querySelector('#similarity .status').classList.contains('done')));

  // Coming back later, at the top of the page: the lesson offers to continue where it stopped.
  await page.evaluate(() => document.querySelector('#masks h2').scrollIntoView({ block: 'start' }));
  await until(page, () => JSON.parse(localStorage.getItem('attention-lab-lesson') || '{}').last === 'masks');
  await page.goto(session.server.url + 'lesson.html');
  await until(page, () => !document.getElementById('resume').hidden);
  await page.getByRole('link', { name: 'Continue' }).click();
  await until(page, () => document.querySelector('#masks').getBoundingClientRect().top < innerHeight / 2 &&
                          document.querySelector('#masks').getBoundingClientRect().bottom > 0);

  await page.getByRole('button', { name: 'Clear my progress' }).click();
  await frames(page, 2);
  assert.equal(await ticked(), '', 'cleared');
  assert.equal(await page.evaluate(() => localStorage.getItem('attention-lab-lesson')), null);
  assert.deepEqual(errors, []);
  await page.close();
});

test('progress is kept per language: a check done on the English page is not done on the Spanish one', async () => {
  const page = await session.browser.context.newPage();
  await page.goto(session.server.url + 'lesson.html');
  await page.evaluate(() => {
    localStorage.clear();
    localStorage.setItem('attention-lab-lesson', JSON.stringify({ read: ['similarity'], checks: ['similarity'], last: 'similarity' }));
  });
  const mark = () => page.evaluate(() => document.querySelector('#contents a[href="#similarity"] .mark').textContent);
  const done = () => page.evaluate(() => document.querySelector('#similarity .status').classList.contains('done'));
  await page.reload();
  await until(page, () => document.documentElement.dataset.lesson === 'ready');
  assert.deepEqual([await mark(), await done()], ['✓', true], 'done on the page where it was answered');
  await page.goto(session.server.url + 'leccion.html');
  await until(page, () => document.documentElement.dataset.lesson === 'ready');
  assert.deepEqual([await mark(), await done()], ['', false], 'not done on the other language\'s page');
  assert.equal(await page.evaluate(() => document.querySelector('#similarity .status').textContent), '');
  await page.evaluate(() => localStorage.clear());
  await page.close();
});
