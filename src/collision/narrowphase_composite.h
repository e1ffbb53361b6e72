// Narrowphase of composite shapes: compounds (convex children), height fields
// and triangle meshes. A pair of bodies becomes pairs of convex parts, each
// giving its own manifolds (its own normal), concatenated into the caller's
// array:
// - compound: each child at its pose, against each part of the other body
//   (children whose bounding spheres are farther apart than the margin are
//   skipped); the child index goes into the upper 6 bits of that shape's
//   kind byte of every feature id (child_feature_id), so ids stay distinct
//   across children (indices above 63 alias);
// - height field, triangle mesh (static): narrowphase_triangles.h, up to
//   kMaxTriangleGroups manifolds per convex part (one per distinct normal).
// Two static-only shapes (planes, height fields, meshes) never collide. When
// more than `capacity` manifolds arise, the deepest `capacity` are kept
// (compared by their deepest point; earlier ones win ties).
//
// The convex part pairs go through a caller-given functor, so this file does
// not depend on the dispatcher that includes it (narrowphase_dispatch.h).
#pragma once

#include <cstdint>

#include "collision/contact_manifold.h"
#include "collision/narrowphase_triangles.h"
#include "pabd/world.h"
#include "shapes/compound_view.h"
#include "shapes/shape_data.h"
#include "shapes/shape_geometry.h"

namespace pabd {

/// Most manifolds one pair of bodies is given room for by collide_shapes' buffer.
inline constexpr int kMaxPairManifolds = 16;

/// True for shapes that the narrowphase splits into parts first.
PABD_HD bool is_composite_shape(ShapeType t) {
  return t == ShapeType::Compound || t == ShapeType::HeightField || t == ShapeType::TriangleMesh;
}
/// True for the static triangle shapes.
PABD_HD bool is_triangle_shape(ShapeType t) {
  return t == ShapeType::HeightField || t == ShapeType::TriangleMesh;
}

/// Feature id with compound child indices (>= 0; -1 = not a compound child)
/// in bits 26-31 (A) and 10-15 (B), the upper bits of each kind byte.
PABD_HD std::uint32_t child_feature_id(std::uint32_t id, int child_a, int child_b) {
  if (child_a >= 0) id = (id & ~(63u << 26)) | ((static_cast<std::uint32_t>(child_a) & 63u) << 26);
  if (child_b >= 0) id = (id & ~(63u << 10)) | ((static_cast<std::uint32_t>(child_b) & 63u) << 10);
  return id;
}

/// Appends m (if it has points) to out[0 .. count), keeping the deepest `capacity`.
PABD_HD void append_manifold(ContactManifold* out, int& count, int capacity,
                             const ContactManifold& m) {
  if (m.count == 0 || capacity <= 0) return;
  if (count < capacity) {
    out[count++] = m;
    return;
  }
  int shallowest = 0;
  for (int k = 1; k < count; ++k)
    if (out[k].points[0].separation > out[shallowest].points[0].separation) shallowest = k;
  if (m.points[0].separation < out[shallowest].points[0].separation) out[shallowest] = m;
}

/// One convex part of a body: the body's own shape, or a compound child.
struct ShapePart {
  const ShapeDef* shape = nullptr;  ///< convex (or plane, height field, mesh) shape
  ShapePose pose;                   ///< world pose of the part
  Real radius = -1;                 ///< bounding radius about pose.position; < 0 = unknown
  int child = -1;                   ///< compound child index, -1 = the body itself
};

/// Number of parts of a body's shape (children of a compound, else 1).
PABD_HD int shape_part_count(const ShapeDef& s) {
  return s.type == ShapeType::Compound ? compound_view(s).child_count : 1;
}
/// Part k of a body's shape at world pose `pose`.
PABD_HD ShapePart shape_part(const ShapeDef& s, const ShapePose& pose, int k) {
  ShapePart p;
  if (s.type != ShapeType::Compound) {
    p.shape = &s;
    p.pose = pose;
    return p;
  }
  const CompoundView& c = compound_view(s);
  p.shape = &c.child_shape[k];
  p.pose = compound_child_pose(pose, c.child_pose[k]);
  p.radius = c.child_radius[k];
  p.child = k;
  return p;
}

/// Triangle shape part (A) against a convex part (B): its groups' manifolds,
/// with B's child index in the ids, flipped to (B, A) when `flip`.
PABD_HD_NOINLINE void collide_triangle_part(const ShapePart& tri, const ShapePart& convex,
                                            Real margin, bool flip, ContactManifold* out,
                                            int& count, int capacity) {
  TriangleGroups groups;
  if (tri.shape->type == ShapeType::HeightField)
    collide_height_field_convex(height_field_view(*tri.shape), tri.pose, *convex.shape, convex.pose,
                                margin, groups);
  else
    collide_mesh_convex(mesh_view(*tri.shape), tri.pose, *convex.shape, convex.pose, margin,
                        groups);
  for (int g = 0; g < groups.count; ++g) {
    ContactManifold m = group_manifold(groups.group[g]);
    for (int k = 0; k < m.count; ++k)
      m.points[k].feature = child_feature_id(m.points[k].feature, -1, convex.child);
    append_manifold(out, count, capacity, flip ? flipped(m) : m);
  }
}

/// All manifolds between shape a at pose pa (A) and shape b at pose pb (B),
/// with world and body-frame points; `convex(sa, pa, sb, pb, margin)` gives the
/// world-point manifold of two convex parts. Returns the number written.
template <class ConvexCollide>
PABD_HD int collide_composite(const ShapeDef& a, const ShapePose& pa, const ShapeDef& b,
                              const ShapePose& pb, Real margin, ContactManifold* out, int capacity,
                              const ConvexCollide& convex) {
  const bool static_a = a.type == ShapeType::Plane || is_triangle_shape(a.type);
  const bool static_b = b.type == ShapeType::Plane || is_triangle_shape(b.type);
  if (static_a && static_b) return 0;
  int count = 0;
  const int na = shape_part_count(a), nb = shape_part_count(b);
  for (int i = 0; i < na; ++i) {
    const ShapePart part_a = shape_part(a, pa, i);
    for (int j = 0; j < nb; ++j) {
      const ShapePart part_b = shape_part(b, pb, j);
      if (part_a.radius >= 0 && part_b.radius >= 0 &&
          length(part_b.pose.position - part_a.pose.position) - part_a.radius - part_b.radius >
              margin)
        continue;
      if (is_triangle_shape(part_a.shape->type)) {
        collide_triangle_part(part_a, part_b, margin, false, out, count, capacity);
      } else if (is_triangle_shape(part_b.shape->type)) {
        // Computed with the triangles as A, then flipped (the child index moves with it).
        collide_triangle_part(part_b, part_a, margin, true, out, count, capacity);
      } else {
        ContactManifold m = convex(*part_a.shape, part_a.pose, *part_b.shape, part_b.pose, margin);
        for (int k = 0; k < m.count; ++k)
          m.points[k].feature = child_feature_id(m.points[k].feature, part_a.child, part_b.child);
        append_manifold(out, count, capacity, m);
      }
    }
  }
  for (int k = 0; k < count; ++k)
    for (int q = 0; q < out[k].count; ++q) {
      out[k].points[q].local_a = to_local(pa, out[k].points[q].world_a);
      out[k].points[q].local_b = to_local(pb, out[k].points[q].world_b);
    }
  return count;
}

}  // namespace pabd
