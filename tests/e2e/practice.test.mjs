// Practice mode in the page: every kind of question through attentionLab.practice() and
// attentionLab.answer(), each expected value recomputed here in float64 (from the lesson's
// causal example on screen, or from the numbers the question states), right and wrong answers,
// unreadable answers, the session's score, and the panel as a person sees it; practice() only
// reads, an answer (on the canvas or scripted) raises the `answer` event, and `ask` picks the
// kinds asked.
import test from 'node:test';
import assert from 'node:assert/strict';
import { centre, click, findItem, frames, labSession, layout, openLab, until } from './harness.mjs';
import { answers, causalExample, softmax } from './practice_answers.mjs';

const session = labSession();

// The question once `n` have been asked (the n-th after as many "Next question" clicks).
const question = (page, n) => until(page, (n) => {
  const q = window.attentionLab.practice();
  return q.asked === n && q;
}, n);
test('every kind of question, right and wrong answers against float64, and the score', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url,
                                         'preset=causal-3x2&step=softmax&mode=practice');
  assert.equal(await page.evaluate(() => window.attentionLab.getState().mode), 'practice');
  const kinds = new Set();
  let keyLabels = null, scored = 0;
  const kindCount = 17;  // every kind (src/practice/kinds.h)
  let lastText = '';
  for (let asked = 1; asked <= kindCount; ++asked) {
    const q = await question(page, asked);
    assert.equal(q.right, scored);
    assert.notEqual(q.text, lastText, 'Next question asks another question');
    lastText = q.text;
    kinds.add(q.kind);
    if (q.kind === 'largest_weight') keyLabels = q.choices;
    // Next question moves to the next query row: the questions about the screen follow it.
    const query = Number(await page.evaluate(() => window.attentionLab.getState().query));
    const { right, wrong } = answers(q, causalExample, query, (label) => keyLabels.indexOf(label));
    // Every other question answered right first: only the first answer counts.
    const first = asked % 2 ? right : wrong, second = asked % 2 ? wrong : right;
    const v1 = await page.evaluate((a) => window.attentionLab.answer(a), first);
    const v2 = await page.evaluate((a) => window.attentionLab.answer(a), second);
    assert.equal(v1.correct, asked % 2 === 1, `${q.kind}: "${q.text}" answered ${JSON.stringify(first)}: ${JSON.stringify(v1)}`);
    assert.equal(v2.correct, asked % 2 === 0, `${q.kind}: "${q.text}" answered ${JSON.stringify(second)}`);
    assert.ok(v1.explanation.length > 20 && v1.expected.length > 0, JSON.stringify(v1));
    scored += asked % 2;
    await click(page, centre(await findItem(page, { label: 'Next question', kind: 'button' })));
  }
  assert.equal(kinds.size, kindCount, [...kinds].join(', '));
  const next = await question(page, kindCount + 1);
  assert.deepEqual([next.right, next.answered], [scored, false]);
  assert.deepEqual(errors, []);
  await page.close();
});

test('unreadable answers get a sentence naming the answer, and nothing is scored', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url, 'preset=causal-3x2&mode=practice');
  await page.evaluate(() => window.attentionLab.practice());  // largest_weight: choices
  for (const bad of ['k9', 17, null, { a: 1 }]) {
    const v = await page.evaluate((a) => window.attentionLab.answer(a), bad);
    assert.match(v.error, /^answer: /, JSON.stringify(bad));
  }
  const undefinedAnswer = await page.evaluate(() => window.attentionLab.answer(undefined));
  assert.match(undefinedAnswer.error, /^answer: /);
  const q = await page.evaluate(() => window.attentionLab.practice());
  assert.equal(q.asked, 1, 'still the first question');
  assert.equal(q.right, 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the practice panel shows the question, then the verdict with the arithmetic', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url,
                                         'preset=causal-3x2&step=softmax&mode=practice');
  const table = () => page.evaluate(() => document.getElementById('stage-table').textContent);
  await page.evaluate(() => window.attentionLab.practice());  // which key gets the largest weight?
  await frames(page, 2);
  // Predict, then see: the softmax step's numbers are the answer, hidden until it is given.
  assert.match(await table(), /Hidden until you answer/);
  assert.doesNotMatch(await table(), /0\.88/);
  await page.screenshot({ path: 'build/e2e-practice-question.png' });
  await page.evaluate(() => window.attentionLab.answer(2));
  await frames(page, 2);
  assert.match(await table(), /0\.88/, 'the weights shown once answered');
  await page.screenshot({ path: 'build/e2e-practice.png' });
  // Leaving practice mode is one key in the link.
  await page.evaluate(() => window.attentionLab.setState({ mode: 'explore' }));
  assert.equal(await page.evaluate(() => window.attentionLab.getState().mode), 'explore');
  assert.deepEqual(errors, []);
  await page.close();
});

// The key the selected query weights most, from the trace's scores (its numbers, not the
// question's expected answer) in float64, as the index of its choice: the choices are the keys
// the mask leaves, in key order.
async function largestWeightChoice(page) {
  const { scores } = await page.evaluate(() => window.attentionLab.trace());
  const query = Number(await page.evaluate(() => window.attentionLab.getState().query));
  const row = scores[query].map((s) => (s === '-inf' ? -Infinity : s));
  const open = row.map((s, j) => j).filter((j) => row[j] !== -Infinity);
  const w = softmax(open.map((j) => row[j]));
  return w.indexOf(Math.max(...w));
}

test('practice() only reads: after an answer the verdict stays, answered, until Next question', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url,
                                         'preset=causal-3x2&step=softmax&mode=practice&ask=largest_weight');
  const practice = () => page.evaluate(() => window.attentionLab.practice());
  const first = await practice();
  assert.equal(first.answered, false);
  assert.equal(first.kind, 'largest_weight');
  const right = await largestWeightChoice(page);
  const verdict = await page.evaluate((a) => window.attentionLab.answer(a), (right + 1) % first.choices.length);
  assert.equal(verdict.correct, false);
  for (let call = 0; call < 5; ++call) {
    const q = await practice();
    assert.deepEqual([q.id, q.asked, q.answered], [first.id, 1, true], `call ${call}: ${JSON.stringify(q)}`);
    await frames(page, 2);
    assert.ok((await layout(page)).some((i) => i.label === 'Next question'), 'the verdict is still on screen');
  }
  // Only the learner moves on.
  await click(page, centre(await findItem(page, { label: 'Next question', kind: 'button' })));
  const second = await question(page, 2);
  assert.equal(second.answered, false);
  assert.equal(second.kind, 'largest_weight', 'ask=largest_weight asks that kind only');
  assert.notEqual(second.id, first.id);
  assert.deepEqual(errors, []);
  await page.close();
});

test('an answer raises the answer event with the verdict, from the canvas and from answer()', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url,
                                         'preset=causal-3x2&step=softmax&mode=practice&ask=largest_weight');
  await page.evaluate(() => {
    window.answers = [];
    window.attentionLab.on('answer', (event) => window.answers.push(event));
  });
  assert.match(await page.evaluate(() => { try { window.attentionLab.on('answered', () => {}); } catch (e) { return e.message; } }),
               /unknown event "answered" \(known: change, answer\)/);
  const right = await largestWeightChoice(page);
  const first = await page.evaluate(() => window.attentionLab.practice());
  const wrong = (right + 1) % first.choices.length;

  // Wrong, on the canvas: the choice's button.
  await click(page, centre(await findItem(page, { label: first.choices[wrong], kind: 'button' })));
  const [event] = await until(page, () => window.answers.length === 1 && window.answers);
  assert.deepEqual(event.question, { id: first.id, kind: first.kind, text: first.text, choices: first.choices });
  assert.equal(event.answer, wrong, 'the choice as given: its index');
  assert.equal(event.correct, false);
  assert.equal(event.expected, first.choices[right]);
  assert.ok(event.explanation.length > 20, event.explanation);
  // Another answer to a question already answered is not scored, and raises nothing.
  await page.evaluate((a) => window.attentionLab.answer(a), right);
  await frames(page, 4);
  assert.equal(await page.evaluate(() => window.answers.length), 1);

  // Right, scripted, after moving on.
  await click(page, centre(await findItem(page, { label: 'Next question', kind: 'button' })));
  const second = await question(page, 2);
  const rightNow = await largestWeightChoice(page);
  await page.evaluate((a) => window.attentionLab.answer(a), second.choices[rightNow]);
  const answers = await page.evaluate(() => window.answers);
  assert.equal(answers.length, 2);
  assert.deepEqual([answers[1].question.id, answers[1].answer, answers[1].correct], [second.id, second.choices[rightNow], true]);
  // An unreadable answer raises nothing either.
  await click(page, centre(await findItem(page, { label: 'Next question', kind: 'button' })));
  await question(page, 3);
  assert.match((await page.evaluate(() => window.attentionLab.answer('k99'))).error, /^answer: /);
  assert.equal(await page.evaluate(() => window.answers.length), 2);
  assert.deepEqual(errors, []);
  await page.close();
});
