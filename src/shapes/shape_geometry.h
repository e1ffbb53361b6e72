// Geometry shared by the narrowphase pair functions and by GJK/EPA: a shape's
// pose, box topology (vertex, edge and face numbering, so contact points carry
// feature ids), support functions of the convex "cores" (point, segment, box),
// and closest points between points, segments and boxes.
//
// A sphere is a point core plus a radius and a capsule a segment core plus a
// radius (the segment runs along the body's local Y, half length
// `half_height`, see docs/scene-format.md). A box has half extents h (its
// ShapeDef stores the full edge lengths, size = 2 h).
//
// Box numbering, in the box's own frame:
// - vertex v in 0..7: bit i set <=> coordinate i is +h_i (else -h_i);
// - edge e in 0..11: parallel to axis i = e / 4, through the vertex whose other
//   two coordinates are given by bits 0 and 1 of e % 4 (axes (i+1)%3, (i+2)%3);
// - face f in 0..5: normal along axis f / 2, sign + when f is odd.
#pragma once

#include <cmath>

#include "pabd/config.h"
#include "pabd/math.h"

namespace pabd {

/// Where a shape is: world point y of body point x is y = rotation x + position.
struct ShapePose {
  Vec3 position;                ///< centre of mass, world frame [m]
  Mat3 rotation = identity3();  ///< world-from-body rotation (proper, orthonormal)
};

// Small vector helpers --------------------------------------------------------

PABD_HD Real length_squared(Vec3 a) { return dot(a, a); }
PABD_HD Real clamp_real(Real x, Real lo, Real hi) { return x < lo ? lo : (x > hi ? hi : x); }
PABD_HD Real sign_nonneg(Real x) { return x < 0 ? Real(-1) : Real(1); }
PABD_HD Vec3 lerp(Vec3 a, Vec3 b, Real t) { return a + t * (b - a); }
PABD_HD Vec3 set_component(Vec3 a, int i, Real value) {
  if (i == 0) a.x = value;
  if (i == 1) a.y = value;
  if (i == 2) a.z = value;
  return a;
}
/// Column i of a matrix: the body's i-th axis in the world frame for a rotation.
PABD_HD Vec3 column(const Mat3& r, int i) { return {r.m[0][i], r.m[1][i], r.m[2][i]}; }
/// R^T v without forming R^T.
PABD_HD Vec3 transpose_times(const Mat3& r, Vec3 v) {
  return {r.m[0][0] * v.x + r.m[1][0] * v.y + r.m[2][0] * v.z,
          r.m[0][1] * v.x + r.m[1][1] * v.y + r.m[2][1] * v.z,
          r.m[0][2] * v.x + r.m[1][2] * v.y + r.m[2][2] * v.z};
}
/// v / |v|, or `fallback` when |v| is not above `tiny`.
PABD_HD Vec3 normalized_or(Vec3 v, Vec3 fallback, Real tiny = Real(1e-300)) {
  const Real len = length(v);
  return len > tiny ? (Real(1) / len) * v : fallback;
}
/// A unit vector perpendicular to the unit vector u (deterministic choice).
PABD_HD Vec3 any_perpendicular(Vec3 u) {
  const Vec3 helper = std::fabs(u.x) < Real(0.57) ? Vec3{1, 0, 0} : Vec3{0, 1, 0};
  return normalized_or(cross(u, helper), Vec3{0, 0, 1});
}

/// Always inlined: the contact iterations call it for every anchor (contact_kernels.h).
PABD_HD_ALWAYS_INLINE Vec3 to_world(const ShapePose& pose, Vec3 x) {
  return pose.rotation * x + pose.position;
}
PABD_HD Vec3 to_local(const ShapePose& pose, Vec3 y) {
  return transpose_times(pose.rotation, y - pose.position);
}

// Box topology ----------------------------------------------------------------

/// Body-frame position of box vertex v (numbering above).
PABD_HD Vec3 box_vertex(Vec3 half, int v) {
  return {(v & 1) ? half.x : -half.x, (v & 2) ? half.y : -half.y, (v & 4) ? half.z : -half.z};
}
/// Index of the box edge parallel to `axis` that passes through vertex v.
PABD_HD int box_edge_through(int axis, int v) {
  const int j = (axis + 1) % 3, k = (axis + 2) % 3;
  return 4 * axis + ((v >> j) & 1) + 2 * ((v >> k) & 1);
}
/// Index of the edge joining two vertices that differ in exactly one coordinate.
PABD_HD int box_edge_between(int v0, int v1) {
  const int differ = v0 ^ v1;
  const int axis = differ == 1 ? 0 : (differ == 2 ? 1 : 2);
  return box_edge_through(axis, v0);
}
/// End points (body frame) of box edge e, from -h to +h along its axis.
PABD_HD void box_edge_points(Vec3 half, int e, Vec3& p0, Vec3& p1) {
  const int axis = e / 4, j = (axis + 1) % 3, k = (axis + 2) % 3;
  const int v = (((e % 4) & 1) << j) | ((((e % 4) >> 1) & 1) << k);
  p0 = box_vertex(half, v);
  p1 = box_vertex(half, v | (1 << axis));
}
/// Index of the face with outward normal sign * axis (sign > 0 or < 0).
PABD_HD int box_face_index(int axis, Real sign) { return 2 * axis + (sign > 0 ? 1 : 0); }

// Support functions of convex cores (world frame) -----------------------------

/// Farthest point of a box along world direction d.
PABD_HD Vec3 box_support(Vec3 half, const ShapePose& pose, Vec3 d) {
  const Vec3 dl = transpose_times(pose.rotation, d);
  return to_world(
      pose, {sign_nonneg(dl.x) * half.x, sign_nonneg(dl.y) * half.y, sign_nonneg(dl.z) * half.z});
}
/// Farthest end of segment [a, b] along d (a on ties).
PABD_HD Vec3 segment_support(Vec3 a, Vec3 b, Vec3 d) { return dot(b - a, d) > 0 ? b : a; }

/// A point core (a sphere without its radius), for GJK/EPA.
struct PointCore {
  Vec3 point;  ///< world frame [m]
  PABD_HD Vec3 support(Vec3) const { return point; }
};
/// A segment core (a capsule without its radius), for GJK/EPA.
struct SegmentCore {
  Vec3 a, b;  ///< end points, world frame [m]
  PABD_HD Vec3 support(Vec3 d) const { return segment_support(a, b, d); }
};
/// A box core, for GJK/EPA.
struct BoxCore {
  Vec3 half;       ///< half extents [m]
  ShapePose pose;  ///< where the box is
  PABD_HD Vec3 support(Vec3 d) const { return box_support(half, pose, d); }
};

/// World end points of a capsule's core segment (local Y, -hh to +hh).
PABD_HD void capsule_segment(Real half_height, const ShapePose& pose, Vec3& p0, Vec3& p1) {
  const Vec3 axis = column(pose.rotation, 1);
  p0 = pose.position - half_height * axis;
  p1 = pose.position + half_height * axis;
}

// Closest points ----------------------------------------------------------------

/// Parameter t in [0, 1] of the point of segment [a, b] closest to p.
PABD_HD Real closest_on_segment(Vec3 p, Vec3 a, Vec3 b) {
  const Vec3 d = b - a;
  const Real dd = dot(d, d);
  return dd > 0 ? clamp_real(dot(p - a, d) / dd, 0, 1) : Real(0);
}

/// Closest points of segments [p1, q1] and [p2, q2]: parameters s, t in [0, 1]
/// (the points are p1 + s (q1 - p1) and p2 + t (q2 - p2)). For parallel
/// segments the pair is one of the closest pairs (s picked as 0 first).
PABD_HD void closest_segment_segment(Vec3 p1, Vec3 q1, Vec3 p2, Vec3 q2, Real& s, Real& t) {
  const Vec3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
  const Real a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r);
  // Degenerate segments reduce to point-segment.
  if (a <= 0 && e <= 0) {
    s = t = 0;
    return;
  }
  if (a <= 0) {
    s = 0;
    t = clamp_real(f / e, 0, 1);
    return;
  }
  const Real c = dot(d1, r);
  if (e <= 0) {
    t = 0;
    s = clamp_real(-c / a, 0, 1);
    return;
  }
  // Unconstrained minimiser of |p1 + s d1 - p2 - t d2|^2 in s, then t from s,
  // then s again from a clamped t.
  const Real b = dot(d1, d2);
  const Real denom = a * e - b * b;  // >= 0, zero for parallel segments
  s = denom > Real(1e-14) * a * e ? clamp_real((b * f - c * e) / denom, 0, 1) : Real(0);
  t = (b * s + f) / e;
  if (t < 0) {
    t = 0;
    s = clamp_real(-c / a, 0, 1);
  } else if (t > 1) {
    t = 1;
    s = clamp_real((b - c) / a, 0, 1);
  }
}

/// Closest point of a box (body frame, half extents h) to body-frame point p.
PABD_HD Vec3 closest_on_box(Vec3 half, Vec3 p) {
  return {clamp_real(p.x, -half.x, half.x), clamp_real(p.y, -half.y, half.y),
          clamp_real(p.z, -half.z, half.z)};
}

/// Whether body-frame segment [p0, p1] meets the box (slab clipping).
PABD_HD bool segment_meets_box(Vec3 half, Vec3 p0, Vec3 p1) {
  Real t0 = 0, t1 = 1;
  for (int i = 0; i < 3; ++i) {
    const Real a = get(p0, i), d = get(p1, i) - a, h = get(half, i);
    if (d == 0) {
      if (a < -h || a > h) return false;
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
    if (t0 > t1) return false;
  }
  return true;
}

/// Closest points between a body-frame segment [p0, p1] that does not meet the
/// box and the box: the point on the segment and the point on the box. The
/// closest pair is an end point against the box or the segment against one of
/// the 12 edges (a segment interior point closest to a face interior would
/// make the segment parallel to that face, and then a pair over an edge or an
/// end point is as close), so the minimum over these 14 candidates is exact.
PABD_HD Real closest_segment_box(Vec3 half, Vec3 p0, Vec3 p1, Vec3& on_segment, Vec3& on_box) {
  on_segment = p0;
  on_box = closest_on_box(half, p0);
  Real best = length_squared(p0 - on_box);
  const Vec3 q1 = closest_on_box(half, p1);
  if (length_squared(p1 - q1) < best) {
    best = length_squared(p1 - q1);
    on_segment = p1;
    on_box = q1;
  }
  for (int e = 0; e < 12; ++e) {
    Vec3 a, b;
    box_edge_points(half, e, a, b);
    Real s, t;
    closest_segment_segment(p0, p1, a, b, s, t);
    const Vec3 ps = lerp(p0, p1, s), pb = lerp(a, b, t);
    const Real d2 = length_squared(ps - pb);
    if (d2 < best) {
      best = d2;
      on_segment = ps;
      on_box = pb;
    }
  }
  return std::sqrt(best);
}

}  // namespace pabd
