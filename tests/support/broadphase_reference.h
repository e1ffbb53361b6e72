// Brute-force O(n^2) broadphase: the reference the tests compare the LBVH
// with. Written independently of the tree code (its own overlap and plane
// tests, plain loops in (i, j) order), so both must agree pair for pair.
#pragma once

#include <vector>

#include "collision/broadphase.h"

namespace pabd {

/// All pairs i < j, not both static, whose closed boxes overlap, in (i, j) order.
inline std::vector<BodyPair> brute_force_pairs(const AabbView& v) {
  std::vector<BodyPair> out;
  auto planar = [&v](int i) { return v.is_plane && v.is_plane[i]; };
  auto fixed = [&v](int i) { return v.is_static && v.is_static[i]; };
  for (int i = 0; i < v.count; ++i) {
    if (planar(i)) continue;
    const Aabb a = v.box[i];
    for (int j = i + 1; j < v.count; ++j) {
      const Aabb& b = v.box[j];
      // Separated along some axis: no overlap.
      if (b.lo.x > a.hi.x || a.lo.x > b.hi.x || b.lo.y > a.hi.y || a.lo.y > b.hi.y ||
          b.lo.z > a.hi.z || a.lo.z > b.hi.z)
        continue;
      if (planar(j) || (fixed(i) && fixed(j))) continue;
      out.push_back(BodyPair{i, j});
    }
  }
  return out;
}

/// All (body, plane) pairs of a dynamic body whose box has a corner on the
/// solid side n . x <= d of a plane, in (body, plane) order.
inline std::vector<PlanePair> brute_force_plane_pairs(const AabbView& v) {
  std::vector<PlanePair> out;
  if (!v.is_plane) return out;
  std::vector<int> planes;
  for (int p = 0; p < v.count; ++p)
    if (v.is_plane[p]) planes.push_back(p);
  for (int i = 0; i < v.count; ++i) {
    if (v.is_plane[i] || (v.is_static && v.is_static[i])) continue;
    for (int p : planes) {
      // Try all eight corners.
      bool reaches = false;
      for (int c = 0; c < 8; ++c) {
        const Vec3 x{(c & 1) ? v.box[i].hi.x : v.box[i].lo.x,
                     (c & 2) ? v.box[i].hi.y : v.box[i].lo.y,
                     (c & 4) ? v.box[i].hi.z : v.box[i].lo.z};
        reaches = reaches || dot(v.plane[p].normal, x) <= v.plane[p].offset;
      }
      if (reaches) out.push_back(PlanePair{i, p});
    }
  }
  return out;
}

}  // namespace pabd
