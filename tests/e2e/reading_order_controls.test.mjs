// One reading order per screen size (reading_order.mjs): no control lies under another; every
// number field is wide enough for its largest value, and a finger's targets are tall enough;
// "Open data…" is a button of the inputs, not a box over them.
import test from 'node:test';
import assert from 'node:assert/strict';
import { findItem, centre, swipe } from './harness.mjs';
import { DEVICES, settled, sharedServer, open, onScreen } from './reading_order.mjs';

const shared = sharedServer();

for (const device of DEVICES) {
  test(`${device.name}: no control lies under another, and the number fields hold their values`, async (t) => {
    const lab = await open(shared, device, 'preset=causal-3x2');
    t.after(lab.close);
    const { page, press } = lab;
    const overlaps = (items) => {
      const found = [];
      for (let a = 0; a < items.length; a++)
        for (let b = a + 1; b < items.length; b++) {
          const p = items[a], q = items[b];
          const w = Math.min(p.x + p.w, q.x + q.w) - Math.max(p.x, q.x), h = Math.min(p.y + p.h, q.y + q.h) - Math.max(p.y, q.y);
          if (w > 1 && h > 1) found.push(`${p.kind} "${p.label}" and ${q.kind} "${q.label}"`);
        }
      return found;
    };
    for (const view of ['walkthrough', 'train', 'gradients', 'scaling', 'cost']) {
      await page.evaluate((view) => window.attentionLab.setState({ view }), view);
      assert.deepEqual(overlaps(await settled(page)), [], `${view} at ${device.width} × ${device.height}`);
    }
    await page.evaluate(() => window.attentionLab.setState({ view: 'walkthrough' }));
    // The inputs, from where the reader is: the button under the explanation (a column), or
    // the panel beside the stages (a laptop), or the ☰ menu of a phone.
    const items = await settled(page);
    if (items.some((i) => i.label === '☰')) {
      await press(items.find((i) => i.label === '☰'));
      await press(await findItem(page, { kind: 'menu', label: /^Inputs/ }));
    } else if (!items.some((i) => i.kind === 'input')) {
      // Under the explanation: a swipe or two down from the first card.
      for (let i = 0; i < 4 && !(await settled(page)).some((i) => i.kind === 'button' && /^Inputs/.test(i.label)); i++)
        await swipe(lab.cdp, [device.width - 22, device.height * 0.8], { dy: -device.height * 0.4 });
      await press(await findItem(page, { kind: 'button', label: /^Inputs/ }));
    }
    const seed = await findItem(page, { kind: 'input', label: 'seed' });
    assert.ok(onScreen(seed, device), `the inputs come on screen: seed at ${JSON.stringify(seed)}`);
    const fields = (await settled(page)).filter((i) => i.kind === 'input');
    assert.deepEqual(overlaps(await settled(page)), [], 'the inputs open');
    // Each field's largest value, measured in the interface's font, with a little padding.
    const largest = { 'n tokens': '2048', d_k: '256', seed: '99999' };
    for (const field of fields.filter((f) => largest[f.label])) {
      const needed = await page.evaluate((text) => {
        const ctx = document.createElement('canvas').getContext('2d');
        ctx.font = '16px "DejaVu Sans"';
        return ctx.measureText(text).width + 8;
      }, largest[field.label]);
      assert.ok(field.w >= needed, `${field.label}: ${field.w} px for ${largest[field.label]} (${needed} px)`);
    }
    // Every target a finger can hit, on a touch screen (the inputs' checkbox and buttons too).
    if (device.touch)
      for (const i of (await settled(page)).filter((i) => ['button', 'checkbox', 'input', 'combo'].includes(i.kind)))
        assert.ok(i.h >= 38, `${i.kind} "${i.label}" is ${i.h} px tall`);
    assert.deepEqual(lab.errors, []);
  });
}

test('"Open data…" is a button of the inputs that opens the file chooser; nothing floats over the lab', async (t) => {
  const lab = await open(shared, DEVICES[3], 'preset=causal-3x2');
  t.after(lab.close);
  const { page } = lab;
  const label = await page.evaluate(() => document.querySelector('#load-bar label').getBoundingClientRect().toJSON());
  assert.ok(label.width <= 1 && label.height <= 1, `the page's own label is out of sight: ${JSON.stringify(label)}`);
  const button = await findItem(page, { kind: 'button', label: 'Open data…' });
  const chooser = page.waitForEvent('filechooser', { timeout: 10000 });
  await page.mouse.click(...centre(button));
  assert.ok((await chooser).isMultiple(), 'q, k and v together');
  assert.deepEqual(lab.errors, []);
});
