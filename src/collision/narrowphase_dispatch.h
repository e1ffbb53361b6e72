// Narrowphase entry point: the contact manifold of any two shapes.
//
// Pair functions exist for one order of each type pair (plane < sphere <
// capsule < box = convex hull: box-hull exists in both orders, so that A's
// face stays the preferred reference face); for the other order the dispatcher swaps the
// shapes and flips the result, so the manifold's normal always runs from the
// shape given first (A) to the second (B) and A's feature comes first in every
// id. It then fills each point's body-frame coordinates. Two planes never
// collide (planes are static), and give an empty manifold.
//
// Compounds, height fields and triangle meshes are split into convex parts
// first (narrowphase_composite.h): collide_shape_pairs returns one manifold
// per part pair and normal; collide_shapes returns the deepest of them.
#pragma once

#include "collision/contact_manifold.h"
#include "collision/narrowphase_box.h"
#include "collision/narrowphase_box_box.h"
#include "collision/narrowphase_composite.h"
#include "collision/narrowphase_hull.h"
#include "collision/narrowphase_plane.h"
#include "collision/narrowphase_sphere_capsule.h"
#include "pabd/world.h"
#include "shapes/shape_geometry.h"

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
    case ShapeType::ConvexHull:  // as a box: either may be A (box-hull and hull-box)
      return 3;
    case ShapeType::Compound:  // composite shapes: collide_shape_pairs splits them first
    case ShapeType::HeightField:
    case ShapeType::TriangleMesh:
      return 5;
  }
  return 3;
}

/// Manifold of a pair with narrowphase_rank(a) <= narrowphase_rank(b) (world points only).
///
/// Every switch names every ShapeType and has no default: a new shape type
/// that is not dispatched here fails to compile (-Wswitch, -Werror) instead of
/// colliding as some other shape. The pairs a switch cannot see (b ranked
/// below a: collide_convex_world swaps them; composite shapes: split first by
/// collide_shape_pairs) give an empty manifold.
PABD_HD ContactManifold collide_ranked(const ShapeDef& a, const ShapePose& pa, const ShapeDef& b,
                                       const ShapePose& pb, Real margin) {
  const Vec3 half_b = Real(0.5) * b.size;
  switch (a.type) {
    case ShapeType::Plane: {
      // The body-frame plane n . x = offset carried to the world.
      const Vec3 n = pa.rotation * a.normal;
      const Real d = a.offset + dot(n, pa.position);
      switch (b.type) {
        case ShapeType::Sphere:
          return collide_plane_sphere(n, d, pb.position, b.radius, margin);
        case ShapeType::Capsule:
          return collide_plane_capsule(n, d, b.radius, b.half_height, pb, margin);
        case ShapeType::Box:
          return collide_plane_box(n, d, half_b, pb, margin);
        case ShapeType::ConvexHull:
          return collide_plane_hull(n, d, hull_view(b), pb, margin);
        case ShapeType::Plane:  // planes are static: they never collide
        case ShapeType::Compound:
        case ShapeType::HeightField:
        case ShapeType::TriangleMesh:
          return ContactManifold{};
      }
      return ContactManifold{};
    }
    case ShapeType::Sphere:
      switch (b.type) {
        case ShapeType::Sphere:
          return collide_sphere_sphere(pa.position, a.radius, pb.position, b.radius, margin);
        case ShapeType::Capsule:
          return collide_sphere_capsule(pa.position, a.radius, b.radius, b.half_height, pb, margin);
        case ShapeType::Box:
          return collide_sphere_box(pa.position, a.radius, half_b, pb, margin);
        case ShapeType::ConvexHull:
          return collide_sphere_hull(pa.position, a.radius, hull_view(b), pb, margin);
        case ShapeType::Plane:
        case ShapeType::Compound:
        case ShapeType::HeightField:
        case ShapeType::TriangleMesh:
          return ContactManifold{};
      }
      return ContactManifold{};
    case ShapeType::Capsule:
      switch (b.type) {
        case ShapeType::Capsule:
          return collide_capsule_capsule(a.radius, a.half_height, pa, b.radius, b.half_height, pb,
                                         margin);
        case ShapeType::Box:
          return collide_capsule_box(a.radius, a.half_height, pa, half_b, pb, margin);
        case ShapeType::ConvexHull:
          return collide_capsule_hull(a.radius, a.half_height, pa, hull_view(b), pb, margin);
        case ShapeType::Plane:
        case ShapeType::Sphere:
        case ShapeType::Compound:
        case ShapeType::HeightField:
        case ShapeType::TriangleMesh:
          return ContactManifold{};
      }
      return ContactManifold{};
    case ShapeType::Box:
      switch (b.type) {
        case ShapeType::Box:
          return collide_box_box(Real(0.5) * a.size, pa, half_b, pb, margin);
        case ShapeType::ConvexHull:
          return collide_box_hull(Real(0.5) * a.size, pa, hull_view(b), pb, margin);
        case ShapeType::Plane:
        case ShapeType::Sphere:
        case ShapeType::Capsule:
        case ShapeType::Compound:
        case ShapeType::HeightField:
        case ShapeType::TriangleMesh:
          return ContactManifold{};
      }
      return ContactManifold{};
    case ShapeType::ConvexHull:
      switch (b.type) {
        case ShapeType::Box:
          return collide_hull_box(hull_view(a), pa, Real(0.5) * b.size, pb, margin);
        case ShapeType::ConvexHull:
          return collide_hull_hull(hull_view(a), pa, hull_view(b), pb, margin);
        case ShapeType::Plane:
        case ShapeType::Sphere:
        case ShapeType::Capsule:
        case ShapeType::Compound:
        case ShapeType::HeightField:
        case ShapeType::TriangleMesh:
          return ContactManifold{};
      }
      return ContactManifold{};
    case ShapeType::Compound:  // split into parts by collide_composite
    case ShapeType::HeightField:
    case ShapeType::TriangleMesh:
      return ContactManifold{};
  }
  return ContactManifold{};
}

/// Manifold of two convex shapes (or a plane and a convex shape), world points only.
PABD_HD ContactManifold collide_convex_world(const ShapeDef& a, const ShapePose& pa,
                                             const ShapeDef& b, const ShapePose& pb, Real margin) {
  return narrowphase_rank(a.type) <= narrowphase_rank(b.type)
             ? collide_ranked(a, pa, b, pb, margin)
             : flipped(collide_ranked(b, pb, a, pa, margin));
}

/// collide_convex_world as the functor collide_composite calls for convex parts.
struct ConvexWorldCollider {
  PABD_HD ContactManifold operator()(const ShapeDef& a, const ShapePose& pa, const ShapeDef& b,
                                     const ShapePose& pb, Real margin) const {
    return collide_convex_world(a, pa, b, pb, margin);
  }
};

/// Every contact manifold of shape a at pose pa (A) and shape b at pose pb (B),
/// one per pair of convex parts and normal (compound children, height-field or
/// mesh triangles merged by normal, narrowphase_composite.h): writes at most
/// `capacity` (the deepest ones) to out and returns how many. Two convex
/// shapes give at most one. Points as in collide_shapes.
PABD_HD int collide_shape_pairs(const ShapeDef& a, const ShapePose& pa, const ShapeDef& b,
                                const ShapePose& pb, Real margin, ContactManifold* out,
                                int capacity) {
  if (is_composite_shape(a.type) || is_composite_shape(b.type))
    return collide_composite(a, pa, b, pb, margin, out, capacity, ConvexWorldCollider{});
  if (capacity <= 0) return 0;
  ContactManifold m = collide_convex_world(a, pa, b, pb, margin);
  if (m.count == 0) return 0;
  for (int i = 0; i < m.count; ++i) {
    m.points[i].local_a = to_local(pa, m.points[i].world_a);
    m.points[i].local_b = to_local(pb, m.points[i].world_b);
  }
  out[0] = m;
  return 1;
}

/// Contact manifold of shape a at pose pa (A) and shape b at pose pb (B):
/// every point whose separation is at most `margin` [m] (speculative contacts
/// included), normal from A to B, world and body-frame points. For a compound,
/// height field or mesh, only the manifold with the deepest point of those
/// collide_shape_pairs finds (call that to get them all).
PABD_HD ContactManifold collide_shapes(const ShapeDef& a, const ShapePose& pa, const ShapeDef& b,
                                       const ShapePose& pb, Real margin) {
  if (is_composite_shape(a.type) || is_composite_shape(b.type)) {
    ContactManifold all[kMaxPairManifolds];
    const int n = collide_shape_pairs(a, pa, b, pb, margin, all, kMaxPairManifolds);
    int deepest = 0;
    for (int k = 1; k < n; ++k)
      if (all[k].points[0].separation < all[deepest].points[0].separation) deepest = k;
    return n > 0 ? all[deepest] : ContactManifold{};
  }
  ContactManifold m = collide_convex_world(a, pa, b, pb, margin);
  for (int i = 0; i < m.count; ++i) {
    m.points[i].local_a = to_local(pa, m.points[i].world_a);
    m.points[i].local_b = to_local(pb, m.points[i].world_b);
  }
  return m;
}

}  // namespace pabd
