# Sourced by the scripts: the environment Debian's Emscripten needs.
export EMSCRIPTEN_ROOT=${EMSCRIPTEN_ROOT:-/usr/share/emscripten}
# Debian's Emscripten finds its JS tools (acorn, terser) through NODE_PATH.
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}
