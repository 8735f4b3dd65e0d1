// Experiment links with a parameter out of range (issue 15): the view opens with the nearest
// valid value instead of only an error, keeps its controls (the experiment has data), and a
// visible note names the key, the value given and the value used. "Nearest" is checked
// against the page itself: the value used is accepted as it is, and one step further towards
// the value given is not.
import test from 'node:test';
import assert from 'node:assert/strict';
import { frames, labSession, openLab } from './harness.mjs';

const session = labSession();

const notesOf = page => page.evaluate(() => document.getElementById('notes').textContent);

// Each bad link, the key that is out of range, the value given, and what the value used must
// satisfy given the rest of the state (the rule, not a copied limit).
const CASES = [
  { link: 'view=tiling&n=24&tile=999', key: 'tile', given: '999', expect: s => Number(s.tile) === Number(s.nq) },
  { link: 'view=tiling&n=100', key: 'n', state: 'nq', given: '100', expect: s => Number(s.nq) < 100 },
  { link: 'view=heads&heads=99&kvheads=3', key: 'heads', given: '99', expect: s => Number(s.heads) < 99 },
  {
    link: 'view=heads&heads=99&kvheads=3', key: 'kvheads', given: '3',
    // The largest count of K/V heads at most 3 that divides the number of heads.
    expect: s => Number(s.kvheads) === [3, 2, 1].find(k => Number(s.heads) % k === 0),
  },
  { link: 'view=heads&heads=6&kvheads=4', key: 'kvheads', given: '4', expect: s => Number(s.kvheads) === 3 },
  { link: 'view=heads&n=100', key: 'n', state: 'nq', given: '100', expect: s => Number(s.nq) < 100 },
  { link: 'view=gradients&row=50', key: 'row', given: '50', expect: s => Number(s.row) < 50, step: 1 },
  { link: 'view=scaling&dk=100000', key: 'dk', given: '100000', expect: s => Number(s.dk) < 100000, step: 1 },
  { link: 'view=gradients&mult=1e9', key: 'mult', given: '1e9', expect: s => Number(s.mult) < 1e9, step: 1 },
  { link: 'view=train&dk=9999&seq=1', key: 'dk', given: '9999', expect: s => Number(s.dk) < 9999, step: 1 },
  { link: 'view=train&dk=9999&seq=1', key: 'seq', given: '1', expect: s => Number(s.seq) > 1, step: -1 },
];

for (const c of CASES) {
  test(`#${c.link}: ${c.key}=${c.given} is clamped, noted, and the view keeps its controls`, async () => {
    const { page, errors } = await openLab(session.browser.context, session.server.url, c.link);
    const view = new URLSearchParams(c.link).get('view');
    const state = await page.evaluate(() => window.attentionLab.getState());
    const used = state[c.state || c.key];
    assert.equal(state.view, view);
    assert.ok(c.expect(state), `${c.key}: ${used} in ${JSON.stringify(state)}`);

    // The controls need the experiment's data: there is data, and no error in place of it.
    const data = await page.evaluate(() => window.attentionLab.experiment());
    assert.ok(data && typeof data === 'object', 'the experiment has data');
    assert.equal(data.error, undefined, `experiment error: ${data.error}`);

    const notes = await notesOf(page);
    const note = notes.split('\n').find(n => n.startsWith(`${c.key}=${c.given} `));
    assert.ok(note, `a note about ${c.key}=${c.given} in ${JSON.stringify(notes)}`);
    assert.ok(note.includes(`${c.key}=${used} is used`), note);

    // The value used is valid as it stands ...
    await page.evaluate(([k, v]) => window.attentionLab.setState({ [k]: v }), [c.key, used]);
    assert.equal(await notesOf(page), '', `${c.key}=${used} is accepted without a note`);
    // ... and it is the nearest: one step further towards the value given is out of range.
    if (c.step) {
      const further = String(Number(used) + c.step);
      await page.evaluate(([k, v]) => window.attentionLab.setState({ [k]: v }), [c.key, further]);
      assert.match(await notesOf(page), new RegExp(`^${c.key}=${further} .*${c.key}=${used} is used`, 'm'));
      assert.equal((await page.evaluate(() => window.attentionLab.getState()))[c.key], used);
    }
    await frames(page, 6);  // a few frames of the view drawn
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('text that is not a number is still ignored, with its own note', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url, 'view=tiling&tile=lots');
  assert.match(await notesOf(page), /^ignored tile=lots: expected/m);
  const data = await page.evaluate(() => window.attentionLab.experiment());
  assert.equal(data.error, undefined);
  assert.deepEqual(errors, []);
  await page.close();
});
