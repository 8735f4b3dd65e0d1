// <attention-lab> — one line per live figure in a lesson page:
//
//   <script src="https://…/attention-lab/embed.js"></script>
//   <attention-lab preset="causal-3x2" step="softmax" height="520"></attention-lab>
//
// Each figure is an isolated iframe of index.html, addressed relative to this script's own
// URL so a lesson on one site can load the demo from another. Attributes are state keys
// (preset, step, query, view, n, nq, nk, dk, dv, seed, scale, causal, …) plus height, theme
// ("light", "dark" or "auto", the default: the instance follows the reader's system scheme,
// live, as the host page's prefers-color-scheme does), lang ("en", "es" or "auto"; by default
// the language of the lesson page around the element, else the reader's) and ui ("compact").
// With figure="softmax,arithmetic" (only those parts of the lab) the frame takes the height
// the figure tells (attention-lab:size); `height` is then the placeholder's.
//
// Element API: `ready` (true while a live instance has drawn its first complete frame) and a `ready`
// event each time one has, `state` (last known, kept while the figure is released),
// `setState(partial)` (queued until ready), a `change` event whose detail is the new state, and
// a `picture` event each time it has taken the picture it prints as (`pictured`: it has one),
// an `answer` event when the learner answers a practice question (detail: {question, answer,
// correct, expected, explanation}), and a `question` event when the next question is on screen
// (detail: {id, kind, text, choices?}). `trace()`, `experiment()` and `getState()` read the
// instance (promises, answered once it is ready: the figure starts when it comes near the
// viewport). Everything travels by postMessage; only messages from the
// instance's own frame and origin, of the expected shapes, are read, and nothing received is
// ever evaluated. A swipe that the instance cannot scroll further (at its top or bottom)
// scrolls the lesson instead.
//
// Many figures on one page ([figures] below): a figure starts its instance only when it comes
// near the viewport, at most LIVE_LIMIT hold one at once (each holds a WebGL context, and
// Chromium drops the oldest past 16 a page), and one far from the viewport releases its
// instance, showing a placeholder of its height, and starts again with its state when the
// reader comes back. docs/embed.md says what a course author sees.
(function () {
  'use strict';
  if (window.customElements.get('attention-lab')) return;  // the script was included twice

  const scriptUrl = document.currentScript ? document.currentScript.src : location.href;
  const pageUrl = new URL('index.html', scriptUrl);
  // Attributes that belong to the element, not to the instance's state: this script's own,
  // and HTML's global attributes (aria-* and data-* among them), which pages set on anything.
  const OWN = new Set(['height', 'theme']);
  const GLOBAL = new Set(['accesskey', 'autocapitalize', 'autofocus', 'class', 'contenteditable', 'dir',
    'draggable', 'enterkeyhint', 'hidden', 'id', 'inert', 'inputmode', 'is', 'itemid', 'itemprop', 'itemref',
    'itemscope', 'itemtype', 'nonce', 'part', 'popover', 'role', 'slot', 'spellcheck', 'style', 'tabindex',
    'title', 'translate']);
  const isState = (name) => !OWN.has(name) && !GLOBAL.has(name) && !/^(aria|data)-/.test(name);
  const DEFAULT_TITLE = 'Attention Lab: scaled dot-product attention, step by step';

  const isPlainObject = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);
  const isStateValue = (x) => ['string', 'number', 'boolean'].includes(typeof x);
  // An overscroll's distance: CSS pixels, at most a few screens in one message.
  const isDistance = (x) => typeof x === 'number' && Number.isFinite(x) && Math.abs(x) <= 4000;
  // A figure's height (attention-lab:size): CSS pixels, held to a frame a page can show.
  const frameHeight = (x) => (typeof x === 'number' && Number.isFinite(x) ? Math.min(Math.max(Math.ceil(x), 100), 8000) : null);
  // A practice answer's message: the question ({id, kind, text, choices?}), the answer as given
  // (a text, a number or a list of numbers) and the verdict; the detail is a fresh copy.
  const isNumber = (x) => typeof x === 'number' && Number.isFinite(x);
  const isText = (x) => typeof x === 'string';
  function questionOf(q) {
    if (!isPlainObject(q) || ![q.id, q.kind, q.text].every(isText)) return null;
    if (q.choices !== undefined && !(Array.isArray(q.choices) && q.choices.every(isText))) return null;
    const question = { id: q.id, kind: q.kind, text: q.text };
    if (q.choices) question.choices = q.choices.slice();
    return question;
  }
  function answerOf(data) {
    const question = questionOf(data.question);
    if (!question) return null;
    const answer = data.answer;
    if (!(isText(answer) || isNumber(answer) || (Array.isArray(answer) && answer.every(isNumber)))) return null;
    if (typeof data.correct !== 'boolean' || !isText(data.expected) || !isText(data.explanation)) return null;
    return { question, answer: Array.isArray(answer) ? answer.slice() : answer, correct: data.correct,
             expected: data.expected, explanation: data.explanation };
  }

  // [keys] A key message's fields, checked; null for anything else.
  const KEY_FLAGS = ['shiftKey', 'ctrlKey', 'altKey', 'metaKey', 'repeat'];
  function keyOf(data) {
    if (!isText(data.key) || !isText(data.code) || data.key.length > 32 || data.code.length > 32) return null;
    if (!Number.isInteger(data.keyCode) || !KEY_FLAGS.every((f) => typeof data[f] === 'boolean')) return null;
    const init = { key: data.key, code: data.code, keyCode: data.keyCode };
    for (const f of KEY_FLAGS) init[f] = data[f];
    return init;
  }
  // What the browser does for a key on a page nobody handled: Space and PageDown a screen down
  // (less a little, to keep context), Shift+Space and PageUp up, Home and End to either end.
  function scrollFor({ key, shiftKey, ctrlKey, altKey, metaKey }) {
    if (ctrlKey || altKey || metaKey) return;
    const page = Math.max(40, window.innerHeight * 0.875);
    const by = { ' ': shiftKey ? -page : page, PageDown: page, PageUp: -page }[key];
    if (by !== undefined) window.scrollBy({ top: by, behavior: 'instant' });
    else if (key === 'Home') window.scrollTo({ top: 0, behavior: 'instant' });
    else if (key === 'End') window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' });
  }

  function fragmentOf(state) {
    return Object.entries(state)
      .map(([k, v]) => encodeURIComponent(k) + '=' + encodeURIComponent(String(v)).replace(/%2C/g, ','))
      .join('&');
  }

  // [figures] Which figures hold a live instance. Distances are in viewport heights from the
  // viewport's edge (0: at least partly on screen).
  // - A figure starts when it is at most START away, nearest first, so that it has drawn by
  //   the time the reader scrolls to it.
  // - At most LIVE_LIMIT are live: each instance holds a WebGL context and its own wasm heap
  //   (16 MiB reserved at least), Chromium keeps at most 16 contexts a page (the lesson's own
  //   canvases count too), and a phone's memory is the tighter bound. Six holds the figures
  //   on screen and a screen's worth on each side at the usual heights (400 px and more);
  //   where more are that near, the nearest win.
  // - A live figure farther than KEEP releases its instance; when a nearer one needs a place,
  //   the live figure farthest from the viewport gives it up. KEEP > START, so scrolling back
  //   and forth a little never reloads anything.
  // Nothing polls: the decisions are taken when a figure crosses one of these distances (one
  // IntersectionObserver each), connects or disconnects, or loses its context.
  const LIVE_LIMIT = 6;
  const START = 1;
  const KEEP = 2;
  // A figure whose instance lost its context starts a new one, but not forever: on a page
  // whose other canvases keep taking the contexts, the figures would take them from each other
  // in turn. Past MAX_RESTARTS, it rests as a placeholder until the reader has gone far away.
  const MAX_RESTARTS = 3;
  const PAUSED = {
    en: 'Attention Lab: paused, as this page holds too many graphics contexts (scroll away and back to restart it)',
    es: 'Attention Lab: en pausa, pues esta página tiene demasiados contextos gráficos (aléjate y vuelve para reanudarlo)',
  };
  const figures = new Set();
  let nextRead = 1;  // ids of reads (trace(), …): each reply names the read it answers
  // [visibility] Screens away in either direction: a slide beside the current one is as far
  // as a section below the fold.
  const observers = [0, START, KEEP].map((screens) =>
    new IntersectionObserver(schedule, { rootMargin: `${screens * 100}%` }));

  function distance(el) {
    // Not shown: display: none, a closed <details>, visibility: hidden (a slide deck's other
    // slides), content-visibility: hidden.
    if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true })) return Infinity;
    const box = el.getBoundingClientRect();
    if (!box.width && !box.height) return Infinity;
    const h = window.innerHeight || 1;
    const w = window.innerWidth || 1;
    return Math.max(Math.max(0, box.top - h, -box.bottom) / h, Math.max(0, box.left - w, -box.right) / w);
  }

  // A figure hidden or shown without moving (a class, a style, `hidden` changed on it or
  // around it: a deck going to another slide) crosses no IntersectionObserver's edge: such a
  // change of the page's attributes decides again, once per animation frame at most.
  let rescheduled = false;
  new MutationObserver(() => {
    if (rescheduled || !figures.size) return;
    rescheduled = true;
    requestAnimationFrame(() => { rescheduled = false; schedule(); });
  }).observe(document.documentElement, { attributes: true, subtree: true, attributeFilter: ['class', 'style', 'hidden', 'open'] });

  function schedule() {
    const ranked = [...figures].map((el) => ({ el, d: distance(el) })).sort((a, b) => a.d - b.d);
    for (const { el, d } of ranked) if (d === 0) paper.inView(el);
    for (const { el, d } of ranked) {
      if (d <= KEEP) continue;
      el._restarts = 0;
      el._release();
    }
    const wanted = ranked.filter(({ el, d }) => d <= START && el._restarts <= MAX_RESTARTS)
      .slice(0, LIVE_LIMIT).map(({ el }) => el);
    let live = ranked.filter(({ el }) => el._frame).map(({ el }) => el);
    for (const el of wanted) {
      if (el._frame) continue;
      if (live.length >= LIVE_LIMIT) {
        const farthest = live.filter((other) => !wanted.includes(other)).pop();
        farthest._release();
        live = live.filter((other) => other !== farthest);
      }
      el._start();
      live.push(el);
    }
  }

  // ---- [hosts] where the figure is hosted: a wrong path, a scaled slide, paper ----------------

  // [load] embed.js found, but no lab beside it (a wrong path, a folder not uploaded): every
  // figure says so, with the address it tried, in place of a blank frame. Asked once a page,
  // when the first figure starts, and only of the page's own origin: another origin's answer
  // is unreadable without CORS, and the browser would report the refused request as an error.
  let pageChecked = null;
  function checkPage(el) {
    if (pageUrl.origin !== location.origin) return;
    pageChecked = pageChecked || fetch(pageUrl.href, { method: 'HEAD', cache: 'no-store' })
      .then((response) => (response.ok ? '' : `${response.status} ${response.statusText}`.trim()), () => '');
    pageChecked.then((problem) => {
      if (!problem || !el._frame) return;
      el._frame.remove();
      el._frame = null;
      el._placeholder.classList.add('error');
      el._placeholder.removeAttribute('aria-hidden');
      el._placeholder.setAttribute('role', 'alert');
      el._caption.textContent = `Attention Lab could not load ${pageUrl.href} (${problem}): ` +
        'check the path of embed.js, which must be in the folder of the lab\'s files (docs/HOSTING.md).';
    });
  }

  // [scale] a host that scales its content with a CSS transform (reveal.js scales its slides
  // to the screen) shows the frame larger or smaller than its layout size: the instance is told
  // the scale, which it draws its bitmap at (web/page.js), so a projected figure stays sharp.
  // Measured when the instance is ready and after each resize of the window (reveal.js's own
  // `resize` event bubbles to it too).
  function tellScale(el) {
    if (!el._ready || !el.offsetWidth) return;
    const scale = Math.round(el.getBoundingClientRect().width / el.offsetWidth * 100) / 100;
    if (scale >= 0.25 && scale <= 4 && scale !== el._scale) {
      el._scale = scale;
      el._post({ type: 'attention-lab:scale', scale });
    }
  }
  let scaleQueued = false;
  window.addEventListener('resize', () => {
    if (scaleQueued) return;
    scaleQueued = true;
    requestAnimationFrame(() => { scaleQueued = false; for (const el of figures) tellScale(el); });
  });

  // [paper] printed, a figure is a picture of what it shows: a live one's picture, taken when
  // it is ready and again a moment after each change (printing cannot wait for a frame), in
  // the frame's place; one never started (or released), its caption and its link, printed out.
  // A figure's "Open in the full lab" is not in its picture.
  const PAPER_STYLE = '.link,.picture{display:none}' +
    '.placeholder.error{background:#fdecea;color:#8a1c12;border:1px solid #e0a39d}' +
    '@media print{iframe{display:none}' +
    '.placeholder{flex-direction:column;gap:.5em;background:#fff;color:#222;border:1px solid #999}' +
    '.pictured .placeholder{display:none}' +
    '.link{display:block;font-size:11px;word-break:break-all}' +
    '.picture[src]{display:block;position:absolute;inset:0;width:100%;height:100%;object-fit:contain;object-position:top;background:#fff}}';
  const PICTURE_DELAY_MS = 600;  // after the last change: a drag takes no pictures on its way
  const paper = {
    take(el) {
      el._read('picture').then((picture) => {
        if (!picture || typeof picture.url !== 'string' || !picture.url.startsWith('data:image/png;base64,')) {
          // No frame drawn (a figure out of view may not draw): again now if it is in view, else
          // when it comes into view (schedule).
          if (distance(el) === 0) paper.later(el);
          return;
        }
        el._picture.src = picture.url;
        el._box.classList.add('pictured');
        el.dispatchEvent(new CustomEvent('picture'));
      });
    },
    later(el) {
      clearTimeout(el._pictureTimer);
      el._pictureTimer = setTimeout(() => { el._pictureTimer = 0; if (el._ready) paper.take(el); }, PICTURE_DELAY_MS);
    },
    // A ready figure in view without a picture (its read found no frame while it was out of
    // view) takes one; one already on its way is not put off.
    inView(el) {
      if (el._ready && !el.pictured && !el._pictureTimer) paper.later(el);
    },
  };
  // A figure released since its picture was taken keeps it: what it showed is what it shows.

  // ---- [hosts] end --------------------------------------------------------------------------

  class AttentionLabElement extends HTMLElement {
    constructor() {
      super();
      this._ready = false;
      this._state = null;    // the last state the instance reported; null before its first
      this._queued = [];
      this._reads = new Map();  // id -> {name, resolve}: reads waiting for the instance's reply
      this._frame = null;    // the live instance's iframe; null while released
      this._restarts = 0;    // context losses since the figure was last far away
      this._onMessage = this._onMessage.bind(this);
    }

    get ready() { return this._ready; }
    get state() { return { ...this._state }; }
    // Whether the figure has a picture to print ([paper]): it has drawn once.
    get pictured() { return Boolean(this._box && this._box.classList.contains('pictured')); }

    setState(partial) {
      if (!isPlainObject(partial)) throw new TypeError('setState expects an object of state keys and values');
      const clean = {};
      for (const [k, v] of Object.entries(partial)) if (isStateValue(v)) clean[k] = v;
      if (this._ready) this._post({ type: 'attention-lab:set', state: clean });
      else this._queued.push(clean);
    }

    // What the instance's page API returns for trace(), experiment() and getState() (docs/embed.md):
    // a promise, kept until an instance of this figure is ready to answer.
    trace() { return this._read('trace'); }
    experiment() { return this._read('experiment'); }
    getState() { return this._read('state'); }
    _read(name) {
      return new Promise((resolve) => {
        const id = nextRead++;
        this._reads.set(id, { name, resolve });
        if (this._ready) this._post({ type: 'attention-lab:read', id, name });
      });
    }

    connectedCallback() {
      // Also after a move in the document, which disconnects the element first.
      window.addEventListener('message', this._onMessage);
      if (!this.shadowRoot) this._build();
      figures.add(this);
      for (const observer of observers) observer.observe(this);  // each calls schedule() once now
    }

    disconnectedCallback() {
      window.removeEventListener('message', this._onMessage);
      figures.delete(this);
      for (const observer of observers) observer.unobserve(this);
      this._release();
      schedule();  // its place may go to a figure waiting for one
    }

    // The box keeps the figure's height whether its instance is live or released, so the
    // lesson never jumps; the placeholder says what will be there, and stays under the frame
    // until the instance's page paints over it.
    _build() {
      const shadow = this.attachShadow({ mode: 'open' });
      const style = document.createElement('style');
      style.textContent = ':host{display:block;width:100%;max-width:100%}' +
        '.box{position:relative;border-radius:8px;overflow:hidden}' +
        'iframe{position:absolute;inset:0;display:block;width:100%;height:100%;border:0;background:transparent}' +
        '.placeholder{box-sizing:border-box;height:100%;display:flex;align-items:center;justify-content:center;' +
        'padding:1em;text-align:center;font:15px/1.4 system-ui,sans-serif;background:#eef1f6;color:#5b6475}' +
        '.box[data-theme=dark] .placeholder{background:#1f232c;color:#a3abbb}' +
        '@media (prefers-color-scheme:dark){.box:not([data-theme=light]) .placeholder{background:#1f232c;color:#a3abbb}}' +
        PAPER_STYLE;
      this._box = document.createElement('div');
      this._box.className = 'box';
      this._box.style.height = this._height();
      this._box.dataset.theme = this._theme();
      this._placeholder = document.createElement('div');
      this._placeholder.className = 'placeholder';
      this._caption = document.createElement('span');
      this._caption.textContent = this.getAttribute('title') || 'Attention Lab';
      this._link = document.createElement('span');
      this._link.className = 'link';
      this._picture = document.createElement('img');
      this._picture.className = 'picture';
      this._picture.alt = this._caption.textContent;
      this._placeholder.append(this._caption, this._link);
      this._box.append(this._placeholder, this._picture);
      shadow.append(style, this._box);
    }

    // A new instance, at the state the figure last had (the attributes' at first): the link
    // carries it, so the instance's first frame already shows it.
    _start() {
      this._frame = document.createElement('iframe');
      this._frame.title = this.getAttribute('title') || DEFAULT_TITLE;
      this._frame.loading = 'eager';
      this._frame.setAttribute('allow', 'clipboard-write');
      this._frame.src = this._link.textContent = pageUrl.href + '#' + fragmentOf(this._state || this._initialState());
      this._placeholder.setAttribute('aria-hidden', 'true');
      this._box.append(this._frame);
      checkPage(this);
    }

    // The instance goes (its document, its WebGL context and its wasm heap with it); the
    // figure keeps its state, and setState() queues until it is started and ready again.
    _release() {
      if (this._frame) {
        this._frame.remove();
        this._frame = null;
        this._ready = false;
        this._scale = undefined;  // a new instance is told its scale again
        this._placeholder.removeAttribute('aria-hidden');
      }
      const lang = (this._state && this._state.lang) || this._initialState().lang;
      const text = this._restarts > MAX_RESTARTS ? PAUSED[lang === 'es' ? 'es' : 'en'] : (this.getAttribute('title') || 'Attention Lab');
      if (this._caption.textContent !== text) this._caption.textContent = text;
      this._link.textContent = pageUrl.href + '#' + fragmentOf(this._state || this._initialState());
    }

    // [theme] The element's theme, else the page's (the --attention-lab-theme custom property
    // on the element or any ancestor: `:root { --attention-lab-theme: light }`), else "auto",
    // which follows the reader's system scheme.
    _theme() {
      const page = getComputedStyle(this).getPropertyValue('--attention-lab-theme').trim();
      return this.getAttribute('theme') || (['light', 'dark', 'auto'].includes(page) ? page : 'auto');
    }

    _height() {
      const h = Number.parseInt(this.getAttribute('height') || '560', 10);
      return (Number.isFinite(h) && h >= 200 && h <= 4000 ? h : 560) + 'px';
    }

    _initialState() {
      const state = {};
      for (const { name, value } of this.attributes) if (isState(name)) state[name] = value;
      state.theme = this._theme();
      // lang="es" on the element, or the language of the lesson around it (<html lang="es">),
      // or else the reader's browser language.
      const around = this.parentElement && this.parentElement.closest('[lang]');
      state.lang = this.getAttribute('lang') || (around && /^(en|es)\b/i.test(around.lang) ? around.lang.slice(0, 2).toLowerCase() : 'auto');
      return state;
    }

    // [keys] A key the figure does not use, pressed while it had the keyboard (docs/embed.md):
    // a keydown on the element, bubbling, so the page's own listeners (a slide deck's) hear
    // it; unless one of them calls preventDefault(), the page scrolls as the browser would
    // have. Escape also gives the keyboard back to the page.
    _key(data) {
      const init = keyOf(data);
      if (!init) return;
      if (init.key === 'Escape' && this.shadowRoot.activeElement === this._frame) this._frame.blur();
      const event = new KeyboardEvent('keydown', { ...init, bubbles: true, cancelable: true, composed: true });
      // Older listeners (reveal.js's among them) read keyCode, which KeyboardEvent's
      // constructor does not take.
      Object.defineProperty(event, 'keyCode', { value: init.keyCode });
      Object.defineProperty(event, 'which', { value: init.keyCode });
      if (this.dispatchEvent(event)) scrollFor(init);
    }

    _post(message) {
      if (this._frame && this._frame.contentWindow) this._frame.contentWindow.postMessage(message, pageUrl.origin);
    }

    _onMessage(event) {
      if (!this._frame || event.source !== this._frame.contentWindow || event.origin !== pageUrl.origin) return;
      const data = event.data;
      // A figure sizes its box (and the frame filling it) to its content, kept while released;
      // `height` is only the first placeholder's. Whether the frame holds a figure is the app's
      // answer, carried by the message (a figure="…" naming no part of its view is the whole lab).
      if (isPlainObject(data) && data.type === 'attention-lab:size') {
        const height = frameHeight(data.height);
        if (height !== null && data.figure === true) this._box.style.height = height + 'px';
        return;
      }
      if (isPlainObject(data) && data.type === 'attention-lab:overscroll') {
        if (isDistance(data.dx) && isDistance(data.dy)) window.scrollBy({ left: data.dx, top: data.dy, behavior: 'instant' });
        return;
      }
      if (isPlainObject(data) && data.type === 'attention-lab:key') {
        this._key(data);
        return;
      }
      if (isPlainObject(data) && data.type === 'attention-lab:answer') {
        const detail = answerOf(data);
        if (detail) this.dispatchEvent(new CustomEvent('answer', { detail }));
        return;
      }
      if (isPlainObject(data) && data.type === 'attention-lab:question') {
        const detail = questionOf(data.question);
        if (detail) this.dispatchEvent(new CustomEvent('question', { detail }));
        return;
      }
      if (isPlainObject(data) && data.type === 'attention-lab:reading') {
        const read = this._reads.get(data.id);
        if (read && data.name === read.name && (isPlainObject(data.result) || data.result === null)) {
          this._reads.delete(data.id);
          read.resolve(data.result);
        }
        return;
      }
      if (isPlainObject(data) && data.type === 'attention-lab:lost') {
        // The browser took the instance's WebGL context (too many on the page, a GPU reset):
        // a new instance replaces it, with the state, while the figure is wanted.
        this._restarts += 1;
        this._release();
        schedule();
        return;
      }
      if (!isPlainObject(data) || typeof data.type !== 'string' || !isPlainObject(data.state)) return;
      const state = {};
      for (const [k, v] of Object.entries(data.state)) if (typeof k === 'string' && isStateValue(v)) state[k] = v;
      if (data.type === 'attention-lab:ready') {
        this._state = state;
        this._ready = true;
        for (const partial of this._queued.splice(0)) this._post({ type: 'attention-lab:set', state: partial });
        // After the queued changes, so that a read answers for the state they make.
        for (const [id, { name }] of this._reads) this._post({ type: 'attention-lab:read', id, name });
        this.dispatchEvent(new CustomEvent('ready', { detail: this.state }));
        tellScale(this);
        paper.take(this);
      } else if (data.type === 'attention-lab:state') {
        this._state = state;
        paper.later(this);
        this.dispatchEvent(new CustomEvent('change', { detail: this.state }));
      }
    }
  }

  window.customElements.define('attention-lab', AttentionLabElement);
})();
