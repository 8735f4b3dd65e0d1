# Sourced by the scripts: the environment Debian's Emscripten needs.
export EMSCRIPTEN_ROOT=${EMSCRIPTEN_ROOT:-/usr/share/emscripten}
# Debian's Emscripten finds its JS tools (acorn, terser) through NODE_PATH.
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}

# The project's version: CMakeLists.txt's project(attention_lab VERSION x.y.z), the one place
# it is written (the site archive's name, the Python package's metadata).
project_version() {
  local version
  version=$(sed -n 's/^project(attention_lab VERSION \([0-9][0-9.]*\).*/\1/p' "$(dirname "${BASH_SOURCE[0]}")/../CMakeLists.txt")
  [ -n "$version" ] || { echo "no 'project(attention_lab VERSION x.y.z ...)' line in CMakeLists.txt" >&2; return 1; }
  printf '%s\n' "$version"
}
