# relaxed_wasm(OUTPUT file.wasm SOURCES a.cpp … [FLAGS …] [LINK_OPTIONS …])
# Compiles SOURCES with clang-19 for wasm32-wasi with relaxed SIMD and links them, as a reactor
# (no main), by wasm-ld-19 against wasi-libc and libc++ (Debian's clang-19, lld-19, wasi-libc and
# libc++-19-dev-wasm32, installed by scripts/setup.sh). Not through Emscripten: its binaryen cannot
# read relaxed-SIMD code. Used for attention-relaxed.wasm (src/attention/relaxed) and the
# benchmark's ceiling-relaxed.wasm (bench/), so both are built alike.
function(relaxed_wasm)
  cmake_parse_arguments(R "" "OUTPUT" "SOURCES;FLAGS;LINK_OPTIONS" ${ARGN})
  find_program(ATTN_CLANG19 clang++-19)
  if(NOT ATTN_CLANG19)
    message(FATAL_ERROR "clang++-19 not found: run scripts/setup.sh (it installs clang-19, lld-19, wasi-libc and "
                        "libc++-19-dev-wasm32 for the relaxed-SIMD builds)")
  endif()
  set(flags --target=wasm32-wasi --sysroot=/usr -std=c++17 -O3 -fno-exceptions -DNDEBUG
      -msimd128 -mrelaxed-simd -mbulk-memory -mnontrapping-fptoint ${R_FLAGS})
  get_filename_component(output_name "${R_OUTPUT}" NAME)
  set(objects)
  foreach(source ${R_SOURCES})
    get_filename_component(source "${source}" ABSOLUTE)
    get_filename_component(name "${source}" NAME_WE)
    set(object "${CMAKE_CURRENT_BINARY_DIR}/${output_name}.${name}.o")  # the caller's build folder
    add_custom_command(OUTPUT "${object}"
      COMMAND "${ATTN_CLANG19}" ${flags} -MD -MF "${object}.d" -c "${source}" -o "${object}"
      DEPENDS "${source}" DEPFILE "${object}.d"
      COMMENT "clang-19 (relaxed SIMD): ${name}" VERBATIM)
    list(APPEND objects "${object}")
  endforeach()
  # No -O at the link: clang would run Debian's wasm-opt on the result, which cannot read it.
  add_custom_command(OUTPUT "${R_OUTPUT}"
    COMMAND "${ATTN_CLANG19}" --target=wasm32-wasi --sysroot=/usr -mexec-model=reactor ${R_LINK_OPTIONS}
            ${objects} -o "${R_OUTPUT}"
    DEPENDS ${objects}
    COMMENT "wasm-ld-19: ${output_name}" VERBATIM)
endfunction()
