// A student's walk through the whole lesson, top to bottom, on a phone by touch and on a laptop
// with a mouse: scrolling as a person does (swipes, the wheel), each chapter's figure shows on
// screen what its text names (found through the instance's layout(), placed inside the
// viewport), and each chapter's check is answered wrongly, then rightly by real input, with the
// lesson marking it done. Answers are computed here (practice_answers.mjs), never read from the
// app.
import test from 'node:test';
import assert from 'node:assert/strict';
import { centre, frames, launchBrowser, startServer, touchTap, until } from './harness.mjs';
import { answers, causalExample } from './practice_answers.mjs';

// What each chapter's first figure must show: a kind of item of layout(), and its label.
const SHOWN = {
  similarity: { figure: 'fig-similarity', kind: 'plot' },
  softmax: { figure: 'fig-softmax', kind: 'heatmap', label: /softmax/ },
  output: { figure: 'fig-output', kind: 'heatmap', label: /^O = A·V/ },
  scaling: { figure: 'fig-scaling', kind: 'plot' },
  saturation: { figure: 'fig-saturation', kind: 'heatmap', label: /softmax/ },
  masks: { figure: 'fig-causal', kind: 'heatmap', label: /mask/ },
  shapes: { figure: 'fig-projections', kind: 'heatmap' },
  heads: { figure: 'fig-heads', kind: 'heatmap' },
  numerics: { figure: 'fig-stability', kind: 'plot' },
  cost: { figure: 'fig-tiling', kind: 'heatmap', label: /running max/ },
  training: { figure: 'fig-training', kind: 'button', label: /Play/ },
};
// The example each check is about, for the questions about the screen (largest weight, a
// weight, an output row), with its selected query.
const SIMILARITY = { q: [[2, 1]], k: [[1, 0], [0, 1], [-1, 0]], v: [[1, 0], [0, 1], [-1, 0]], scale: 1 };
const CHECKS = {
  similarity: [SIMILARITY, 0], softmax: [causalExample, 1], output: [causalExample, 2], practice: [causalExample, 2],
};

const DEVICES = [
  { name: 'phone', viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true },
  { name: 'laptop', viewport: { width: 1280, height: 800 } },
];

for (const device of DEVICES.filter(d => !process.env.ATTN_DEVICE || d.name === process.env.ATTN_DEVICE)) {
  test(`a student walks through the whole lesson on a ${device.name}`, { timeout: 900000 }, async () => {
    const server = await startServer();
    const { context, close } = await launchBrowser(device);
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', e => errors.push(String(e)));
    const cdp = device.hasTouch ? await context.newCDPSession(page) : null;
    const { width, height } = device.viewport;
    const touch = !!cdp;
    // A tap or a click on an item found by seen() (in the page's coordinates).
    const tap = async (frame, item) => {
      const at = centre(item);
      if (touch) await touchTap(cdp, at);
      else await page.mouse.click(...at);
      await frames(frame, 4);
    };
    // Scrolls down as a person does until `selector`'s top is in the upper part of the screen.
    const scrollTo = async (selector) => {
      for (let i = 0; i < 200; i++) {
        const { top, end } = await page.evaluate(s => ({
          top: document.querySelector(s).getBoundingClientRect().top,
          end: scrollY + innerHeight >= document.documentElement.scrollHeight - 1,  // the page's foot
        }), selector);
        if (top < height * 0.35 || (end && top < height)) return;
        const step = Math.min(top - height * 0.2, height * 0.6);
        // Headless Chromium's compositor does not scroll a plain page under a synthesized swipe
        // (it stays at 0 even without figures), so the phone reads on as if it had swiped; its
        // taps and typing in the figures are real touch.
        if (touch) await page.evaluate(dy => window.scrollBy(0, dy), step);
        else await page.mouse.wheel(0, step);
        await frames(page, 2);
      }
      throw new Error(`could not scroll to ${selector}`);
    };
    const instance = async (id) => {
      await until(page, id => document.getElementById(id).ready, id, { timeout: 60000 });
      return (await page.locator('#' + id + ' iframe').elementHandle()).contentFrame();
    };
    // The items of an instance's last frame inside the page's viewport, in page coordinates.
    const onScreen = async (frame) => {
      const box = await (await frame.frameElement()).boundingBox();
      const items = await frame.evaluate(() => window.attentionLab.layout());
      return items.map(i => ({ ...i, x: i.x + box.x, y: i.y + box.y }))
        .filter(i => i.y >= 0 && i.x >= 0 && i.y + Math.min(i.h, 40) <= height && i.x + Math.min(i.w, 40) <= width);
    };

    // The first item on screen that `match` accepts, once it stands still: waiting frames for it
    // (a figure draws its first frames as it starts) and until two reads agree on where it is (a
    // smooth wheel scroll still gliding, or a figure above resizing as it starts, moves it).
    const seen = async (frame, match, what) => {
      let last;
      for (let i = 0; i < 300; i++) {
        const items = await onScreen(frame);
        const item = items.find(match);
        if (item && last && item.x === last.x && item.y === last.y) return item;
        last = item;
        if (i === 299) throw new Error(`${what} not on screen; on screen: ${items.map(i => `${i.kind}:${i.label}`).join(', ')}`);
        await frames(frame, 2);
      }
    };

    try {
      await page.goto(server.url + 'lesson.html');
      await page.evaluate(() => localStorage.clear());
      await page.reload();
      await until(page, () => document.documentElement.dataset.cited === 'true');
      const chapters = await page.evaluate(() => [...document.querySelectorAll('main section[id]')].map(s => s.id));
      assert.ok(chapters.length >= 12);
      for (const chapter of chapters) {
        console.log(`# ${device.name}: chapter ${chapter}`);
        const shown = SHOWN[chapter];
        if (shown) {
          await scrollTo(`#${shown.figure}`);
          const frame = await instance(shown.figure);
          await seen(frame, i => i.kind === shown.kind && (!shown.label || shown.label.test(i.label)), `${chapter}: ${shown.kind} ${shown.label ?? ''}`);
        }
        // The check: a wrong answer, the next question, then a right one by real input.
        const check = await page.evaluate(c => document.querySelector(`#${c} attention-lab[data-check]`).id, chapter);
        await scrollTo(`#${check}`);
        const frame = await instance(check);
        const [example, query] = CHECKS[chapter] ?? [causalExample, 2];
        const keyIndex = label => Number(/\d+/.exec(label)?.[0] ?? -1);
        let question = await until(frame, () => window.attentionLab.practice());
        const wrong = await frame.evaluate(a => window.attentionLab.answer(a), answers(question, example, query, keyIndex).wrong);
        assert.equal(wrong.correct, false, `${chapter}: ${question.text}`);
        await until(page, c => document.querySelector(`#${c} .status`).textContent.length > 0, chapter);
        assert.ok(!(await page.evaluate(c => document.querySelector(`#${c} .status`).classList.contains('done'), chapter)));
        await tap(frame, await seen(frame, i => i.label === 'Next question', 'Next question'));
        question = await until(frame, id => { const q = window.attentionLab.practice(); return q.id !== id && q; }, question.id);
        const { right } = answers(question, example, query, keyIndex);
        console.log(`# ${question.kind}: ${question.text} -> ${JSON.stringify(right)}`);
        if (question.choices) {
          await tap(frame, await seen(frame, i => i.kind === 'button' && i.label === right, `the choice ${right}`));
        } else {
          await tap(frame, await seen(frame, i => i.kind === 'input' || i.kind === 'text', 'the answer field'));
          // A student types a shape with the letter x (the keyboard has no ×).
          const text = (Array.isArray(right) ? right.join(', ') : String(right)).replace(/×/g, 'x');
          if (touch) {  // the phone's keyboard: an input of the page, typing without key events
            await until(frame, () => document.activeElement?.tagName === 'INPUT');
            await page.keyboard.insertText(text);
          } else {
            await page.keyboard.type(text);
          }
          await frames(frame, 2);
          await tap(frame, await seen(frame, i => i.kind === 'button' && i.label === 'Check', 'Check'));
        }
        await until(page, c => document.querySelector(`#${c} .status`).classList.contains('done'), chapter);
        assert.equal((await frame.evaluate(() => window.attentionLab.practice())).answered, true, 'the verdict stays');
      }
      // Every chapter read and checked: the contents say so.
      await until(page, n => document.querySelectorAll('#contents .mark').length === n &&
                             [...document.querySelectorAll('#contents .mark')].every(m => m.textContent === '✓'), chapters.length);
      assert.deepEqual(errors, []);
    } finally {
      await close();
      await server.close();
    }
  });
}
