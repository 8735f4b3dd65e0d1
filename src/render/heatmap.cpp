#include "heatmap.h"

#include <cstdio>
#include <string>

#include "gl.h"
#include "shaders.h"

namespace render {
namespace {

GLuint compile(GLenum type, const unsigned char* source, std::size_t size) {
  const std::string text = std::string(kShaderHeader) + std::string(reinterpret_cast<const char*>(source), size);
  const char* ptr = text.c_str();
  GLuint shader = glCreateShader(type);
  glShaderSource(shader, 1, &ptr, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[2048];
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    std::fprintf(stderr, "heatmap shader: %s\n", log);
  }
  return shader;
}

// The colormap program and the empty vertex array it draws with, shared by every heatmap.
struct Program {
  GLuint id = 0, vertex_array = 0;
  GLint values, view, map, range, dim, background, hatch, px_per_cell;

  Program() {
    const GLuint vs = compile(GL_VERTEX_SHADER, heatmap_vert, heatmap_vert_size);
    const GLuint fs = compile(GL_FRAGMENT_SHADER, heatmap_frag, heatmap_frag_size);
    id = glCreateProgram();
    glAttachShader(id, vs);
    glAttachShader(id, fs);
    glLinkProgram(id);
    glDeleteShader(vs);
    glDeleteShader(fs);
    values = glGetUniformLocation(id, "u_values");
    view = glGetUniformLocation(id, "u_view");
    map = glGetUniformLocation(id, "u_map");
    range = glGetUniformLocation(id, "u_range");
    dim = glGetUniformLocation(id, "u_dim");
    background = glGetUniformLocation(id, "u_background");
    hatch = glGetUniformLocation(id, "u_hatch");
    px_per_cell = glGetUniformLocation(id, "u_px_per_cell");
    glGenVertexArrays(1, &vertex_array);
  }
};

Program& program() {
  static Program p;  // created on first use, when the GL context exists
  return p;
}

std::uint64_t g_paints = 0;

}  // namespace

std::uint64_t paints() { return g_paints; }

bool HeatmapLook::operator==(const HeatmapLook& o) const {
  return map == o.map && lo == o.lo && hi == o.hi && dim == o.dim &&
         background[0] == o.background[0] && background[1] == o.background[1] &&
         background[2] == o.background[2] && hatch[0] == o.hatch[0] && hatch[1] == o.hatch[1] &&
         hatch[2] == o.hatch[2];
}

Heatmap::~Heatmap() {
  glDeleteTextures(1, &values_);
  glDeleteTextures(1, &image_);
  glDeleteFramebuffers(1, &framebuffer_);
}

void Heatmap::set_values(const float* values, int rows, int cols, std::uint64_t version) {
  if (version == version_ && rows == rows_ && cols == cols_) return;
  if (!values_) glGenTextures(1, &values_);
  glBindTexture(GL_TEXTURE_2D, values_);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, cols, rows, 0, GL_RED, GL_FLOAT, values);
  rows_ = rows;
  cols_ = cols;
  version_ = version;
  painted_ = false;
}

unsigned Heatmap::paint(int width, int height, const CellRect& view, const HeatmapLook& look) {
  if (width < 1 || height < 1 || !values_) return image_;
  if (width != width_ || height != height_) {
    if (!image_) glGenTextures(1, &image_);
    if (!framebuffer_) glGenFramebuffers(1, &framebuffer_);
    glBindTexture(GL_TEXTURE_2D, image_);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, image_, 0);
    width_ = width;
    height_ = height;
    painted_ = false;
  }
  if (painted_ && view == painted_view_ && look == painted_look_) return image_;

  Program& p = program();
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glViewport(0, 0, width, height);
  glDisable(GL_BLEND);
  glDisable(GL_SCISSOR_TEST);
  glUseProgram(p.id);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, values_);
  glUniform1i(p.values, 0);
  glUniform4f(p.view, view.x0, view.y0, view.x1, view.y1);
  glUniform1i(p.map, look.map == Colormap::sequential ? 0 : 1);
  glUniform2f(p.range, look.lo, look.hi);
  glUniform1f(p.dim, look.dim);
  glUniform3fv(p.background, 1, look.background);
  glUniform3fv(p.hatch, 1, look.hatch);
  glUniform2f(p.px_per_cell, float(width) / (view.x1 - view.x0), float(height) / (view.y1 - view.y0));
  glBindVertexArray(p.vertex_array);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glBindVertexArray(0);
  glUseProgram(0);
  // The interface draws to the window afterwards; it sets its own viewport and state.
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  painted_ = true;
  ++g_paints;
  painted_view_ = view;
  painted_look_ = look;
  return image_;
}

}  // namespace render
