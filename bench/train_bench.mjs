// The training lab's speed (issue 11): training steps per second of each task's default
// configuration and of the goal configuration, natively (build/native/attention-cli
// train) and in WebAssembly (build/web/attention.js's train(), one thread, in this Node
// process). Figures, not assertions.
//   node bench/train_bench.mjs [out.json]
// A step is one batch forward, backward and Adam update plus the held-out evaluation after
// it, as the page runs it. Each figure is steps / (CPU time of a 300-step run − CPU time of a
// 0-step run), so process start, parsing and initialisation fall out; the median of 5
// interleaved rounds.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const [outJson = path.join(root, 'build/bench/train.json')] = process.argv.slice(2);
const cli = path.join(root, 'build/native/attention-cli');
const attention = await createRequire(import.meta.url)(path.join(root, 'build/web/attention.js'))();

const STEPS = 300;
const ROUNDS = 5;
const CONFIGS = [
  ['reverse', { task: 'reverse' }],
  ['induction', { task: 'induction' }],
  ['sort', { task: 'sort' }],
  ['max', { task: 'max' }],
  // Stated in full: the induction default may move while it is tuned.
  ['goal: 2 layers, 2 heads, d_model 32, seq 16, batch 16',
   { task: 'induction', layers: 2, heads: 2, d_model: 32, d_k: 16, seq: 16, batch: 16 }],
];

// CPU seconds, not wall seconds: on a busy machine (two other builds share these two cores)
// the wall time of a short run depends more on the neighbours than on the code.
const minutes = (m, sec) => 60 * Number(m) + Number(sec);

function nativeSeconds(request) {
  // bash's `times` prints the CPU time of its children on its second line.
  const r = spawnSync('bash', ['-c', '"$0" train >/dev/null || exit $?; times', cli],
                      { input: JSON.stringify(request), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`attention-cli train ${JSON.stringify(request)}: exit status ${r.status}`);
  const [, um, us, sm, ss] = r.stdout.split('\n')[1].match(/(\d+)m([\d.]+)s (\d+)m([\d.]+)s/);
  return minutes(um, us) + minutes(sm, ss);
}

function wasmSeconds(request) {
  const start = process.cpuUsage();
  const response = attention.train(JSON.stringify(request));
  const used = process.cpuUsage(start);
  if (response.startsWith('{"error"')) throw new Error(`train(): ${response}`);
  return (used.user + used.system) / 1e6;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const rate = (seconds, request) => STEPS / (seconds({ ...request, steps: STEPS }) - seconds({ ...request, steps: 0 }));

// Interleaved rounds, every configuration on both sides in each, so that the load of a busy
// machine falls on all alike.
const rows = CONFIGS.map(([name, request]) => ({ name, request, native: [], wasm: [] }));
for (let r = 0; r < ROUNDS; r++)
  for (const row of rows) {
    row.native.push(rate(nativeSeconds, row.request));
    row.wasm.push(rate(wasmSeconds, row.request));
  }
for (const row of rows) [row.native, row.wasm] = [median(row.native), median(row.wasm)];

console.log(`\nload average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
console.log('| configuration | native steps/s | wasm steps/s | wasm/native |\n|---|---|---|---|');
for (const r of rows)
  console.log(`| ${r.name} | ${r.native.toFixed(0)} | ${r.wasm.toFixed(0)} | ×${(r.wasm / r.native).toFixed(2)} |`);
fs.mkdirSync(path.dirname(outJson), { recursive: true });
fs.writeFileSync(outJson, JSON.stringify({
  node: process.version, cpu: os.cpus()[0].model, loadavg: os.loadavg(), steps: STEPS, rows,
}, null, 1));
