#include "screenshot.h"

#include <cstdio>
#include <vector>

#include "gl.h"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

bool write_screenshot(const char* path, int width, int height) {
  std::vector<unsigned char> pixels(std::size_t(width) * height * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  // GL's first row is the bottom of the window; PNG's is the top.
  stbi_flip_vertically_on_write(1);
  if (!stbi_write_png(path, width, height, 4, pixels.data(), width * 4)) {
    std::fprintf(stderr, "attention-lab: could not write %s\n", path);
    return false;
  }
  return true;
}
