// Ray casts against the convex primitives, each in its own frame (centre at
// the origin): the ray o + t d, 0 <= t <= t_max, enters the solid at the
// smallest such t, where the outward unit normal is reported too. d need not
// be unit: t is in units of |d| (a distance when d is unit).
//
// Solids: a ray that starts inside or on the surface hits at t = 0, with the
// normal -d / |d| (there is no surface to report; pointing back along the ray
// is what a caller that offsets the point along the normal wants).
//
// Each test is closed form: the sphere and the capsule's cylinder solve their
// quadratic from the point of closest approach (Haines et al., "Precision
// improvements for ray/sphere intersection", Ray Tracing Gems, 2019), which
// keeps full precision when the origin is far from a small shape; the box and
// the hull clip the ray by their faces' slabs and half-spaces (Kay and Kajiya
// 1986), and the face that clips last is the one entered.
#pragma once

#include <cmath>

#include "pabd/config.h"
#include "pabd/math.h"
#include "shapes/convex_polytope.h"
#include "shapes/shape_geometry.h"

namespace pabd {

/// Where a ray enters a shape, in the frame the ray was given in.
struct LocalRayHit {
  Real t = 0;   ///< ray parameter of the hit (a distance [m] for a unit direction)
  Vec3 normal;  ///< outward unit normal there; -d / |d| for a ray starting inside
};

/// The hit of a ray that starts inside a solid: t = 0, normal -d / |d|.
PABD_HD LocalRayHit ray_starts_inside(Vec3 d) {
  return LocalRayHit{0, normalized_or(-d, Vec3{0, 1, 0})};
}

/// Clips the parameter range [t0, t1] of the ray o + t d to the box [lo, hi]
/// (slabs); false when nothing is left. `axis` receives the axis whose slab
/// raised t0 last, unchanged when none did.
PABD_HD bool clip_ray_to_box(Vec3 o, Vec3 d, Vec3 lo, Vec3 hi, Real& t0, Real& t1, int& axis) {
  for (int i = 0; i < 3; ++i) {
    const Real a = get(o, i), di = get(d, i), l = get(lo, i), h = get(hi, i);
    if (di == 0) {  // parallel to the slab: inside it or never
      if (a < l || a > h) return false;
      continue;
    }
    const Real inv = Real(1) / di;
    Real enter = (l - a) * inv, leave = (h - a) * inv;
    if (enter > leave) {
      const Real tmp = enter;
      enter = leave;
      leave = tmp;
    }
    if (enter > t0) {
      t0 = enter;
      axis = i;
    }
    if (leave < t1) t1 = leave;
    if (t0 > t1) return false;
  }
  return true;
}

/// Ray against the ball of radius r about c.
PABD_HD bool ray_sphere(Vec3 o, Vec3 d, Vec3 c, Real r, Real t_max, LocalRayHit& hit) {
  const Vec3 m = o - c;
  if (dot(m, m) <= r * r) {
    hit = ray_starts_inside(d);
    return true;
  }
  const Real a = dot(d, d), b = dot(m, d);
  if (b >= 0) return false;  // outside and moving away
  // Closest approach at t_c; the chord's half length there is sqrt(h2 / a).
  const Real t_c = -b / a;
  const Vec3 q = m + t_c * d;
  const Real h2 = r * r - dot(q, q);
  if (h2 < 0) return false;
  Real t = t_c - std::sqrt(h2 / a);
  t = t > 0 ? t : Real(0);  // outside, so t >= 0 but for rounding
  if (t > t_max) return false;
  hit = LocalRayHit{t, normalized_or(m + t * d, normalized_or(-d, Vec3{0, 1, 0}))};
  return true;
}

/// Ray against the box |x_i| <= half_i.
PABD_HD bool ray_box(Vec3 o, Vec3 d, Vec3 half, Real t_max, LocalRayHit& hit) {
  if (std::fabs(o.x) <= half.x && std::fabs(o.y) <= half.y && std::fabs(o.z) <= half.z) {
    hit = ray_starts_inside(d);
    return true;
  }
  Real t0 = 0, t1 = t_max;
  int axis = -1;
  if (!clip_ray_to_box(o, d, -half, half, t0, t1, axis)) return false;
  if (axis < 0) {  // no slab was entered: inside but for rounding
    hit = ray_starts_inside(d);
    return true;
  }
  // The entered face faces the ray: its normal is against d along `axis`.
  hit = LocalRayHit{t0, set_component(Vec3{}, axis, get(d, axis) > 0 ? Real(-1) : Real(1))};
  return true;
}

/// Ray against the capsule of radius r about the segment y in [-hh, hh] of
/// the local Y axis: the nearest of its cylinder's side and its end balls (a
/// ray through a flat end of the cylinder is inside an end ball first).
PABD_HD bool ray_capsule(Vec3 o, Vec3 d, Real r, Real hh, Real t_max, LocalRayHit& hit) {
  const Real y = clamp_real(o.y, -hh, hh);
  if (o.x * o.x + (o.y - y) * (o.y - y) + o.z * o.z <= r * r) {
    hit = ray_starts_inside(d);
    return true;
  }
  bool found = false;
  Real best = t_max;
  // The infinite cylinder x^2 + z^2 = r^2, kept where |y| <= hh.
  const Real a = d.x * d.x + d.z * d.z;
  if (a > 0) {
    const Real b = o.x * d.x + o.z * d.z;
    const Real t_c = -b / a;
    const Real qx = o.x + t_c * d.x, qz = o.z + t_c * d.z;
    const Real h2 = r * r - (qx * qx + qz * qz);
    if (h2 >= 0) {
      const Real t = t_c - std::sqrt(h2 / a);
      if (t >= 0 && t <= best && std::fabs(o.y + t * d.y) <= hh) {
        const Vec3 p = o + t * d;
        hit = LocalRayHit{t, normalized_or(Vec3{p.x, 0, p.z}, Vec3{1, 0, 0})};
        best = t;
        found = true;
      }
    }
  }
  LocalRayHit cap;
  for (int k = 0; k < 2; ++k) {
    const Vec3 end{0, k == 0 ? -hh : hh, 0};
    if (ray_sphere(o, d, end, r, best, cap) && (!found || cap.t < best)) {
      hit = cap;
      best = cap.t;
      found = true;
    }
  }
  return found;
}

/// Ray against a convex hull: clipped by every face's half-space n . x <= offset.
PABD_HD bool ray_hull(Vec3 o, Vec3 d, const ConvexHullView& h, Real t_max, LocalRayHit& hit) {
  Real t0 = 0, t1 = t_max;
  int entered = -1;
  bool inside = true;
  for (int f = 0; f < h.face_count; ++f) {
    const Real height = dot(h.face_normal[f], o) - h.face_offset[f];
    const Real rate = dot(h.face_normal[f], d);
    inside = inside && height <= 0;
    if (rate == 0) {  // parallel to the face: behind it or never
      if (height > 0) return false;
      continue;
    }
    const Real t = -height / rate;
    if (rate < 0) {  // entering this half-space
      if (t > t0) {
        t0 = t;
        entered = f;
      }
    } else if (t < t1) {  // leaving it
      t1 = t;
    }
    if (t0 > t1) return false;
  }
  if (inside || entered < 0) {  // entered < 0: inside but for rounding
    hit = ray_starts_inside(d);
    return true;
  }
  hit = LocalRayHit{t0, h.face_normal[entered]};
  return true;
}

}  // namespace pabd
