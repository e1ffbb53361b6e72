// The HTML player's script (three.js included) and style sheet, bundled by
// esbuild and compiled in by cmake/PlayerAssets.cmake (generated/player_assets.cpp).
#pragma once

#include <cstddef>

namespace pabd {

extern const unsigned char kPlayerJs[];  ///< minified IIFE, UTF-8, NUL-terminated
extern const std::size_t kPlayerJsSize;  ///< bytes, without the NUL
extern const unsigned char kPlayerCss[];
extern const std::size_t kPlayerCssSize;

}  // namespace pabd
