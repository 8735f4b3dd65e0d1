// The lesson's pages (lesson.html, leccion.html): the contents list, the reader's progress kept
// on their device, the chapters' checks, and the numbers the text cites. The text and the
// figures are the page's own HTML, so a course author can copy any part of it; this script only
// reads that HTML:
//
//   <section id="…"><h2>…</h2> …             a chapter: listed in the contents, in order
//   <attention-lab data-check="id" mode="practice" …>   the chapter's check: its `answer`
//                                              events (docs/embed.md) mark the check done
//   <span data-cite data-figure="fig-id" data-path="weights/2/2">   a number the figure computes:
//                                              the entry at that path of its trace()
//        … data-read="experiment" …              of its experiment() instead (view=model's numbers)
//   <span data-calc="sqrt 512">                  a number from a formula ([arithmetic] below)
//   <pre data-mask="causal+padding 5 3">title</pre>   a mask matrix, written out ([masks] below)
//
// Cited numbers are read from the figure they sit beside, when it starts (tests/e2e/lesson.test.mjs
// compares each with the figure's own trace()), so the text cannot disagree with it.
(function () {
  'use strict';
  const lang = document.documentElement.lang.slice(0, 2) === 'es' ? 'es' : 'en';
  const WORDS = {
    en: {
      contents: 'Contents', done: (n, total) => `${n} of ${total} done`,
      resume: (n, title) => `You stopped at chapter ${n}, “${title}”.`,
      continue: 'Continue', clear: 'Clear my progress', cleared: 'Progress cleared.',
      right: 'Right: this check is done.', again: 'Not this time: read the explanation in the figure, then press Next question.',
      read: 'read', checked: 'check done', isDone: 'This check is done.',
    },
    es: {
      contents: 'Contenido', done: (n, total) => `${n} de ${total} hechos`,
      resume: (n, title) => `Te quedaste en el capítulo ${n}, «${title}».`,
      continue: 'Continuar', clear: 'Borrar mi progreso', cleared: 'Progreso borrado.',
      right: 'Correcto: esta comprobación está hecha.', again: 'Esta vez no: lee la explicación en la figura y pulsa «Siguiente pregunta».',
      read: 'leído', checked: 'comprobación hecha', isDone: 'Esta comprobación está hecha.',
    },
  }[lang];

  // [progress] kept in the reader's browser; a browser that refuses storage still reads the lesson.
  // Each language's page keeps its own: a check answered on one is not answered on the other.
  const STORE = lang === 'en' ? 'attention-lab-lesson' : `attention-lab-lesson-${lang}`;
  function loadProgress() {
    try {
      const p = JSON.parse(localStorage.getItem(STORE) || '{}');
      return { read: Array.isArray(p.read) ? p.read : [], checks: Array.isArray(p.checks) ? p.checks : [],
               last: typeof p.last === 'string' ? p.last : '' };
    } catch { return { read: [], checks: [], last: '' }; }
  }
  let progress = loadProgress();
  function save() {
    try { localStorage.setItem(STORE, JSON.stringify(progress)); } catch { /* private mode: not kept */ }
    drawContents();
  }
  const mark = (list, id) => { if (!progress[list].includes(id)) { progress[list].push(id); save(); } };

  // A chapter's heading is kept as nodes too, so that the contents write √d_k with its subscript.
  const chapters = [...document.querySelectorAll('main section[id]')].map((section, i) => {
    const h2 = section.querySelector('h2');
    return { id: section.id, number: i + 1, section, title: h2.textContent.trim(), heading: [...h2.childNodes] };
  });
  for (const c of chapters) {
    const number = document.createElement('span');
    number.className = 'number';
    number.textContent = c.number + '.';
    c.section.querySelector('h2').prepend(number);
  }

  // [contents] one link a chapter, with ✓ once it is read and its check done.
  const aside = document.getElementById('contents');
  const details = document.createElement('details');
  details.open = matchMedia('(min-width: 70rem)').matches;
  const summary = document.createElement('summary');
  const list = document.createElement('ol');
  const clear = document.createElement('button');
  clear.type = 'button';
  clear.textContent = WORDS.clear;
  clear.addEventListener('click', () => {
    progress = { read: [], checks: [], last: '' };
    try { localStorage.removeItem(STORE); } catch { /* nothing kept */ }
    for (const s of document.querySelectorAll('.check .status')) { s.textContent = ''; s.classList.remove('done'); }
    drawContents();
    resume.hidden = false;
    resume.replaceChildren(Object.assign(document.createElement('p'), { textContent: WORDS.cleared }));
  });
  const actions = document.createElement('div');
  actions.className = 'actions';
  actions.append(clear);
  details.append(summary, list, actions);
  aside.append(details);

  function complete(c) {
    const hasCheck = c.section.querySelector('[data-check]') !== null;
    return progress.read.includes(c.id) && (!hasCheck || progress.checks.includes(c.id));
  }
  function drawContents() {
    const done = chapters.filter(complete).length;
    summary.textContent = `${WORDS.contents} · ${WORDS.done(done, chapters.length)}`;
    list.replaceChildren(...chapters.map(c => {
      const a = document.createElement('a');
      a.href = '#' + c.id;
      if (c.id === progress.last) a.setAttribute('aria-current', 'true');
      const tick = document.createElement('span');
      tick.className = 'mark';
      tick.textContent = complete(c) ? '✓' : '';
      const states = [progress.read.includes(c.id) && WORDS.read, progress.checks.includes(c.id) && WORDS.checked].filter(Boolean);
      if (states.length) a.title = states.join(', ');
      const title = document.createElement('span');  // one flex item beside the mark
      title.append(`${c.number}. `, ...c.heading.map(node => node.cloneNode(true)));
      a.append(tick, title);
      const li = document.createElement('li');
      li.append(a);
      return li;
    }));
  }
  drawContents();

  // [reading] a chapter is read once its end has been on screen; the last chapter whose
  // heading was reached is where the reader stopped.
  const byId = id => chapters.find(c => c.id === id);
  const ends = new IntersectionObserver(entries => {
    for (const e of entries) if (e.isIntersecting) mark('read', e.target.closest('section').id);
  });
  const headings = new IntersectionObserver(entries => {
    for (const e of entries) {
      if (!e.isIntersecting) continue;
      const id = e.target.closest('section').id;
      if (progress.last !== id) { progress.last = id; save(); }
    }
  }, { rootMargin: '0px 0px -60% 0px' });
  for (const c of chapters) {
    ends.observe(c.section.lastElementChild);
    headings.observe(c.section.querySelector('h2'));
  }

  // [resume] offered when the reader comes back to the top of a lesson they had started.
  const resume = document.getElementById('resume');
  const stopped = byId(progress.last);
  if (stopped && !location.hash && stopped !== chapters[0]) {
    const go = document.createElement('a');
    go.className = 'button primary';
    go.href = '#' + stopped.id;
    go.textContent = WORDS.continue;
    go.addEventListener('click', () => { resume.hidden = true; });
    resume.append(Object.assign(document.createElement('p'), { textContent: WORDS.resume(stopped.number, stopped.title) }), go);
    resume.hidden = false;
  }

  // [checks] a right answer to a chapter's check marks it done; the verdict stays in the figure,
  // and when the figure asks its next question the line under it goes back to the check's standing.
  for (const figure of document.querySelectorAll('attention-lab[data-check]')) {
    const status = figure.parentElement.querySelector('.status');
    const id = figure.dataset.check;
    // The verdict of the last answer; the box stays marked once the check was ever answered right.
    const show = (text, done) => {
      if (!status) return;
      status.textContent = text;
      status.classList.toggle('done', done);
    };
    const standing = () => show(progress.checks.includes(id) ? WORDS.isDone : '', progress.checks.includes(id));
    standing();
    figure.addEventListener('answer', event => {
      const right = event.detail && event.detail.correct === true;
      if (right) mark('checks', id);
      show(right ? WORDS.right : WORDS.again, progress.checks.includes(id));
    });
    figure.addEventListener('question', standing);
  }

  // [numbers] cited numbers, from the kernel, written as the figures write them in every
  // language (a decimal point, no grouping: src/i18n/i18n.h), so that the text and the figure
  // beside it read alike; a check reads a typed decimal comma too.
  const NOTATION = { useGrouping: false };
  function format(x) {
    // Three significant digits everywhere: a very small or very large number as a power of
    // ten (2.38 × 10⁻⁷, 6.08 × 10³⁷).
    if (x !== 0 && (Math.abs(x) < 1e-3 || Math.abs(x) >= 1e6)) {
      const [m, e] = x.toExponential(2).split('e');
      const superscript = String(Number(e)).replace(/-/g, '⁻').replace(/\d/g, d => '⁰¹²³⁴⁵⁶⁷⁸⁹'[d]);
      return `${new Intl.NumberFormat('en', NOTATION).format(Number(m))} × 10${superscript}`;
    }
    // Three digits, or more where three would round a fraction to a whole number (a weight of
    // 0.99966 is not 1).
    let digits = 3;
    const rounded = () => Number(x.toPrecision(digits));
    while (digits < 6 && !Number.isInteger(x) && Number.isInteger(rounded())) ++digits;
    return new Intl.NumberFormat('en', { ...NOTATION, maximumSignificantDigits: digits }).format(x).replace('-', '−');
  }
  // [arithmetic] numbers the text states that follow from a formula rather than a figure's
  // computation (√d_k, ln of a type's largest value, a matrix's size, a softmax in float64, e^x
// and a row's sum of them, a KV cache's size, a uniform head's scores).
  function softmax(scores) {
    const top = Math.max(...scores);
    const e = scores.map(s => Math.exp(s - top));
    const sum = e.reduce((a, b) => a + b, 0);
    return e.map(x => x / sum);
  }
  const FORMULAS = {
    sqrt: x => Math.sqrt(x),
    ln: x => Math.log(x),
    'mib-square': n => n * n * 4 / 2 ** 20,  // an n × n float32 matrix, in MiB
    'softmax-top': (...s) => Math.max(...softmax(s)),
    'softmax-slope': (...s) => { const w = Math.max(...softmax(s)); return w * (1 - w); },
    'f32-spacing': x => 2 ** (Math.floor(Math.log2(x)) - 23),  // between float32 numbers near x
    exp: x => Math.exp(x),
    'sum-exp': (...s) => s.reduce((sum, x) => sum + Math.exp(x), 0),  // a row's Σ e^s, unshifted
    // Keys and values of n tokens in every layer and KV head, in GiB.
    'kv-gib': (layers, heads, n, dk, bytes) => 2 * layers * heads * n * dk * bytes / 2 ** 30,
    // A head that spreads row i evenly over keys 0 … i (1/(i + 1) each), scored as the model's
    // scores are (src/lm/head_scores.cpp): mean a[i][i − 1] over rows 1 … n − 1, and mean
    // a[i][i − period + 1] over the second copy's rows period … n − 1.
    'uniform-previous': n => meanOfUniform(1, n),
    'uniform-induction': (n, period) => meanOfUniform(period, n),
  };
  function meanOfUniform(from, to) {  // the mean of 1/(i + 1) over rows from … to − 1
    let sum = 0;
    for (let i = from; i < to; ++i) sum += 1 / (i + 1);
    return sum / (to - from);
  }
  for (const span of document.querySelectorAll('[data-calc]')) {
    const [name, ...args] = span.dataset.calc.trim().split(/\s+/);
    if (!FORMULAS[name] || args.some(a => !Number.isFinite(Number(a)))) throw new Error(`lesson: data-calc "${span.dataset.calc}"`);
    const value = FORMULAS[name](...args.map(Number));
    span.dataset.value = String(value);
    span.textContent = format(value);
  }

  // [masks] a mask matrix written out from its definition, not typed: <pre data-mask="causal 5">,
  // "padding 5 3" (5 positions, the first 3 real tokens), "causal+padding 5 3", "left 5 3" (the
  // last 3 real: padded on the left). The pre's own text is its title, in the page's language;
  // row i is a query, column j a key.
  const MASKS = { causal: (i, j) => j > i, padding: (i, j, real) => j >= real, left: (i, j, real, n) => j < n - real };
  for (const pre of document.querySelectorAll('pre[data-mask]')) {
    const [kind, size, real = size] = pre.dataset.mask.trim().split(/\s+/);
    const blocks = kind.split('+');
    const n = Number(size), tokens = Number(real);
    if (!blocks.every(b => MASKS[b]) || !Number.isInteger(n) || !Number.isInteger(tokens) || n < 1 || tokens < 1 || tokens > n)
      throw new Error(`lesson: data-mask "${pre.dataset.mask}"`);
    const rows = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) =>
      (blocks.some(b => MASKS[b](i, j, tokens, n)) ? '−∞' : '0').padStart(3)).join(' '));
    pre.textContent = [pre.textContent.trim(), ...rows].join('\n');
  }

  // Each cited number is an entry of its figure's own trace() (the element's read of its
  // instance, embed.js), filled in once that figure has started: the number on the page is the
  // one the figure shows, computed once.
  // view=model's experiment() says it is loading until the model's weights arrive (fetched when
  // the figure starts): asked again after a pause until they have, or have failed.
  const pause = ms => new Promise(done => setTimeout(done, ms));
  const experiment = figure => figure.experiment().then(e =>
    (e && e.status === 'loading' ? pause(250).then(() => experiment(figure)) : e));
  const READS = { trace: figure => figure.trace(), experiment };
  const cited = new Map();  // "figure id read" -> its spans
  for (const span of document.querySelectorAll('[data-cite]')) {
    const figure = document.getElementById(span.dataset.figure);
    if (!figure || figure.localName !== 'attention-lab') throw new Error(`lesson: no figure ${span.dataset.figure} to cite`);
    const read = span.dataset.read || 'trace';
    if (!READS[read]) throw new Error(`lesson: data-read "${read}"`);
    const key = `${figure.id} ${read}`;
    if (!cited.has(key)) cited.set(key, { figure, read, spans: [] });
    cited.get(key).spans.push(span);
    span.textContent = '…';
  }
  const reads = [...cited.values()].map(({ figure, read, spans }) => READS[read](figure).then(trace => {
    for (const span of spans) {
      const value = span.dataset.path.split('/').reduce((at, key) => (at == null ? at : at[key]), trace);
      if (typeof value !== 'number') throw new Error(`lesson: ${span.dataset.figure} has no number at ${span.dataset.path}`);
      span.dataset.value = String(value);
      span.textContent = format(value);
    }
  }));
  Promise.all(reads).then(() => { document.documentElement.dataset.cited = 'true'; }, error => console.error(error));
  // Contents, progress, checks and formulas are in place (the cited numbers follow their figures).
  document.documentElement.dataset.lesson = 'ready';
})();
