// The experiment views of issue 6 in headless Chromium: each opened through the URL and
// through attentionLab.setState, and the data behind its plots (attentionLab.experiment())
// checked against computations done here, independently, in float64.
import test from 'node:test';
import assert from 'node:assert/strict';
import { frames, labSession, openLab, until } from './harness.mjs';

const VIEWS = ['scaling', 'gradients', 'pitfalls', 'stability', 'tiling', 'heads'];

// The experiment JSON spells NaN and ±∞ as strings.
const value = x => (x === 'nan' ? NaN : x === 'inf' ? Infinity : x === '-inf' ? -Infinity : x);
const dot = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0);
function softmax(logits) {
  const max = Math.max(...logits);
  const exps = logits.map(x => Math.exp(x - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map(e => e / sum);
}

function assertClose(actual, expected, tol, what) {
  if (Array.isArray(expected)) {
    assert.equal(actual.length, expected.length, `${what}: length`);
    expected.forEach((e, i) => assertClose(actual[i], e, tol, `${what}[${i}]`));
    return;
  }
  const a = value(actual);
  assert.ok(Math.abs(a - expected) <= tol * Math.max(1, Math.abs(expected)), `${what}: ${a} vs ${expected}`);
}

const session = labSession();

// Opens a view by its URL and returns its experiment data; no console errors allowed.
async function experimentAt(fragment, check) {
  const { page, errors } = await openLab(session.browser.context, session.server.url, fragment);
  const data = await page.evaluate(() => window.attentionLab.experiment());
  await frames(page, 10);  // a few frames of the view drawn
  assert.deepEqual(errors, [], `console errors at #${fragment}`);
  await check(data, page);
  await page.close();
}

test('every view opens through setState, with its data and the view in the URL', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url);
  assert.equal(await page.evaluate(() => window.attentionLab.experiment()), null, 'the walkthrough has no experiment');
  for (const view of VIEWS) {
    await page.evaluate(v => window.attentionLab.setState({ view: v }), view);
    const data = await page.evaluate(() => window.attentionLab.experiment());
    assert.equal(data.view, view);
    assert.equal(data.error, undefined, `${view}: ${data.error}`);
    assert.equal(await page.evaluate(() => window.attentionLab.getState().view), view);
    await until(page, (view) => location.hash.includes(`view=${view}`), view);
    assert.match(await page.evaluate(() => location.hash), new RegExp(`view=${view}`));
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('scaling: measured variances near d_k and 1, normal curves, entropy and largest weight ordered', async () => {
  for (const dk of [1, 64, 512]) {
    await experimentAt(`view=scaling&dk=${dk}`, data => {
      assert.equal(data.dk, dk);
      // The error of a sample variance of q·k over Q (queries × d_k) and K (keys × d_k): the
      // row norms of Q and K dominate (each mean |x|²/d_k has relative variance 2/(rows·d_k)),
      // plus the samples' own spread (q·k/√d_k has variance 1 and kurtosis ≤ 9).
      const relSigma = Math.sqrt(2 / (data.queries * dk) + 2 / (data.keys * dk) + 8 / (data.queries * data.keys));
      assert.ok(Math.abs(data.variance_raw / dk - 1) < 5 * relSigma, `variance_raw ${data.variance_raw} vs d_k ${dk}`);
      assert.ok(Math.abs(data.variance_scaled - 1) < 5 * relSigma, `variance_scaled ${data.variance_scaled} vs 1`);
      assertClose(data.variance_scaled, data.variance_raw / dk, 1e-4, 'scaled = raw / d_k');
      for (const [h, v] of [[data.histogram_raw, dk], [data.histogram_scaled, 1]]) {
        const expected = h.centres.map(x => Math.exp(-x * x / (2 * v)) / Math.sqrt(2 * Math.PI * v));
        assertClose(h.normal_density, expected, 1e-5, 'normal density');
        const total = h.counts.reduce((a, b) => a + b, 0);
        const width = h.edges[1] - h.edges[0];
        assertClose(h.density, h.counts.map(c => c / (data.queries * data.keys * width)), 1e-5, 'density');
        // ±4σ holds all but the tails (heavier than normal at d_k = 1: a product of two normals).
        assert.ok(total > 0.99 * data.queries * data.keys, 'the histogram spans ±4σ');
      }
      for (const s of data.scales) assertClose(s.sample_weights.reduce((a, b) => a + b, 0), 1, 1e-4, `${s.name} weights sum`);
    });
  }
  await experimentAt('view=scaling&dk=64', data => {
    const [none, sqrt, inv] = data.scales;
    assert.deepEqual(data.scales.map(s => s.name), ['none', 'inv_sqrt_dk', 'inv_dk']);
    data.sweep_dk.forEach((dk, i) => {
      if (dk === 1) return;  // the three scales coincide at d_k = 1
      assert.ok(none.entropy[i] < sqrt.entropy[i] && sqrt.entropy[i] < inv.entropy[i], `entropy order at d_k=${dk}`);
      assert.ok(none.max_weight[i] > sqrt.max_weight[i] && sqrt.max_weight[i] > inv.max_weight[i], `max weight order at d_k=${dk}`);
    });
    const last = data.sweep_dk.length - 1;
    assertClose(data.uniform_entropy, Math.log(data.keys), 1e-6, 'uniform entropy');
    assert.ok(none.max_weight[last] > 0.9, 'no scaling: near one-hot at d_k = 512');
    assert.ok(inv.entropy[last] > 0.98 * data.uniform_entropy, '1/d_k: near uniform at d_k = 512');
  });
});

test('gradients: the Jacobian against finite differences, dS through it, vanishing gradients', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url);
  await page.evaluate(() => window.attentionLab.setState({ view: 'gradients', mult: 1, row: 3 }));
  const data = await page.evaluate(() => window.attentionLab.experiment());
  assert.equal(data.selected_query, 3);
  // Central differences of a float64 softmax at logits whose softmax is the reported row.
  const a = data.weights[3], logits = a.map(Math.log), h = 1e-5;
  a.forEach((_, j) => {
    const plus = softmax(logits.map((s, c) => (c === j ? s + h : s)));
    const minus = softmax(logits.map((s, c) => (c === j ? s - h : s)));
    assertClose(data.jacobian.map(row => row[j]), plus.map((p, i) => (p - minus[i]) / (2 * h)), 1e-4, `∂a/∂s_${j}`);
  });
  // dS = A ⊙ (dA − rowsum(dA ⊙ A)), the Jacobian applied to every row.
  const dS = data.weights.map((w, i) => {
    const inner = dot(w, data.d_weights[i]);
    return w.map((x, j) => x * (data.d_weights[i][j] - inner));
  });
  assertClose(data.d_scores, dS, 1e-4, 'dS');
  // As the scale grows the rows saturate and most keys lose their gradient.
  const points = data.sweep_multiplier.length;
  assert.ok(data.max_weight[points - 1] > 0.95, 'saturated at the largest multiplier');
  const faded = data.key_grad_norm[0].filter((_, j) => {
    const peak = Math.max(...data.key_grad_norm.map(r => r[j]));
    return data.key_grad_norm[points - 1][j] < 0.1 * peak;
  }).length;
  assert.ok(faded > data.n / 2, `most keys lose their gradient (${faded} of ${data.n})`);
  assert.ok(data.d_scores_norm[points - 1] < 0.1 * Math.max(...data.d_scores_norm), '‖dS‖ vanishes');
  assert.deepEqual(errors, []);
  await page.close();
});

test('pitfalls: every case against float64 attention of the reported Q and K', async () => {
  await experimentAt('view=pitfalls&pitfall=fill_minus_one', data => {
    const scale = 1 / Math.sqrt(data.dk);
    const scores = data.q.map(q => data.k.map(k => scale * dot(q, k)));
    const rows = fill => scores.map((row, i) => softmax(row.map((s, j) => (j > i ? s + fill : s))));
    const byName = Object.fromEntries(data.cases.map(c => [c.name, c]));
    assertClose(byName.no_scaling.weights_right, rows(-Infinity), 1e-5, 'right weights');
    for (const [name, fill] of [['fill_minus_one', -1], ['fill_zero', 0]]) {
      assertClose(byName[name].weights_wrong, rows(fill), 1e-5, `${name} weights`);
      // The leak in closed form: e^fill Σ_{j>i} e^s / (Σ_{j≤i} e^s + e^fill Σ_{j>i} e^s).
      const leak = scores.map((row, i) => {
        const past = row.slice(0, i + 1).reduce((t, s) => t + Math.exp(s), 0);
        const future = Math.exp(fill) * row.slice(i + 1).reduce((t, s) => t + Math.exp(s), 0);
        return future / (past + future);
      });
      assertClose(byName[name].future_weight, leak, 1e-5, `${name} leak`);
    }
    assertClose(byName.no_causal_mask.weights_wrong, scores.map(softmax), 1e-5, 'no causal mask');
    assertClose(byName.no_scaling.weights_wrong, scores.map((row, i) => softmax(row.map((s, j) => (j > i ? -Infinity : s / scale)))), 1e-5, 'no scaling');
    assertClose(byName.divide_by_dk.weights_wrong, scores.map((row, i) => softmax(row.map((s, j) => (j > i ? -Infinity : s * scale)))), 1e-5, 'divide by d_k');
    const masked = byName.fully_masked_row;
    assert.equal(masked.nan_rows, 1);
    assert.ok(masked.weights_wrong[data.padding_key].every(x => x === 'nan'), 'the naive softmax gives NaN');
    assert.ok(masked.weights_right[data.padding_key].every(x => x === 0), 'the stable kernel gives zeros');
  });
});

test('stability: overflow at ln(FLT_MAX) and ln(65504), NaN after it, −∞ against −1e9', async () => {
  await experimentAt('view=stability', data => {
    const ln32 = Math.log(3.4028234663852886e38), ln16 = Math.log(65504);
    assertClose(data.predicted_overflow_float32, ln32, 1e-6, 'ln FLT_MAX');
    assertClose(data.predicted_overflow_float16, ln16, 1e-6, 'ln 65504');
    const series = Object.fromEntries(data.series.map(s => [s.name, s]));
    const step = data.magnitude_step;
    for (const [name, limit] of [['naive_float32', ln32], ['naive_float16', ln16]]) {
      const s = series[name];
      assert.ok(s.first_overflow > limit && s.first_overflow <= limit + step + 1e-4, `${name} overflows at ${s.first_overflow}`);
      assert.ok(s.first_nan >= s.first_overflow, `${name}: NaN only after ∞`);
      // Below the overflow the largest exponential is e^magnitude.
      data.magnitude.forEach((m, i) => {
        if (m < limit - 1) assertClose(s.largest_exp[i], Math.exp(m), name.endsWith('16') ? 2e-3 : 1e-5, `${name} e^${m}`);
      });
    }
    for (const name of ['stable_float32', 'stable_float16']) {
      assert.equal(series[name].first_overflow, 'nan', `${name} never overflows`);
      assert.equal(series[name].first_nan, 'nan', `${name} never gives NaN`);
      assert.ok(series[name].largest_exp.every(x => x === 1), `${name}: e^(s − max) ≤ 1`);
    }
    const fills = Object.fromEntries(data.mask_fills.map(c => [c.name, c]));
    const uniform = new Array(data.mask_keys).fill(1 / data.mask_keys);
    assertClose(fills.neg_1e9_float32.weights[1], uniform, 1e-6, '−1e9: a fully blocked row turns uniform');
    assertClose(fills.neg_inf_float32.weights[1], uniform.map(() => 0), 0, '−∞: a fully blocked row is empty');
    assert.equal(fills.neg_1e9_float16.stored_fill, '-inf', 'float16 has no −1e9');
    assertClose(fills.neg_1e9_float32.weights[0], fills.neg_inf_float32.weights[0], 1e-6, 'a partly blocked row agrees');
  });
});

test('tiling: the walk equals the reference, its recurrence holds, memory 4n² against tiles', async () => {
  await experimentAt('view=tiling&n=32&tile=8', data => {
    assert.equal(data.tiles, 4);
    assertClose(data.walk_output, data.reference_output, 1e-5, 'walk vs reference');
    assertClose(data.tiled_output, data.reference_output, 1e-5, 'tiled kernel vs reference');
    data.running_max.forEach((row, i) => row.forEach((m, t) => {
      const before = t ? row[t - 1] : -Infinity;
      assertClose(m, Math.max(before, data.tile_max[i][t]), 1e-6, `m[${i}][${t}]`);
      if (t) assertClose(data.rescale[i][t], Math.exp(before - m), 1e-5, `rescale[${i}][${t}]`);
    }));
    const last = data.tiles - 1;
    const normalised = data.partial_output[last].map((o, i) => o.map(x => x / data.running_sum[i][last]));
    assertClose(data.walk_output, normalised, 1e-5, 'o / l');
    // Printed as float32: 4n² to float precision.
    assertClose(data.score_bytes, data.memory_n.map(n => 4 * n * n), 1e-7, 'score bytes 4n²');
    assert.ok(data.tiled_bytes.every(b => b === data.tiled_bytes[0]), 'the tiled working set does not grow with n');
  });
});

test('heads: GQA groups, shapes, weights and the concatenated output', async () => {
  await experimentAt('view=heads&heads=8&kvheads=2&attn=cross&nq=3&nk=5&dk=4&dv=3', data => {
    assert.equal(data.cross, true);
    assert.deepEqual(data.q_shape, [1, 8, 3, 4]);
    assert.deepEqual(data.k_shape, [1, 2, 5, 4]);
    assert.deepEqual(data.weights_shape, [1, 8, 3, 5]);
    assert.deepEqual(data.concat_shape, [1, 3, 24]);
    const perGroup = data.heads / data.kv_heads;
    data.head_views.forEach(h => assert.equal(h.kv_head, Math.floor(h.head / perGroup), `head ${h.head}'s K/V head`));
    assert.deepEqual(data.groups, [[0, 1, 2, 3], [4, 5, 6, 7]]);
    for (const h of data.head_views) {
      h.weights.forEach((row, i) => assertClose(row.reduce((a, b) => a + b, 0), 1, 1e-5, `head ${h.head} row ${i}`));
      h.output.forEach((row, i) => assertClose(data.concatenated[i].slice(h.head * data.dv, (h.head + 1) * data.dv), row, 0, 'concat'));
    }
  });
});

test('bad view parameters give a note; the rest still applies', async () => {
  const { page, errors } = await openLab(session.browser.context, session.server.url, 'view=tiling&n=16&tile=0&mult=-2');
  const notes = await page.evaluate(() => document.getElementById('notes').textContent);
  assert.match(notes, /tile=0/);
  assert.match(notes, /mult=-2/);
  const tiling = await page.evaluate(() => window.attentionLab.experiment());
  assert.equal(tiling.n, 16, 'n still applies');
  // Parameters each valid alone but not together: the nearest valid combination, with a note
  // (clamp.test.mjs checks more).
  await page.evaluate(() => window.attentionLab.setState({ view: 'heads', heads: 3, kvheads: 2 }));
  const heads = await page.evaluate(() => window.attentionLab.experiment());
  assert.equal(heads.view, 'heads');
  assert.equal(heads.error, undefined);
  assert.match(await page.evaluate(() => document.getElementById('notes').textContent),
               /kvheads=2 does not divide heads=3, so kvheads=1 is used/);
  await page.evaluate(() => window.attentionLab.setState({ view: 'tiling', n: 200 }));
  assert.equal((await page.evaluate(() => window.attentionLab.experiment())).error, undefined);
  assert.match(await page.evaluate(() => document.getElementById('notes').textContent), /^n=200 .*so n=\d+ is used/m);
  await frames(page, 10);
  assert.deepEqual(errors, []);
  await page.close();
});
