// Mouse picking: the nearest body hit by a world ray. Exact for every shape a
// body can carry: ray-sphere, ray-box (slabs in the body frame), ray-capsule
// (cylinder plus end spheres in the body frame). Planes are static and never
// picked.
#pragma once

#include <optional>

#include "pabd/world.h"
#include "viewer/camera.h"

namespace pabd::viewer {

/// Smallest t >= 0 where the ray (in the shape's own frame) enters the shape,
/// or nothing. A ray starting inside the shape hits at t = 0.
std::optional<double> ray_shape(const Ray& body_ray, const ShapeDef& shape);

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
