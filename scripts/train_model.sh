#!/usr/bin/env bash
# Trains the tiny language model from scratch (docs/model.md) and writes its weights, its
# report and its checkpoints (web/model/tiny-lm.bin, report.json, checkpoints/), then its
# one-layer twin, the same recipe with one layer (web/model/one-layer/). Deterministic for a
# seed (and a thread count). With arguments it makes one run, theirs, for example
#   scripts/train_model.sh --seed 2 --steps 500 --out /tmp/model
# The corpus it trains on is the snapshot in data/model/ (scripts/model_corpus.py makes it).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${ATTN_BUILD_DIR:-build/native}
if [ ! -f "$build/build.ninja" ]; then
  . scripts/env.sh
  cmake --preset native -DATTN_BUILD_APP=OFF >/dev/null  # the trainer needs no app
fi
cmake --build "$build" --target attention-train-model
train() { nice -n 10 "$build/attention-train-model" train --data data/model "$@"; }
if [ $# -gt 0 ]; then
  train --out web/model "$@"
else
  train --out web/model
  train --out web/model/one-layer --layers 1 --checkpoints no
fi
