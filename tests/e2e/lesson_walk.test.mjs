// A student's walk through the whole lesson, top to bottom, on a phone by touch and on a laptop
// with a mouse: scrolling as a person does (swipes, the wheel), each chapter's figure shows on
// screen what its text names (found through the instance's layout(), placed inside the
// viewport), and each chapter's check is answered wrongly, then rightly by real input, with the
// lesson marking it done. Answers are computed here (practice_answers.mjs), never read from the
// app.
import test from 'node:test';
import assert from 'node:assert/strict';
import { scrollEnded, until } from './harness.mjs';
import { DEVICES, student, openFresh } from './lesson_student.mjs';
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
  // On a phone its maps are pictures (cells too small for a finger): its plots of a query's steps.
  cost: { figure: 'fig-tiling', kind: 'plot' },
  training: { figure: 'fig-training', kind: 'button', label: /Play/ },
};
// The example each check is about, for the questions about the screen (a score, a weight, an
// output row): another example than the chapter's figure, so the figure does not print the answer.
const SIMILARITY = { q: [[1, 2]], k: [[2, 1], [-1, 2], [2, -1]], v: [[1, 0], [0, 1], [1, 1]], scale: 1 };
const X2 = [[2, 1], [1, 1], [0, 2]];
const CAUSAL_X2 = { q: X2, k: X2, v: X2, scale: Math.SQRT1_2, causal: true };
// The practice set's own example (figures.html), with distinct Q, K and V.
const PRACTICE = { q: [[2, 3], [3, 2], [0, -1]], k: [[1, 2], [2, 1], [1, 3]], v: [[0, -1], [0, 1], [-1, 1]],
                   scale: Math.SQRT1_2, causal: true };
const CHECKS = { similarity: SIMILARITY, softmax: CAUSAL_X2, output: CAUSAL_X2, practice: PRACTICE };

for (const device of DEVICES.filter(d => !process.env.ATTN_DEVICE || d.name === process.env.ATTN_DEVICE)) {
  test(`a student walks through the whole lesson on a ${device.name}`, { timeout: 900000 }, async () => {
    const { server, page, errors, touch, height, tap, seen, typeAnswer, close } = await student(device);
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
        // Measured where the page stops: a step taken from a position the glide passes through
        // would add to the glide's rest and carry the figure past the screen's top.
        await scrollEnded(page);
      }
      throw new Error(`could not scroll to ${selector}`);
    };
    const instance = async (id) => {
      await until(page, id => document.getElementById(id).ready, id, { timeout: 60000 });
      return (await page.locator('#' + id + ' iframe').elementHandle()).contentFrame();
    };
    try {
      await openFresh(page, server, 'lesson.html');
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
        const example = CHECKS[chapter] ?? causalExample;
        const keyIndex = label => Number(/\d+/.exec(label)?.[0] ?? -1);
        // The selected query: Next question moves it on, and the questions about the screen follow.
        const query = () => frame.evaluate(() => Number(window.attentionLab.getState().query));
        let question = await until(frame, () => window.attentionLab.practice());
        const wrong = await frame.evaluate(a => window.attentionLab.answer(a), answers(question, example, await query(), keyIndex).wrong);
        assert.equal(wrong.correct, false, `${chapter}: ${question.text}`);
        await until(page, c => document.querySelector(`#${c} .status`).textContent.length > 0, chapter);
        assert.ok(!(await page.evaluate(c => document.querySelector(`#${c} .status`).classList.contains('done'), chapter)));
        await tap(frame, await seen(frame, i => i.label === 'Next question', 'Next question'));
        const first = question;
        question = await until(frame, id => { const q = window.attentionLab.practice(); return q.id !== id && q; }, question.id);
        assert.notEqual(question.text, first.text, `${chapter}: Next question asks another question`);
        // The verdict of the last question goes with it.
        await until(page, c => document.querySelector(`#${c} .status`).textContent === '', chapter);
        const { right } = answers(question, example, await query(), keyIndex);
        console.log(`# ${question.kind}: ${question.text} -> ${JSON.stringify(right)}`);
        if (question.choices) {
          await tap(frame, await seen(frame, i => i.kind === 'button' && i.label === right, `the choice ${right}`));
        } else {
          // A student types a shape with the letter x (the keyboard has no ×).
          await typeAnswer(frame, (Array.isArray(right) ? right.join(', ') : String(right)).replace(/×/g, 'x'), 'Check');
        }
        await until(page, c => document.querySelector(`#${c} .status`).classList.contains('done'), chapter);
        assert.equal((await frame.evaluate(() => window.attentionLab.practice())).answered, true, 'the verdict stays');
        // Read to its end (in the last chapter a paragraph under the check, below a phone's
        // screen) and its check done: the contents mark it before the walk scrolls on. The end
        // is brought back into view at every frame of the wait, as a reader would scroll to it
        // again: a figure above that grows after the answer (late, on a busy machine) can push
        // it off the screen before the browser saw it there.
        await until(page, ({ c, i }) => {
          document.getElementById(c).lastElementChild.scrollIntoView({ block: 'end' });
          return document.querySelectorAll('#contents .mark')[i]?.textContent === '✓';
        }, { c: chapter, i: chapters.indexOf(chapter) });
      }
      // Every chapter read and checked: the contents say so.
      try {
        await until(page, n => document.querySelectorAll('#contents .mark').length === n &&
                               [...document.querySelectorAll('#contents .mark')].every(m => m.textContent === '✓'), chapters.length);
      } catch (e) {
        const marks = await page.evaluate(() => [...document.querySelectorAll('#contents .mark')].map(m => m.textContent));
        const stored = await page.evaluate(() => localStorage.getItem('attention-lab-lesson'));
        throw new Error(`${e.message}\nmarks ${JSON.stringify(marks)}; stored ${stored}`);
      }
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });
}
