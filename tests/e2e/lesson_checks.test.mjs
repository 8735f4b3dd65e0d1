// A chapter's check as a Spanish student uses it, on a phone by touch and on a laptop with a
// mouse (the English walk through every check is lesson_walk.test.mjs): the stage holding the
// answer is hidden until the answer is given, the answer is typed with a decimal comma
// ("0,1234") and read, and Next question asks another question and clears the verdict line;
// on the laptop, Enter answers the next questions.
// Expected answers are computed here in float64 (practice_answers.mjs).
import test from 'node:test';
import assert from 'node:assert/strict';
import { frames, until } from './harness.mjs';
import { DEVICES, student, openFresh } from './lesson_student.mjs';
import { answers } from './practice_answers.mjs';

// The softmax chapter's check: three tokens (2, 1), (1, 1), (0, 2), causal, scaled by 1/√2.
const X2 = [[2, 1], [1, 1], [0, 2]];
const EXAMPLE = { q: X2, k: X2, v: X2, scale: Math.SQRT1_2, causal: true };

for (const device of DEVICES) {
  test(`leccion.html on a ${device.name}: hidden until answered, a decimal comma, Next question`, { timeout: 300000 }, async () => {
    const { server, page, errors, tap, seen, typeAnswer, close } = await student(device);
    try {
      await openFresh(page, server, 'leccion.html');
      await page.evaluate(() => document.getElementById('check-softmax').scrollIntoView({ block: 'start' }));
      await until(page, () => document.getElementById('check-softmax').ready, undefined, { timeout: 60000 });
      // Figures above start as they come near and take their heights, moving the check: brought
      // back to the top of the screen until it stays there.
      await until(page, () => {
        const el = document.getElementById('check-softmax');
        const top = el.getBoundingClientRect().top;
        if (Math.abs(top) <= 1) return true;
        el.scrollIntoView({ block: 'start' });
        return false;
      });
      const frame = await (await page.locator('#check-softmax iframe').elementHandle()).contentFrame();
      const heatmaps = async () => (await frame.evaluate(() => window.attentionLab.layout())).filter(i => i.kind === 'heatmap').length;
      const status = () => page.evaluate(() => document.querySelector('#softmax .status').textContent);

      const question = await until(frame, () => window.attentionLab.practice());
      assert.equal(question.kind, 'weight');
      await seen(frame, i => i.kind === 'heatmap', 'the scores');
      // Predict, then see: the scores are on screen, the weights (the answer) are not.
      assert.equal(await heatmaps(), 1, 'only the scores before the answer');

      const query = await frame.evaluate(() => Number(window.attentionLab.getState().query));
      const { right } = answers(question, EXAMPLE, query, label => Number(/\d+/.exec(label)[0]));
      const typed = right.toFixed(4).replace('.', ',');  // as a Spanish keyboard writes it
      await typeAnswer(frame, typed, 'Comprobar');
      await until(page, () => document.querySelector('#softmax .status').classList.contains('done'));
      assert.match(await status(), /^Correcto/, `"${typed}" read as ${right}`);
      await until(frame, () => window.attentionLab.layout().filter(i => i.kind === 'heatmap').length === 2);

      await tap(frame, await seen(frame, i => i.kind === 'button' && i.label === 'Siguiente pregunta', 'Siguiente pregunta'));
      const next = await until(frame, id => { const q = window.attentionLab.practice(); return q.id !== id && q; }, question.id);
      assert.notEqual(next.text, question.text, 'another question');
      await until(page, () => document.querySelector('#softmax .status').textContent === 'Esta comprobación está hecha.');
      // The page hears of the new question when it is asked, before the frames that draw it (its
      // card holds it from the frame after the one that asked): those frames, then the layout.
      await frames(frame, 3);
      assert.equal(await heatmaps(), 1, 'the new answer hidden again');
      if (!device.hasTouch) {
        // Enter answers too, question after question (issue 44: the second Enter was lost when
        // the key's press and release both came before a frame).
        for (let round = 0; round < 3; ++round) {
          const asked = await until(frame, () => window.attentionLab.practice());
          await typeAnswer(frame, '0,5', 'Enter');
          await until(frame, () => window.attentionLab.practice().answered);
          await tap(frame, await seen(frame, i => i.kind === 'button' && i.label === 'Siguiente pregunta', 'Siguiente pregunta'));
          await until(frame, id => window.attentionLab.practice().id !== id, asked.id);
        }
      }
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });
}
