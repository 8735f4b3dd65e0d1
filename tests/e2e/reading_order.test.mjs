// One reading order per screen size (issue 29), in real Chromium with touch on a phone and a
// tablet both ways and with a mouse on a laptop: tapping a step shows its card and the query
// picker of its explanation; a new view starts at its top; the training lab's Play and a live
// plot are on screen together; no control lies under another; every number field is wide
// enough for its largest value; "Open data…" is a button of the inputs, not a box over them.
// Controls are found by label through attentionLab.layout(); every wait is on a condition.
import test from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openLab, frames, findItem, centre, until, touchTap, swipe } from './harness.mjs';

const DEVICES = [
  { name: 'phone', width: 390, height: 844, scale: 2, touch: true, mobile: true },
  { name: 'upright tablet', width: 768, height: 1024, scale: 1, touch: true },
  { name: 'tablet', width: 1024, height: 768, scale: 1, touch: true },
  { name: 'laptop', width: 1280, height: 800, scale: 1, touch: false },
];
const STEPS = ['input', 'scores', 'scale', 'mask', 'softmax', 'output'];
const TITLES = [null, 'S = QKᵀ', 'S · scale', '+ mask', 'A = softmax(row)', 'O = A·V'];

// The items once three frames in a row lay them out alike (a scroll asked for has applied).
const settled = (page) => until(page, async () => {
  const a = JSON.stringify(window.attentionLab.layout());
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(r))));
  return a === JSON.stringify(window.attentionLab.layout()) ? window.attentionLab.layout() : null;
});

async function open(device, fragment) {
  const server = await startServer();
  const browser = await launchBrowser({ viewport: { width: device.width, height: device.height }, deviceScaleFactor: device.scale,
                                        hasTouch: device.touch, isMobile: !!device.mobile });
  const { page, errors } = await openLab(browser.context, server.url, fragment);
  const cdp = device.touch ? await browser.context.newCDPSession(page) : null;
  // A tap on a touch screen, a click with the mouse: then the frames that apply it.
  const press = async (item) => {
    if (cdp) await touchTap(cdp, centre(item));
    else await page.mouse.click(...centre(item));
    await frames(page, 4);
  };
  const close = async () => { await browser.close(); await server.close(); };
  return { page, errors, press, cdp, close, server, browser };
}

const onScreen = (item, device, top = 0) => item.y >= top - 1 && item.y + item.h <= device.height + 1;
// The fixed header's bottom: the lowest of the step chips (the stepper is its last line).
const headerBottom = (items) => Math.max(...items.filter((i) => i.kind === 'button' && /^[0-5]( |$)/.test(i.label)).map((i) => i.y + i.h));

for (const device of DEVICES) {
  test(`${device.name} (${device.width} × ${device.height}): each step's card and its query picker come on screen`, async (t) => {
    const lab = await open(device, 'preset=causal-3x2');
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

  test(`${device.name}: a new view starts at its top; the training lab shows Play and a plot together`, async (t) => {
    // Where each view's first control is when it is opened afresh.
    const first = async (view) => {
      const fresh = await open(device, `view=${view}`);
      const items = await settled(fresh.page);
      await fresh.close();
      return items;
    };
    const trainFresh = await first('train');
    const scalingFresh = await first('scaling');
    const gradientsFresh = await first('gradients');
    // The same control where it was when the view was opened afresh.
    const atTop = (items, fresh, what) => {
      const label = fresh.find((i) => i.label && i.kind !== 'combo' && i.y > 150)?.label;
      assert.equal(items.find((i) => i.label === label)?.y, fresh.find((i) => i.label === label)?.y, `${what} at its top (${label})`);
    };
    const lab = await open(device, 'view=gradients');
    t.after(lab.close);
    const { page, press } = lab;
    const scroll = async () => {
      const before = JSON.stringify(await settled(page));
      if (lab.cdp) await swipe(lab.cdp, [device.width / 2, device.height * 0.8], { dy: -device.height * 0.5 });
      else {
        await page.mouse.move(device.width / 2, device.height * 0.7);
        await page.mouse.wheel(0, device.height * 0.5);
      }
      assert.notEqual(JSON.stringify(await settled(page)), before, 'the view scrolled');
    };
    const choose = async (from, to) => {
      await press(await findItem(page, { kind: 'combo', label: from }));
      await press(await findItem(page, { kind: 'menu', label: to }));
    };
    const play = (items) => items.find((i) => i.kind === 'button' && i.label === '▶ Play');

    // Through the view menu, and as a link or a lesson switches it (the menu's last choice).
    await scroll();
    await choose('Gradients', 'Why √d_k');
    await until(page, () => window.attentionLab.getState().view === 'scaling');
    atTop(await settled(page), scalingFresh, 'Why √d_k');
    await scroll();
    await page.evaluate(() => window.attentionLab.setState({ view: 'train' }));
    const train = await settled(page);
    assert.equal(play(train)?.y, play(trainFresh)?.y, 'the training lab at its top');
    // Play and a live plot (and a map) on screen together, before and while it trains.
    const plot = train.find((i) => i.kind === 'plot');
    assert.ok(play(train) && onScreen(play(train), device), `Play at ${JSON.stringify(play(train))}`);
    assert.ok(plot && onScreen(plot, device), `the first plot at ${JSON.stringify(plot)}`);
    await press(play(train));
    await until(page, () => window.attentionLab.experiment().steps > 0);
    const playing = await findItem(page, { kind: 'plot' });
    assert.ok(onScreen(playing, device), 'the plot stays on screen while it trains');
    await press(await findItem(page, { kind: 'button', label: '❚❚ Pause' }));

    await scroll();
    await choose('Training lab', 'Gradients');
    await until(page, () => window.attentionLab.getState().view === 'gradients');
    atTop(await settled(page), gradientsFresh, 'Gradients');
    assert.deepEqual(lab.errors, []);
  });

  test(`${device.name}: no control lies under another, and the number fields hold their values`, async (t) => {
    const lab = await open(device, 'preset=causal-3x2');
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
    // the panel beside the stages (a laptop).
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
  const lab = await open(DEVICES[3], 'preset=causal-3x2');
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
