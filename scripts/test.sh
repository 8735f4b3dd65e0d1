#!/usr/bin/env bash
# Sets up if needed, builds both faces, and runs every test through CTest: the unit tests
# natively and as WebAssembly under Node, the JS API and CLI tests, the browser tests.
#   scripts/test.sh              everything
#   scripts/test.sh --sanitize   the native unit tests and the CLI tests under
#                                AddressSanitizer and UndefinedBehaviorSanitizer
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

case "${1:-}" in
  --sanitize)
    scripts/setup.sh
    [ -f build/sanitize/build.ninja ] || cmake --preset sanitize >/dev/null
    cmake --build --preset sanitize
    ctest --test-dir build/sanitize --output-on-failure --timeout 1200 -R '^(unit_native|cli)$'
    ;;
  "")
    scripts/build.sh all
    ctest --test-dir build/native --output-on-failure --timeout 1200
    ;;
  *) echo "usage: scripts/test.sh [--sanitize]" >&2; exit 2 ;;
esac
