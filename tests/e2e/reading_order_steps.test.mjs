// One reading order per screen size (reading_order.mjs): tapping a step shows its card and the
// query picker of its explanation, through the step chips, Previous and Next, and a query
// chosen in the explanation keeps its card in view.
import test from 'node:test';
import assert from 'node:assert/strict';
import { findItem, until } from './harness.mjs';
import { DEVICES, STEPS, TITLES, settled, sharedServer, open, onScreen, headerBottom } from './reading_order.mjs';

const shared = sharedServer();

for (const device of DEVICES) {
  test(`${device.name} (${device.width} × ${device.height}): each step's card and its query picker come on screen`, async (t) => {
    const lab = await open(shared, device, 'preset=causal-3x2');
    t.after(lab.close);
    const { page, press } = lab;
    const header = headerBottom(await settled(page));
    // A phone's fixed header leaves five sixths of the screen to the column.
    if (device.mobile) assert.ok(header <= device.height / 6 + 2, `the header ends at ${header} px`);
    const visit = async (step, how) => {
      await press(await how());
      await until(page, (step) => (window.attentionLab.getState().step ?? 'scores') === step, STEPS[step]);
      const items = await settled(page);
      const card = items.find((i) => i.kind === 'heatmap' && i.label === TITLES[step]);
      assert.ok(card && onScreen(card, device, header), `step ${step}: its card at ${JSON.stringify(card)}, header ${header}`);
      const picker = items.find((i) => i.kind === 'combo' && /^\d+ /.test(i.label));
      assert.ok(picker && onScreen(picker, device, header), `step ${step}: the query picker at ${JSON.stringify(picker)}`);
      return { card, picker };
    };
    for (let step = 1; step <= 5; step++) {
      const { card, picker } = await visit(step, () => findItem(page, { kind: 'button', label: new RegExp(`^${step}( |$)`) }));
      // One column: the explanation right under its card.
      if (device.mobile) assert.ok(picker.y > card.y + card.h && picker.y < card.y + card.h + 200, `step ${step}: explanation under its card`);
    }
    // Previous and Next (arrows in a narrow header) bring their cards too.
    await visit(4, () => findItem(page, { kind: 'button', label: /^(← Previous|←)$/ }));
    await visit(5, () => findItem(page, { kind: 'button', label: /^(Next →|→)$/ }));
    // A query chosen in the explanation keeps its card in view.
    const picker = await findItem(page, { kind: 'combo', label: /^\d+ / });
    await press(picker);
    await press(await findItem(page, { kind: 'menu', label: /^1 / }));
    await until(page, () => window.attentionLab.getState().query === '1');
    const after = await settled(page);
    const card = after.find((i) => i.kind === 'heatmap' && i.label === TITLES[5]);
    assert.ok(card && onScreen(card, device, header), `after a query: ${JSON.stringify(card)}`);
    assert.deepEqual(lab.errors, []);
  });

}
