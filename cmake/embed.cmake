# embed_files(TARGET NAME FILES...): turns files (shaders, the font) into a generated header
# <NAME>.h with one `unsigned char` array and size per file, rebuilt when a file changes.
function(embed_files target name)
  set(out "${CMAKE_BINARY_DIR}/generated/${name}.h")
  # The file list travels as one argument: its ';' must survive the command line.
  string(REPLACE ";" "$<SEMICOLON>" files "${ARGN}")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DNAME=${name} "-DFILES=${files}" -P "${CMAKE_SOURCE_DIR}/cmake/embed_run.cmake"
    DEPENDS ${ARGN} "${CMAKE_SOURCE_DIR}/cmake/embed_run.cmake"
    COMMENT "Embedding ${name}"
    VERBATIM)
  target_sources(${target} PRIVATE "${out}")
  target_include_directories(${target} PRIVATE "${CMAKE_BINARY_DIR}/generated")
endfunction()
