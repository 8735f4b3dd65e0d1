# Dear ImGui compiled from its sources (IMGUI_DIR) with the GLFW and OpenGL 3 backends, so the
# desktop and the browser run one ImGui version. Natively it links the system GLFW and
# OpenGL; with Emscripten, GLFW is Emscripten's built-in implementation over WebGL2 (ports
# that download, such as SDL2 or contrib.glfw3, are not available offline).
if(NOT EXISTS "${IMGUI_DIR}/imgui.cpp")
  message(FATAL_ERROR "Dear ImGui sources not found in ${IMGUI_DIR}: run scripts/setup.sh or set IMGUI_DIR")
endif()

add_library(imgui STATIC
  "${IMGUI_DIR}/imgui.cpp"
  "${IMGUI_DIR}/imgui_draw.cpp"
  "${IMGUI_DIR}/imgui_tables.cpp"
  "${IMGUI_DIR}/imgui_widgets.cpp"
  "${IMGUI_DIR}/backends/imgui_impl_glfw.cpp"
  "${IMGUI_DIR}/backends/imgui_impl_opengl3.cpp")
# SYSTEM: warnings in ImGui's own sources are not ours to fix.
target_include_directories(imgui SYSTEM PUBLIC "${IMGUI_DIR}" "${IMGUI_DIR}/backends")
# No demo window in the product; the debug tools stay available for development.
target_compile_definitions(imgui PUBLIC IMGUI_DISABLE_DEMO_WINDOWS)
# Its test-engine hooks report each item drawn: src/ui/input/item_layout.cpp keeps them for the
# page's layout() and for touch, which asks what is under a finger.
target_compile_definitions(imgui PUBLIC IMGUI_ENABLE_TEST_ENGINE)

if(EMSCRIPTEN)
  # Compiled for size in the browser: ImGui's work in a frame is small beside drawing it, and
  # -Os takes 35 KB off the site's gzip size (2026-11-29: 824 → 790 KB for attention-lab.wasm),
  # room the lesson's text had used up. The kernel and the language model stay -O3.
  target_compile_options(imgui PRIVATE -Os)
  set(_gl_flags -sUSE_GLFW=3 -sUSE_WEBGL2=1 -sMAX_WEBGL_VERSION=2 -sMIN_WEBGL_VERSION=2)
  # WebGL2 is OpenGL ES 3.0: the backend's GLSL 300 es path rather than its WebGL1 default.
  target_compile_definitions(imgui PUBLIC IMGUI_IMPL_OPENGL_ES3)
  target_link_options(imgui INTERFACE ${_gl_flags})
else()
  find_package(glfw3 3.3 REQUIRED)
  find_package(OpenGL REQUIRED)
  target_link_libraries(imgui PUBLIC glfw OpenGL::GL ${CMAKE_DL_LIBS})
endif()
