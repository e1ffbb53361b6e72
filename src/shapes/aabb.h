// Axis-aligned bounding box and the few operations the broadphase needs.
// Every operation is a min/max or an exact comparison, so results do not
// depend on evaluation order (the tree refit relies on this).
#pragma once

#include "pabd/math.h"

namespace pabd {

/// Axis-aligned box [lo, hi] in world coordinates [m].
struct Aabb {
  Vec3 lo;  ///< minimum corner [m]
  Vec3 hi;  ///< maximum corner [m]
};

/// Per-axis minimum of two vectors.
PABD_HD Vec3 componentwise_min(Vec3 a, Vec3 b) {
  return {b.x < a.x ? b.x : a.x, b.y < a.y ? b.y : a.y, b.z < a.z ? b.z : a.z};
}
/// Per-axis maximum of two vectors.
PABD_HD Vec3 componentwise_max(Vec3 a, Vec3 b) {
  return {a.x < b.x ? b.x : a.x, a.y < b.y ? b.y : a.y, a.z < b.z ? b.z : a.z};
}

/// The box that contains nothing (lo = +huge, hi = -huge): the identity of aabb_union.
PABD_HD Aabb empty_aabb() {
  const Real big = Real(1e300);
  return {{big, big, big}, {-big, -big, -big}};
}

/// True when the closed boxes share at least one point (touching counts).
PABD_HD bool aabb_overlap(const Aabb& a, const Aabb& b) {
  return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y &&
         a.lo.z <= b.hi.z && b.lo.z <= a.hi.z;
}

/// Smallest box containing both.
PABD_HD Aabb aabb_union(const Aabb& a, const Aabb& b) {
  return {componentwise_min(a.lo, b.lo), componentwise_max(a.hi, b.hi)};
}

/// The box grown by `margin` [m] on every side.
PABD_HD Aabb aabb_fatten(const Aabb& a, Real margin) {
  const Vec3 m{margin, margin, margin};
  return {a.lo - m, a.hi + m};
}

/// The box swept by translating `a` along `d` [m]: the union of a and a + d.
PABD_HD Aabb aabb_expand(const Aabb& a, Vec3 d) {
  return {componentwise_min(a.lo, a.lo + d), componentwise_max(a.hi, a.hi + d)};
}

/// Centre of the box [m].
PABD_HD Vec3 aabb_center(const Aabb& a) { return Real(0.5) * (a.lo + a.hi); }

/// True when p lies in the closed box.
PABD_HD bool aabb_contains(const Aabb& a, Vec3 p) {
  return a.lo.x <= p.x && p.x <= a.hi.x && a.lo.y <= p.y && p.y <= a.hi.y && a.lo.z <= p.z &&
         p.z <= a.hi.z;
}

/// True when every coordinate is finite and lo <= hi on every axis.
PABD_HD bool aabb_valid(const Aabb& a) {
  const Real big = Real(1e300);
  // Written as comparisons so NaN fails every one of them.
  return a.lo.x <= a.hi.x && a.lo.y <= a.hi.y && a.lo.z <= a.hi.z && a.lo.x >= -big &&
         a.lo.y >= -big && a.lo.z >= -big && a.hi.x <= big && a.hi.y <= big && a.hi.z <= big;
}

}  // namespace pabd
