#!/usr/bin/env bash
# scripts/train_model.sh from scratch, in short (a small model, 300 steps), twice with one seed
# and once with another: the same seed writes the same weight files (the last and the checkpoint
# at step 250) byte for byte, another seed different ones, and each run writes a report with
# every head's scores, both sets of sentences' figures and the checkpoint's own. Once more with
# the spans typed twice drawn from anywhere rather than each language evenly: other weights.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
short=(--steps 300 --layers 2 --d-model 16 --heads 2 --batch 4 --warmup 20)
for run in a b c d; do
  options=(--seed 1)
  [ "$run" = c ] && options=(--seed 2)
  [ "$run" = d ] && options=(--seed 1 --spans-by-language no)
  # No folder made beforehand: the trainer makes its --out before training, not after.
  "$root/scripts/train_model.sh" "${short[@]}" "${options[@]}" --out "$out/$run" >/dev/null 2>"$out/$run.log"
done
if cmp -s "$out/a/tiny-lm.bin" "$out/d/tiny-lm.bin"; then echo "--spans-by-language no changed nothing"; exit 1; fi
for file in tiny-lm.bin checkpoints/step-250.bin; do
  cmp "$out/a/$file" "$out/b/$file" || { echo "seed 1 gave two different $file"; exit 1; }
  if cmp -s "$out/a/$file" "$out/c/$file"; then echo "seeds 1 and 2 gave the same $file"; exit 1; fi
done
python3 - "$out/a/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert len(r["heads"]) == 4 and r["training"]["steps"] == 300, r["training"]
assert r["training"]["spans_by_language"] is True, r["training"]
# One checkpoint (every 250 steps to 2,000), with its file and its own heads' scores.
[c] = r["training"]["checkpoints"]
assert c["step"] == 250 and c["file"] == "checkpoints/step-250.bin" and len(c["heads"]) == 4, c.keys()
assert all(0 <= h["previous_token"] <= 1 and 0 <= h["induction_random"] <= 1 for h in r["heads"])
# Both sets of sentences, and the held-out file read whole.
held = r["held_out_sentences"]
assert {s["language"] for s in held["sentences"]} == {"en", "es"} and len(held["sentences"]) >= 12
assert set(held["targets"]) >= {"second_copy_over_first", "second_copy_over_first_each_sentence",
                                "induction_head_each_sentence", "induction_head_ablation_ratio"}
assert r["windows"]["held_out"] > r["windows"]["train"] == 32, r["windows"]
PY
echo "deterministic: $(wc -c <"$out/a/tiny-lm.bin") bytes, the same for seed 1 twice"
