// Kernels of the detect stage (contact_detect.h): one call per body or per
// candidate pair, writing only their own index, so the contacts are the same
// for any thread count.
//
//   reach      per body: how far any of its points can move during the step
//   manifold   per pair: the narrowphase (narrowphase_dispatch.h) with the
//              margin widened by both bodies' reach (speculative contacts);
//              compounds, height fields and meshes give one manifold per
//              touching pair of parts and normal
//   write      per pair: its points into the compacted contact arrays at its
//              prefix-sum offset, matched to the previous step's contacts by
//              (pair, feature id) for the warm start and friction anchors
//
// Candidates are the broadphase's body pairs (a < b, sorted) followed by its
// plane pairs (sorted by body, then plane). A body pair is collided as
// (A, B) = (a, b); a plane pair as (A, B) = (plane, body), so the normal runs
// out of the plane. Each segment keeps the broadphase's sort order, which the
// next step's matching uses for a binary search.
#pragma once

#include <cstdint>

#include "collision/broadphase_pairs.h"
#include "collision/contact_manifold.h"
#include "collision/narrowphase_dispatch.h"
#include "contacts/contact_bond.h"
#include "contacts/contact_restitution.h"
#include "model/contact_arrays.h"
#include "shapes/body_aabb.h"
#include "shapes/shape_geometry.h"

namespace pabd {

/// Key of an ordered body pair (first, second) for sorted look-ups.
PABD_HD std::uint64_t contact_pair_key(int first, int second) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(first)) << 32) |
         static_cast<std::uint32_t>(second);
}

/// The first index in [lo, hi) whose key_at(index) is not below `key`, or
/// hi: a binary search over keys that ascend with the index.
template <typename Key, typename KeyAt>
PABD_HD int first_index_not_below(int lo, int hi, Key key, const KeyAt& key_at) {
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (key_at(mid) < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/// The keys of an array, for first_index_not_below.
struct KeyArray {
  const std::uint64_t* keys;
  PABD_HD std::uint64_t operator()(int i) const { return keys[i]; }
};

/// Index of `key` in the ascending keys[lo .. hi), or -1.
PABD_HD int find_pair_key(const std::uint64_t* keys, int lo, int hi, std::uint64_t key) {
  const int at = first_index_not_below(lo, hi, key, KeyArray{keys});
  return at < hi && keys[at] == key ? at : -1;
}

/// The broadphase's candidates: body pairs, then plane pairs.
struct ContactCandidates {
  int body_pairs = 0;                      ///< number of body pairs
  int count = 0;                           ///< body pairs + plane pairs
  const BodyPair* pairs = nullptr;         ///< sorted by (a, b)
  const PlanePair* plane_pairs = nullptr;  ///< sorted by (body, plane)
  /// Sorted keys (min << 32 | max) of body pairs joined by a bond: they never collide.
  const std::uint64_t* joined = nullptr;
  int joined_count = 0;
  /// Per body: collision group and mask bits (null: every pair may touch).
  const std::uint32_t* group = nullptr;
  const std::uint32_t* mask = nullptr;
};

/// True when bodies a and b may touch: each is in a group the other's mask
/// names (BodyDef::collision_group, collision_mask).
PABD_HD bool filter_allows(const ContactCandidates& c, int a, int b) {
  return !c.group || ((c.group[a] & c.mask[b]) != 0 && (c.group[b] & c.mask[a]) != 0);
}

/// Shape A and shape B of candidate i (see the top of this file).
PABD_HD void candidate_bodies(const ContactCandidates& c, int i, int& a, int& b) {
  if (i < c.body_pairs) {
    a = c.pairs[i].a;
    b = c.pairs[i].b;
  } else {
    a = c.plane_pairs[i - c.body_pairs].plane;
    b = c.plane_pairs[i - c.body_pairs].body;
  }
}

/// Key of candidate i within its segment (body pairs: (a, b); plane pairs: (body, plane)).
PABD_HD std::uint64_t candidate_key(const ContactCandidates& c, int i) {
  if (i < c.body_pairs) return contact_pair_key(c.pairs[i].a, c.pairs[i].b);
  const PlanePair& p = c.plane_pairs[i - c.body_pairs];
  return contact_pair_key(p.body, p.plane);
}

/// How far any point of body i can move during the step [m]: the predicted
/// displacement |h v + h^2 g| plus the rotation chord min(|omega| h, 2) r
/// (r from shape_rotation_radius, as the broadphase fattens its boxes); 0 for
/// static bodies.
PABD_HD Real contact_reach(const ShapePoseView& v, int i, const AabbSettings& k) {
  if (v.is_static && v.is_static[i]) return 0;
  const Vec3 vel = v.velocity ? v.velocity[i] : Vec3{};
  const Real move = length(k.dt * vel + (k.dt * k.dt) * k.acceleration);
  Real turn = 0;
  if (v.angular_velocity) {
    const Real theta = length(v.angular_velocity[i]) * k.dt;
    turn = (theta < 2 ? theta : Real(2)) * shape_rotation_radius(v.shape[i]);
  }
  return move + turn;
}

/// Room for manifolds that candidate i needs: one for two convex shapes, up
/// to kMaxPairManifolds when either is a compound, height field or mesh
/// (one per touching pair of parts and normal, narrowphase_composite.h).
PABD_HD int candidate_manifold_capacity(const ShapePoseView& v, const ContactCandidates& c, int i) {
  int a = 0, b = 0;
  candidate_bodies(c, i, a, b);
  return is_composite_shape(v.shape[a].type) || is_composite_shape(v.shape[b].type)
             ? kMaxPairManifolds
             : 1;
}

/// Narrowphase of candidate i at the start-of-step poses, keeping every point
/// whose separation is at most margin + reach_A + reach_B: any pair of points
/// that the step's motion could bring together. Pairs joined by a bond, or
/// kept apart by their collision filters, get no points. Writes up to capacity manifolds from
/// manifolds[manifold_begin[i]], their number to manifold_count[i] and their points' total to
/// counts[i].
PABD_HD void contact_manifold_kernel(const ShapePoseView& v, const Real* reach,
                                     const ContactCandidates& c, Real margin,
                                     const int* manifold_begin, ContactManifold* manifolds,
                                     int* manifold_count, int* counts, int i) {
  manifold_count[i] = 0;
  counts[i] = 0;
  int a = 0, b = 0;
  candidate_bodies(c, i, a, b);
  const std::uint64_t joint_key = a < b ? contact_pair_key(a, b) : contact_pair_key(b, a);
  if (c.joined_count > 0 && find_pair_key(c.joined, 0, c.joined_count, joint_key) >= 0) return;
  if (!filter_allows(c, a, b)) return;
  const ShapePose pa{v.position[a], v.rotation[a]}, pb{v.position[b], v.rotation[b]};
  ContactManifold* own = manifolds + manifold_begin[i];
  const int n = collide_shape_pairs(v.shape[a], pa, v.shape[b], pb, margin + reach[a] + reach[b],
                                    own, manifold_begin[i + 1] - manifold_begin[i]);
  int points = 0;
  for (int k = 0; k < n; ++k) points += own[k].count;
  manifold_count[i] = n;
  counts[i] = points;
}

/// How close a candidate's nearest point must be for its contacts to go to
/// the front of the step's arrays (contact_near_kernel), in g h^2 [-].
inline constexpr Real kNearContactShare = Real(0.1);

/// The previous step's contacts, as the matching reads them. Pair p (in the
/// previous step's candidate order) owns contacts begin[p] .. end[p).
struct PreviousContacts {
  int body_pairs = 0;                      ///< candidates [0, body_pairs) are body pairs
  int pairs = 0;                           ///< all candidates
  const std::uint64_t* key = nullptr;      ///< per candidate, ascending in each segment
  const int* begin = nullptr;              ///< per candidate: its first contact
  const int* end = nullptr;                ///< per candidate: one past its last
  const std::uint32_t* feature = nullptr;  ///< per contact
  const Vec3* slot_local = nullptr;        ///< per slot: anchors
  const Vec3* lambda = nullptr;            ///< per contact: at the end of its step
  const std::uint8_t* sticking = nullptr;  ///< per contact
  /// Per contact: approach velocity at the start of its step [m/s] (an impact's
  /// multiplier is not carried over, contacts/contact_bond.h).
  const Real* approach_velocity = nullptr;
};

/// Index of the previous step's candidate with the same pair key, or -1.
PABD_HD int previous_pair(const PreviousContacts& p, bool plane_pair, std::uint64_t key) {
  if (p.pairs == 0) return -1;
  const int lo = plane_pair ? p.body_pairs : 0, hi = plane_pair ? p.pairs : p.body_pairs;
  return find_pair_key(p.key, lo, hi, key);
}

/// Candidate i's match in the previous step (previous_pair, into
/// previous_candidate[i]), and 1 when it is near: a point within `near` [m]
/// (its manifolds' least separation), or a match that pushed at the end of
/// its step (a resting pile's boxes stand on their multipliers with their
/// 1 mm gaps still open in the first steps). The near candidates' contacts
/// are stored first, densely, apart from the speculative ones, which most
/// iterations skip (contact_kernels.h); 0 otherwise, or without points.
PABD_HD int contact_near_kernel(const ContactCandidates& c, const std::uint64_t* key,
                                const ContactManifold* manifolds, const int* manifold_begin,
                                const int* manifold_count, const PreviousContacts& prev, Real near,
                                int* previous_candidate, int i) {
  const int q = previous_pair(prev, i >= c.body_pairs, key[i]);
  previous_candidate[i] = q;
  if (manifold_count[i] == 0) return 0;
  for (int mi = 0; mi < manifold_count[i]; ++mi) {
    const ContactManifold& m = manifolds[manifold_begin[i] + mi];
    for (int j = 0; j < m.count; ++j)
      if (m.points[j].separation <= near) return 1;
  }
  if (q >= 0)
    for (int k = prev.begin[q]; k < prev.end[q]; ++k) {
      const Vec3 l = prev.lambda[k];
      if (l.x != 0 || l.y != 0 || l.z != 0) return 1;
    }
  return 0;
}

/// Index of the previous contact of candidate `pair` (previous_pair) with the
/// same feature id, or -1.
PABD_HD int previous_contact(const PreviousContacts& p, int pair, std::uint32_t feature) {
  if (pair < 0) return -1;
  for (int k = p.begin[pair]; k < p.end[pair]; ++k)
    if (p.feature[k] == feature) return k;
  return -1;
}

/// Where the write kernel puts a step's contacts (struct of arrays; see contact_arrays.h).
struct ContactOutput {
  int* end_body = nullptr;            ///< per end
  Real* end_radius = nullptr;         ///< per end
  Vec3* slot_local = nullptr;         ///< per slot
  Vec3* normal = nullptr;             ///< per contact
  Real* friction = nullptr;           ///< per contact
  Real* restitution = nullptr;        ///< per contact
  Real* approach_velocity = nullptr;  ///< per contact [m/s]
  Real* penalty = nullptr;            ///< per contact
  Real* normal_penalty = nullptr;     ///< per contact
  Real* gap_offset = nullptr;         ///< per contact
  Real* start_gap = nullptr;          ///< per contact [m]
  Real* anchor_reach = nullptr;       ///< per contact [m]
  Real* separation = nullptr;         ///< per contact: at detection [m]
  std::uint32_t* feature = nullptr;   ///< per contact
  Vec3* lambda = nullptr;             ///< per contact
  std::uint8_t* sticking = nullptr;   ///< per contact
};

/// Per body, what the write kernel reads besides the poses.
struct ContactBodyModel {
  const Real* mass = nullptr;         ///< [kg] (ignored for static bodies)
  const Real* friction = nullptr;     ///< Coulomb coefficient per body
  const Real* restitution = nullptr;  ///< per body (nullptr = all 0)
};

/// Radius of a round shape (sphere, capsule) around its core; 0 for the others,
/// whose contact points are material points of their surface.
PABD_HD Real contact_radius(const ShapeDef& s) {
  return (s.type == ShapeType::Sphere || s.type == ShapeType::Capsule) ? s.radius : Real(0);
}

/// Velocity of body i's world point p at the start of the step, v + w x (p - c)
/// (0 for a static body) [m/s].
PABD_HD Vec3 start_point_velocity(const ShapePoseView& v, int i, Vec3 p) {
  if (v.is_static && v.is_static[i]) return {};
  const Vec3 lin = v.velocity ? v.velocity[i] : Vec3{};
  return v.angular_velocity ? lin + cross(v.angular_velocity[i], p - v.position[i]) : lin;
}

/// Writes the points of candidate i's manifolds, in order, as contacts
/// offset[i] .. offset[i + 1]: anchors, normal, friction, restitution and the
/// start-of-step approach velocity, the penalty and the warm-started multiplier.
///
/// Anchors (contact_arrays.h). B's surface anchor is its narrowphase point; A's
/// is the point opposite it along the normal, world_b - separation n (the
/// narrowphase's A point already is, except where a box-box clip pairs a
/// vertex with the nearest face point), so the tangential slip starts at zero.
/// A round end's core anchor is its surface point moved back by its radius.
/// A contact between two non-round shapes whose match in the previous step
/// ended it sticking keeps the previous anchors: the slip since it first
/// touched is pulled back (static friction holds a block on a slope without
/// creep). A round end rolls, so its contacts always start from fresh anchors.
PABD_HD void contact_write_kernel(const ShapePoseView& v, const ContactBodyModel& body,
                                  const ContactCandidates& c, const ContactManifold* manifolds,
                                  const int* manifold_begin, const int* manifold_count,
                                  const int* offset, const int* offset_end,
                                  const PreviousContacts& prev, const int* previous_candidate,
                                  Real h2, Real impact_speed, const ContactOutput& out, int i) {
  const int points = offset_end[i] - offset[i];
  if (points == 0) return;
  int a = 0, b = 0;
  candidate_bodies(c, i, a, b);
  const ShapePose pa{v.position[a], v.rotation[a]}, pb{v.position[b], v.rotation[b]};
  const Real ra = contact_radius(v.shape[a]), rb = contact_radius(v.shape[b]);
  const bool static_a = v.is_static && v.is_static[a], static_b = v.is_static && v.is_static[b];
  const Real inv =
      (static_a ? Real(0) : Real(1) / body.mass[a]) + (static_b ? Real(0) : Real(1) / body.mass[b]);
  // The penalty: each point's share of the pair's m_eff / h^2 (all the
  // pair's points act on the same two bodies, whichever part they touch),
  // scaled below for a touching contact (contact_bond.h).
  const Real kappa = inv > 0 ? Real(1) / (h2 * inv * Real(points)) : Real(0);
  const Real mu = combined_friction(body.friction[a], body.friction[b]);
  const Real e =
      body.restitution ? combined_restitution(body.restitution[a], body.restitution[b]) : Real(0);
  // One search of the previous step's sorted keys per pair, not per point
  // (contact_near_kernel's): at 125k bodies each search missed the cache
  // about log2(pairs) times.
  const int prev_pair = previous_candidate[i];
  int k = offset[i];
  for (int mi = 0; mi < manifold_count[i]; ++mi) {
    const ContactManifold& m = manifolds[manifold_begin[i] + mi];
    const Vec3 n = m.normal;
    for (int j = 0; j < m.count; ++j, ++k) {
      const ContactPoint& p = m.points[j];
      out.end_body[2 * k] = a;
      out.end_body[2 * k + 1] = b;
      out.end_radius[2 * k] = ra;
      out.end_radius[2 * k + 1] = rb;
      out.normal[k] = n;
      out.friction[k] = mu;
      out.separation[k] = p.separation;
      out.feature[k] = p.feature;
      Vec3* x = out.slot_local + kContactSlots * k;
      x[1] = to_local(pa, p.world_b - p.separation * n);
      x[0] = ra > 0 ? to_local(pa, p.world_a - ra * n) : x[1];
      x[3] = p.local_b;
      x[2] = rb > 0 ? to_local(pb, p.world_b + rb * n) : x[3];
      const int q = previous_contact(prev, prev_pair, p.feature);
      if (q >= 0 && prev.sticking[q] && ra == 0 && rb == 0)
        for (int s = 0; s < kContactSlots; ++s) x[s] = prev.slot_local[kContactSlots * q + s];
      // The gap at the start pose (the narrowphase's, or the kept anchors'): of a
      // penetration the step pushes out only 1 - alpha (contact_bond.h).
      ContactPoints start;
      start.a_core = to_world(pa, x[0]);
      start.b_core = to_world(pb, x[2]);
      start.radius_a = ra;
      start.radius_b = rb;
      const Real g0 = contact_gap(start, n);
      out.gap_offset[k] = g0 < 0 ? kContactStabilization * g0 : Real(0);
      out.start_gap[k] = g0 - out.gap_offset[k];
      const Real reach_a = length(x[0]), reach_b = length(x[2]);
      out.anchor_reach[k] = reach_a > reach_b ? reach_a : reach_b;
      // Restitution (contact_restitution.h): the core anchors' normal velocity now.
      out.restitution[k] = e;
      out.approach_velocity[k] = dot(
          n, start_point_velocity(v, b, start.b_core) - start_point_velocity(v, a, start.a_core));
      out.sticking[k] = 0;
      const bool carried = q >= 0 && !(prev.approach_velocity[q] < -impact_speed);
      out.lambda[k] = carried ? contact_warm_start(prev.lambda[q], n) : Vec3{};
      out.penalty[k] = contact_penalty_scale(out.approach_velocity[k], impact_speed) * kappa;
      out.normal_penalty[k] = out.penalty[k];  // raised by the load stage (contact_load.h)
    }
  }
}

}  // namespace pabd
