// The diverging colormap of the score stages (shaders/heatmap.frag, cool–warm) keeps negative
// and positive values apart for colour-blind readers: each pair of values t and 1 − t with
// |t − ½| ≥ 0.1 stays at least 20 CIELAB units apart under simulated protanopia,
// deuteranopia and tritanopia (Machado, Oliveira & Fernandes 2009, severity 1).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';

const shader = fs.readFileSync(new URL('../../shaders/heatmap.frag', import.meta.url), 'utf8');
const body = shader.slice(shader.indexOf('vec3 coolwarm'));
const stops = [...body.matchAll(/const vec3 [a-e] = vec3\(([^)]*)\)/g)].slice(0, 5).map(m => m[1].split(',').map(Number));

function coolwarm(t) {  // the shader's piecewise-linear interpolation
  const s = t * 4, i = Math.min(Math.floor(s), 3), f = s - i;
  return stops[i].map((a, k) => a * (1 - f) + stops[i + 1][k] * f);
}

const SIMULATIONS = {  // on linear RGB
  protanopia: [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
  deuteranopia: [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
  tritanopia: [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]],
};
const times = (m, v) => m.map(r => r[0] * v[0] + r[1] * v[1] + r[2] * v[2]);
const linear = c => c.map(x => (x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4));
function cielab(rgbLinear) {
  const xyz = times([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]],
                    rgbLinear.map(x => Math.min(1, Math.max(0, x))));
  const f = t => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  const [fx, fy, fz] = xyz.map((x, i) => f(x / [0.9505, 1, 1.089][i]));
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

test('the shader has the five cool–warm stops', () => {
  assert.equal(stops.length, 5);
  stops.flat().forEach(x => assert.ok(x >= 0 && x <= 1));
});

for (const [name, matrix] of Object.entries(SIMULATIONS)) {
  test(`negative and positive scores stay apart under ${name}`, () => {
    for (let t = 0; t <= 0.4 + 1e-9; t += 0.01) {
      const a = cielab(times(matrix, linear(coolwarm(t)))), b = cielab(times(matrix, linear(coolwarm(1 - t))));
      const distance = Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
      assert.ok(distance >= 20, `t = ${t.toFixed(2)}: ΔE ${distance.toFixed(1)}`);
    }
  });
}
