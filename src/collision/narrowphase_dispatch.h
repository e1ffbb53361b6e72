// Narrowphase entry point: the contact manifold of any two shapes.
//
// Pair functions exist for one order of each type pair (plane < sphere <
// capsule < box); for the other order the dispatcher swaps the shapes and
// flips the result, so the manifold's normal always runs from the shape given
// first (A) to the second (B) and A's feature comes first in every id. It then
// fills each point's body-frame coordinates. Two planes never collide (planes
// are static), and give an empty manifold.
#pragma once

#include "collision/contact_manifold.h"
#include "collision/narrowphase_box.h"
#include "collision/narrowphase_box_box.h"
#include "collision/narrowphase_plane.h"
#include "collision/narrowphase_sphere_capsule.h"
#include "collision/shape_geometry.h"
#include "pabd/world.h"

namespace pabd {

/// Order of shape types in the pair functions (the lower one is shape A).
PABD_HD int narrowphase_rank(ShapeType type) {
  switch (type) {
    case ShapeType::Plane:
      return 0;
    case ShapeType::Sphere:
      return 1;
    case ShapeType::Capsule:
      return 2;
    case ShapeType::Box:
      return 3;
  }
  return 3;
}

/// Manifold of a pair with narrowphase_rank(a) <= narrowphase_rank(b) (world points only).
PABD_HD ContactManifold collide_ranked(const ShapeDef& a, const ShapePose& pa, const ShapeDef& b,
                                       const ShapePose& pb, Real margin) {
  const Vec3 half_b = Real(0.5) * b.size;
  switch (a.type) {
    case ShapeType::Plane: {
      // The body-frame plane n . x = offset carried to the world.
      const Vec3 n = pa.rotation * a.normal;
      const Real d = a.offset + dot(n, pa.position);
      if (b.type == ShapeType::Sphere)
        return collide_plane_sphere(n, d, pb.position, b.radius, margin);
      if (b.type == ShapeType::Capsule)
        return collide_plane_capsule(n, d, b.radius, b.half_height, pb, margin);
      if (b.type == ShapeType::Box) return collide_plane_box(n, d, half_b, pb, margin);
      return ContactManifold{};  // plane-plane
    }
    case ShapeType::Sphere:
      if (b.type == ShapeType::Sphere)
        return collide_sphere_sphere(pa.position, a.radius, pb.position, b.radius, margin);
      if (b.type == ShapeType::Capsule)
        return collide_sphere_capsule(pa.position, a.radius, b.radius, b.half_height, pb, margin);
      return collide_sphere_box(pa.position, a.radius, half_b, pb, margin);
    case ShapeType::Capsule:
      if (b.type == ShapeType::Capsule)
        return collide_capsule_capsule(a.radius, a.half_height, pa, b.radius, b.half_height, pb,
                                       margin);
      return collide_capsule_box(a.radius, a.half_height, pa, half_b, pb, margin);
    case ShapeType::Box:
      return collide_box_box(Real(0.5) * a.size, pa, half_b, pb, margin);
  }
  return ContactManifold{};
}

/// Contact manifold of shape a at pose pa (A) and shape b at pose pb (B):
/// every point whose separation is at most `margin` [m] (speculative contacts
/// included), normal from A to B, world and body-frame points.
PABD_HD ContactManifold collide_shapes(const ShapeDef& a, const ShapePose& pa, const ShapeDef& b,
                                       const ShapePose& pb, Real margin) {
  ContactManifold m = narrowphase_rank(a.type) <= narrowphase_rank(b.type)
                          ? collide_ranked(a, pa, b, pb, margin)
                          : flipped(collide_ranked(b, pb, a, pa, margin));
  for (int i = 0; i < m.count; ++i) {
    m.points[i].local_a = to_local(pa, m.points[i].world_a);
    m.points[i].local_b = to_local(pb, m.points[i].world_b);
  }
  return m;
}

}  // namespace pabd
