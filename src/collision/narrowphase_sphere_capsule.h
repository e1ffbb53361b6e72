// Narrowphase between round shapes: sphere-sphere, sphere-capsule and
// capsule-capsule. Each reduces to the closest points of the cores (points and
// segments) minus the radii; the normal runs from A's core point to B's.
//
// Two capsules that are nearly parallel (angle below kCapsuleParallelSine) and
// overlap along their axes get two points, at the two ends of the overlap,
// so a capsule lying on another cannot spin freely about the contact normal.
// Every separation is measured along the one manifold normal, which is never
// more than the true distance (conservative for speculative contacts); the
// deepest of the two points is the true separation. Each point is its core
// point moved by the radius along that normal, so in the two-point case it
// may sit inside its capsule by up to r kCapsuleParallelSine^2 (the normal is
// within that sine of perpendicular to both axes).
#pragma once

#include "collision/contact_manifold.h"
#include "shapes/shape_geometry.h"

namespace pabd {

/// Sine of the largest angle between two capsule axes that still gives two
/// points (about 2.9 degrees).
inline constexpr Real kCapsuleParallelSine = Real(0.05);

/// Normal for coincident core points: from A's centre toward B's centre,
/// perpendicular to `axis` when it is given (non-zero), else `fallback`.
PABD_HD Vec3 fallback_normal(Vec3 center_a, Vec3 center_b, Vec3 axis, Vec3 fallback) {
  Vec3 d = center_b - center_a;
  const Real aa = dot(axis, axis);
  if (aa > 0) d = d - (dot(d, axis) / aa) * axis;
  return normalized_or(d, fallback);
}

/// Sphere (A) against sphere (B).
PABD_HD ContactManifold collide_sphere_sphere(Vec3 center_a, Real radius_a, Vec3 center_b,
                                              Real radius_b, Real margin) {
  ContactManifold m;
  m.normal = normalized_or(center_b - center_a, Vec3{0, 1, 0});
  const Real separation = dot(center_b - center_a, m.normal) - radius_a - radius_b;
  if (separation > margin) return m;
  add_contact_point(m, center_a + radius_a * m.normal, center_b - radius_b * m.normal, separation,
                    make_feature_id(FeatureKind::None, 0, FeatureKind::None, 0));
  return m;
}

/// Sphere (A) against capsule (B): the sphere against the closest point of B's core.
PABD_HD ContactManifold collide_sphere_capsule(Vec3 center_a, Real radius_a, Real radius_b,
                                               Real half_height_b, const ShapePose& pose_b,
                                               Real margin) {
  ContactManifold m;
  Vec3 b0, b1;
  capsule_segment(half_height_b, pose_b, b0, b1);
  const Vec3 q = lerp(b0, b1, closest_on_segment(center_a, b0, b1));
  // A centre on B's core: across B's axis, toward B's centre if that is defined.
  const Vec3 axis = normalized_or(b1 - b0, Vec3{0, 1, 0});
  m.normal = length_squared(q - center_a) > 0
                 ? normalized_or(q - center_a, axis)
                 : fallback_normal(center_a, pose_b.position, axis, any_perpendicular(axis));
  const Real separation = dot(q - center_a, m.normal) - radius_a - radius_b;
  if (separation > margin) return m;
  add_contact_point(m, center_a + radius_a * m.normal, q - radius_b * m.normal, separation,
                    make_feature_id(FeatureKind::None, 0, FeatureKind::Edge, 0));
  return m;
}

/// Capsule (A) against capsule (B): one point, or two for near-parallel axes.
PABD_HD ContactManifold collide_capsule_capsule(Real radius_a, Real half_height_a,
                                                const ShapePose& pose_a, Real radius_b,
                                                Real half_height_b, const ShapePose& pose_b,
                                                Real margin) {
  ContactManifold m;
  Vec3 a0, a1, b0, b1;
  capsule_segment(half_height_a, pose_a, a0, a1);
  capsule_segment(half_height_b, pose_b, b0, b1);
  Real s, t;
  closest_segment_segment(a0, a1, b0, b1, s, t);
  const Vec3 pa = lerp(a0, a1, s), pb = lerp(b0, b1, t);
  const Real length_a = length(a1 - a0), length_b = length(b1 - b0);
  const Vec3 ua = normalized_or(a1 - a0, Vec3{0, 1, 0});
  const Vec3 ub = normalized_or(b1 - b0, Vec3{0, 1, 0});
  const Vec3 across = cross(ua, ub);
  const Real sine = length(across);

  // Normal: along the closest pair; for crossing cores across both axes,
  // oriented from A's centre to B's; for coinciding parallel cores, across A's axis.
  Vec3 n = pb - pa;
  if (length_squared(n) > 0) {
    n = (Real(1) / length(n)) * n;
  } else if (sine > Real(1e-12)) {
    n = (Real(1) / sine) * across;
    if (dot(n, pose_b.position - pose_a.position) < 0) n = -n;
  } else {
    n = fallback_normal(pose_a.position, pose_b.position, ua, any_perpendicular(ua));
  }
  m.normal = n;
  const Real rr = radius_a + radius_b;

  // Two points at the ends of the axial overlap of near-parallel cores.
  if (length_a > 0 && length_b > 0 && sine <= kCapsuleParallelSine) {
    const Real tb0 = dot(b0 - a0, ua), tb1 = dot(b1 - a0, ua);
    const bool b0_low = tb0 <= tb1;
    const Real b_lo = b0_low ? tb0 : tb1, b_hi = b0_low ? tb1 : tb0;
    const Real lo = b_lo > 0 ? b_lo : 0, hi = b_hi < length_a ? b_hi : length_a;
    // Two points closer than a thousandth of the radii would add nothing.
    if (hi - lo > Real(1e-3) * rr) {
      const Real ends[2] = {lo, hi};
      // Which end point bounds the overlap at each end (A's own end, or B's).
      const std::uint32_t ids[2] = {
          b_lo > 0 ? make_feature_id(FeatureKind::Edge, 0, FeatureKind::Vertex, b0_low ? 0 : 1)
                   : make_feature_id(FeatureKind::Vertex, 0, FeatureKind::Edge, 0),
          b_hi < length_a
              ? make_feature_id(FeatureKind::Edge, 0, FeatureKind::Vertex, b0_low ? 1 : 0)
              : make_feature_id(FeatureKind::Vertex, 1, FeatureKind::Edge, 0)};
      for (int k = 0; k < 2; ++k) {
        const Vec3 qa = a0 + ends[k] * ua;
        const Vec3 qb = lerp(b0, b1, closest_on_segment(qa, b0, b1));
        const Real separation = dot(qb - qa, n) - rr;
        if (separation <= margin)
          add_contact_point(m, qa + radius_a * n, qb - radius_b * n, separation, ids[k]);
      }
      deepest_point_first(m);
      return m;
    }
  }
  const Real separation = dot(pb - pa, n) - rr;
  if (separation <= margin)
    add_contact_point(m, pa + radius_a * n, pb - radius_b * n, separation,
                      make_feature_id(FeatureKind::Edge, 0, FeatureKind::Edge, 0));
  return m;
}

}  // namespace pabd
