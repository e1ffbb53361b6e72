// Mouse picking: the nearest moving body hit by a world ray. Each body is
// tested exactly in its own frame by the engine's ray casts
// (src/collision/ray_shape.h, as World::raycast does). Static bodies (planes,
// height fields, meshes, fixed boxes) are never picked, nor do they hide the
// bodies behind them.
#pragma once

#include <optional>

#include "pabd/world.h"
#include "viewer/camera.h"

namespace pabd::viewer {

/// A picked body and the world point where the ray first hits it.
struct Pick {
  BodyId body;    ///< the body hit
  int index = 0;  ///< its slot index
  Vec3 point;     ///< world-frame hit point [m]
  double t = 0;   ///< ray parameter of the hit
};

/// Nearest non-static body along the ray, or nothing.
std::optional<Pick> pick_body(const World& world, const Ray& ray);

}  // namespace pabd::viewer
