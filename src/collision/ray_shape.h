// A ray against any shape, in the shape's own frame (its centre of mass at
// the origin): the convex primitives of ray_primitives.h, a compound's
// children at their poses, a height field or a mesh (ray_triangles.h), and a
// plane's half-space. World::raycast (src/world/world_raycast.cpp) moves each
// candidate body's ray into the body frame and calls this; so does the
// viewer's picking (src/viewer/picking.cpp).
#pragma once

#include "collision/ray_primitives.h"
#include "collision/ray_triangles.h"
#include "pabd/world.h"
#include "shapes/compound_view.h"
#include "shapes/shape_data.h"

namespace pabd {

/// Ray against the half-space n . x <= offset (n unit): solid, so a ray that
/// starts in it hits at t = 0.
PABD_HD bool ray_half_space(Vec3 o, Vec3 d, Vec3 n, Real offset, Real t_max, LocalRayHit& hit) {
  const Real height = dot(n, o) - offset;
  if (height <= 0) {
    hit = ray_starts_inside(d);
    return true;
  }
  const Real rate = dot(n, d);
  if (!(rate < 0)) return false;  // parallel or moving away
  const Real t = -height / rate;
  if (t > t_max) return false;
  hit = LocalRayHit{t, n};
  return true;
}

/// Ray against a convex shape (box, sphere, capsule, convex hull) in its frame.
PABD_HD bool ray_convex_shape(const ShapeDef& s, Vec3 o, Vec3 d, Real t_max, LocalRayHit& hit) {
  switch (s.type) {
    case ShapeType::Box:
      return ray_box(o, d, Real(0.5) * s.size, t_max, hit);
    case ShapeType::Sphere:
      return ray_sphere(o, d, Vec3{0, 0, 0}, s.radius, t_max, hit);
    case ShapeType::Capsule:
      return ray_capsule(o, d, s.radius, s.half_height, t_max, hit);
    case ShapeType::ConvexHull:
      return ray_hull(o, d, hull_view(s), t_max, hit);
    case ShapeType::Plane:
    case ShapeType::Compound:
    case ShapeType::HeightField:
    case ShapeType::TriangleMesh:
      return false;  // not convex primitives: ray_shape
  }
  return false;
}

/// Ray against any shape in its own frame: where o + t d, 0 <= t <= t_max,
/// first enters it (conventions of ray_primitives.h; height fields and
/// meshes are one-sided, ray_triangles.h). The normal is in the same frame.
PABD_HD bool ray_shape(const ShapeDef& s, Vec3 o, Vec3 d, Real t_max, LocalRayHit& hit) {
  switch (s.type) {
    case ShapeType::Plane:
      return ray_half_space(o, d, s.normal, s.offset, t_max, hit);
    case ShapeType::Compound: {
      // The nearest hit over the children, each tested in its own frame.
      const CompoundView& v = compound_view(s);
      bool found = false;
      Real best = t_max;
      for (int i = 0; i < v.child_count; ++i) {
        const ShapePose& pose = v.child_pose[i];
        LocalRayHit child;
        if (!ray_convex_shape(v.child_shape[i], to_local(pose, o),
                              transpose_times(pose.rotation, d), best, child))
          continue;
        if (found && !(child.t < best)) continue;
        hit = LocalRayHit{child.t, pose.rotation * child.normal};
        best = child.t;
        found = true;
      }
      return found;
    }
    case ShapeType::HeightField:
      return ray_height_field(height_field_view(s), o, d, t_max, hit);
    case ShapeType::TriangleMesh:
      return ray_triangle_mesh(mesh_view(s), o, d, t_max, hit);
    case ShapeType::Box:
    case ShapeType::Sphere:
    case ShapeType::Capsule:
    case ShapeType::ConvexHull:
      return ray_convex_shape(s, o, d, t_max, hit);
  }
  return false;
}

}  // namespace pabd
