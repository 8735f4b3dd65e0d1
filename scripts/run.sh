#!/usr/bin/env bash
# The main job: set up if needed, build the page, serve build/web/ on http://127.0.0.1:8080/
# (a free port if that one is taken) and print the URL.
#   scripts/run.sh            the web page
#   scripts/run.sh --native   the desktop program instead (any further arguments go to it)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

if [ "${1:-}" = "--native" ]; then
  shift
  scripts/build.sh native
  if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    echo "run: no display found (DISPLAY is unset); on a headless machine try: xvfb-run -a build/native/attention-lab --screenshot shot.png" >&2
    exit 1
  fi
  exec build/native/attention-lab "$@"
fi

scripts/build.sh web
exec node scripts/serve.mjs build/web "${PORT:-8080}"
