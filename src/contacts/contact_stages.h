// The detect stage's per-candidate work, written once for the host
// (contact_detect.cpp) and a device (device/device_contacts.h): the
// narrowphase of every candidate with the contact offsets, then the contacts
// written at their offsets, matched to the previous step's.
//
// The backend (as collision/broadphase_pipeline.h's) gives the loops
// (loops(): each, each_block, serial, read), its arrays (Array<T>) and two
// ways to size them: room(array, n) for arrays the stage writes in full
// (the host maps them ahead of need), room_lazy(array, n) for arrays it
// writes in part (mapped as they are written). Every kernel writes only its
// own index, and the offsets are deterministic prefix sums over fixed
// blocks, so the contacts are the same for any thread count and on any
// backend.
#pragma once

#include <climits>
#include <cstdint>

#include "contacts/contact_detect_kernels.h"
#include "contacts/contact_load.h"
#include "contacts/contact_set.h"
#include "core/block_loops.h"

namespace pabd {

/// The previous step's contacts, as the matching reads them.
template <typename Backend>
PreviousContacts previous_contacts(const ContactSet<Backend>& prev) {
  PreviousContacts p;
  p.body_pairs = prev.body_pairs;
  p.pairs = prev.pairs;
  p.key = prev.key.data();
  p.begin = prev.begin.data();
  p.end = prev.end.data();
  p.feature = prev.feature.data();
  p.slot_local = prev.slot_local.data();
  p.lambda = prev.lambda.data();
  p.sticking = prev.sticking.data();
  p.approach_velocity = prev.approach_velocity.data();
  return p;
}

/// The narrowphase of every candidate of `cand` at the start-of-step poses,
/// and where each one's contacts go: near candidates' first, then the
/// others', each in candidate order (deterministic exclusive prefix sums of
/// the counts), so that the iterations read the touching pairs from a dense
/// block instead of between the speculative ones (contact_near_kernel).
/// Sets cur's pairs, body_pairs and count, and its keys, begin and end.
template <typename Backend>
void contact_narrowphase_stage(Backend& be, CandidateScratch<Backend>& s, ContactSet<Backend>& cur,
                               const ContactSet<Backend>& prev, const ShapePoseView& poses,
                               const ContactCandidates& cand, const AabbSettings& aabb) {
  const auto loops = be.loops();
  const int nb = poses.count, np = cand.count;
  cur.pairs = np;
  cur.body_pairs = cand.body_pairs;

  // Reach of every body over the step.
  Real* reach = be.room(s.reach, nb);
  loops.each(nb, [=] PABD_LAMBDA(int i) { reach[i] = contact_reach(poses, i, aabb); });

  // Room for each candidate's manifolds: a prefix sum of their capacities.
  int* manifold_begin = be.room(s.manifold_begin, np + 1LL);
  loops.each(np, [=] PABD_LAMBDA(int i) {
    manifold_begin[i] = candidate_manifold_capacity(poses, cand, i);
  });
  long long* block_sums = be.room(s.block_sums, loop_block_count(np) + 1LL);
  const long long room =
      block_exclusive_scan_on(loops, manifold_begin, manifold_begin, np, block_sums);
  if (room > INT_MAX / 2) throw Error("contacts: more than 2^30 manifolds in one step");
  const int manifold_room = static_cast<int>(room);
  loops.serial([=] PABD_LAMBDA() { manifold_begin[np] = manifold_room; });

  // Narrowphase per candidate; its point count goes to point_count[i], its key to key[i].
  ContactManifold* manifolds = be.room_lazy(s.manifolds, room);
  int* manifold_count = be.room(s.manifold_count, np);
  int* point_count = be.room(s.point_count, np);
  std::uint64_t* key = be.room(cur.key, np);
  const Real margin = aabb.margin;
  loops.each(np, [=] PABD_LAMBDA(int i) {
    contact_manifold_kernel(poses, reach, cand, margin, manifold_begin, manifolds, manifold_count,
                            point_count, i);
    key[i] = candidate_key(cand, i);
  });

  // Offsets: the near candidates' contacts first, then the others'.
  const PreviousContacts previous = previous_contacts(prev);
  int* previous_candidate = be.room(s.previous_candidate, np);
  int* near = be.room(s.near, np);
  int* begin = be.room(cur.begin, np);
  int* end = be.room(cur.end, np);
  const Real near_gap = kNearContactShare * length(aabb.acceleration) * aabb.dt * aabb.dt;
  loops.each(np, [=] PABD_LAMBDA(int i) {
    near[i] = contact_near_kernel(cand, key, manifolds, manifold_begin, manifold_count, previous,
                                  near_gap, previous_candidate, i);
    begin[i] = near[i] ? point_count[i] : 0;
    end[i] = near[i] ? 0 : point_count[i];
  });
  const long long near_total = block_exclusive_scan_on(loops, begin, begin, np, block_sums);
  const long long total = near_total + block_exclusive_scan_on(loops, end, end, np, block_sums);
  if (total > INT_MAX / 2) throw Error("contacts: more than 2^30 contacts in one step");
  const int near_count = static_cast<int>(near_total);
  loops.each(np, [=] PABD_LAMBDA(int i) {
    if (!near[i]) begin[i] = near_count + end[i];
    end[i] = begin[i] + point_count[i];
  });
  cur.count = static_cast<int>(total);
}

/// Each candidate writes its points at its offset (contact_narrowphase_stage),
/// warm-started from the previous step's matching contacts; room for the
/// per-end weights and scales and the iterations' records too.
template <typename Backend>
void contact_write_stage(Backend& be, CandidateScratch<Backend>& s, ContactSet<Backend>& cur,
                         const ContactSet<Backend>& prev, const ShapePoseView& poses,
                         const ContactBodyModel& model, const ContactCandidates& cand,
                         const AabbSettings& aabb) {
  const int nc = cur.count, np = cur.pairs;
  ContactOutput out;
  out.end_body = be.room(cur.end_body, 2LL * nc);
  out.end_radius = be.room(cur.end_radius, 2LL * nc);
  out.slot_local = be.room(cur.slot_local, 1LL * kContactSlots * nc);
  out.normal = be.room(cur.normal, nc);
  out.friction = be.room(cur.friction, nc);
  out.restitution = be.room(cur.restitution, nc);
  out.approach_velocity = be.room(cur.approach_velocity, nc);
  out.gap_offset = be.room(cur.gap_offset, nc);
  out.start_gap = be.room(cur.start_gap, nc);
  out.anchor_reach = be.room(cur.anchor_reach, nc);
  out.separation = be.room(cur.separation, nc);
  out.feature = be.room(cur.feature, nc);
  out.penalty = be.room(cur.penalty, nc);
  out.normal_penalty = be.room(cur.normal_penalty, nc);
  out.lambda = be.room(cur.lambda, nc);
  out.sticking = be.room(cur.sticking, nc);
  be.room(cur.end_weight, 2LL * nc);
  be.room(cur.end_scale, 2LL * nc);
  be.room(s.record, nc);
  const ContactManifold* manifolds = s.manifolds.data();
  const int* manifold_begin = s.manifold_begin.data();
  const int* manifold_count = s.manifold_count.data();
  const int* begin = cur.begin.data();
  const int* end = cur.end.data();
  const int* previous_candidate = s.previous_candidate.data();
  const PreviousContacts previous = previous_contacts(prev);
  const Real h2 = aabb.dt * aabb.dt;
  const Real impact_speed = contact_impact_speed(aabb.acceleration, aabb.dt);
  be.loops().each(np, [=] PABD_LAMBDA(int i) {
    contact_write_kernel(poses, model, cand, manifolds, manifold_begin, manifold_count, begin, end,
                         previous, previous_candidate, h2, impact_speed, out, i);
  });
}

/// Body pair i's A end, the key the body pairs ascend in.
struct BodyPairFirstBody {
  const BodyPair* pairs;
  PABD_HD int operator()(int i) const { return pairs[i].a; }
};

/// Plane pair j's body, the key the plane pairs ascend in.
struct PlanePairBody {
  const PlanePair* pairs;
  PABD_HD int operator()(int j) const { return pairs[j].body; }
};

/// The step's contact pairs: the candidates with points, listed by their
/// first body, the body pairs (sorted by their lower index a, their A end)
/// merged with the plane pairs (sorted by their body, their B end), a body's
/// body pairs first. Each candidate finds its place in the merge by the
/// counts of the other list before it (per body, by binary search), so the
/// merge is parallel and its order the same for any thread count.
template <typename Backend>
void contact_pairs_stage(Backend& be, ContactPairSet<Backend>& p, const ContactSet<Backend>& cur,
                         const ContactCandidates& cand, int bodies) {
  const auto loops = be.loops();
  const int np = cur.pairs, nb_pairs = cur.body_pairs, nplane = np - nb_pairs;
  const BodyPair* body_pairs = cand.pairs;
  const PlanePair* plane_pairs = cand.plane_pairs;
  int* first_body_pair = be.room(p.first_body_pair, bodies + 1LL);
  int* first_plane_pair = be.room(p.first_plane_pair, bodies + 1LL);
  loops.each(bodies + 1, [=] PABD_LAMBDA(int b) {
    first_body_pair[b] = first_index_not_below(0, nb_pairs, b, BodyPairFirstBody{body_pairs});
    first_plane_pair[b] = first_index_not_below(0, nplane, b, PlanePairBody{plane_pairs});
  });
  // Place in the merge: a body pair (a, b) follows the plane pairs of bodies
  // below a; a plane pair of body c follows the body pairs with a <= c.
  int* merged = be.room(p.merged, np);
  int* slot = be.room(p.slot, np);
  const int* begin = cur.begin.data();
  const int* end = cur.end.data();
  loops.each(np, [=] PABD_LAMBDA(int i) {
    const int place = i < nb_pairs
                          ? i + first_plane_pair[body_pairs[i].a]
                          : (i - nb_pairs) + first_body_pair[plane_pairs[i - nb_pairs].body + 1];
    merged[place] = i;
    slot[place] = end[i] != begin[i] ? 1 : 0;
  });
  // Each candidate with points becomes the pair at its place's count.
  long long* block_sums = be.room(p.block_sums, loop_block_count(np) + 1LL);
  const long long count = block_exclusive_scan_on(loops, slot, slot, np, block_sums);
  const int m = static_cast<int>(count);
  p.count = m;
  int* pair_begin = be.room(p.begin, m);
  int* pair_end = be.room(p.end, m);
  int* pair_body = be.room(p.body, 2LL * m);
  std::uint8_t* pair_round = be.room(p.round, m);
  const int* end_body = cur.end_body.data();
  const Real* end_radius = cur.end_radius.data();
  loops.each(np, [=] PABD_LAMBDA(int place) {
    const int i = merged[place], first = begin[i];
    if (end[i] == first) return;
    const int k = slot[place];
    pair_begin[k] = first;
    pair_end[k] = end[i];
    pair_body[2 * k] = end_body[2 * first];
    pair_body[2 * k + 1] = end_body[2 * first + 1];
    pair_round[k] = end_radius[2 * first] > 0 || end_radius[2 * first + 1] > 0 ? 1 : 0;
  });
  be.room(p.record, m);
  be.room(p.quiet, m);
  be.room_lazy(p.sums, 2LL * m);
  be.room_lazy(p.weight, 2LL * m);
  be.room_lazy(p.second_moment, 2LL * m);
}

/// The pair ends on dynamic bodies, grouped by body, each body's in pair-end
/// order, so that every body gathers its pairs in a fixed order. A backend
/// with kSerialAdjacency (the host's) counts them into place serially; the
/// others (a device's) sort the ends by body with the stable radix sort,
/// static bodies' ends last, which gives the same lists.
template <typename Backend>
void contact_adjacency_stage(Backend& be, ContactEndSet<Backend>& a,
                             const ContactPairSet<Backend>& p, const std::uint8_t* is_static,
                             int bodies) {
  const int ends = 2 * p.count;
  const int* pair_body = p.body.data();
  int* begin = be.room(a.begin, bodies + 1LL);
  int used = 0;
  if constexpr (Backend::kSerialAdjacency) {
    // A counting sort: ends per body, their prefix sum, then each end in turn.
    const auto dynamic_end = [&](int e) { return !(is_static && is_static[pair_body[e]]); };
    for (int i = 0; i <= bodies; ++i) begin[i] = 0;
    for (int e = 0; e < ends; ++e)
      if (dynamic_end(e)) ++begin[pair_body[e] + 1];
    for (int i = 0; i < bodies; ++i) begin[i + 1] += begin[i];
    used = begin[bodies];
    int* index = be.room(a.index, used);
    int* fill = be.room(a.fill, bodies);
    for (int i = 0; i < bodies; ++i) fill[i] = begin[i];
    for (int e = 0; e < ends; ++e)
      if (dynamic_end(e)) index[fill[pair_body[e]]++] = e;
  } else {
    const auto loops = be.loops();
    std::uint64_t* key = be.room(a.sort_key, ends);
    int* index = be.room(a.index, ends);
    loops.each(ends, [=] PABD_LAMBDA(int e) {
      const int body = pair_body[e];
      key[e] = static_cast<std::uint64_t>(is_static && is_static[body] ? bodies : body);
      index[e] = e;
    });
    radix_sort_by_key_on(loops, key, index, be.room(a.sort_key_tmp, ends),
                         be.room(a.sort_tmp, ends),
                         be.room(a.radix_counts, 1LL * loop_block_count(ends) * kRadixBuckets + 1),
                         ends, radix_key_bits(bodies));
    loops.each(bodies + 1, [=] PABD_LAMBDA(int b) {
      begin[b] = first_index_not_below(0, ends, static_cast<std::uint64_t>(b), KeyArray{key});
    });
    used = loops.read(begin + bodies);
  }
  be.room(a.bound, used);
  a.built = true;
}

/// Jacobi rounds of the supported-mass propagation (contact_load.h) per step,
/// warm-started: a change in a stack travels this many bodies down per step.
inline constexpr int kLoadRoundsPerStep = 8;
/// Rounds on the first step (cold start): stacks and piles up to this depth
/// get their full penalty at once.
inline constexpr int kLoadRoundsFirstStep = 64;

/// Whether contact_load_stage has work: contacts, gravity and a step.
inline bool load_stage_runs(int contacts, const AabbSettings& aabb) {
  return contacts > 0 && length(aabb.acceleration) > 0 && aabb.dt > 0;
}

/// What the load-aware penalties read besides the contacts: per body, in
/// the backend's memory, and the step's settings.
struct ContactLoadInput {
  int bodies = 0;
  const Real* mass = nullptr;               ///< [kg]
  const std::uint8_t* is_static = nullptr;  ///< may be null
  const std::uint8_t* jointed = nullptr;    ///< ContactLoadView::jointed
  /// Per body: its free articulation's root, or -1; null when there is none.
  const int* articulation = nullptr;
  Real total_mass = 0;  ///< all dynamic mass: the cap (a serial sum, the caller's)
  AabbSettings aabb;    ///< h and gravity
};

/// Raises each contact's normal penalty (and its warm start) by the mass its
/// support carries (contact_load.h): per pair end the verticality of its
/// support, per body its sum, `rounds` Jacobi rounds of the supported mass
/// (supported_mass: per body, warm from the previous step, left updated),
/// then per contact its penalty. Nothing without contacts or gravity.
template <typename Backend>
void contact_load_stage(Backend& be, ContactLoadSet<Backend>& L, ContactSet<Backend>& cur,
                        const ContactPairSet<Backend>& pairs, const ContactEndSet<Backend>& ends,
                        const ContactLoadInput& in, Real* supported_mass, int rounds) {
  const int nb = in.bodies, nc = cur.count;
  if (!load_stage_runs(nc, in.aabb)) return;
  const Real g = length(in.aabb.acceleration);
  const auto loops = be.loops();
  ContactLoadView v;
  v.end_body = cur.end_body.data();
  v.normal = cur.normal.data();
  v.pair_begin = pairs.begin.data();
  v.pair_end = pairs.end.data();
  v.pair_body = pairs.body.data();
  v.begin = ends.begin.data();
  v.index = ends.index.data();
  v.mass = in.mass;
  v.is_static = in.is_static;
  v.jointed = in.jointed;
  v.up = (Real(-1) / g) * in.aabb.acceleration;

  Real* pair_support = be.room(L.pair_support, 2LL * pairs.count);
  loops.each(pairs.count, [=] PABD_LAMBDA(int m) { pair_support_kernel(v, pair_support, m); });
  Real* weight = be.room(L.support_weight, nb);
  L.weights = nb;
  loops.each(nb, [=] PABD_LAMBDA(int i) { support_weight_kernel(v, pair_support, weight, i); });
  if (in.articulation) {
    // Each free articulation's unsupported mass, shared among its supported
    // bodies by their support weight (serial: sums in body order).
    const int* articulation = in.articulation;
    const Real* mass = in.mass;
    Real* support = be.room(L.articulation_support, nb);
    Real* hanging = be.room(L.articulation_hanging, nb);
    Real* hung = be.room(L.hung_mass, nb);
    loops.serial([=] PABD_LAMBDA() {
      for (int i = 0; i < nb; ++i) support[i] = hanging[i] = hung[i] = 0;
      for (int i = 0; i < nb; ++i) {
        const int r = articulation[i];
        if (r < 0) continue;
        if (weight[i] > 0)
          support[r] += weight[i];
        else
          hanging[r] += mass[i];
      }
      for (int i = 0; i < nb; ++i) {
        const int r = articulation[i];
        if (r >= 0 && weight[i] > 0) hung[i] = hanging[r] * (weight[i] / support[r]);
      }
    });
    v.hung_mass = hung;
  }
  Real* scratch = be.room(L.supported_scratch, nb);
  Real* previous = supported_mass;
  const Real total = in.total_mass;
  for (int r = 0; r < rounds; ++r) {
    const Real* from = previous;
    Real* next = previous == supported_mass ? scratch : supported_mass;
    loops.each(nb, [=] PABD_LAMBDA(int i) {
      supported_mass_kernel(v, pair_support, weight, from, total, next, i);
    });
    previous = next;
  }
  if (previous != supported_mass) {  // an odd number of rounds
    const Real* last = previous;
    loops.each(nb, [=] PABD_LAMBDA(int i) { supported_mass[i] = last[i]; });
  }
  const Real* supported = supported_mass;
  const Real* start_gap = cur.start_gap.data();
  Real* drop = be.room(L.support_drop, nb);
  loops.each(nb, [=] PABD_LAMBDA(int i) { support_drop_kernel(v, start_gap, drop, i); });
  const Real* approach = cur.approach_velocity.data();
  const Real* friction = cur.friction.data();
  const Real impact_speed = contact_impact_speed(in.aabb.acceleration, in.aabb.dt);
  Real* penalty = cur.normal_penalty.data();
  Vec3* lambda = cur.lambda.data();
  const Real h2 = in.aabb.dt * in.aabb.dt;
  loops.each(nc, [=] PABD_LAMBDA(int k) {
    load_penalty_kernel(v, weight, supported, drop, start_gap, approach, friction, impact_speed, g,
                        h2, penalty, lambda, k);
  });
}

/// The arrays of a detector's stages after the broadphase.
template <typename Backend>
struct ContactStages {
  ContactSet<Backend> cur, prev;  ///< this step's contacts and the previous step's
  CandidateScratch<Backend> scratch;
  ContactPairSet<Backend> pairs;
  ContactEndSet<Backend> ends;
  ContactLoadSet<Backend> load;
};

/// The solver's view of a detector's contacts (in the backend's memory;
/// valid until its next detection).
template <typename Backend>
ContactArrays contact_arrays_of(ContactStages<Backend>& s) {
  ContactSet<Backend>& cur = s.cur;
  ContactPairSet<Backend>& p = s.pairs;
  ContactArrays c;
  c.count = cur.count;
  c.end_body = cur.end_body.data();
  c.end_radius = cur.end_radius.data();
  c.slot_local = cur.slot_local.data();
  c.normal = cur.normal.data();
  c.friction = cur.friction.data();
  c.restitution = cur.restitution.data();
  c.approach_velocity = cur.approach_velocity.data();
  c.gap_offset = cur.gap_offset.data();
  c.start_gap = cur.start_gap.data();
  c.anchor_reach = cur.anchor_reach.data();
  c.penalty = cur.penalty.data();
  c.normal_penalty = cur.normal_penalty.data();
  c.lambda = cur.lambda.data();
  c.sticking = cur.sticking.data();
  c.end_weight = cur.end_weight.data();
  c.end_scale = cur.end_scale.data();
  c.record = s.scratch.record.data();
  c.pair_count = p.count;
  c.pair_begin = p.begin.data();
  c.pair_end = p.end.data();
  c.pair_body = p.body.data();
  c.pair_round = p.round.data();
  c.pair_record = p.record.data();
  c.pair_quiet = p.quiet.data();
  c.pair_sums = p.sums.data();
  c.pair_weight = p.weight.data();
  c.pair_second_moment = p.second_moment.data();
  return c;
}

/// The per-body adjacency of a detector's pair ends (begin == nullptr when
/// there are none).
template <typename Backend>
ContactEnds contact_ends_of(ContactStages<Backend>& s) {
  ContactEnds e;
  if (s.cur.count == 0 || !s.ends.built) return e;
  e.begin = s.ends.begin.data();
  e.index = s.ends.index.data();
  e.weight = s.pairs.weight.data();
  e.sums = s.pairs.sums.data();
  e.second_moment = s.pairs.second_moment.data();
  e.bound = s.ends.bound.data();
  return e;
}

/// Stage times of a detection [ms] (the backend's clock).
struct ContactDetectTimings {
  double broadphase = 0, narrowphase = 0, setup = 0, load = 0;
};

/// The stages between the broadphase and the load-aware penalties, in
/// order: the narrowphase, the contacts written and matched, the pairs and
/// the adjacency. `poses` and `model` point into the backend's memory.
template <typename Backend>
void run_contact_setup_stages(Backend& be, ContactStages<Backend>& s, const ShapePoseView& poses,
                              const ContactBodyModel& model, const ContactCandidates& cand,
                              const AabbSettings& aabb, ContactDetectTimings& t) {
  auto mark = be.start();
  contact_narrowphase_stage(be, s.scratch, s.cur, s.prev, poses, cand, aabb);
  be.stop(mark, t.narrowphase);
  mark = be.start();
  // Each candidate writes its points at its offset, warm-started from the
  // previous step's matching contacts.
  contact_write_stage(be, s.scratch, s.cur, s.prev, poses, model, cand, aabb);
  contact_pairs_stage(be, s.pairs, s.cur, cand, poses.count);
  contact_adjacency_stage(be, s.ends, s.pairs, poses.is_static, poses.count);
  be.stop(mark, t.setup);
}

}  // namespace pabd
