// A lesson page of many <attention-lab> figures, watched from outside: what every frame of it
// does (animation-frame callbacks, WebGL contexts made and lost) and what the lesson's
// elements do (instances live, figures drawn), and a reader's scroll through it with the
// mouse wheel. Shared by tests/e2e/figures.test.mjs (behaviour) and bench/figures_bench.mjs
// (figures). It reads only the documented element API (ready, state, the ready event) and
// the DOM, so it measures any version of embed.js alike.
import { scrollEnded, until } from './harness.mjs';

// For context.addInitScript: runs in every frame before its scripts.
// - Every frame counts its animation-frame callbacks in window.__rafCallbacks.
// - Every WebGL context made for a canvas in the document (not a capability probe's) is
//   reported to the test through the binding __labGL ('made', 'lost', 'restored').
// - The lesson (the top frame) keeps window.__figures: how many instances (iframes inside
//   <attention-lab>) are live and their peak, counted on every change of their shadow trees,
//   and when each figure first said ready.
export function instrumentFigures() {
  window.__rafCallbacks = 0;
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) => raf((time) => { window.__rafCallbacks += 1; callback(time); });

  const documentId = Math.random();  // one per document: a frame that reloads gets a new one
  const getContext = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
    const gl = getContext.call(this, type, ...rest);
    if (gl && /^webgl/.test(type) && this.isConnected && !this.__labCounted) {
      this.__labCounted = true;
      window.__labGL?.(documentId, 'made');
      this.addEventListener('webglcontextlost', () => window.__labGL?.(documentId, 'lost'));
      this.addEventListener('webglcontextrestored', () => window.__labGL?.(documentId, 'restored'));
    }
    return gl;
  };

  if (window !== window.top) return;
  const stats = { live: 0, peak: 0, firstReadyMs: null, allDrawnMs: null, drawn: 0 };
  window.__figures = stats;
  const roots = [];
  const count = () => {
    stats.live = roots.reduce((n, root) => n + root.querySelectorAll('iframe').length, 0);
    stats.peak = Math.max(stats.peak, stats.live);
  };
  const attachShadow = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    const root = attachShadow.call(this, init);
    if (this.localName === 'attention-lab') {
      roots.push(root);
      new MutationObserver(count).observe(root, { childList: true, subtree: true });
    }
    return root;
  };
  // The element's ready event does not bubble: caught on its way down.
  const drawn = new WeakMap();
  document.addEventListener('ready', (event) => {
    const el = event.target;
    if (el.localName !== 'attention-lab') return;
    stats.firstReadyMs ??= performance.now();
    drawn.set(el, (drawn.get(el) || 0) + 1);
    el.__readyCount = drawn.get(el);
    if (drawn.get(el) === 1) stats.drawn += 1;
    if (stats.drawn === document.querySelectorAll('attention-lab').length) stats.allDrawnMs ??= performance.now();
  }, true);
}

// The WebGL contexts of the page's frames, from the reports of instrumentFigures: live now,
// the peak, and losses not yet followed by a restore. A frame's contexts go with its document
// (when it loads another, or is removed).
export async function watchContexts(context, page) {
  const frames = new Map();  // frame → { document, live, unrestored }
  const totals = { peak: 0, lost: 0 };
  const sum = (field) => [...frames.values()].reduce((n, f) => n + f[field], 0);
  await context.exposeBinding('__labGL', ({ frame }, document, what) => {
    if (frame.page() !== page) return;
    if (frames.get(frame)?.document !== document) frames.set(frame, { document, live: 0, unrestored: 0 });
    const f = frames.get(frame);
    if (what === 'made') f.live += 1;
    if (what === 'lost') { f.live -= 1; f.unrestored += 1; totals.lost += 1; }
    if (what === 'restored') { f.live += 1; f.unrestored -= 1; }
    totals.peak = Math.max(totals.peak, sum('live'));
  });
  page.on('framedetached', (frame) => frames.delete(frame));
  return {
    get live() { return sum('live'); },
    get peak() { return totals.peak; },
    get lost() { return totals.lost; },
    get unrestored() { return sum('unrestored'); },
  };
}

// Each figure's place, readiness and instance, in page order.
export const figureStates = (page) => page.evaluate(() => [...document.querySelectorAll('attention-lab')].map((el) => {
  const box = el.getBoundingClientRect();
  return {
    top: box.top, bottom: box.bottom, visible: box.bottom > 0 && box.top < innerHeight && box.height > 0,
    ready: el.ready, live: !!el.shadowRoot?.querySelector('iframe'), readyCount: el.__readyCount || 0,
  };
}));

// Frames until every figure on screen has drawn (is ready).
export const untilVisibleReady = (page, timeout = 120000) => until(page, () => [...document.querySelectorAll('attention-lab')]
  .every((el) => { const b = el.getBoundingClientRect(); return !(b.bottom > 0 && b.top < innerHeight && b.height > 0) || el.ready; }),
undefined, { timeout });

// Scrolls with the mouse wheel, `direction` 1 down to the end or -1 up to the top, by most of
// a screen at a time, waiting at each stop for the figures on screen to draw
// (`waitForFigures(page)`) and calling `atStop()` there. The pointer stays at the page's left edge, where a lesson has its margin:
// over a figure, the wheel would go to the figure's own panels first.
export async function scrollThrough(page, { direction = 1, atStop = async () => {}, waitForFigures = untilVisibleReady } = {}) {
  const { height } = page.viewportSize();
  await page.mouse.move(1, Math.round(height / 2));
  for (;;) {
    await waitForFigures(page);
    await atStop();
    const y = await page.evaluate(() => scrollY);
    const end = direction > 0 ? await page.evaluate(() => document.documentElement.scrollHeight - innerHeight) : 0;
    if (Math.abs(end - y) < 1) return;
    await page.mouse.wheel(0, direction * Math.round(height * 0.8));
    await until(page, (y) => scrollY !== y, y);
    await scrollEnded(page);
  }
}
