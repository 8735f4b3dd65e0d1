// Figures that show what their text says (issues 34 and 44), read from the pixels on screen at
// 1280 × 800 with a mouse and at 390 × 844 with touch: the histogram of q·k widens on screen as
// d_k grows (its axis stays, only the data change, and has ticks to read it by), the gradients
// dS, dQ and dK fade as the scale multiplier saturates the rows while dA does not, a tap on a
// cell shows its value within the screen and off the matrices, the tiling figure's targets take
// a finger, and a mouse's tooltip goes when the pointer leaves the figure.
import test from 'node:test';
import assert from 'node:assert/strict';
import { centre, findItem, findSteadyItem, frames, launchBrowser, layout, openLab, startServer, touchTap, until } from './harness.mjs';
import { DEVICES, figureHeight, openLesson } from './lesson_frames.mjs';

// The pixels of a rectangle of the page, as {width, height, data: [r, g, b, a, …]}.
async function pixels(page, { x, y, w, h }) {
  const clip = { x: Math.round(x), y: Math.round(y), width: Math.round(w), height: Math.round(h) };
  const png = await page.screenshot({ clip });
  return page.evaluate(async ([base64, width, height]) => {
    const image = new Image();
    image.src = 'data:image/png;base64,' + base64;
    await image.decode();
    const g = Object.assign(document.createElement('canvas'), { width: image.width, height: image.height }).getContext('2d');
    g.drawImage(image, 0, 0);
    return { width: image.width, height: image.height, data: [...g.getImageData(0, 0, image.width, image.height).data] };
  }, [png.toString('base64'), clip.width, clip.height]);
}

// The share of a plot's width whose columns hold a bar of the first series (the plots' blue,
// drawn translucent over the card): where the histogram has samples.
function barExtent({ width, height, data }) {
  let first = -1, last = -1;
  for (let x = 0; x < width; x++) {
    for (let y = 0; y < height; y++) {
      const i = 4 * (y * width + x), [r, g, b] = [data[i], data[i + 1], data[i + 2]];
      if (b - r > 60 && b - g > 40) { if (first < 0) first = x; last = x; break; }
    }
  }
  return first < 0 ? 0 : (last - first + 1) / width;
}

// How coloured a map's cells are: the 90th percentile of its pixels' chroma (largest channel
// minus smallest). A diverging map's zero is a neutral colour; its ends are saturated blue and
// red. The item also holds its colour bar and the selected row's outline, which keep their
// colours whatever the values: a few per cent of its pixels, which the percentile passes over
// (a mean counted them in every map).
function chroma({ data }) {
  const values = [];
  for (let i = 0; i < data.length; i += 4) values.push(Math.max(data[i], data[i + 1], data[i + 2]) - Math.min(data[i], data[i + 1], data[i + 2]));
  values.sort((a, b) => a - b);
  return values[Math.floor(0.9 * (values.length - 1))];
}

// A map's cells below its first row, the query the figure selects (q0), whose outline keeps the
// accent's colour whatever the values: on a phone's small map (56 px for 8 rows) the outline is
// a sixth of the map's pixels, more than chroma()'s percentile passes over.
function belowSelectedRow(item) {
  const rows = Number(item.rowLabels.at(-1).slice(1)) + 1;  // labelled q0 … q7
  const skip = item.h / rows + 4;  // the row and its outline's width
  return { x: item.x, y: item.y + skip, w: item.w, h: item.h - skip };
}

const server = await startServer();
test.after(() => server.close());

for (const [name, device] of Object.entries(DEVICES)) {
  test(`the raw histogram of q·k widens on screen as d_k grows, on a ${name}`, async () => {
    const { context, close } = await launchBrowser(device);
    try {
      const extents = [];
      for (const dk of [1, 64, 512]) {
        const { page, errors } = await openLab(context, server.url, `view=scaling&dk=${dk}&figure=histograms`);
        const plots = (await layout(page)).filter(i => i.kind === 'plot').sort((a, b) => a.y - b.y || a.x - b.x);
        // Side by side on a laptop; on a phone one at a time, the raw first, the scaled behind
        // its button (issue 45's narrow columns).
        assert.equal(plots.length, name === 'phone' ? 1 : 2, 'the raw and the scaled histograms');
        // A scale to read the spread from: more than the 0 tick (issue 44).
        assert.ok(plots[0].xTicks.length > 1, `d_k = ${dk}: the raw histogram's axis reads ${JSON.stringify(plots[0].xTicks)}`);
        extents.push(barExtent(await pixels(page, plots[0])));
        assert.deepEqual(errors, []);
        await page.close();
      }
      // ±4σ of N(0, d_k) on an axis of ±4√512: about 4%, 35% and all of it.
      assert.ok(extents[0] < 0.15, `d_k = 1 fills ${extents[0].toFixed(2)} of the axis`);
      assert.ok(extents[1] > 2.5 * extents[0], `d_k = 64 (${extents[1].toFixed(2)}) is wider than d_k = 1 (${extents[0].toFixed(2)})`);
      assert.ok(extents[2] > 1.8 * extents[1], `d_k = 512 (${extents[2].toFixed(2)}) is wider than d_k = 64 (${extents[1].toFixed(2)})`);
    } finally {
      await close();
    }
  });

  test(`dS, dQ and dK fade on screen as the rows saturate, dA does not, on a ${name}`, async () => {
    const { context, close } = await launchBrowser(device);
    try {
      const colour = {};
      for (const mult of [1, 64]) {
        const { page, errors } = await openLab(context, server.url, `view=gradients&mult=${mult}&figure=backward`);
        // A card's map is labelled by its formula's left side ("dS"), the title written above it.
        for (const [map, title] of [['dS', /^dS\b/], ['dQ', /^dQ\b/], ['dK', /^dK\b/], ['dA', /^dA\b/]]) {
          const item = await findItem(page, { kind: 'heatmap', label: title });
          (colour[map] ??= {})[mult] = chroma(await pixels(page, belowSelectedRow(item)));
        }
        assert.deepEqual(errors, []);
        await page.close();
      }
      for (const map of ['dS', 'dQ', 'dK'])
        assert.ok(colour[map][64] < 0.25 * colour[map][1], `${map}: chroma ${colour[map][1].toFixed(1)} at multiplier 1, ${colour[map][64].toFixed(1)} at 64`);
      // dA = dO Vᵀ does not depend on the scale: the same colours.
      assert.ok(colour.dA[64] > 0.8 * colour.dA[1], `dA: chroma ${colour.dA[1].toFixed(1)} at multiplier 1, ${colour.dA[64].toFixed(1)} at 64`);
    } finally {
      await close();
    }
  });

  test(`a cell's value shows off the matrices, their rows left readable, on a ${name}`, async () => {
    // The shapes chapter's try-this: point at (tap) the query "black", then read its row.
    const { context, close } = await launchBrowser(device);
    try {
      const { page, errors } = await openLab(context, server.url, 'preset=cross&step=output&figure=scores,output');
      const maps = (await layout(page)).filter(i => i.kind === 'heatmap');
      const scores = maps.find(m => m.label === 'S = QKᵀ');
      const at = [scores.x + scores.w * 0.6, scores.y + scores.h * 1.5 / 4];  // black's row
      if (device.hasTouch) await touchTap(await context.newCDPSession(page), at);
      else await page.mouse.move(...at, { steps: 3 });
      const tip = await until(page, () => window.attentionLab.layout().find(i => i.kind === 'tooltip'));
      for (const m of maps) {
        const overlap = Math.min(tip.x + tip.w, m.x + m.w) > Math.max(tip.x, m.x) && Math.min(tip.y + tip.h, m.y + m.h) > Math.max(tip.y, m.y);
        assert.ok(!overlap, `the value's box ${JSON.stringify(tip)} covers ${m.label} ${JSON.stringify([m.x, m.y, m.w, m.h])}`);
      }
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });
}

test('on a phone every target of the tiling figure is at least 40 px, at its tiles and the try-this\'s smaller ones', async () => {
  const { context, close } = await launchBrowser(DEVICES.phone);
  try {
    for (const tile of [2, 1]) {
      // The lesson's fig-tiling (web/lesson/figures.html).
      const { page, errors } = await openLab(context, server.url, `view=tiling&n=8&tile=${tile}&figure=controls,walk,row`);
      const small = [];
      for (const i of await layout(page)) {
        if (i.kind === 'label' || i.kind === 'tooltip') continue;
        // A map's target is a cell: 8 queries by 8 / tile tiles.
        const [w, h] = i.kind === 'heatmap' ? [i.w / (8 / tile), i.h / 8] : [i.w, i.h];
        if (Math.min(w, h) < 40) small.push(`${i.kind} "${i.label}" ${w.toFixed(0)} × ${h.toFixed(0)}`);
      }
      assert.deepEqual(small, [], `tile ${tile}`);
      assert.deepEqual(errors, []);
      await page.close();
    }
  } finally {
    await close();
  }
});

test('on a phone a tap on a cell shows its value within the screen, and it stays', async () => {
  const { context, close } = await launchBrowser(DEVICES.phone);
  try {
    const { page, errors } = await openLab(context, server.url, 'preset=causal-3x2&step=softmax&query=2&figure=softmax');
    const cdp = await context.newCDPSession(page);
    const map = await findSteadyItem(page, { kind: 'heatmap', label: 'A = softmax(row)' });
    // The last row's last column: the cell nearest the screen's right edge.
    await touchTap(cdp, [map.x + map.w * 5 / 6, map.y + map.h * 5 / 6]);
    const tip = await until(page, () => window.attentionLab.layout().find(i => i.kind === 'tooltip'));
    const width = await page.evaluate(() => innerWidth);
    assert.ok(tip.x >= 0 && tip.x + tip.w <= width, `the value's box spans ${tip.x.toFixed(0)} … ${(tip.x + tip.w).toFixed(0)} of ${width} px`);
    await frames(page, 10);
    assert.ok((await layout(page)).some(i => i.kind === 'tooltip'), 'the value stays after the finger lifts');
    assert.equal((await page.evaluate(() => window.attentionLab.getState())).query, '2', 'the tapped row is the query');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('with a mouse, a cell\'s tooltip goes when the pointer leaves the figure', async () => {
  const { context, close } = await launchBrowser(DEVICES.laptop);
  try {
    const page = await openLesson(context, server);
    await figureHeight(page, 'fig-softmax');
    const frame = await (await page.locator('#fig-softmax iframe').elementHandle()).contentFrame();
    const map = await findSteadyItem(frame, { kind: 'heatmap', label: 'A = softmax(row)' });
    const box = await page.locator('#fig-softmax iframe').boundingBox();
    const [x, y] = centre(map);
    await page.mouse.move(box.x + x, box.y + y, { steps: 4 });
    await until(frame, () => window.attentionLab.layout().some(i => i.kind === 'tooltip'));
    // Out of the figure's frame, onto the lesson's text beside it.
    await page.mouse.move(box.x + x, box.y - 40, { steps: 4 });
    await until(frame, () => !window.attentionLab.layout().some(i => i.kind === 'tooltip'), undefined, { timeout: 10000 });
  } finally {
    await close();
  }
});

test('the lab\'s overview on a laptop: the five stages on one 1280 × 800 screen', async () => {
  const { context, close } = await launchBrowser(DEVICES.laptop);
  try {
    const { page, errors } = await openLab(context, server.url, 'preset=causal-3x2&step=scores');
    const titles = ['S = QKᵀ', 'S · scale', '+ mask', 'A = softmax(row)', 'O = A·V'];
    const height = await page.evaluate(() => innerHeight);
    for (const title of titles) {
      const map = await findSteadyItem(page, { kind: 'heatmap', label: title });
      assert.ok(map.y >= 0 && map.y + map.h <= height, `${title}'s matrix spans ${map.y.toFixed(0)} … ${(map.y + map.h).toFixed(0)} of ${height} px`);
      assert.ok(map.h >= 90, `${title}'s matrix is ${map.h.toFixed(0)} px tall`);
    }
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
