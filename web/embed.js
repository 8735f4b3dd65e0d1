// <attention-lab> — one line per live instance in a lesson page:
//
//   <script src="https://…/attention-lab/embed.js"></script>
//   <attention-lab preset="causal-3x2" step="softmax" height="520"></attention-lab>
//
// Each instance is an isolated iframe of index.html, addressed relative to this script's own
// URL so a lesson on one site can load the demo from another. Attributes are state keys
// (preset, step, query, view, n, nq, nk, dk, dv, seed, scale, causal, …) plus height, theme
// ("light", "dark" or "auto", the default: the instance follows the reader's system scheme,
// live, as the host page's prefers-color-scheme does), lang ("en", "es" or "auto"; by default
// the language of the lesson page around the element, else the reader's) and ui ("compact").
//
// Element API: `ready` (true once the instance drew its first frame) and a `ready` event,
// `state` (last known), `setState(partial)`, a `change` event whose detail is the new state,
// and an `answer` event when the learner answers a practice question (detail: {question,
// answer, correct, expected, explanation}). Everything travels by postMessage; only messages from the instance's own frame and
// origin, of the expected shapes, are read, and nothing received is ever evaluated. A swipe
// that the instance cannot scroll further (at its top or bottom) scrolls the lesson instead.
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

  const isPlainObject = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);
  const isStateValue = (x) => ['string', 'number', 'boolean'].includes(typeof x);
  // An overscroll's distance: CSS pixels, at most a few screens in one message.
  const isDistance = (x) => typeof x === 'number' && Number.isFinite(x) && Math.abs(x) <= 4000;
  // A practice answer's message: the question ({id, kind, text, choices?}), the answer as given
  // (a text, a number or a list of numbers) and the verdict; the detail is a fresh copy.
  const isNumber = (x) => typeof x === 'number' && Number.isFinite(x);
  const isText = (x) => typeof x === 'string';
  function answerOf(data) {
    const q = data.question;
    if (!isPlainObject(q) || ![q.id, q.kind, q.text].every(isText)) return null;
    if (q.choices !== undefined && !(Array.isArray(q.choices) && q.choices.every(isText))) return null;
    const answer = data.answer;
    if (!(isText(answer) || isNumber(answer) || (Array.isArray(answer) && answer.every(isNumber)))) return null;
    if (typeof data.correct !== 'boolean' || !isText(data.expected) || !isText(data.explanation)) return null;
    const question = { id: q.id, kind: q.kind, text: q.text };
    if (q.choices) question.choices = q.choices.slice();
    return { question, answer: Array.isArray(answer) ? answer.slice() : answer, correct: data.correct,
             expected: data.expected, explanation: data.explanation };
  }

  function fragmentOf(state) {
    return Object.entries(state)
      .map(([k, v]) => encodeURIComponent(k) + '=' + encodeURIComponent(String(v)).replace(/%2C/g, ','))
      .join('&');
  }

  class AttentionLabElement extends HTMLElement {
    constructor() {
      super();
      this._ready = false;
      this._state = {};
      this._queued = [];
      this._onMessage = this._onMessage.bind(this);
    }

    get ready() { return this._ready; }
    get state() { return { ...this._state }; }

    setState(partial) {
      if (!isPlainObject(partial)) throw new TypeError('setState expects an object of state keys and values');
      const clean = {};
      for (const [k, v] of Object.entries(partial)) if (isStateValue(v)) clean[k] = v;
      if (this._ready) this._post({ type: 'attention-lab:set', state: clean });
      else this._queued.push(clean);
    }

    connectedCallback() {
      // Also after a move in the document, which disconnects the element first.
      window.addEventListener('message', this._onMessage);
      if (this._frame) return;
      const shadow = this.attachShadow({ mode: 'open' });
      const style = document.createElement('style');
      style.textContent = ':host{display:block;width:100%;max-width:100%}' +
        'iframe{display:block;width:100%;border:0;border-radius:8px;background:transparent}';
      this._frame = document.createElement('iframe');
      this._frame.title = this.getAttribute('title') || 'Attention Lab: scaled dot-product attention, step by step';
      this._frame.loading = 'eager';
      this._frame.setAttribute('allow', 'clipboard-write');
      this._frame.style.height = this._height();
      this._frame.src = pageUrl.href + '#' + fragmentOf(this._initialState());
      shadow.append(style, this._frame);
    }

    disconnectedCallback() {
      window.removeEventListener('message', this._onMessage);
      // If the element is put back (moved), its frame reloads from its first link: until the
      // instance is ready again, setState() queues, and the state it had is given back first.
      if (this._ready) this._queued.unshift(this._state);
      this._ready = false;
    }

    _height() {
      const h = Number.parseInt(this.getAttribute('height') || '560', 10);
      return (Number.isFinite(h) && h >= 200 && h <= 4000 ? h : 560) + 'px';
    }

    _initialState() {
      const state = {};
      for (const { name, value } of this.attributes) if (isState(name)) state[name] = value;
      state.theme = this.getAttribute('theme') || 'auto';  // the page itself follows the scheme
      // lang="es" on the element, or the language of the lesson around it (<html lang="es">),
      // or else the reader's browser language.
      const around = this.parentElement && this.parentElement.closest('[lang]');
      state.lang = this.getAttribute('lang') || (around && /^(en|es)\b/i.test(around.lang) ? around.lang.slice(0, 2).toLowerCase() : 'auto');
      return state;
    }

    _post(message) {
      if (this._frame && this._frame.contentWindow) this._frame.contentWindow.postMessage(message, pageUrl.origin);
    }

    _onMessage(event) {
      if (!this._frame || event.source !== this._frame.contentWindow || event.origin !== pageUrl.origin) return;
      const data = event.data;
      if (isPlainObject(data) && data.type === 'attention-lab:overscroll') {
        if (isDistance(data.dx) && isDistance(data.dy)) window.scrollBy({ left: data.dx, top: data.dy, behavior: 'instant' });
        return;
      }
      if (isPlainObject(data) && data.type === 'attention-lab:answer') {
        const detail = answerOf(data);
        if (detail) this.dispatchEvent(new CustomEvent('answer', { detail }));
        return;
      }
      if (!isPlainObject(data) || typeof data.type !== 'string' || !isPlainObject(data.state)) return;
      const state = {};
      for (const [k, v] of Object.entries(data.state)) if (typeof k === 'string' && isStateValue(v)) state[k] = v;
      if (data.type === 'attention-lab:ready') {
        this._state = state;
        this._ready = true;
        for (const partial of this._queued.splice(0)) this._post({ type: 'attention-lab:set', state: partial });
        this.dispatchEvent(new CustomEvent('ready', { detail: this.state }));
      } else if (data.type === 'attention-lab:state') {
        this._state = state;
        this.dispatchEvent(new CustomEvent('change', { detail: this.state }));
      }
    }
  }

  window.customElements.define('attention-lab', AttentionLabElement);
})();
