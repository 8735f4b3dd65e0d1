# Configures every configure preset of CMakePresets.json in a fresh folder, as CI does from a
# clean clone, and fails naming each preset that does not configure (with CMake's reason).
# With CMAKE_LINK_LIBRARIES_ONLY_TARGETS (tests/CMakeLists.txt), a test that links a library
# its configuration does not build is caught here, in seconds, before anything compiles.
#   cmake -DSOURCE_DIR=<the source tree> -DWORK_DIR=<a scratch folder> -P configure_presets.cmake
# The web preset reads EMSCRIPTEN_ROOT from the environment (scripts/env.sh).
foreach(var SOURCE_DIR WORK_DIR)
  if(NOT ${var})
    message(FATAL_ERROR "configure_presets.cmake needs -D${var}=...")
  endif()
endforeach()
file(READ "${SOURCE_DIR}/CMakePresets.json" presets)
string(JSON count LENGTH "${presets}" configurePresets)
math(EXPR last "${count} - 1")
set(failed)
foreach(i RANGE ${last})
  string(JSON name GET "${presets}" configurePresets ${i} name)
  # A hidden preset is only inherited from; it cannot be configured on its own.
  string(JSON hidden ERROR_VARIABLE not_given GET "${presets}" configurePresets ${i} hidden)
  if(hidden)
    continue()
  endif()
  set(dir "${WORK_DIR}/${name}")
  file(REMOVE_RECURSE "${dir}")
  # Its own static site folder too, so the web preset writes nothing into the tree's build/web.
  execute_process(COMMAND "${CMAKE_COMMAND}" --preset "${name}" -B "${dir}" "-DATTN_WEB_DIR=${dir}/site"
                  WORKING_DIRECTORY "${SOURCE_DIR}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc EQUAL 0)
    message(STATUS "${name}: configures from a clean folder")
    file(REMOVE_RECURSE "${dir}")
  else()
    message("${name}: cmake --preset ${name} failed:\n${out}")
    list(APPEND failed "${name}")
  endif()
endforeach()
if(failed)
  message(FATAL_ERROR "presets that do not configure from a clean folder: ${failed} (folders kept in ${WORK_DIR})")
endif()
