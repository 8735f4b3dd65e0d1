// Embedding across origins: a lesson page on one origin loads embed.js and two
// <attention-lab> instances from the site on another, as a course author would.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve } from '../../scripts/serve.mjs';
import { click, findItem, frames, webDir, startServer, launchBrowser, until } from './harness.mjs';

// A lesson page on its own origin whose body is `body`, embedding the site served from another:
// the page (not yet loaded), both servers' URLs; everything is closed after test `t`.
async function lessonOnAnotherOrigin(t, body) {
  const site = await startServer(webDir);
  const hostDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-lab-host-'));
  fs.writeFileSync(path.join(hostDir, 'index.html'), `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
    <script src="${site.url}embed.js"></script></head><body>${body}</body></html>`);
  const host = await serve(hostDir, 0);
  assert.notEqual(new URL(site.url).origin, new URL(host.url).origin);
  const { context, close } = await launchBrowser();
  t.after(async () => { await close(); await site.close(); await host.close(); });
  return { page: await context.newPage(), site, host };
}

test('two instances embedded from another origin', async (t) => {
  const { page, site, host } = await lessonOnAnotherOrigin(t, `
    <p><a id="before" href="#x">a link before the demos</a></p>
    <attention-lab id="a" preset="causal-3x2" step="softmax" query="2" height="520"></attention-lab>
    <attention-lab id="b" preset="cross" step="scores" ui="compact" height="420"></attention-lab>`);
  const foreign = [], errors = [];
  page.on('request', (r) => {
    const origin = new URL(r.url()).origin;
    if (![new URL(site.url).origin, new URL(host.url).origin].includes(origin) && !r.url().startsWith('data:'))
      foreign.push(r.url());
  });
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(host.url);

  // Both become ready, each with its own state.
  await page.waitForFunction(() => document.getElementById('a').ready && document.getElementById('b').ready,
                             null, { timeout: 60000 });
  const states = await page.evaluate(() => ['a', 'b'].map((id) => document.getElementById(id).state));
  assert.equal(states[0].preset, 'causal-3x2');
  assert.equal(states[0].step, 'softmax');
  assert.equal(states[0].query, '2');
  assert.equal(states[1].preset, 'cross');
  assert.equal(states[1].step, 'scores');

  // setState crosses the origin boundary and comes back as a change event, on that instance only.
  const changed = await page.evaluate(() => new Promise((resolve) => {
    const a = document.getElementById('a');
    a.addEventListener('change', (e) => resolve(e.detail), { once: true });
    a.setState({ step: 'output', query: 1 });
  }));
  assert.equal(changed.step, 'output');
  assert.equal(changed.query, '1');
  assert.equal(await page.evaluate(() => document.getElementById('b').state.step), 'scores');

  // Hostile messages from the host page are ignored; the instance keeps working.
  await page.evaluate(() => {
    const frame = document.getElementById('a').shadowRoot.querySelector('iframe');
    for (const bad of [null, 'x', { type: 'attention-lab:set' }, { type: 'attention-lab:set', state: [1, 2] },
                       { type: 'attention-lab:set', state: { step: { toString: 1 } } }, { type: 'other', state: {} }])
      frame.contentWindow.postMessage(bad, '*');
  });
  const after = await page.evaluate(() => new Promise((resolve) => {
    const a = document.getElementById('a');
    a.addEventListener('change', (e) => resolve(e.detail), { once: true });
    a.setState({ step: 'mask' });
  }));
  assert.equal(after.step, 'mask');

  // Keyboard: tab from the host's link into the first instance, then → moves a step.
  await page.focus('#before');
  await page.keyboard.press('Tab');
  await frames(page);
  const stepped = page.evaluate(() => new Promise((resolve) => {
    document.getElementById('a').addEventListener('change', (e) => resolve(e.detail), { once: true });
  }));
  await page.keyboard.press('ArrowRight');
  assert.equal((await stepped).step, 'softmax');

  assert.deepEqual(foreign, [], 'nothing is requested from other hosts');
  assert.deepEqual(errors, []);
});

// A lesson's check: an embedded practice instance (ask=largest_weight) whose answers reach the
// element as `answer` events, verdicts computed here from the instance's trace() in float64.
test('an embedded practice instance raises answer events: wrong, then right', async (t) => {
  const { page, host } = await lessonOnAnotherOrigin(t, `
    <attention-lab id="p" preset="causal-3x2" step="softmax" mode="practice" ask="largest_weight" height="560"></attention-lab>`);
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(host.url);
  await page.waitForFunction(() => document.getElementById('p').ready, null, { timeout: 60000 });
  await page.evaluate(() => {
    window.answers = [];
    document.getElementById('p').addEventListener('answer', (e) => window.answers.push(e.detail));
    window.asked = [];
    document.getElementById('p').addEventListener('question', (e) => window.asked.push(e.detail));
  });
  const lab = await (await page.locator('#p iframe').elementHandle()).contentFrame();
  const { scores } = await lab.evaluate(() => window.attentionLab.trace());
  const row = scores[2].map((s) => (s === '-inf' ? -Infinity : s));  // query=2 of the worked example
  const e = row.map((s) => Math.exp(s - Math.max(...row)));
  const right = e.indexOf(Math.max(...e));  // query 2 sees every key: the choices are keys 0, 1, 2

  // A frame that is not the instance, or a message of another shape, raises nothing.
  const question = await lab.evaluate(() => window.attentionLab.practice());
  assert.equal(question.kind, 'largest_weight');
  await lab.evaluate((q) => {
    const verdict = { answer: 0, correct: true, expected: 'x', explanation: 'y' };
    for (const bad of [{ ...verdict, question: null }, { ...verdict, question: { ...q, id: 5 } },
                       { ...verdict, question: q, answer: { a: 1 } }, { ...verdict, question: q, correct: 'yes' },
                       { ...verdict, question: { ...q, choices: [1] } }])
      window.parent.postMessage({ type: 'attention-lab:answer', ...bad }, '*');
  }, { id: question.id, kind: question.kind, text: question.text, choices: question.choices });
  await page.evaluate(() => {
    window.postMessage({ type: 'attention-lab:answer', question: { id: 'a', kind: 'b', text: 'c' }, answer: 1,
                         correct: true, expected: 'x', explanation: 'y' }, '*');
  });

  // Wrong, then right after the learner moves on ("Next question" on the instance's canvas).
  await lab.evaluate((a) => window.attentionLab.answer(a), (right + 1) % 3);
  await page.waitForFunction(() => window.answers.length >= 1);
  assert.equal((await lab.evaluate(() => window.attentionLab.practice())).answered, true);
  const frameBox = await page.locator('#p iframe').boundingBox();
  const next = await findItem(lab, { label: 'Next question', kind: 'button' });
  await click(page, [frameBox.x + next.x + next.w / 2, frameBox.y + next.y + next.h / 2]);
  const second = await until(lab, () => {
    const q = window.attentionLab.practice();
    return q.asked === 2 && q;
  });
  // Next question moved on to the next query row that sees two keys or more (2 → 1; row 0 sees
  // only key 0): its keys are the choices, and the second scores highest (2·2 > 2·1).
  assert.equal(Number(await lab.evaluate(() => window.attentionLab.getState().query)), 1);
  assert.deepEqual(second.choices, question.choices.slice(0, 2));
  // The element's question event: the new question (after the first one, if the panel asked it).
  await page.waitForFunction((id) => window.asked.some((q) => q.id === id), second.id);
  const asked = await page.evaluate(() => window.asked);
  assert.deepEqual(asked.at(-1), { id: second.id, kind: second.kind, text: second.text, choices: second.choices });
  assert.ok(asked.every((q) => [question.id, second.id].includes(q.id)), JSON.stringify(asked));
  await lab.evaluate(() => window.attentionLab.answer(1));
  await page.waitForFunction(() => window.answers.length >= 2);

  const answers = await page.evaluate(() => window.answers);
  assert.equal(answers.length, 2, 'only the instance\'s messages of the right shape were read');
  const [wrong, correct] = answers;
  assert.deepEqual(wrong.question, { id: question.id, kind: question.kind, text: question.text, choices: question.choices });
  assert.deepEqual([wrong.answer, wrong.correct, wrong.expected], [(right + 1) % 3, false, question.choices[right]]);
  assert.ok(wrong.explanation.length > 20);
  assert.deepEqual([correct.question.id, correct.answer, correct.correct], [second.id, 1, true]);
  assert.deepEqual(errors, []);
});
