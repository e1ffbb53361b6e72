// Ray casts against body shapes (see picking.h).

#include "viewer/picking.h"

#include <limits>

#include "collision/ray_shape.h"

namespace pabd::viewer {

std::optional<Pick> pick_body(const World& world, const Ray& ray) {
  std::optional<Pick> best;
  Real limit = std::numeric_limits<Real>::infinity();
  for (int i = 0; i < world.body_count(); ++i) {
    const BodyId id = world.body_at(i);
    if (!world.is_valid(id) || world.is_static(id)) continue;
    const BodyState s = world.body_state(id);
    // Into the body frame: x_body = R^T (x_world - p).
    const Mat3 rt = transpose(to_matrix(s.orientation));
    LocalRayHit hit;
    if (!ray_shape(world.body_shape(id), rt * (ray.origin - s.position), rt * ray.dir, limit, hit))
      continue;
    if (best && !(hit.t < best->t)) continue;  // the first body wins a tie, as before
    best = Pick{id, i, ray.origin + hit.t * ray.dir, hit.t};
    limit = hit.t;
  }
  return best;
}

}  // namespace pabd::viewer
