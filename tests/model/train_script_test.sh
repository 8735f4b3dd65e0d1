#!/usr/bin/env bash
# scripts/train_model.sh from scratch, in short (a small model, 150 steps), twice with one seed
# and once with another: the same seed writes the same weight file byte for byte, another
# seed a different one, and each run writes a report with every head's scores and both sets of
# sentences' figures.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
short=(--steps 150 --d-model 16 --heads 2 --batch 4 --warmup 20 --measure-every 0)
for run in a b c; do
  seed=1
  [ "$run" = c ] && seed=2
  mkdir "$out/$run"
  "$root/scripts/train_model.sh" "${short[@]}" --seed "$seed" --out "$out/$run" >/dev/null 2>"$out/$run.log"
done
cmp "$out/a/tiny-lm.bin" "$out/b/tiny-lm.bin" || { echo "seed 1 gave two different weight files"; exit 1; }
if cmp -s "$out/a/tiny-lm.bin" "$out/c/tiny-lm.bin"; then echo "seeds 1 and 2 gave the same weights"; exit 1; fi
python3 - "$out/a/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert len(r["heads"]) == 4 and r["training"]["steps"] == 150, r["training"]
assert all(0 <= h["previous_token"] <= 1 and 0 <= h["induction_random"] <= 1 for h in r["heads"])
# Both sets of sentences, and the held-out file read whole.
held = r["held_out_sentences"]
assert {s["language"] for s in held["sentences"]} == {"en", "es"} and len(held["sentences"]) >= 12
assert set(held["targets"]) >= {"second_copy_over_first", "second_copy_over_first_each_sentence",
                                "induction_head_each_sentence", "induction_head_ablation_ratio"}
assert r["windows"]["held_out"] > r["windows"]["train"] == 32, r["windows"]
PY
echo "deterministic: $(wc -c <"$out/a/tiny-lm.bin") bytes, the same for seed 1 twice"
