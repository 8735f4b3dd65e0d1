#!/usr/bin/env bash
# One benchmark run, single-threaded but for one two-thread column, d = 64, n = 128 … 4096 and
# 8 heads × 512:
#   1. natively (Google Benchmark): the reference, an Eigen-materialised attention, the tiled
#      kernel, with peak heap;
#   2. in WebAssembly under Node (with relaxed SIMD on): the tiled kernel on each path (SIMD128,
#      and relaxed SIMD through attention-relaxed.wasm; forwardParallel() on two threads) and the
#      reference of build/web/attention.js beside tfjs-backend-wasm, onnxruntime-web and a plain
#      matrix multiply of each path;
#   3. the same in headless Chromium (bench/browser_bench.mjs: Web Workers for the threads);
#   4. the training lab: training steps per second of each task's default configuration and
#      of the issue's goal configuration, natively and in WebAssembly (bench/train_bench.mjs).
# Prints the tables and writes build/bench/bench.json (native.json, browser.json and train.json
# beside it).
# A few minutes; --train runs only the training part (under a minute); --page only the page's
# speed in headless Chromium (bench/page_bench.mjs: first frame, setState to screen at
# n = 64 … 2048, frames drawn while idle; about two minutes), written to build/bench/page.json;
# --figures a page of many embedded figures scrolled through (bench/figures_bench.mjs: time to
# the first and to every figure drawn, peak memory, live WebGL contexts, idle animation-frame
# callbacks, against the embed.js that started every figure at load; a few minutes), written
# to build/bench/figures.json, for examples/figures.html or the page of the site given.
# --notebook prints what each notebook output costs in bytes, for the shapes
# docs/notebooks.md names (bench/notebook_sizes.py; seconds, after scripts/build.sh web).
# --model view=model's speed (bench/model_bench.mjs: a keystroke to the maps at the full
# context on a laptop-sized screen and as a phone with its CPU slowed, the weights' download
# locally and on a slow link, the view's first frame; about two minutes), written to
# build/bench/model.json.
#   scripts/bench.sh [--train | --page | --figures [page] | --notebook | --model]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. scripts/env.sh
scripts/setup.sh

say() { printf 'bench: %s\n' "$*" >&2; }

train_bench() {
  say "training steps per second, native and WebAssembly under Node $(node --version)"
  [ -f build/native/build.ninja ] || cmake --preset native >/dev/null
  cmake --build build/native --target attention-cli >/dev/null
  node bench/train_bench.mjs build/bench/train.json
}

if [ "${1:-}" = --figures ]; then
  say "a page of many figures in headless Chromium"
  [ -f build/wasm/build.ninja ] || cmake --preset web >/dev/null
  cmake --build build/wasm --target attention-lab >/dev/null
  cp -R web/. build/web/
  rm -rf build/web/lesson  # its sources, which make the two pages rather than being served
  python3 scripts/lesson_pages.py web/lesson build/web
  node bench/figures_bench.mjs "${2:-examples/figures.html}" build/bench/figures.json
  exit
fi

if [ "${1:-}" = --notebook ]; then
  say "the bytes of a notebook's outputs"
  [ -f python/attention_lab/site/VERSION ] || { say "no python/attention_lab/site: run scripts/build.sh web"; exit 1; }
  PYTHONPATH=python "${ATTN_PYTHON:-/usr/bin/python3}" bench/notebook_sizes.py
  exit
fi

if [ "${1:-}" = --page ] || [ "${1:-}" = --model ]; then
  say "the page in headless Chromium"
  [ -f build/wasm/build.ninja ] || cmake --preset web >/dev/null
  cmake --build build/wasm --target attention-lab >/dev/null
  cp -R web/. build/web/
  if [ "$1" = --page ]; then node bench/page_bench.mjs build/bench/page.json
  else node bench/model_bench.mjs build/bench/model.json; fi
  exit
fi

say "building the kernel module"
[ -f build/wasm/build.ninja ] || cmake --preset web >/dev/null
cmake --build --preset web --target attention_module >/dev/null
if [ "${1:-}" = --train ]; then
  train_bench
  exit
fi

say "building the benchmarks"
[ -f build/bench/native/build.ninja ] || cmake -S bench -B build/bench/native -G Ninja >/dev/null
cmake --build build/bench/native >/dev/null
[ -f build/bench/wasm/build.ninja ] || cmake -S bench -B build/bench/wasm -G Ninja \
  -DCMAKE_TOOLCHAIN_FILE="$EMSCRIPTEN_ROOT/cmake/Modules/Platform/Emscripten.cmake" >/dev/null
cmake --build build/bench/wasm >/dev/null

say "native (Google Benchmark)"
build/bench/native/native_bench --benchmark_out=build/bench/native.json --benchmark_out_format=json \
  --benchmark_counters_tabular=true >&2

say "WebAssembly under Node $(node --version)"
node --experimental-wasm-relaxed-simd bench/wasm_bench.mjs build/bench/native.json build/bench/bench.json

say "WebAssembly in headless $(chromium --version 2>/dev/null || echo Chromium)"
node bench/browser_bench.mjs build/bench/browser.json

train_bench
