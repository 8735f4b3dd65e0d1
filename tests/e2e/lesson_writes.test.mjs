// The lesson's chapter "What a head writes" (issue 42), as a student reads it on a laptop with a
// mouse (lesson.html) and on a phone by touch (leccion.html): its view=model figures draw once
// the weights have loaded, each within one screen and in the state its attributes ask for (the
// head opened, the character split); every number the text cites is the running figure's own
// (its instance's experiment(), read in its frame), and what the text says of those numbers
// holds in them (the parts add up to the logit, the total effect of the first-layer heads that
// look one back dwarfs their direct part, the induction score falls most without the heads whose
// share leads, a doubled letter breaks head 0.3's rule); and the check, answered wrong, then after Next question right (the answer
// computed here from the question's own numbers, practice_answers.mjs). Screenshots of each
// figure on screen: build/e2e-lesson-writes-<device>-<figure>.png. About two minutes a device.
import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { until } from './harness.mjs';
import { figureHeight, frameAtTop } from './lesson_frames.mjs';
import { DEVICES, student, WORDS, wrongThenRight, openFresh } from './lesson_student.mjs';
import { answers, causalExample } from './practice_answers.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const shots = process.env.ATTN_SCREENSHOT_DIR || path.join(root, 'build');

// Each figure's state, as figures.html sets it: the head opened and the character split.
const FIGURES = {
  'fig-writes-circuit': { head: [2, 0] },
  'fig-writes-previous': { head: [0, 3] },
  'fig-writes-positions': { head: [0, 3] },
  'fig-writes-second': { head: null, at: 44, target: 'x' },
  'fig-writes-first': { head: null, at: 14, target: 'x' },
  'fig-writes-composition': { head: [2, 0] },
};
const at = (value, p) => p.split('/').reduce((x, key) => (x == null ? x : x[key]), value);

for (const device of DEVICES) {
  const words = device.hasTouch ? WORDS.es : WORDS.en;
  test(`${words.file} on a ${device.name}: the chapter on what a head writes`, { timeout: 600000 }, async () => {
    const { server, page, errors, tap, seen, typeAnswer, close, height } = await student(device);
    try {
      await openFresh(page, server, words.file);

      const running = {};  // each figure's experiment(), read in its own frame
      for (const [id, want] of Object.entries(FIGURES)) {
        await page.evaluate(id => document.getElementById(id).scrollIntoView({ block: 'start' }), id);
        const tall = await figureHeight(page, id);
        assert.ok(tall <= height, `${id} is ${tall} px tall, more than the ${height} px screen`);
        const frame = await (await page.locator(`#${id} iframe`).elementHandle()).contentFrame();
        const e = await until(frame, () => { const e = window.attentionLab.experiment(); return e.tokens && e; },
                              undefined, { timeout: 90000 });
        assert.deepEqual(e.head, want.head, `${id}'s open head`);
        assert.ok(e.period > 0, `${id} reads a text typed twice`);
        if (want.at !== undefined) {
          assert.equal(e.attribution.position, want.at, `${id}'s chosen character`);
          assert.equal(e.attribution.target, want.target, `${id}'s split logit`);
          assert.equal(e.tokens[want.at], 'i', `${id} splits the logit after an "i"`);
        }
        running[id] = e;
        await page.evaluate(id => document.getElementById(id).scrollIntoView({ block: 'start' }), id);
        await page.screenshot({ path: path.join(shots, `e2e-lesson-writes-${device.name}-${id}.png`) });
      }

      // Every cited number, against the running figure's own.
      await until(page, () => [...document.querySelectorAll('#writes [data-cite]')]
        .every(s => s.dataset.value !== undefined && s.textContent !== '…'), undefined, { timeout: 90000 });
      const spans = await page.evaluate(() => [...document.querySelectorAll('#writes [data-cite]')]
        .map(s => ({ figure: s.dataset.figure, path: s.dataset.path, value: Number(s.dataset.value) })));
      assert.ok(spans.length >= 30, `${spans.length} cited numbers`);
      const cite = {};
      for (const { figure, path: p, value } of spans) {
        assert.ok(running[figure], `${figure} is one of the chapter's figures`);
        assert.equal(value, at(running[figure], p), `${figure} ${p}`);
        cite[`${figure} ${p}`] = value;
      }

      // What the text says of those numbers. Head 2.0 copies, and no other head as much; after
      // it, head 0.0 copies most.
      const heads = running['fig-writes-circuit'].heads;
      assert.ok(cite['fig-writes-circuit heads/8/copying'] > 0.9);
      const others = heads.filter(h => h.layer !== 2 || h.head !== 0);
      for (const h of others)
        assert.ok(h.copying < cite['fig-writes-circuit heads/8/copying'] - 0.3, `${h.layer}.${h.head} copies less`);
      assert.equal(Math.max(...others.map(h => h.copying)), cite['fig-writes-circuit heads/0/copying']);
      // Head 0.3: a recency ramp peaking at the query itself; "e" and "l" their rows' lowest.
      const positions = running['fig-writes-positions'].heads[3].qk.positions;
      assert.ok(positions[0] > positions[1] && positions[1] > positions[2]);
      const qk = running['fig-writes-previous'].heads[3].qk;
      for (const c of ['e', 'l']) {
        const i = qk.chars.indexOf(c);
        assert.equal(Math.min(...qk.map[i]), qk.map[i][i], `"${c}" against "${c}" is its row's lowest`);
      }
      // A doubled letter ("ee" of "green", character 20) breaks the rule: head 0.3's weight one
      // back there is under half its mean one back over the sentence.
      const a = running['fig-writes-previous'].maps[0][3];
      assert.equal(running['fig-writes-previous'].tokens.slice(19, 21).join(''), 'ee');
      const back = a.slice(1).reduce((s, row, i) => s + row[i], 0) / (a.length - 1);
      assert.ok(a[20][19] < 0.5 * back, `a[20][19] = ${a[20][19]} against ${back}`);
      // The logit is exactly the embedding's part plus every head's direct part; head 2.0's is
      // large on the second copy only; a last-layer head's total is its direct part.
      for (const id of ['fig-writes-second', 'fig-writes-first']) {
        const { value, parts } = running[id].attribution;
        const sum = parts.reduce((s, p) => s + p.direct, 0);
        assert.ok(Math.abs(sum - value) < 1e-3, `${id}: the parts add up to ${sum}, the logit is ${value}`);
        for (const p of parts.filter(p => p.part.startsWith('2.')))
          assert.ok(Math.abs(p.total - p.direct) < 1e-3, `${id}: ${p.part}'s total is its direct part`);
      }
      assert.equal(running['fig-writes-second'].attribution.parts[9].part, '2.0');
      assert.ok(cite['fig-writes-second attribution/parts/9/direct'] > 2);
      assert.ok(Math.abs(cite['fig-writes-first attribution/parts/9/direct']) < 1);
      // Heads 0.3 and 0.1: next to nothing written directly, about a unit through later heads.
      for (const [i, name] of [[4, '0.3'], [2, '0.1']]) {
        assert.equal(running['fig-writes-second'].attribution.parts[i].part, name);
        const direct = cite[`fig-writes-second attribution/parts/${i}/direct`];
        const total = cite[`fig-writes-second attribution/parts/${i}/total`];
        assert.ok(Math.abs(direct) < 0.1 && total > 0.8, `${name}: direct ${direct}, total ${total}`);
      }
      // Composition into 2.0 (pairs 4, 12, 20, 28 from the first layer, 32 to 44 from the
      // second): the shares of 0.3, 1.2 and 1.0 lead, and head 2.0's induction score falls most
      // without them; head 1.2 is no previous-token head by its score. The Frobenius score
      // gives 1.0 less than random matrices and 0.0 (share nil, its removal raising the score) more.
      const comp = running['fig-writes-composition'].composition;
      const into = [4, 12, 20, 28, 32, 36, 40, 44];
      assert.deepEqual(into.map(i => `${comp[i].from}>${comp[i].to}`),
                       ['0.0>2.0', '0.1>2.0', '0.2>2.0', '0.3>2.0', '1.0>2.0', '1.1>2.0', '1.2>2.0', '1.3>2.0']);
      const lead = [28, 40, 32], rest = [4, 12, 20, 36, 44];
      const share = i => comp[i].share, without = i => comp[i].without;
      assert.ok(Math.min(...lead.map(share)) > Math.max(...rest.map(share)));
      assert.ok(Math.max(...lead.map(without)) < Math.min(...rest.map(without)));
      assert.equal(Math.min(...rest.map(without)), cite['fig-writes-composition composition/20/without']);
      assert.ok(without(28) < cite['fig-writes-composition composition/28/score']);
      assert.equal(share(4), 0);
      assert.ok(without(4) > cite['fig-writes-composition composition/28/score']);
      assert.ok(cite['fig-writes-composition scores/6/previous_token'] < 0.4);
      assert.ok(comp[32].frobenius < running['fig-writes-composition'].frobenius_random && comp[4].frobenius > comp[32].frobenius);

      // The check: the first question wrong, Next question, the second right.
      const { first, next } = await wrongThenRight({ page, tap, seen, height }, {
        id: 'check-writes', chapter: 'writes', words, device, name: 'lesson-writes', shots,
        wrong: async (frame, q) => tap(frame, await seen(frame, i => i.kind === 'button' && i.label === answers(q, causalExample, 0).wrong, 'a wrong choice')),
        right: (frame, q) => typeAnswer(frame, answers(q, causalExample, 0).right.toFixed(3), words.check),
      });
      assert.equal(first.kind, 'copying_head');
      assert.equal(next.kind, 'switch_off');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });
}
