// Struct-of-arrays views of one step's contacts, as the kernels see them.
//
// A contact is one point of a narrowphase manifold between body A and body B:
// the manifold's world normal n from A to B (fixed for the whole step), the
// pair's friction coefficient, and the augmented-Lagrangian state carried
// across steps from the contact with the same (A, B, feature id) in the
// previous step (contact_detect.h). Like a bond (bond_arrays.h) it reduces
// each iteration to weights and pulls on material points of its bodies.
//
// Each end (side 0 = A, side 1 = B, at end 2k + side) has a radius r and two
// slots (at slot 4k + 2 side + part):
// - part 0, the core anchor: where the normal acts. For a box or a plane it
//   is the surface point (r = 0). For a sphere or capsule it is the point of
//   its core (centre, segment) under the contact, and the surface point is
//   core + r n on A, core - r n on B, with n the step's normal: the support
//   point of the round shape whichever way the body turns, so a fast ball
//   cannot spin its anchor out of the way.
// - part 1, the surface anchor: where friction acts, a material point on the
//   surface (it turns with the body, so friction exerts its torque and a ball
//   can roll). For r = 0 it is the core anchor and the slot stays unused.
//
// Contacts come in pairs: all the points that one candidate pair of bodies
// produced (every manifold of a compound included) are contiguous, contacts
// pair_begin[m] .. pair_end[m), with the same two bodies in the same order
// (the touching pairs' contacts stored before the speculative ones',
// contacts/contact_detect.h, so pair_begin is not monotone in m).
// Pairs are listed by their first dynamic body (a body pair's lower index, a
// plane pair's body), not in contact order, so that a static split of the
// pair loop and of the body loop gives a thread mostly the pairs of its own
// bodies. The iterations evaluate a pair at a time (contacts/contact_kernels.h):
// its bodies' poses are read once, and its slots' weights and pulls are summed
// per end (BondEndSums, math/affine_system.h), so a body gathers one record
// per touching pair instead of one per contact slot.
//
// The contacts change every step, so each step builds its own body-to-pair-end
// adjacency (ContactEnds, a CSR array from a counting sort in pair order) and
// the per-body solve gathers those pair ends after its bond ends.
#pragma once

#include <cstdint>

#include "math/affine_system.h"
#include "pabd/math.h"

namespace pabd {

/// Slots per contact: A core, A surface, B core, B surface.
inline constexpr int kContactSlots = 4;

/// What tells a whole contact pair idle without reading its contacts
/// (contact_kernels.h, pair_surely_idle), fixed for the step: the smallest
/// start gap of its contacts and the farthest of their core anchors from
/// their bodies' centres.
struct PairIdleBound {
  Real start_gap = 0;  ///< min over the pair's contacts of start_gap [m]
  Real reach = 0;      ///< max over the pair's contacts of anchor_reach [m]
};

/// One contact's constants of the step, packed for the iterations: what
/// evaluating the contact reads besides its multiplier and sticking flag
/// (and, for a round end, its radii and surface anchors), copied from the
/// arrays below by contact_prepare_kernel once the step's penalties are
/// final. Why: a pair's four contacts spread over eleven arrays took some 20
/// cache lines per evaluation, here 10; in a pile that outgrows the cache
/// (pile_50's 3 million contacts) each was a miss, twice per iteration.
/// Ordered as an evaluation reads it: the idle test's fields first.
struct ContactRecord {
  Vec3 normal;                  ///< ContactArrays::normal
  Real start_gap = 0;           ///< ContactArrays::start_gap [m]
  Real anchor_reach = 0;        ///< ContactArrays::anchor_reach [m]
  Real gap_offset = 0;          ///< ContactArrays::gap_offset [m]
  Vec3 a_core;                  ///< A's core anchor, slot 4k (body frame) [m]
  Vec3 b_core;                  ///< B's core anchor, slot 4k + 2 [m]
  Real normal_penalty = 0;      ///< ContactArrays::normal_penalty [N/m]
  Real penalty = 0;             ///< ContactArrays::penalty [N/m]
  Real friction = 0;            ///< ContactArrays::friction
  Real end_weight[2] = {0, 0};  ///< ContactArrays::end_weight of ends A, B
  Real end_scale[2] = {0, 0};   ///< ContactArrays::end_scale of ends A, B
};

/// One pair's record for the iterations: where its contacts are and its two
/// bodies, copied from the pair arrays below, and its idle bound, all written
/// by contact_pair_prepare_kernel. An evaluation reads them first, all
/// together, and as four arrays they were four misses per live pair in a
/// pile that outgrows the cache; here one line.
struct alignas(32) PairRecord {
  int begin = 0;         ///< ContactArrays::pair_begin
  int end = 0;           ///< ContactArrays::pair_end
  int body[2] = {0, 0};  ///< ContactArrays::pair_body of ends A, B
  PairIdleBound bound;   ///< the pair's idle bound (contact_pair_prepare_kernel)
};

struct ContactArrays {
  int count = 0;  ///< number of contacts this step

  // Model of this step (from detection).
  const int* end_body = nullptr;     ///< per end (2 per contact): body index (never the world)
  const Real* end_radius = nullptr;  ///< per end: radius of a round end, 0 otherwise [m]
  const Vec3* slot_local = nullptr;  ///< per slot (4 per contact): anchor, body frame [m]
  const Vec3* normal = nullptr;      ///< per contact: unit world normal from A to B
  const Real* friction = nullptr;    ///< per contact: Coulomb coefficient mu of the pair
  /// Per contact: coefficient of restitution of the pair, max(e_a, e_b)
  /// (contacts/contact_restitution.h).
  const Real* restitution = nullptr;
  /// Per contact: normal velocity n . (v_b - v_a) of the core anchors at the
  /// start of the step; < 0 = approaching [m/s].
  const Real* approach_velocity = nullptr;
  /// Per contact: the penalty kappa = m_eff / (h^2 p), p the points of its
  /// body pair (contact_bond.h); friction's [N/m].
  const Real* penalty = nullptr;
  /// Per contact: the normal's penalty, kappa raised to the mass the contact
  /// carries (contacts/contact_load.h) [N/m].
  const Real* normal_penalty = nullptr;
  /// Per contact: alpha min(g_0, 0) for its gap g_0 at the start of the step,
  /// the part of an old penetration the step keeps (contact_bond.h) [m].
  const Real* gap_offset = nullptr;
  /// Per contact: the gap it acts on (contact_solve_gap) at the start-of-step
  /// poses [m]; with the bodies' motion bounds it tells a contact that cannot
  /// push yet without evaluating it (contact_kernels.h).
  const Real* start_gap = nullptr;
  /// Per contact: the larger distance of its two core anchors from their
  /// bodies' centres, max(|x_a|, |x_b|) [m]; with start_gap for the same test.
  const Real* anchor_reach = nullptr;

  // Augmented-Lagrangian state, warm-started from the previous step.
  /// Multiplier [N], world vector: the force on B (A gets its opposite) at
  /// zero violation; its normal part is a push (>= 0), its tangential part
  /// lies in the friction cone.
  Vec3* lambda = nullptr;
  std::uint8_t* sticking = nullptr;  ///< 1 = static friction held at the last dual update

  // Per-step constants of the iterations (contact_prepare_kernel): per end,
  // the weight h^2 kappa / s of its slots and the scale s / kappa that turns
  // the contact force into its correction, for its share s (bond_shares.h);
  // both 0 for a static end.
  Real* end_weight = nullptr;
  Real* end_scale = nullptr;
  /// Per contact: its ContactRecord, written with the end scales; the
  /// iterations' pair evaluations read it (contacts/contact_kernels.h).
  ContactRecord* record = nullptr;

  // Pairs: the contacts of one body pair, contiguous (see the top of this file).
  int pair_count = 0;
  const int* pair_begin = nullptr;  ///< per pair: first contact
  const int* pair_end = nullptr;    ///< per pair: one past its last contact
  const int* pair_body = nullptr;   ///< per pair end (2 per pair: A, B): body index
  /// Per pair: 1 when either end is round (end_radius > 0, the same for all
  /// its contacts): which kernel evaluates it, known without a contact's data.
  const std::uint8_t* pair_round = nullptr;
  /// Per pair: its PairRecord, idle bound included (contact_pair_prepare_kernel).
  PairRecord* pair_record = nullptr;
  /// Per pair: 1 while each of its contacts has lambda = 0 and sticking = 0,
  /// kept by the evaluations that update them (contact_kernels.h).
  std::uint8_t* pair_quiet = nullptr;

  // Per-iteration output, read by the per-body gather: per pair end, the sums
  // of its slots' weights w and pulls (w * target + h^2 * explicit force),
  // and apart, densely, the sum of the weights: an end of weight 0 (most of a
  // pile's) is told by 8 bytes and its 128-byte record is neither written nor read.
  BondEndSums* pair_sums = nullptr;
  Real* pair_weight = nullptr;
  /// Per pair end: sum of w x x^T, written only for the paper's local step
  /// (contact_pair_weights_kernel's need_second_moment).
  Mat3* pair_second_moment = nullptr;
};

/// A pair end's idle bound where its body lists it (ContactEnds::bound): the
/// pair's PairIdleBound, the pair's other body and the end itself, so that a
/// colored sweep tells a quiet speculative pair idle from its body's own list
/// and the other body's motion, without the pair's records. 16 bytes: a
/// pile's body lists 26 pair ends, most of them idle, and a sweep streams
/// the lists every iteration. The bound in floats, rounded outwards (the gap
/// down, the reach up), tells idle only what the doubles would.
struct EndIdleBound {
  float start_gap = 0;  ///< the pair's PairIdleBound::start_gap, rounded down [m]
  float reach = 0;      ///< its reach, rounded up [m]
  int other = 0;        ///< the pair's other body
  int end = 0;          ///< the pair end (ContactEnds::index at the same place)
};

/// What the per-body stages read of the contacts: the ends of the pairs
/// touching body i are index[begin[i] .. begin[i+1]), in pair order, pair end
/// e = 2 m + side belonging to pair m = e / 2 (whose contacts are
/// ContactArrays::pair_begin[m] .. pair_end[m)). Static bodies have none.
/// begin == nullptr means no contacts.
struct ContactEnds {
  const int* begin = nullptr;           ///< per body + 1: CSR offsets
  const int* index = nullptr;           ///< pair end ids, body by body, in pair order
  const Real* weight = nullptr;         ///< per pair end: sums' weight (0: nothing to add)
  const BondEndSums* sums = nullptr;    ///< per pair end, valid where weight != 0
  const Mat3* second_moment = nullptr;  ///< per pair end (paper's local step only)
  /// Beside index: each listed end's idle bound, written at the start of the
  /// step (contact_end_bound_kernel) and read by colored sweeps.
  EndIdleBound* bound = nullptr;
};

/// The contact pairs as a graph, in host memory: what host stages read of a
/// step's contacts (the colouring, the island momentum, the divergence
/// guard) where the contacts themselves may be in a device's memory
/// (device/device_contacts.h). Each pair's contacts join the same two bodies,
/// so a pass over its pairs sees every contact's bodies. end_begin ==
/// nullptr: no adjacency (no contacts).
struct ContactGraph {
  int pair_count = 0;
  const int* pair_body = nullptr;  ///< per pair end (ContactArrays::pair_body)
  const int* end_begin = nullptr;  ///< per body + 1 (ContactEnds::begin)
  const int* end_index = nullptr;  ///< ContactEnds::index
};

/// The graph of contacts in host memory.
inline ContactGraph contact_graph_of(const ContactArrays& c, const ContactEnds& e) {
  return {c.pair_count, c.pair_body, e.begin, e.index};
}

}  // namespace pabd
