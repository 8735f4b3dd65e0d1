#!/usr/bin/env bash
# Installs everything Attention Lab needs, idempotently, and says nothing when it is all there.
#   - Debian packages (toolchains, clang-19 and wasi-libc for the relaxed-SIMD kernel, libraries,
#     browser, X server, font, zip for package.sh, and the Python package's: NumPy, pytest, and
#     for its notebook test PyTorch, nbconvert, a Jupyter kernel and the classic Notebook server;
#     zopfli compresses the app its outputs carry; Sphinx, Hugo, MkDocs and poppler-utils' pdftoppm for
#     the tests of the course hosts of docs/HOSTING.md)
#   - Dear ImGui sources from Debian's source package, into third_party/imgui (ignored by git)
#   - npm dev dependencies (playwright-core drives Debian's Chromium)
# On a machine that is not Debian: install the equivalents yourself and set IMGUI_DIR to an
# ImGui checkout (1.86 or later); this script then only checks what it can.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

say() { printf 'setup: %s\n' "$*" >&2; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

packages=(
  cmake ninja-build g++ pkg-config
  emscripten
  libeigen3-dev libglfw3-dev libgl-dev nlohmann-json3-dev
  libgtest-dev libbenchmark-dev
  clang libclang-rt-14-dev
  clang-19 lld-19 wasi-libc libc++-19-dev-wasm32 libc++abi-19-dev-wasm32 libclang-rt-19-dev-wasm32
  chromium xvfb xauth libgl1-mesa-dri
  fonts-dejavu-core libstb-dev python3-fonttools
  dpkg-dev xz-utils
  zip unzip
  python3-numpy python3-venv python3-pytest
  python3-torch jupyter-nbconvert python3-ipykernel jupyter-notebook
  zopfli
  python3-sphinx hugo mkdocs poppler-utils
)

# Node and npm may come from elsewhere (nodesource ships npm inside nodejs, and Debian's npm
# conflicts with it): take Debian's only when there is none.
command -v node >/dev/null 2>&1 || packages+=(nodejs)
command -v npm >/dev/null 2>&1 || packages+=(npm)

# ---- Debian packages -------------------------------------------------------------------
if command -v dpkg-query >/dev/null 2>&1; then
  missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing Debian packages: ${missing[*]}"
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq >/dev/null || die "apt-get update failed: check the network or your apt sources"
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
      || die "apt-get install failed for: ${missing[*]} (run it by hand to see why)"
  fi
else
  say "not a Debian system: install the equivalents of: ${packages[*]}"
fi

# ---- Dear ImGui sources ----------------------------------------------------------------
imgui_dir=${IMGUI_DIR:-$root/third_party/imgui}
if [ ! -f "$imgui_dir/imgui.cpp" ]; then
  [ -z "${IMGUI_DIR:-}" ] || die "IMGUI_DIR=$IMGUI_DIR has no imgui.cpp"
  command -v apt-get >/dev/null 2>&1 || die "no apt-get: set IMGUI_DIR to a Dear ImGui checkout"
  say "fetching Dear ImGui sources from Debian's source package"
  work=$root/third_party/.apt
  rm -rf "$work"; mkdir -p "$work/lists/partial" "$work/dl"
  # A deb-src list derived from this machine's own apt sources, used privately so the
  # system's apt configuration stays untouched. Each entry keeps its source's keyring
  # (Signed-By, or the system's trusted keys), so apt verifies the index as it would for
  # the binary packages.
  list=$work/sources.list
  : > "$list"
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk '
      /^URIs:/   { uris=$0; sub(/^URIs:[ \t]*/, "", uris) }
      /^Suites:/ { suites=$0; sub(/^Suites:[ \t]*/, "", suites) }
      /^Components:/ { comps=$0; sub(/^Components:[ \t]*/, "", comps) }
      /^Signed-By:/ { key=$0; sub(/^Signed-By:[ \t]*/, "", key) }
      function entries(   n, m, i, j, u, s, opt) {
        if (uris == "") return
        opt = key != "" ? "[signed-by=" key "] " : ""
        n = split(uris, u, " "); m = split(suites, s, " ")
        for (i = 1; i <= n; i++) for (j = 1; j <= m; j++) print "deb-src " opt u[i] " " s[j] " " comps
      }
      /^$/ { entries(); uris=""; suites=""; comps=""; key="" }
      END { entries() }
    ' "$f" >> "$list"
  done
  if [ -f /etc/apt/sources.list ]; then
    grep -E '^deb ' /etc/apt/sources.list | sed -E 's/^deb /deb-src /' >> "$list" || true
  fi
  [ -s "$list" ] || die "found no apt sources to derive a deb-src list from"
  opts=(-o Dir::Etc::SourceList="$list" -o Dir::Etc::SourceParts=/dev/null
        -o Dir::State::Lists="$work/lists" -o Debug::NoLocking=1)
  apt-get "${opts[@]}" update -qq >/dev/null 2>&1 \
    || die "could not fetch or verify Debian's source index (network, or a signature the system's keyring cannot check)"
  (cd "$work/dl" && apt-get "${opts[@]}" source --download-only imgui >/dev/null 2>&1) \
    || die "could not download Debian's imgui source package"
  tarball=$(ls "$work"/dl/imgui_*.orig.tar.* | head -n 1)
  mkdir -p "$imgui_dir"
  tar -xf "$tarball" -C "$imgui_dir" --strip-components=1
  rm -rf "$work"
  [ -f "$imgui_dir/imgui.cpp" ] || die "the imgui source package did not contain imgui.cpp"
fi

# ---- npm dev dependencies --------------------------------------------------------------
if [ ! -d node_modules/playwright-core ] || [ package.json -nt node_modules/.package-lock.json ]; then
  say "installing npm dev dependencies"
  npm ci --no-audit --no-fund --loglevel=error >/dev/null 2>&1 || npm install --no-audit --no-fund --loglevel=error >/dev/null \
    || die "npm install failed (is the npm registry reachable?)"
fi
