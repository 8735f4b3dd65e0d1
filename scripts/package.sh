#!/usr/bin/env bash
# Packs the static site into a versioned, self-contained archive for course authors:
#   dist/attention-lab-<version>.tar.gz and dist/attention-lab-<version>.zip
# and, beside it, the Python package for notebooks (docs/notebooks.md), which carries the page:
#   dist/attention_lab-<version>-py3-none-any.whl
# Each holds one folder, attention-lab-<version>/: the site the web build writes (the page,
# embed.js, the kernel module attention.js/.wasm, attention-relaxed.wasm (the tiled kernel with
# fused multiply-add, which both load where the browser runs relaxed SIMD), the examples, LICENSE
# and THIRD_PARTY_NOTICES.md), HOSTING.md (docs/HOSTING.md), CHANGELOG.md, and in docs/ the
# interfaces a course author's pages and scripts use (embed.md, contract.md, loading-data.md,
# training.md, practice.md, model.md, your-model.md, which link only to each other, and the
# pictures they show). The version is CMakeLists.txt's.
# Builds the site first (scripts/build.sh web: nothing to do when it is up to date). Running it
# again replaces the archives with identical ones; it prints their paths.
#   scripts/package.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

die() { printf 'package: error: %s\n' "$*" >&2; exit 1; }

. scripts/env.sh
version=$(project_version) || die "no version"
command -v zip >/dev/null 2>&1 || die "zip is not installed: run scripts/setup.sh"

# The build's own output goes to stderr, so stdout is only the archives' paths.
"$root/scripts/build.sh" web >&2
site=build/web
for f in index.html boundary.js page.js load.js attention-lab.js attention-lab.wasm attention-relaxed.wasm page-tools.js embed.js attention.js \
         attention.wasm lesson.html leccion.html lesson.js lesson.css LICENSE THIRD_PARTY_NOTICES.md; do
  [ -e "$site/$f" ] || die "$site/$f is missing after the build"
done

name=attention-lab-$version
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir "$stage/$name"
cp -R "$site/." "$stage/$name/"
cp docs/HOSTING.md "$stage/$name/HOSTING.md"
cp CHANGELOG.md "$stage/$name/CHANGELOG.md"
mkdir "$stage/$name/docs"
cp docs/embed.md docs/contract.md docs/loading-data.md docs/training.md docs/practice.md docs/model.md docs/your-model.md "$stage/$name/docs/"
# The pictures those documents show (embed.md's figures).
mkdir "$stage/$name/docs/screenshots"
grep -ho '](screenshots/[^)]*)' docs/embed.md docs/contract.md docs/loading-data.md docs/training.md docs/practice.md docs/model.md docs/your-model.md |
  sed 's/^](\(.*\))$/\1/' | sort -u | while read -r picture; do cp "docs/$picture" "$stage/$name/docs/$picture"; done
# Same build, same archives: one date for every entry (the compiled modules', which change only
# when they are rebuilt; the build copies the hand-written files afresh each time), names in a
# fixed order, no owner or gzip timestamp.
chmod -R u=rwX,go=rX "$stage/$name"
stamp=$(stat -c %Y "$site/attention-lab.wasm" "$site/attention.wasm" | sort -n | tail -n 1)
find "$stage/$name" -exec touch -h -d "@$stamp" {} +

mkdir -p dist
(cd "$stage" && tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$stamp" -cf - "$name" | gzip -n -9 >"$name.tar.gz")
(cd "$stage" && find "$name" | LC_ALL=C sort | TZ=UTC zip -q -X -9 "$name.zip" -@)
# Into dist/ only when complete, so an interrupted run leaves no half-written archive there.
# The wheel from python/, whose attention_lab/site the build has just refreshed; its backend
# needs only Python's standard library.
wheel=$(python3 python/build_backend.py "$stage" | xargs basename)
mv "$stage/$name.tar.gz" "$stage/$name.zip" "$stage/$wheel" dist/
printf '%s\n' "dist/$name.tar.gz" "dist/$name.zip" "dist/$wheel"
