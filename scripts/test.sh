#!/usr/bin/env bash
# Sets up if needed, builds every configuration the project documents and runs their tests:
#   - native and WebAssembly (build/native, build/wasm): every test of the native CTest, i.e.
#     the unit tests natively and under Node, the JS API and CLI tests, the browser tests, and
#     every preset configured from a clean folder (`presets`);
#   - sanitize (build/sanitize): the unit tests and the CLI tests under AddressSanitizer and
#     UndefinedBehaviorSanitizer;
#   - fuzz (build/fuzz): each libFuzzer target run once over its kept corpus (scripts/fuzz.sh
#     fuzzes for longer).
# Everything is built before any test runs, one configuration at a time (two cores: a build
# beside the browser tests would slow both), and every configuration's tests run even when
# an earlier one fails.
#   scripts/test.sh              everything (CI: .ci/run)
#   scripts/test.sh --sanitize   the sanitize configuration alone
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. scripts/env.sh

test_sanitize() {
  ctest --test-dir build/sanitize --output-on-failure --timeout 1200 -R '^(unit_native|cli)$'
}

case "${1:-}" in
  --sanitize)
    scripts/build.sh sanitize
    test_sanitize
    ;;
  "")
    scripts/build.sh all sanitize fuzz
    status=0
    ctest --test-dir build/native --output-on-failure --timeout 1200 || status=1
    test_sanitize || status=1
    ctest --test-dir build/fuzz --output-on-failure --timeout 300 || status=1
    exit $status
    ;;
  *) echo "usage: scripts/test.sh [--sanitize]" >&2; exit 2 ;;
esac
