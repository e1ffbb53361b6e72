// The scene loader's limits on what a file may make it do (docs/scene-format.md,
// "Limits"). Each is far above what a real scene needs, and each bounds the
// memory and time a hostile file can take before it gets its one-line error:
// the file's size bounds the JSON tree (at most about 16 bytes of tree per byte
// of text), the nesting depth bounds the parser's stack, the body count bounds
// what the array generator may create.
#pragma once

#include <cstddef>
#include <string>

#include "pabd/scene.h"
#include "scene/scene_arrays.h"

namespace pabd {

/// The largest scene file (or text given to parse_scene) [bytes]: 64 MiB. The
/// largest shipped scene is 150 KB; a 2048 x 2048 height field written out in
/// full is about 40 MB.
inline constexpr std::size_t kMaxSceneBytes = std::size_t(64) << 20;

/// The deepest nesting of arrays and objects. A scene nests at most 9 deep (a
/// convex hull's point inside a compound's child inside a body).
inline constexpr int kMaxJsonDepth = 64;

/// What parse_scene allows; the defaults are the format's limits. Tools that
/// feed the loader arbitrary bytes (fuzz/) lower max_bodies so that a valid
/// scene of millions of generated bodies is not mistaken for a leak.
struct SceneLimits {
  /// Listed and generated bodies together, a cloth's particles included.
  long long max_bodies = kMaxSceneBodies;
  /// Vertices of the sand's grid and of the water's wake grid, each.
  long long max_grid_vertices = 4096LL * 4096LL;
};

/// parse_scene with explicit limits (the public parse_scene uses the defaults).
Scene parse_scene_with_limits(const std::string& json_text, const std::string& file_label,
                              const SceneLimits& limits);

}  // namespace pabd
