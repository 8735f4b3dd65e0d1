#!/usr/bin/env bash
# Builds into build/native/ (desktop app, CLI, native tests) and build/web/ (the static
# site: index.html, the app's .js/.wasm, attention.js/.wasm, assets), and copies the page into
# the Python package (python/attention_lab/site).
#   scripts/build.sh [native|web|all]      (default: all)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. scripts/env.sh
what=${1:-all}
case "$what" in native|web|all) ;; *) echo "usage: scripts/build.sh [native|web|all]" >&2; exit 2 ;; esac

"$root/scripts/setup.sh"

build_native() {
  [ -f build/native/build.ninja ] || cmake --preset native >/dev/null
  cmake --build --preset native
}

build_web() {
  [ -f build/wasm/build.ninja ] || cmake --preset web >/dev/null
  cmake --build --preset web
  # The page's hand-written files (shell, page API, embed script, examples) beside the
  # compiled ones.
  mkdir -p build/web
  cp -R web/. build/web/
  # What the Python package's notebook outputs carry (python/attention_lab/site, ignored by
  # git; docs/notebooks.md): the page, its scripts and the app, with the licences and version.
  local site=python/attention_lab/site
  rm -rf "$site"
  mkdir -p "$site"
  cp build/web/{index.html,page-tools.js,load.js,attention-lab.js,attention-lab.wasm,LICENSE,THIRD_PARTY_NOTICES.md} "$site/"
  project_version >"$site/VERSION"
}

case "$what" in
  native) build_native ;;
  web) build_web ;;
  all) build_native; build_web ;;
esac
