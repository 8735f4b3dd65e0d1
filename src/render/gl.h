// The OpenGL API the renderer uses: OpenGL ES 3.0 (WebGL2) in the browser, desktop
// OpenGL 3.3 core natively (entry points exported by libGL, hence the prototypes).
#pragma once

#ifdef __EMSCRIPTEN__
#include <GLES3/gl3.h>
#else
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
#endif

namespace render {
// The "#version" line (and defaults) prepended to every shader source in shaders/.
#ifdef __EMSCRIPTEN__
inline constexpr const char* kShaderHeader = "#version 300 es\nprecision highp float;\nprecision highp int;\n";
#else
inline constexpr const char* kShaderHeader = "#version 330 core\n";
#endif
}  // namespace render
