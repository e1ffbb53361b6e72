// World::raycast: the nearest body surface along a ray. The planes are tested
// one by one; every other body is found through RaycastTree's BVH over the
// current boxes (built by the first raycast after a change, raycast_tree.h)
// and tested exactly in its own frame (collision/ray_shape.h), where the unit
// direction stays unit, so the ray parameter is the distance in metres.
//
// Equal distances go to the lower body index, so the answer does not depend
// on the tree's shape.
#include <cmath>
#include <string>

#include "collision/lbvh_raycast.h"
#include "collision/ray_shape.h"
#include "shapes/body_aabb.h"
#include "world/world_impl.h"

namespace pabd {

namespace {

bool finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

/// The nearest hit so far: a body index (-1: none), its distance and normal.
struct Nearest {
  int body = -1;
  Real distance = 0;
  Vec3 normal;
  /// Keeps a hit at distance t <= limit if nearer, or as near with a lower index.
  void offer(int b, Real t, Vec3 n, Real& limit) {
    if (body >= 0 && (t > limit || (t == limit && b > body))) return;
    body = b;
    distance = t;
    normal = n;
    limit = t;
  }
};

}  // namespace

std::optional<RayHit> World::raycast(Vec3 origin, Vec3 direction, Real max_distance,
                                     std::uint32_t mask) const {
  WorldImpl& w = *impl_;
  if (!finite(origin) || !finite(direction))
    throw Error("raycast: origin and direction: expected finite numbers");
  if (!(max_distance >= 0))
    throw Error("raycast: max_distance: expected a number >= 0 (infinity: no limit)");
  // The unit direction, scaled first so that neither tiny nor huge components
  // underflow or overflow in the length.
  const Real scale =
      std::fmax(std::fabs(direction.x), std::fmax(std::fabs(direction.y), std::fabs(direction.z)));
  if (!(scale > 0)) throw Error("raycast: direction: expected a non-zero vector");
  const Vec3 scaled = (Real(1) / scale) * direction;
  const Vec3 d = (Real(1) / length(scaled)) * scaled;

  ShapePoseView poses;
  poses.count = w.body_count();
  poses.shape = w.shapes.data();
  poses.position = w.bodies.position.data();
  poses.rotation = w.bodies.affine.data();
  w.raycast_tree.update(poses);

  Nearest nearest;
  Real limit = max_distance;
  auto skipped = [&w, mask](int b) { return (w.collision_group[b] & mask) == 0; };
  // Planes: unbounded, so not in the tree.
  for (int b : w.raycast_tree.planes()) {
    if (skipped(b)) continue;
    const WorldPlane p = world_plane(w.shapes[b], w.bodies.position[b], w.bodies.affine[b]);
    LocalRayHit hit;
    if (ray_half_space(origin, d, p.normal, p.offset, limit, hit))
      nearest.offer(b, hit.t, hit.normal, limit);
  }
  // Every other body whose box the ray meets, in its own frame.
  auto test = [&](int b, Real& bound) {
    if (skipped(b)) return;
    const ShapePose pose{w.bodies.position[b], w.bodies.affine[b]};
    LocalRayHit hit;
    if (ray_shape(w.shapes[b], to_local(pose, origin), transpose_times(pose.rotation, d), bound,
                  hit))
      nearest.offer(b, hit.t, pose.rotation * hit.normal, bound);
  };
  lbvh_raycast(w.raycast_tree.tree(), origin, d, limit, test);

  if (nearest.body < 0) return std::nullopt;
  RayHit hit;
  hit.body = body_at(nearest.body);
  hit.distance = nearest.distance;
  hit.point = origin + nearest.distance * d;
  hit.normal = nearest.normal;
  return hit;
}

}  // namespace pabd
