// Writes the current OpenGL framebuffer to a PNG file (glReadPixels, then
// stb_image_write from Debian's libstb-dev).
#pragma once

#include <string>

namespace pabd::viewer {

/// Reads the width x height colour buffer being drawn and writes it as an RGB
/// PNG; false (and a one-line message) on failure.
bool save_screenshot(const std::string& path, int width, int height, std::string* error);

}  // namespace pabd::viewer
