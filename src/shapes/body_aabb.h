// A body's world AABB from its shape and pose, and the fattened box the
// broadphase stores: tight box, grown by a contact margin, swept along the
// body's predicted displacement over the step, and grown by a bound on how far
// a rotation moves any surface point in one step.
//
// Why each term (speculative contacts): the broadphase runs once per step at
// the start pose, but the solver moves bodies up to the predicted pose. A pair
// must be found if the bodies can touch anywhere along that motion:
// - translation: the box swept from the start pose to start + d, with
//   d = h v + h^2 a the prediction's own displacement (a = gravity);
// - rotation: a point at distance r from the rotation centre moves by the chord
//   2 r sin(theta / 2) <= min(theta, 2) r, theta = |omega| h. For a box r is
//   the half diagonal; a capsule is its core segment grown by a radius, so
//   only the core (r = half_height) turns; a sphere does not change at all;
//   a convex hull's r is its largest vertex distance, a compound's the largest
//   child centre distance plus that child's bounding radius;
// - margin: contacts slightly before touching (both bodies get it, so boxes
//   meet when the shapes are within 2 margins).
// Static bodies never move: margin only.
#pragma once

#include <cmath>
#include <cstdint>

#include "pabd/world.h"
#include "shapes/aabb.h"
#include "shapes/compound_view.h"
#include "shapes/convex_polytope.h"
#include "shapes/heightfield_view.h"
#include "shapes/shape_data.h"
#include "shapes/triangle_mesh_view.h"

namespace pabd {

/// What the AABB kernel reads per body (struct-of-arrays; pointers into the
/// World's storage). Shapes come as the World's own ShapeDef array (no copy).
struct ShapePoseView {
  int count = 0;                            ///< number of bodies
  const ShapeDef* shape = nullptr;          ///< geometry in the body frame
  const Vec3* position = nullptr;           ///< centre of mass c [m]
  const Mat3* rotation = nullptr;           ///< world-from-body rotation R
  const Vec3* velocity = nullptr;           ///< [m/s]; null = at rest
  const Vec3* angular_velocity = nullptr;   ///< world frame [rad/s]; null = at rest
  const std::uint8_t* is_static = nullptr;  ///< 1 = never moves; null = all dynamic
};

/// How much the tight boxes are grown.
struct AabbSettings {
  Real margin = 0.01;          ///< contact margin added on every side [m]
  Real dt = 1.0 / 60.0;        ///< time step h for the motion sweep [s]; 0 = no sweep
  Vec3 acceleration{0, 0, 0};  ///< constant acceleration over the step (gravity) [m/s^2]
};

/// World AABB of a body-frame box (lo, hi) at pose (c, R): exact for the box.
PABD_HD Aabb local_box_to_world(const Aabb& local, Vec3 c, const Mat3& r) {
  const Vec3 mid = aabb_center(local), e = Real(0.5) * (local.hi - local.lo);
  const Vec3 half{
      std::fabs(r.m[0][0]) * e.x + std::fabs(r.m[0][1]) * e.y + std::fabs(r.m[0][2]) * e.z,
      std::fabs(r.m[1][0]) * e.x + std::fabs(r.m[1][1]) * e.y + std::fabs(r.m[1][2]) * e.z,
      std::fabs(r.m[2][0]) * e.x + std::fabs(r.m[2][1]) * e.y + std::fabs(r.m[2][2]) * e.z};
  const Vec3 centre = r * mid + c;
  return {centre - half, centre + half};
}

/// Exact world AABB of a convex shape (box, sphere, capsule, hull) at pose (c, R).
PABD_HD Aabb convex_shape_aabb(const ShapeDef& s, Vec3 c, const Mat3& r) {
  Vec3 half{0, 0, 0};
  switch (s.type) {
    case ShapeType::Box: {
      // Half width along world axis k: sum_j |R_kj| e_j (the support of the box).
      const Vec3 e = Real(0.5) * s.size;
      half = {std::fabs(r.m[0][0]) * e.x + std::fabs(r.m[0][1]) * e.y + std::fabs(r.m[0][2]) * e.z,
              std::fabs(r.m[1][0]) * e.x + std::fabs(r.m[1][1]) * e.y + std::fabs(r.m[1][2]) * e.z,
              std::fabs(r.m[2][0]) * e.x + std::fabs(r.m[2][1]) * e.y + std::fabs(r.m[2][2]) * e.z};
      break;
    }
    case ShapeType::Sphere:
      half = {s.radius, s.radius, s.radius};
      break;
    case ShapeType::Capsule:
      // Core segment +-hh along the body's Y axis (column 1 of R), grown by r.
      half = {std::fabs(r.m[0][1]) * s.half_height + s.radius,
              std::fabs(r.m[1][1]) * s.half_height + s.radius,
              std::fabs(r.m[2][1]) * s.half_height + s.radius};
      break;
    case ShapeType::ConvexHull:  // per world axis, the extreme vertices
      return hull_world_aabb(hull_view(s), c, r);
    case ShapeType::Plane:
    case ShapeType::Compound:
    case ShapeType::HeightField:
    case ShapeType::TriangleMesh:
      return empty_aabb();
  }
  return {c - half, c + half};
}

/// Exact world AABB of a shape at pose (c, R): a compound's is the union of its
/// children's, a height field's or mesh's the box of its body-frame bounds.
/// Planes have no finite box: returns the empty box (callers keep planes out of the tree).
PABD_HD Aabb shape_aabb(const ShapeDef& s, Vec3 c, const Mat3& r) {
  switch (s.type) {
    case ShapeType::Compound: {
      const CompoundView& v = compound_view(s);
      const ShapePose parent{c, r};
      Aabb box = empty_aabb();
      for (int i = 0; i < v.child_count; ++i) {
        const ShapePose p = compound_child_pose(parent, v.child_pose[i]);
        box = aabb_union(box, convex_shape_aabb(v.child_shape[i], p.position, p.rotation));
      }
      return box;
    }
    case ShapeType::HeightField:
      return local_box_to_world(height_field_bounds(height_field_view(s)), c, r);
    case ShapeType::TriangleMesh:
      return local_box_to_world(mesh_view(s).node[0].box, c, r);
    case ShapeType::Plane:
    case ShapeType::Box:
    case ShapeType::Sphere:
    case ShapeType::Capsule:
    case ShapeType::ConvexHull:
      return convex_shape_aabb(s, c, r);
  }
  return convex_shape_aabb(s, c, r);
}

/// Distance from the centre of mass to the farthest point of the part of the
/// shape that a rotation moves (box: half diagonal; capsule: the core
/// segment's half length; sphere: 0) [m].
PABD_HD Real shape_rotation_radius(const ShapeDef& s) {
  switch (s.type) {
    case ShapeType::Box:
      return Real(0.5) * length(s.size);
    case ShapeType::Capsule:
      return s.half_height;
    case ShapeType::ConvexHull:
      return hull_view(s).radius;
    case ShapeType::Compound: {
      // A child's points lie within its radius of its centre, which turns about the origin.
      const CompoundView& v = compound_view(s);
      Real r = 0;
      for (int i = 0; i < v.child_count; ++i) {
        const Real ri = length(v.child_pose[i].position) + v.child_radius[i];
        r = ri > r ? ri : r;
      }
      return r;
    }
    case ShapeType::Sphere:
    case ShapeType::Plane:
    case ShapeType::HeightField:   // static only: never turns
    case ShapeType::TriangleMesh:  // static only
      return 0;
  }
  return 0;
}

/// The broadphase box of body i: tight box, swept over the step, plus margin.
PABD_HD Aabb fattened_body_aabb(const ShapePoseView& v, int i, const AabbSettings& k) {
  const ShapeDef& s = v.shape[i];
  if (s.type == ShapeType::Plane) return empty_aabb();
  Aabb box = shape_aabb(s, v.position[i], v.rotation[i]);
  const bool moves = !(v.is_static && v.is_static[i]);
  if (moves) {
    const Real h = k.dt;
    const Vec3 vel = v.velocity ? v.velocity[i] : Vec3{};
    // Translation: sweep along the predicted displacement h v + h^2 a.
    box = aabb_expand(box, h * vel + (h * h) * k.acceleration);
    // Rotation: chord bound min(|omega| h, 2) r.
    if (v.angular_velocity) {
      const Real theta = length(v.angular_velocity[i]) * h;
      box = aabb_fatten(box, (theta < 2 ? theta : Real(2)) * shape_rotation_radius(s));
    }
  }
  return aabb_fatten(box, k.margin);
}

/// World plane of a plane body: unit normal n and offset d with n . x = d;
/// the solid side is n . x <= d (the normal points out of the ground).
struct WorldPlane {
  Vec3 normal;  ///< unit normal, world frame
  Real offset;  ///< [m]
};

/// The body-frame plane n . x = offset of body i moved to its pose (c, R).
PABD_HD WorldPlane world_plane(const ShapeDef& s, Vec3 c, const Mat3& r) {
  const Vec3 n = r * s.normal;
  return {n, s.offset + dot(n, c)};
}

/// True when the box reaches the solid side of the plane (n . x <= d somewhere in it).
PABD_HD bool aabb_reaches_plane(const Aabb& a, const WorldPlane& p) {
  // The box corner lowest along n: per axis, lo where n_k > 0, else hi.
  const Vec3 n = p.normal;
  const Vec3 low{n.x > 0 ? a.lo.x : a.hi.x, n.y > 0 ? a.lo.y : a.hi.y, n.z > 0 ? a.lo.z : a.hi.z};
  return dot(n, low) <= p.offset;
}

}  // namespace pabd
