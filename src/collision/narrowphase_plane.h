// Narrowphase against a plane (always shape A, always static): the plane's
// solid side is n . x <= offset, the manifold normal is n (from the plane
// toward the other shape) and a point's separation is its height above the
// plane minus the other shape's radius. Every point closer than `margin` is
// reported (speculative contacts); the point on the plane is the projection.
// The plane comes as its world unit normal n and offset d (n . x = d).
#pragma once

#include "collision/contact_manifold.h"
#include "shapes/shape_geometry.h"

namespace pabd {

/// Adds the contact of a sphere (centre, radius) with the plane if within margin.
PABD_HD void add_plane_sphere_point(ContactManifold& m, Vec3 normal, Real offset, Vec3 center,
                                    Real radius, Real margin, std::uint32_t feature) {
  const Real height = dot(normal, center) - offset;
  const Real separation = height - radius;
  if (separation > margin) return;
  add_contact_point(m, center - height * normal, center - radius * normal, separation, feature);
}

/// Plane (A) against a sphere (B): at most one point.
PABD_HD ContactManifold collide_plane_sphere(Vec3 normal, Real offset, Vec3 center, Real radius,
                                             Real margin) {
  ContactManifold m;
  m.normal = normal;
  add_plane_sphere_point(m, normal, offset, center, radius, margin,
                         make_feature_id(FeatureKind::Face, 0, FeatureKind::None, 0));
  return m;
}

/// Plane (A) against a capsule (B): one point per end sphere within margin.
PABD_HD ContactManifold collide_plane_capsule(Vec3 normal, Real offset, Real radius,
                                              Real half_height, const ShapePose& pose,
                                              Real margin) {
  ContactManifold m;
  m.normal = normal;
  Vec3 ends[2];
  capsule_segment(half_height, pose, ends[0], ends[1]);
  for (int k = 0; k < 2; ++k)
    add_plane_sphere_point(m, normal, offset, ends[k], radius, margin,
                           make_feature_id(FeatureKind::Face, 0, FeatureKind::Vertex, k));
  deepest_point_first(m);
  return m;
}

/// Plane (A) against a box (B): the corners within margin, the deepest four
/// (lower vertex index first on ties), deepest first.
PABD_HD ContactManifold collide_plane_box(Vec3 normal, Real offset, Vec3 half,
                                          const ShapePose& pose, Real margin) {
  ContactManifold m;
  m.normal = normal;
  // Keep the (at most four) deepest corners in order of separation.
  int kept[kMaxContactPoints];
  Real kept_sep[kMaxContactPoints];
  int n = 0;
  for (int v = 0; v < 8; ++v) {
    const Real sep = dot(normal, to_world(pose, box_vertex(half, v))) - offset;
    if (sep > margin) continue;
    if (n == kMaxContactPoints && sep >= kept_sep[n - 1]) continue;
    int slot = n < kMaxContactPoints ? n++ : n - 1;
    while (slot > 0 && kept_sep[slot - 1] > sep) {
      kept[slot] = kept[slot - 1];
      kept_sep[slot] = kept_sep[slot - 1];
      --slot;
    }
    kept[slot] = v;
    kept_sep[slot] = sep;
  }
  for (int i = 0; i < n; ++i) {
    const Vec3 corner = to_world(pose, box_vertex(half, kept[i]));
    add_contact_point(m, corner - kept_sep[i] * normal, corner, kept_sep[i],
                      make_feature_id(FeatureKind::Face, 0, FeatureKind::Vertex, kept[i]));
  }
  return m;
}

}  // namespace pabd
