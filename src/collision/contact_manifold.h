// A contact manifold: what the narrowphase reports for one pair of shapes.
//
// One unit normal for the pair, from shape A toward shape B, and up to four
// points. Each point has a world point on A's surface and one on B's, the same
// points in each body's frame (where friction bonds anchor), the signed
// separation dot(point_b - point_a, normal) (negative = penetration, never
// clamped) and a feature id naming the pair of features (vertex, edge, face)
// that produced it, so that a manifold can be matched point by point from one
// step to the next (warm starting, friction anchors).
//
// Point selection when more than four candidates exist (box-box clipping):
// the deepest point first, then the point farthest from it, then the point
// making the largest triangle with those two, then the point adding the most
// area to that triangle (a quadrilateral of near-maximal area that always
// contains the deepest point).
#pragma once

#include <cmath>
#include <cstdint>

#include "pabd/config.h"
#include "pabd/math.h"
#include "shapes/shape_feature.h"

namespace pabd {

/// Most points a manifold holds.
inline constexpr int kMaxContactPoints = 4;

/// Feature id: byte 3 = A's kind, byte 2 = A's index, byte 1 = B's kind, byte 0 = B's index.
PABD_HD std::uint32_t make_feature_id(FeatureKind kind_a, int index_a, FeatureKind kind_b,
                                      int index_b) {
  return (static_cast<std::uint32_t>(kind_a) << 24) |
         (static_cast<std::uint32_t>(index_a & 0xff) << 16) |
         (static_cast<std::uint32_t>(kind_b) << 8) | static_cast<std::uint32_t>(index_b & 0xff);
}
/// The same feature pair seen from the other shape (A and B swapped).
PABD_HD std::uint32_t swapped_feature_id(std::uint32_t id) {
  return ((id & 0xffffu) << 16) | (id >> 16);
}

/// One contact point of a manifold.
struct ContactPoint {
  Vec3 world_a;               ///< point on A's surface, world frame [m]
  Vec3 world_b;               ///< point on B's surface, world frame [m]
  Vec3 local_a;               ///< world_a in A's body frame [m]
  Vec3 local_b;               ///< world_b in B's body frame [m]
  Real separation = 0;        ///< dot(world_b - world_a, normal) [m]; < 0 = penetration
  std::uint32_t feature = 0;  ///< feature pair (make_feature_id), stable while the contact persists
};

/// All contact points of one shape pair.
struct ContactManifold {
  int count = 0;                                ///< number of valid points (0..kMaxContactPoints)
  Vec3 normal{0, 1, 0};                         ///< unit, from shape A toward shape B
  ContactPoint points[kMaxContactPoints] = {};  ///< points[0] is the deepest
};

/// Appends a point (world points only; local points are filled by the dispatcher).
/// Ignored when the manifold is full.
PABD_HD void add_contact_point(ContactManifold& m, Vec3 world_a, Vec3 world_b, Real separation,
                               std::uint32_t feature) {
  if (m.count >= kMaxContactPoints) return;
  ContactPoint& p = m.points[m.count++];
  p.world_a = world_a;
  p.world_b = world_b;
  p.separation = separation;
  p.feature = feature;
}

/// Moves the deepest point (lowest separation, first on ties) to index 0,
/// keeping the others' cyclic order.
PABD_HD void deepest_point_first(ContactManifold& m) {
  int deepest = 0;
  for (int i = 1; i < m.count; ++i)
    if (m.points[i].separation < m.points[deepest].separation) deepest = i;
  if (deepest == 0) return;
  ContactPoint rotated[kMaxContactPoints];
  for (int i = 0; i < m.count; ++i) rotated[i] = m.points[(i + deepest) % m.count];
  for (int i = 0; i < m.count; ++i) m.points[i] = rotated[i];
}

/// The manifold of the swapped pair (B, A): normal negated, A and B exchanged.
PABD_HD ContactManifold flipped(const ContactManifold& m) {
  ContactManifold out = m;
  out.normal = -m.normal;
  for (int i = 0; i < m.count; ++i) {
    out.points[i].world_a = m.points[i].world_b;
    out.points[i].world_b = m.points[i].world_a;
    out.points[i].local_a = m.points[i].local_b;
    out.points[i].local_b = m.points[i].local_a;
    out.points[i].feature = swapped_feature_id(m.points[i].feature);
  }
  return out;
}

/// A candidate point before selection (world point on A, on B, separation, id).
struct ContactCandidate {
  Vec3 world_a;
  Vec3 world_b;
  Real separation = 0;
  std::uint32_t feature = 0;
};

/// Middle of a candidate's two points.
PABD_HD Vec3 candidate_middle(const ContactCandidate& c) {
  return Real(0.5) * (c.world_a + c.world_b);
}

/// Fills `m` (whose normal is set) with up to four of the `count` candidates:
/// all of them when there are at most four (deepest moved first), else the
/// selection described at the top of this file. `normal` orients areas.
PABD_HD void select_contact_points(ContactManifold& m, const ContactCandidate* c, int count) {
  m.count = 0;
  if (count <= kMaxContactPoints) {
    for (int i = 0; i < count; ++i)
      add_contact_point(m, c[i].world_a, c[i].world_b, c[i].separation, c[i].feature);
    deepest_point_first(m);
    return;
  }
  // Points are compared at the middle of each pair, which does not depend on
  // which shape is A (so swapping A and B selects the same points).
  int chosen[kMaxContactPoints];
  // 1. Deepest.
  chosen[0] = 0;
  for (int i = 1; i < count; ++i)
    if (c[i].separation < c[chosen[0]].separation) chosen[0] = i;
  // 2. Farthest from the first.
  const Vec3 p0 = candidate_middle(c[chosen[0]]);
  chosen[1] = chosen[0] == 0 ? 1 : 0;
  for (int i = 0; i < count; ++i) {
    if (i == chosen[0]) continue;
    const Vec3 d = candidate_middle(c[i]) - p0, e = candidate_middle(c[chosen[1]]) - p0;
    if (dot(d, d) > dot(e, e)) chosen[1] = i;
  }
  // 3. Largest triangle with the first two (signed area about the normal).
  const Vec3 p1 = candidate_middle(c[chosen[1]]);
  Real best_area = -1;
  Real best_signed = 0;
  chosen[2] = -1;
  for (int i = 0; i < count; ++i) {
    if (i == chosen[0] || i == chosen[1]) continue;
    const Real signed_area = dot(cross(p1 - p0, candidate_middle(c[i]) - p0), m.normal);
    if (std::fabs(signed_area) > best_area) {
      best_area = std::fabs(signed_area);
      best_signed = signed_area;
      chosen[2] = i;
    }
  }
  // 4. The point outside the triangle that adds the most area: for each edge
  // (a, b) of the triangle taken counter-clockwise about the normal, the
  // triangle (a, q, b) has positive area when q lies beyond that edge.
  const Real orient = best_signed >= 0 ? Real(1) : Real(-1);
  const Vec3 tri[3] = {p0, p1, candidate_middle(c[chosen[2]])};
  Real best_added = -1e300;
  chosen[3] = -1;
  for (int i = 0; i < count; ++i) {
    if (i == chosen[0] || i == chosen[1] || i == chosen[2]) continue;
    const Vec3 q = candidate_middle(c[i]);
    Real added = -1e300;
    for (int k = 0; k < 3; ++k) {
      const Vec3 a = tri[k], b = tri[(k + 1) % 3];
      const Real area = orient * dot(cross(q - a, b - a), m.normal);
      added = area > added ? area : added;
    }
    if (added > best_added) {
      best_added = added;
      chosen[3] = i;
    }
  }
  for (int k = 0; k < kMaxContactPoints; ++k) {
    const ContactCandidate& p = c[chosen[k]];
    add_contact_point(m, p.world_a, p.world_b, p.separation, p.feature);
  }
}

}  // namespace pabd
