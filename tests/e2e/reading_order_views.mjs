// One reading order per screen size (reading_order.mjs): a new view starts at its top, through
// the view menu and as a link or a lesson switches it; the training lab's Play and a live plot
// are on screen together, before and while it trains. Each screen's test is long (it trains), so
// the screens are shared between two test files: reading_order_views_narrow.test.mjs and
// reading_order_views_wide.test.mjs call viewTests() with theirs.
import test from 'node:test';
import assert from 'node:assert/strict';
import { findItem, until, swipe } from './harness.mjs';
import { settled, sharedServer, open, launchFor, onScreen } from './reading_order.mjs';

export function viewTests(devices) {
  const shared = sharedServer();

  for (const device of devices) {
    test(`${device.name}: a new view starts at its top; the training lab shows Play and a plot together`, async (t) => {
      // One browser for the screen: the views opened afresh, one page at a time, then the lab.
      const browser = await launchFor(device);
      t.after(() => browser.close());
      // Where each view's first control is when it is opened afresh.
      const first = async (view) => {
        const fresh = await open(shared, device, `view=${view}`, browser);
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
      const lab = await open(shared, device, 'view=gradients', browser);
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

  }
}
