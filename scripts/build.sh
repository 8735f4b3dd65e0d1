#!/usr/bin/env bash
# Builds one or more of the CMake presets (CMakePresets.json):
#   native    build/native/: desktop app, CLI, native tests
#   web       build/web/: the static site (index.html, the app's .js/.wasm, attention.js/.wasm,
#             assets), built in build/wasm/, and its copy in the Python package
#             (python/attention_lab/site)
#   sanitize  build/sanitize/: the unit tests and the CLI under AddressSanitizer and
#             UndefinedBehaviorSanitizer
#   fuzz      build/fuzz/: the libFuzzer targets (clang)
#   all       native and web
#   scripts/build.sh [native|web|sanitize|fuzz|all]...      (default: all)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. scripts/env.sh
usage() { echo "usage: scripts/build.sh [native|web|sanitize|fuzz|all]..." >&2; exit 2; }
[ $# -gt 0 ] || set -- all
for what in "$@"; do
  case "$what" in native|web|sanitize|fuzz|all) ;; *) usage ;; esac
done

"$root/scripts/setup.sh"

# Configures a preset the first time (its folder: $2), then builds its build preset (which
# names the targets where only some are needed).
build_preset() {
  [ -f "$2/build.ninja" ] || cmake --preset "$1" >/dev/null
  cmake --build --preset "$1"
}

build_web() {
  build_preset web build/wasm
  # The page's hand-written files (shell, page API, embed script, examples) beside the
  # compiled ones.
  mkdir -p build/web
  cp -R web/. build/web/
  # The lesson's two pages, from one template and each language's strings (web/lesson/).
  rm -rf build/web/lesson  # its sources, which make the two pages rather than being served
  python3 scripts/lesson_pages.py web/lesson build/web
  # What the Python package's notebook outputs carry (python/attention_lab/site, ignored by
  # git; docs/notebooks.md): the page, its scripts and the app, with the licences and version;
  # embed.js for the Sphinx extension's pages (attention_lab.sphinx).
  local site=python/attention_lab/site
  rm -rf "$site"
  mkdir -p "$site"
  cp build/web/{index.html,boundary.js,page-tools.js,load.js,page.js,embed.js,attention-lab.js,attention-lab.wasm,LICENSE,THIRD_PARTY_NOTICES.md} "$site/"
  # view=model's weights and report, for show_model()'s outputs.
  mkdir -p "$site/model"
  cp build/web/model/{tiny-lm.bin,report.json} "$site/model/"
  project_version >"$site/VERSION"
  # Every output carries the app gzip-compressed: zopfli's deflate is 4 % smaller than zlib's
  # best (python/attention_lab/_page.py compresses at run time where these are missing).
  local f
  for f in attention-lab.js attention-lab.wasm; do
    if command -v zopfli >/dev/null 2>&1; then zopfli --i5 -c "$site/$f" >"$site/$f.gz"; else gzip -9 -n -c "$site/$f" >"$site/$f.gz"; fi
  done
  # The glyphs of the outputs' pictures' labels, from the font and with the Python (fontTools)
  # the build subset the fonts with.
  local cache=build/wasm/CMakeCache.txt
  "$(sed -n 's/^ATTN_FONT_PYTHON:FILEPATH=//p' "$cache")" scripts/glyph_atlas.py \
    "$(sed -n 's/^ATTN_FONT_DIR:PATH=//p' "$cache")/DejaVuSans.ttf" "$site/glyphs.json"
}

for what in "$@"; do
  case "$what" in
    native|sanitize|fuzz) build_preset "$what" "build/$what" ;;
    web) build_web ;;
    all) build_preset native build/native; build_web ;;
  esac
done
