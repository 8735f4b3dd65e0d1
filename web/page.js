// The page around the app (index.html): window.attentionLab, the page API of docs/embed.md,
// and the page's side of the boundary (src/app/boundary.json, here as boundary.js): the hooks
// the app calls (Module.lab…), the calls into it (call(), typed by the table), and the messages
// to and from a host page (a lesson's <attention-lab> element, embed.js, or a notebook's
// output). page-tools.js (export, accessibility, preferences, visibility) and load.js (your own
// data) add their hooks and calls through attentionLabTools() and attentionLabLoad().
'use strict';
(function () {
  const boundary = window.attentionLabBoundary;
  const status = document.getElementById('status');
  const statusText = document.getElementById('status-text');
  function fail(message) {
    status.hidden = false;
    status.classList.add('error');
    statusText.textContent = message;
  }

  const missing = window.labMissing;
  if (missing) {
    fail('Attention Lab needs ' + missing + ', which this browser does not provide. A current Chrome, Edge, ' +
         'Firefox or Safari has it' + (missing === 'WebGL2' ? ' (check that hardware acceleration is not disabled).' : '.'));
    return;
  }

  // A call into the app (src/app/page_api.cpp), its types from the table.
  function call(name, ...args) {
    const signature = boundary.calls[name];
    if (!signature) throw new Error('no page call named ' + name + ' (src/app/boundary.json)');
    return Module.ccall(name, signature.returns, signature.args, args);
  }
  // The messages' types, by their short names (MESSAGE.size is the size message's type).
  const MESSAGE = Object.fromEntries(Object.entries(boundary.messages).map(([name, m]) => [name, m.type]));

  let resolveReady, rejectReady;
  const ready = new Promise((resolve, reject) => { resolveReady = resolve; rejectReady = reject; });
  const listeners = { change: [], answer: [] };

  // [API] the page API of docs/embed.md.
  const api = {
    ready,
    getState: () => JSON.parse(call('lab_get_state')),
    setState(partial) {
      if (!partial || typeof partial !== 'object') throw new TypeError('setState expects an object of keys and values');
      // Decoded in C++ (src/state/message.h) like a link, so every value meets one parser.
      call('lab_set_state_json', JSON.stringify(partial), 0);
    },
    trace: () => JSON.parse(call('lab_trace')),
    // The data behind the current experiment view's plots, null in the walkthrough.
    experiment: () => JSON.parse(call('lab_experiment')),
    // The interactive items drawn in the last frame, [{label, kind, x, y, w, h}] in CSS pixels
    // of the page: what a test clicks by its label (docs/embed.md).
    layout() {
      const box = document.getElementById('canvas').getBoundingClientRect();
      return JSON.parse(call('lab_layout')).map(item =>
        ({ ...item, x: item.x + box.left + window.scrollX, y: item.y + box.top + window.scrollY }));
    },
    // Practice mode: the question on screen ({id, kind, text, choices?, asked, right, answered}),
    // read without moving on; and the verdict on an answer to it ({correct, expected,
    // explanation} or {error}). An answer, here or on the canvas, is also the `answer` event.
    practice: () => JSON.parse(call('lab_practice')),
    answer(value) {
      const text = JSON.stringify(value) ?? 'null';  // undefined, functions: an unreadable answer
      return JSON.parse(call('lab_answer', text));
    },
    // The tiled kernel's instruction set, known once ready: "wasm-relaxed-simd" (fused
    // multiply-add, where the browser runs relaxed SIMD) or "wasm-simd128".
    get kernelPath() { return Module.kernelPath; },
    // Bytes of the WebAssembly heap in use: bounded however many changes are made.
    memoryBytes: () => call('lab_memory_bytes') >>> 0,
    on(event, fn) {
      if (!listeners[event]) throw new Error('unknown event "' + event + '" (known: ' + Object.keys(listeners).join(', ') + ')');
      listeners[event].push(fn);
      return () => { listeners[event] = listeners[event].filter(f => f !== fn); };
    },
  };
  window.attentionLab = api;
  function notify(event, value) {
    for (const fn of listeners[event].slice()) {
      try { fn(value); } catch (e) { console.error(e); }
    }
  }

  // [host] an embedding page talks to this one through postMessage; only known shapes are read.
  const embedded = window.parent !== window;
  function tellHost(message) { if (embedded) window.parent.postMessage(message, '*'); }
  let figureHeight = 0;  // figure mode's height, as last told by the app
  let contentHeight = 0;  // the whole lab's in one column (0: side by side), likewise
  // The message's shape and values are checked in C++ (src/state/message.h); nothing in it
  // is evaluated.
  // A read ({id, name}) asks for what one of the API's reading calls returns (the lesson's
  // cited numbers come from its figures' trace()); the reply carries the id back. Nothing else
  // is callable this way.
  // A picture ({url, width, height}: what the figure shows, as a PNG) is what a host prints
  // in the frame's place (embed.js): taken in the frame the app draws, null if it drew none.
  const READS = { trace: () => api.trace(), experiment: () => api.experiment(), state: () => api.getState(), picture };
  window.addEventListener('message', event => {
    if (event.source !== window.parent || !Module.calledRun) return;
    const data = event.data;
    if (data && data.type === MESSAGE.read) {
      if (typeof data.id === 'number' && Object.hasOwn(READS, data.name))
        Promise.resolve(READS[data.name]()).then(result => tellHost({ type: MESSAGE.reading, id: data.id, name: data.name, result }));
      return;
    }
    if (data && data.type === MESSAGE.scale) {
      if (typeof data.scale === 'number' && data.scale >= 0.25 && data.scale <= 4 && data.scale !== hostScale) {
        hostScale = data.scale;
        call('lab_wake');  // the next frame fits the canvas's bitmap to the new ratio
      }
      return;
    }
    let text;
    try { text = JSON.stringify(event.data); } catch (e) { return; }  // cycles, BigInt
    if (typeof text === 'string') call('lab_set_state_json', text, 1);
  });

  // [scale] a host that shows the frame scaled (a reveal.js slide, by a CSS transform) tells the
  // scale (embed.js); the app reads the device pixel ratio for its bitmap and UI scale, so the
  // ratio it reads includes the scale and the figure stays as sharp as the slide's text.
  let hostScale = 1;
  const screenRatio = Object.getOwnPropertyDescriptor(window, 'devicePixelRatio') ||
    Object.getOwnPropertyDescriptor(Object.getPrototypeOf(window), 'devicePixelRatio');
  const readScreenRatio = screenRatio && screenRatio.get ? () => screenRatio.get.call(window) : () => 1;
  Object.defineProperty(window, 'devicePixelRatio', { configurable: true, get: () => readScreenRatio() * hostScale });

  // The picture: the canvas as the app draws it in the next frame (WebGL's drawing buffer is only
  // readable until that frame is shown), without a figure's "Open in the full lab" below it.
  function picture() {
    return new Promise(resolve => {
      call('lab_wake');
      requestAnimationFrame(() => {
        const canvas = Module.canvas;
        const link = Module.labText('Open in the full lab ↗');
        const box = canvas.getBoundingClientRect();
        const below = api.layout().find(item => item.label === link);
        const ratio = canvas.height / Math.max(1, box.height);
        const height = below ? Math.round((below.y - window.scrollY - box.top - 4) * ratio) : canvas.height;
        const copy = document.createElement('canvas');
        copy.width = canvas.width;
        copy.height = Math.max(1, Math.min(canvas.height, height));
        const context = copy.getContext('2d');
        context.drawImage(canvas, 0, 0);
        // A frame the app did not draw (hidden, or not yet fitted) reads as one flat colour.
        const pixels = context.getImageData(0, 0, copy.width, copy.height).data;
        let drawn = false;
        for (let i = 4; i < pixels.length && !drawn; i += 4 * 97) drawn = pixels[i] !== pixels[0] || pixels[i + 1] !== pixels[1] || pixels[i + 2] !== pixels[2];
        resolve(drawn ? { url: copy.toDataURL('image/png'), width: copy.width / ratio, height: copy.height / ratio } : null);
      });
    });
  }

  // [keys] the page around the lab keeps every key the interface does not use (Space,
  // PageUp/PageDown, Home/End, letters, Escape from the stepper…; lab_uses_key says which):
  // neither GLFW nor ImGui sees it. Alone, the browser does with it what it does on any page;
  // embedded, the host hears it (attention-lab:key: embed.js dispatches it on the element and
  // scrolls the page for it), and Escape gives the keyboard back to the host. Registered before
  // GLFW's listeners (attention-lab.js loads after this script), which would take every key.
  const handedOver = new Set();  // codes of keys whose keydown went to the page: their keyup too
  window.addEventListener('keydown', event => {
    if (!Module.calledRun || event.isComposing) return;
    if (call('lab_uses_key', event.key, event.ctrlKey || event.metaKey ? 1 : 0)) return;
    event.stopImmediatePropagation();
    handedOver.add(event.code);
    if (!embedded) return;
    event.preventDefault();  // the frame's own document has nothing to scroll
    const { key, code, keyCode, shiftKey, ctrlKey, altKey, metaKey, repeat } = event;
    tellHost({ type: MESSAGE.key, key, code, keyCode, shiftKey, ctrlKey, altKey, metaKey, repeat });
    if (key === 'Escape') {
      document.activeElement?.blur();
      window.parent.focus();  // a frame without a host script (a notebook's output) too
    }
  }, true);
  window.addEventListener('keyup', event => {
    if (handedOver.delete(event.code)) event.stopImmediatePropagation();
  }, true);

  // A weight file of the model and its report (reportName '' for none), handed to the app
  // (lab_model): the bytes copied into its heap, the report's text ('' without it: the heads go
  // unlabelled), or why not. A notebook's page carries the lab's model inside itself
  // (python/attention_lab/boot.js).
  async function fetchModel(weightsName, reportName) {
    const get = async (name, as) => {
      const response = window.labBundledFile?.(name) ?? await fetch(name);
      if (!response.ok) throw new Error(name + ': ' + response.status + ' ' + response.statusText);
      return response[as]();
    };
    let bytes = new Uint8Array(0), report = '', error = '';
    try {
      [bytes, report] = await Promise.all([
        get(weightsName, 'arrayBuffer').then(b => new Uint8Array(b)),
        reportName ? get(reportName, 'text').catch(() => '') : '',
      ]);
    } catch (e) {
      error = e.message.startsWith(weightsName) ? e.message : weightsName + ': ' + e.message;
    }
    const ptr = bytes.length ? Module._malloc(bytes.length) : 0;
    if (ptr) Module.HEAPU8.set(bytes, ptr);
    call('lab_model', weightsName, ptr, bytes.length, report, error);
  }

  // [hooks] what the app calls in the page (src/app/page_bridge.h).
  window.Module = {
    canvas: document.getElementById('canvas'),
    // A swipe (and its momentum) that the lab could not scroll, at its top or bottom: the
    // lesson around it scrolls instead (embed.js), as a page around a scrolling box would.
    // A figure on a page of its own scrolls that page.
    labOverscroll(dx, dy) {
      if (embedded) tellHost({ type: MESSAGE.overscroll, dx, dy });
      else window.scrollBy({ left: dx, top: dy, behavior: 'instant' });
    },
    // Figure mode: the figure's height in CSS pixels, above 0 exactly when the app's state is a
    // figure (State::is_figure; 0: the whole lab again). The canvas takes it, and the lesson
    // around the page is told, to size its frame (embed.js).
    labFigureHeight(height) {
      figureHeight = height;
      const root = document.documentElement;
      root.classList.toggle('figure', height > 0);
      root.classList.toggle('alone', !embedded);
      root.style.setProperty('--figure-height', height + 'px');
      if (height > 0) tellHost({ type: MESSAGE.size, height, figure: true });
    },
    // The whole lab in one column (a short or narrow frame): the height that shows all of it,
    // for a host that sizes its frame to it (a notebook's output); a lesson's element follows
    // the message only when it says the frame holds a figure.
    labContentHeight(height) {
      contentHeight = height;
      if (height > 0) tellHost({ type: MESSAGE.size, height, figure: false });
    },
    // The first complete frame (its layout settled) is on screen, showing `state` (getState()'s object).
    labReady(state) {
      api.firstFrameMs = performance.now();  // since navigation started
      status.hidden = true;
      // Alone, the lab is the page the reader opened, and has its keyboard, as an app's main
      // surface does (without scrolling to it). Embedded, it takes no focus: it has the
      // keyboard only once the reader clicks, taps or tabs into it ([keys] below), as any
      // control of the page around it.
      if (!embedded) Module.canvas.focus({ preventScroll: true });
      resolveReady(api);
      tellHost({ type: MESSAGE.ready, state });
      const height = figureHeight || contentHeight;
      if (height > 0) tellHost({ type: MESSAGE.size, height, figure: figureHeight > 0 });
    },
    // A change of state: its link fragment and the state itself (getState()'s object), in one
    // crossing.
    labStateChanged(fragment, state) {
      // The address bar is always a shareable link to what is on screen (a document without an
      // address of its own, such as a notebook output's about:srcdoc, has none to keep).
      if (location.protocol !== 'about:') history.replaceState(null, '', '#' + fragment);
      notify('change', state);
      tellHost({ type: MESSAGE.state, state });
    },
    // The learner answered the practice question: {question, answer, correct, expected, explanation}.
    labAnswered(event) {
      notify('answer', event);
      tellHost({ type: MESSAGE.answer, ...event });
    },
    // A new practice question is on screen: {id, kind, text, choices?, asked, right, answered}.
    labAsked(question) {
      tellHost({ type: MESSAGE.question, question });
    },
    // The page's words follow the interface's language (its <html lang> is set already).
    labLanguage() {
      for (const [attribute, property] of [['data-i18n', 'textContent'], ['data-i18n-title', 'title'], ['data-i18n-label', 'ariaLabel']]) {
        for (const el of document.querySelectorAll('[' + attribute + ']')) {
          const key = attribute + '-en';
          if (!el.hasAttribute(key)) el.setAttribute(key, el[property]);  // the English is the key
          el[property] = call('lab_text', el.getAttribute(key));
        }
      }
    },
    labText(english) { return Module.calledRun ? call('lab_text', english) : english; },
    labNotes(notes) {
      document.getElementById('notes').textContent = notes.join('\n');
    },
    // view=model opened: the language model's weights and report (docs/model.md), fetched
    // now and not with the page, so the lab's first frame never waits for them.
    labFetchModel(weights, report) { fetchModel(weights, report); },
    onAbort(what) { fail('Attention Lab stopped: ' + what); rejectReady(new Error(String(what))); },
  };
  window.attentionLabTools(Module, api, call);
  window.attentionLabLoad(Module, api, call);
  // The browser takes a WebGL context back when it must (past 16 on one page, a GPU reset),
  // and what the app built in it is gone. Alone, the page starts again from its link, which
  // holds the state on screen; embedded, it tells its host, whose element starts a new
  // instance in its place (embed.js) and decides how often: frames that reloaded themselves
  // would take the contexts from each other in turn.
  Module.canvas.addEventListener('webglcontextlost', () => {
    if (!embedded) { location.reload(); return; }
    fail('The browser took back this figure\'s graphics (too many on one page): reload the page to see it again.');
    tellHost({ type: MESSAGE.lost });
  });
  // A link edited by hand (or a back/forward step) replaces the whole state.
  window.addEventListener('hashchange', () => {
    if (Module.calledRun) call('lab_set_state', location.hash.slice(1), 1);
  });

  const script = document.createElement('script');
  script.onerror = () => fail('Could not load attention-lab.js: serve this folder over HTTP (scripts/run.sh).');
  // A document that carries the app inside itself (a notebook's output: python/attention_lab)
  // has no files beside it: its window.labBundle(Module) gives the module its bytes and
  // resolves to the script's address.
  Promise.resolve(window.labBundle ? window.labBundle(Module) : 'attention-lab.js').then((src) => {
    script.src = src;
    document.body.appendChild(script);
  }, (error) => fail('Attention Lab could not unpack itself: ' + error.message));
})();
