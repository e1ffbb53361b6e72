// Narrowphase of round shapes against a box: sphere-box (1 point) and
// capsule-box (1 or 2 points). The box is always shape B; the normal runs from
// the round shape toward the box.
//
// Sphere-box: outside the box, the closest box point; inside, the nearest face.
//
// Capsule-box works in the box's frame. If the capsule's core segment misses
// the box, the exact closest points of segment and box (shape_geometry.h) give
// the normal and the distance. If the core enters the box, a separating-axis
// test over the 3 face normals and the 3 products (segment x box axis) picks
// the normal (faces favoured by the box-box tolerances). Whenever the normal is
// a box face normal the segment is clipped by that face's side planes and both
// clipped ends are reported (within margin), so a capsule lying on a face gets
// two points; otherwise one point.
#pragma once

#include "collision/contact_manifold.h"
#include "collision/narrowphase_box_box.h"
#include "shapes/shape_geometry.h"

namespace pabd {

/// A closest-point normal counts as a face normal when its other components are
/// below this (they are exactly zero when the closest box point is inside a face).
inline constexpr Real kFaceNormalTolerance = Real(1e-9);

/// Sphere (A) against box (B).
PABD_HD ContactManifold collide_sphere_box(Vec3 center, Real radius, Vec3 half,
                                           const ShapePose& pose_b, Real margin) {
  ContactManifold m;
  const Vec3 p = to_local(pose_b, center);
  Vec3 q = closest_on_box(half, p);
  Vec3 n_local;
  const Real dist = length(q - p);
  if (dist > 0) {
    // Outside: toward the closest box point.
    n_local = (Real(1) / dist) * (q - p);
  } else {
    // Inside: out through the nearest face, so the box lies on the other side.
    int axis = 0;
    Real depth = get(half, 0) - std::fabs(p.x);
    for (int i = 1; i < 3; ++i) {
      const Real d = get(half, i) - std::fabs(get(p, i));
      if (d < depth) {
        depth = d;
        axis = i;
      }
    }
    const Real s = sign_nonneg(get(p, axis));
    q = set_component(p, axis, s * get(half, axis));
    n_local = set_component(Vec3{}, axis, -s);
  }
  m.normal = pose_b.rotation * n_local;
  const Real separation = dot(q - p, n_local) - radius;
  if (separation > margin) return m;
  add_contact_point(m, center + radius * m.normal, to_world(pose_b, q), separation,
                    make_feature_id(FeatureKind::None, 0, FeatureKind::None, 0));
  return m;
}

/// Capsule core [s0, s1] (box frame) against the box face whose outward normal
/// is -n_local (n_local = +-axis `axis`, from capsule to box): the segment
/// clipped by the face's side planes, both ends within margin.
PABD_HD ContactManifold capsule_box_face(Vec3 s0, Vec3 s1, Real radius, Vec3 half, int axis,
                                         Vec3 n_local, const ShapePose& pose_b, Real margin) {
  ContactManifold m;
  m.normal = pose_b.rotation * n_local;
  const Vec3 out = -n_local;  // the face's outward normal
  const int face = box_face_index(axis, get(out, axis));
  // Clip the parameter range [0, 1] by the side slabs (moved out by the box clip slop).
  Real t0 = 0, t1 = 1;
  for (int k = 1; k < 3; ++k) {
    const int i = (axis + k) % 3;
    const Real h = get(half, i) * (1 + kBoxClipSlop);
    const Real a = get(s0, i), d = get(s1, i) - a;
    if (d == 0) {
      if (a < -h || a > h) t1 = -1;
      continue;
    }
    Real lo = (-h - a) / d, hi = (h - a) / d;
    if (lo > hi) {
      const Real tmp = lo;
      lo = hi;
      hi = tmp;
    }
    t0 = lo > t0 ? lo : t0;
    t1 = hi < t1 ? hi : t1;
  }
  if (t0 > t1) t0 = t1 = dot(s1 - s0, n_local) > 0 ? Real(1) : Real(0);  // numerical corner case
  const Real ts[2] = {t0, t1};
  for (int k = 0; k < (t1 > t0 ? 2 : 1); ++k) {
    const Vec3 p = lerp(s0, s1, ts[k]);
    const Real height = dot(p, out) - get(half, axis);
    const Real separation = height - radius;
    if (separation > margin) continue;
    add_contact_point(m, to_world(pose_b, p - radius * out), to_world(pose_b, p - height * out),
                      separation, make_feature_id(FeatureKind::Vertex, k, FeatureKind::Face, face));
  }
  deepest_point_first(m);
  return m;
}

/// Separation along unit axis l (box frame) of a capsule with core centre -t,
/// full core vector u and radius r from the box.
PABD_HD Real capsule_box_separation(Vec3 t, Vec3 u, Real radius, Vec3 half, Vec3 l) {
  return std::fabs(dot(t, l)) -
         (half.x * std::fabs(l.x) + half.y * std::fabs(l.y) + half.z * std::fabs(l.z)) -
         Real(0.5) * std::fabs(dot(u, l)) - radius;
}

/// Capsule (A) against box (B).
PABD_HD ContactManifold collide_capsule_box(Real radius, Real half_height, const ShapePose& pose_a,
                                            Vec3 half, const ShapePose& pose_b, Real margin) {
  ContactManifold m;
  Vec3 w0, w1;
  capsule_segment(half_height, pose_a, w0, w1);
  const Vec3 s0 = to_local(pose_b, w0), s1 = to_local(pose_b, w1);

  // Shallow: the core misses the box; exact closest points of core and box.
  Vec3 on_seg, on_box;
  const Real dist =
      segment_meets_box(half, s0, s1) ? Real(0) : closest_segment_box(half, s0, s1, on_seg, on_box);
  if (dist > 0) {
    if (dist - radius > margin) return m;
    const Vec3 n_local = (Real(1) / dist) * (on_box - on_seg);
    for (int i = 0; i < 3; ++i) {
      const Real c1 = get(n_local, (i + 1) % 3), c2 = get(n_local, (i + 2) % 3);
      if (std::fabs(c1) <= kFaceNormalTolerance && std::fabs(c2) <= kFaceNormalTolerance)
        return capsule_box_face(s0, s1, radius, half, i,
                                set_component(Vec3{}, i, sign_nonneg(get(n_local, i))), pose_b,
                                margin);
    }
    m.normal = pose_b.rotation * n_local;
    add_contact_point(m, to_world(pose_b, on_seg + radius * n_local), to_world(pose_b, on_box),
                      dist - radius, make_feature_id(FeatureKind::Edge, 0, FeatureKind::None, 0));
    return m;
  }

  // Deep: the core enters the box. Separating axes in the box frame (T from
  // the capsule's centre to the box's), separations including the radius.
  const Vec3 c = Real(0.5) * (s0 + s1), u = s1 - s0;  // u: full core, 2 hh long
  const Vec3 t = -c;
  Real best_face = -1e300;
  int face_axis = 0;
  for (int i = 0; i < 3; ++i) {
    const Real s = capsule_box_separation(t, u, radius, half, set_component(Vec3{}, i, 1));
    if (s > best_face) {
      best_face = s;
      face_axis = i;
    }
  }
  Real best_edge = -1e300;
  int edge_axis = -1;
  Vec3 edge_l;
  const Real u_len = length(u);
  for (int i = 0; i < 3; ++i) {
    Vec3 l = cross(u, set_component(Vec3{}, i, 1));
    const Real len = length(l);
    if (len <= kBoxParallelEdgeSine * u_len) continue;
    l = (Real(1) / len) * l;
    const Real s = capsule_box_separation(t, u, radius, half, l);
    if (s > best_edge) {
      best_edge = s;
      edge_axis = i;
      edge_l = dot(t, l) < 0 ? -l : l;
    }
  }
  const Real scale = std::fmax(half.x, std::fmax(half.y, half.z));
  const bool use_edge =
      edge_axis >= 0 && best_edge > best_face + kBoxEdgeRelativeTolerance * std::fabs(best_face) +
                                        kBoxEdgeAbsoluteTolerance * scale;
  if (!use_edge) {
    const Vec3 n_local = set_component(Vec3{}, face_axis, sign_nonneg(get(t, face_axis)));
    return capsule_box_face(s0, s1, radius, half, face_axis, n_local, pose_b, margin);
  }
  // Edge: the core against the box edge parallel to edge_axis farthest along -l.
  int v = 0;
  for (int k = 0; k < 3; ++k)
    if (k != edge_axis && get(edge_l, k) < 0) v |= 1 << k;
  const Vec3 e0 = box_vertex(half, v), e1 = box_vertex(half, v | (1 << edge_axis));
  Real sa, sb;
  closest_segment_segment(s0, s1, e0, e1, sa, sb);
  const Vec3 qa = lerp(s0, s1, sa), qb = lerp(e0, e1, sb);
  const Real sep = dot(qb - qa, edge_l) - radius;
  m.normal = pose_b.rotation * edge_l;
  if (sep > margin) return m;
  add_contact_point(
      m, to_world(pose_b, qa + radius * edge_l), to_world(pose_b, qb), sep,
      make_feature_id(FeatureKind::Edge, 0, FeatureKind::Edge, box_edge_through(edge_axis, v)));
  return m;
}

}  // namespace pabd
