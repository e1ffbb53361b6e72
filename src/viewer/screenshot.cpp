// Framebuffer to PNG (see screenshot.h).

#include "viewer/screenshot.h"

#include <stb/stb_image_write.h>

#include <cstring>
#include <vector>

#include "viewer/gl.h"

namespace pabd::viewer {

bool save_screenshot(const std::string& path, int width, int height, std::string* error) {
  if (width <= 0 || height <= 0) {
    *error = "empty framebuffer";
    return false;
  }
  const std::size_t row = static_cast<std::size_t>(width) * 3;
  std::vector<unsigned char> pixels(row * static_cast<std::size_t>(height));
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
  // OpenGL's rows run bottom to top, PNG's top to bottom.
  std::vector<unsigned char> flipped(pixels.size());
  for (int y = 0; y < height; ++y)
    std::memcpy(&flipped[static_cast<std::size_t>(y) * row],
                &pixels[static_cast<std::size_t>(height - 1 - y) * row], row);
  if (!stbi_write_png(path.c_str(), width, height, 3, flipped.data(), static_cast<int>(row))) {
    *error = "cannot write " + path;
    return false;
  }
  return true;
}

}  // namespace pabd::viewer
