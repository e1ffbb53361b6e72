// A detection's arrays in a backend's memory (contact_stages.h): one step's
// contacts (ContactSet; a detector keeps two, this step's and the previous
// one's, for the matching) and the per-candidate scratch. The host's arrays
// are ScratchArrays (contact_detect.h), a device's DeviceArrays.
#pragma once

#include <cstdint>

#include "collision/contact_manifold.h"
#include "model/contact_arrays.h"

namespace pabd {

/// One step's contacts, and its candidates' keys and contact ranges for
/// matching, in the backend's memory (contact_arrays.h names the fields).
template <typename Backend>
struct ContactSet {
  template <typename T>
  using Array = typename Backend::template Array<T>;

  int count = 0;             ///< contacts
  int pairs = 0;             ///< candidates
  int body_pairs = 0;        ///< candidates that are body pairs (the rest are plane pairs)
  Array<std::uint64_t> key;  ///< per candidate (contact_detect_kernels.h)
  Array<int> begin;          ///< per candidate: first contact
  Array<int> end;            ///< per candidate: one past its last contact
  Array<int> end_body;       ///< per end
  Array<Real> end_radius;    ///< per end
  Array<Vec3> slot_local;    ///< per slot
  Array<Vec3> normal;        ///< per contact, and so on (contact_arrays.h)
  Array<Real> friction;
  Array<Real> restitution;
  Array<Real> approach_velocity;
  Array<Real> gap_offset;
  Array<Real> start_gap;
  Array<Real> anchor_reach;
  Array<Real> separation;
  Array<std::uint32_t> feature;
  Array<Real> penalty;
  Array<Real> normal_penalty;
  Array<Vec3> lambda;
  Array<std::uint8_t> sticking;
  Array<Real> end_weight;  ///< per end
  Array<Real> end_scale;   ///< per end
};

/// Calls f(count, what, array...) for each array of one or more ContactSets
/// that a detection carries to the next (the matching's keys and ranges, the
/// contacts with their multipliers and anchors), in one fixed order, for a
/// set of n contacts and p candidates. Snapshots
/// (contacts/contact_snapshot.cpp) and the handover between a device's
/// detector and the host's (device/contact_handover.h) copy these.
template <typename F, typename... Sets>
void visit_carried_arrays(long long n, long long p, F&& f, Sets&... s) {
  f(p, "contact candidates", s.key...);
  f(p, "contact candidate ranges", s.begin...);
  f(p, "contact candidate ranges", s.end...);
  f(2 * n, "contact ends", s.end_body...);
  f(2 * n, "contact ends", s.end_radius...);
  f(kContactSlots * n, "contact anchors", s.slot_local...);
  f(n, "contacts", s.normal...);
  f(n, "contacts", s.friction...);
  f(n, "contacts", s.restitution...);
  f(n, "contacts", s.approach_velocity...);
  f(n, "contacts", s.gap_offset...);
  f(n, "contacts", s.start_gap...);
  f(n, "contacts", s.anchor_reach...);
  f(n, "contacts", s.separation...);
  f(n, "contacts", s.feature...);
  f(n, "contacts", s.penalty...);
  f(n, "contacts", s.normal_penalty...);
  f(n, "contacts", s.lambda...);
  f(n, "contacts", s.sticking...);
  f(2 * n, "contact ends", s.end_weight...);
  f(2 * n, "contact ends", s.end_scale...);
}

/// The per-candidate scratch of a detection.
template <typename Backend>
struct CandidateScratch {
  template <typename T>
  using Array = typename Backend::template Array<T>;

  Array<Real> reach;          ///< per body: how far it can move in the step
  Array<int> manifold_begin;  ///< per candidate + 1: first manifold
  Array<int> manifold_count;  ///< per candidate
  Array<ContactManifold> manifolds;
  Array<long long> block_sums;
  Array<int> point_count;         ///< per candidate: its manifolds' points
  Array<int> near;                ///< per candidate: 1 = its contacts go first (near ones)
  Array<int> previous_candidate;  ///< per candidate: its match in the previous step, or -1
  /// Per contact: its constants packed for the iterations (ContactRecord),
  /// written by contact_prepare_kernel; rebuilt every step, never carried.
  Array<ContactRecord> record;
};

/// This step's contact pairs (contact_arrays.h): the candidates with points,
/// listed by their first dynamic body; and the merge that lists them.
template <typename Backend>
struct ContactPairSet {
  template <typename T>
  using Array = typename Backend::template Array<T>;

  int count = 0;
  Array<int> begin;           ///< per pair: first contact
  Array<int> end;             ///< per pair: one past its last contact
  Array<int> body;            ///< per pair end
  Array<std::uint8_t> round;  ///< per pair
  Array<PairRecord> record;   ///< per pair (PairRecord)
  Array<std::uint8_t> quiet;  ///< per pair
  Array<BondEndSums> sums;    ///< per pair end
  Array<Real> weight;         ///< per pair end
  Array<Mat3> second_moment;  ///< per pair end
  // The merge of the body pairs and the plane pairs (contact_pairs_stage).
  Array<int> first_body_pair;   ///< per body + 1: its first body pair as the pairs' A end
  Array<int> first_plane_pair;  ///< per body + 1: its first plane pair
  Array<int> merged;            ///< per place in the merge: its candidate
  Array<int> slot;              ///< per place in the merge: its pair, if it has points
  Array<long long> block_sums;
};

/// The body-to-pair-end adjacency (CSR) of this step's pairs
/// (contact_adjacency_stage), and the scratch that builds it.
template <typename Backend>
struct ContactEndSet {
  template <typename T>
  using Array = typename Backend::template Array<T>;

  bool built = false;         ///< begin holds the last detection's bodies + 1 entries
  Array<int> begin;           ///< per body + 1: its first end in index
  Array<int> index;           ///< the pair ends on dynamic bodies, by body, in pair order
  Array<EndIdleBound> bound;  ///< beside index (ContactEnds::bound)
  Array<int> fill;            ///< the counting sort's cursors, per body
  Array<std::uint64_t> sort_key, sort_key_tmp;  ///< the sort's: per end, its body
  Array<int> sort_tmp, radix_counts;
};

/// The load-aware penalties' scratch (contact_load_stage): per pair end,
/// per body, per free articulation.
template <typename Backend>
struct ContactLoadSet {
  template <typename T>
  using Array = typename Backend::template Array<T>;

  int weights = 0;                   ///< bodies of support_weight (0: none yet)
  Array<Real> pair_support;          ///< per pair end (contact_load.h)
  Array<Real> support_weight;        ///< per body: U, the sum of its supports' verticality
  Array<Real> supported_scratch;     ///< per body: the other half of the Jacobi rounds
  Array<Real> support_drop;          ///< per body: its nearest support as a drop
  Array<Real> articulation_support;  ///< per articulation root: sum of U
  Array<Real> articulation_hanging;  ///< per articulation root: unsupported mass
  Array<Real> hung_mass;             ///< per body: the share it carries (contact_load.h)
};

}  // namespace pabd
