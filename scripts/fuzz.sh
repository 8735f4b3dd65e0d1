#!/usr/bin/env bash
# Runs each libFuzzer target for the given time (default 60 s) from its committed seed
# corpus, under AddressSanitizer and UndefinedBehaviorSanitizer. Any crash, leak or timeout
# fails the script and leaves the reproducer in build/fuzz/findings/<target>/.
# Reproduce a finding with:  build/fuzz/tests/fuzz/<target> <reproducer file>
#   scripts/fuzz.sh [seconds]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
seconds=${1:-60}
"$root/scripts/build.sh" fuzz

status=0
for corpus in tests/fuzz/corpus/*/; do
  name=$(basename "$corpus")
  target=build/fuzz/tests/fuzz/${name}_fuzz
  findings=build/fuzz/findings/$name
  work=build/fuzz/corpus/$name          # grows as the fuzzer learns; the committed seeds stay as they are
  mkdir -p "$findings" "$work"
  echo "fuzz: $name for ${seconds}s"
  if ! "$target" "$work" "$corpus" -max_total_time="$seconds" -max_len=4096 -timeout=10 \
       -rss_limit_mb=2048 -artifact_prefix="$findings/" -print_final_stats=1 >"$findings/log.txt" 2>&1; then
    echo "fuzz: $name FAILED; reproducer and log in $findings/" >&2
    tail -n 30 "$findings/log.txt" >&2
    status=1
  else
    grep -E '^stat::number_of_executed_units' "$findings/log.txt" | sed "s/^/fuzz: $name /"
  fi
done
exit $status
