#!/usr/bin/env bash
# Sets up if needed, builds both faces, and runs every test through CTest: the unit tests
# natively and as WebAssembly under Node, the JS API and CLI tests, the browser tests.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

scripts/build.sh all
ctest --test-dir build/native --output-on-failure --timeout 1200
