// Per-contact kernels of the solver, over the step's ContactArrays
// (model/contact_arrays.h), with the law of contact_bond.h. They mirror
// the per-bond kernels (bond_kernels.h): weights and pulls from iterate k (one
// call per contact pair, summed per end), the augmented-Lagrangian update from
// iterate k+1 and the energy (one call per contact).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "bonds/bond_kernels.h"
#include "contacts/contact_bond.h"
#include "model/body_arrays.h"
#include "model/contact_arrays.h"
#include "shapes/shape_geometry.h"

namespace pabd {

/// Body i's pose at the current iterate (A is a rotation between iterations),
/// read once per contact pair: y = to_world(pose, x) = A x + c.
PABD_HD_ALWAYS_INLINE ShapePose body_pose(const BodyArrays& bodies, int i) {
  return ShapePose{bodies.position[i], bodies.affine[i]};
}

/// Contact k's anchors for its bodies at poses pa (end A) and pb (end B),
/// its core anchors (local xa_core, xb_core) and gap offset given: from its
/// arrays or its record (ContactRecord); the radii and surface anchors come
/// from the arrays.
PABD_HD_ALWAYS_INLINE ContactPoints contact_points(const ShapePose& pa, const ShapePose& pb,
                                                   const ContactArrays& c, int k, Vec3 xa_core,
                                                   Vec3 xb_core, Real gap_offset) {
  const Vec3* x = c.slot_local + kContactSlots * k;
  const Real radius_a = c.end_radius[2 * k], radius_b = c.end_radius[2 * k + 1];
  // A non-round end's surface anchor is its core anchor (contact_arrays.h).
  const Vec3 a_core = to_world(pa, xa_core);
  const Vec3 b_core = to_world(pb, xb_core);
  // Built in one aggregate: a default-constructed struct filled field by field
  // was zeroed first (rep stos), then stalled the loads that followed (perf).
  return ContactPoints{a_core,    radius_a > 0 ? to_world(pa, x[1]) : a_core,
                       b_core,    radius_b > 0 ? to_world(pb, x[3]) : b_core,
                       radius_a,  radius_b,
                       gap_offset};
}

/// Contact k's anchors for its bodies at poses pa (end A) and pb (end B).
PABD_HD_ALWAYS_INLINE ContactPoints contact_points(const ShapePose& pa, const ShapePose& pb,
                                                   const ContactArrays& c, int k) {
  const Vec3* x = c.slot_local + kContactSlots * k;
  return contact_points(pa, pb, c, k, x[0], x[2], c.gap_offset[k]);
}

/// Contact k's anchors at the current iterate.
PABD_HD_ALWAYS_INLINE ContactPoints contact_points(const BodyArrays& bodies, const ContactArrays& c,
                                                   int k) {
  return contact_points(body_pose(bodies, c.end_body[2 * k]),
                        body_pose(bodies, c.end_body[2 * k + 1]), c, k);
}

/// How much farther than rounding the start gap must exceed the bodies'
/// motion bounds for a contact to be skipped as idle [m]: a gap's rounding is
/// ~1e-13 m at 100 m from the origin.
inline constexpr Real kIdleBoundSlack = Real(1e-9);

/// What the idle test by bounds needs of a contact's two bodies: B's step
/// translation less A's, and the sum of their turn norms.
struct PairMotion {
  Vec3 translation;  ///< (c_b - c_b^n) - (c_a - c_a^n) [m]
  Real turn = 0;     ///< turn bound of A plus B's
};

/// The motion of bodies a (end A) and b (end B) since the start of the step,
/// from their BodyMotion records (a static body's are zero).
PABD_HD_ALWAYS_INLINE PairMotion pair_motion(const BodyArrays& bodies, int a, int b) {
  const BodyMotion ma = bodies.motion[a], mb = bodies.motion[b];
  return PairMotion{mb.translation - ma.translation, ma.turn + mb.turn};
}

/// True when a contact (multiplier lambda, normal n, start gap and anchor
/// reach as stored) is idle (contact_idle) at the current iterate, known
/// without its anchors: lambda = 0 and the gap is still positive. With
/// y = A x + c, the gap moved by n . (dc_b - dc_a) + n . (dA_b x_b - dA_a x_a)
/// since the start of the step, and |dA x| <= |dA|_F |x|, so
/// gap >= start_gap + n . translation - turn * anchor_reach. Bodies that
/// move together (a resting pile's boxes falling by h^2 g in the prediction)
/// keep their speculative contacts, a box's edge and corner neighbours 1 mm
/// away, skipped. The skip changes no result: such a contact is idle either way.
PABD_HD_ALWAYS_INLINE bool contact_surely_idle(Vec3 lambda, Vec3 normal, Real start_gap,
                                               Real anchor_reach, const PairMotion& motion) {
  return lambda.x == 0 && lambda.y == 0 && lambda.z == 0 &&
         start_gap + dot(normal, motion.translation) - motion.turn * anchor_reach > kIdleBoundSlack;
}

/// The same for contact k, from its arrays.
PABD_HD_ALWAYS_INLINE bool contact_surely_idle(const ContactArrays& c, int k,
                                               const PairMotion& motion) {
  return contact_surely_idle(c.lambda[k], c.normal[k], c.start_gap[k], c.anchor_reach[k], motion);
}

/// The same for contact k, from its record (ContactRecord).
PABD_HD_ALWAYS_INLINE bool contact_surely_idle(const ContactRecord& r, Vec3 lambda,
                                               const PairMotion& motion) {
  return contact_surely_idle(lambda, r.normal, r.start_gap, r.anchor_reach, motion);
}

/// Pair m's quiet flag from its contacts: 1 when each has lambda = 0 and
/// sticking = 0.
PABD_HD_ALWAYS_INLINE void contact_pair_quiet_kernel(const ContactArrays& c, int m) {
  bool quiet = true;
  for (int k = c.pair_begin[m]; k < c.pair_end[m]; ++k) {
    const Vec3 l = c.lambda[k];
    quiet = quiet && l.x == 0 && l.y == 0 && l.z == 0 && c.sticking[k] == 0;
  }
  c.pair_quiet[m] = quiet ? 1 : 0;
}

/// Start of a step, after the contacts' warm start: pair m's idle bound
/// (PairIdleBound), record (PairRecord) and quiet flag.
PABD_HD void contact_pair_prepare_kernel(const ContactArrays& c, int m) {
  const int first = c.pair_begin[m];
  PairIdleBound bound{c.start_gap[first], c.anchor_reach[first]};
  for (int k = first + 1; k < c.pair_end[m]; ++k) {
    bound.start_gap = c.start_gap[k] < bound.start_gap ? c.start_gap[k] : bound.start_gap;
    bound.reach = c.anchor_reach[k] > bound.reach ? c.anchor_reach[k] : bound.reach;
  }
  c.pair_record[m] =
      PairRecord{first, c.pair_end[m], {c.pair_body[2 * m], c.pair_body[2 * m + 1]}, bound};
  contact_pair_quiet_kernel(c, m);
}

/// The float next to f toward -infinity (down) or +infinity (!down), for a
/// finite or infinite f that is not that infinity: std::nextafter's result,
/// from the bits (libm's nextafterf was a call per pair end, 0.6% of
/// pile_20's instructions). A float's bits, read as an integer, step by one
/// to the next float away from zero; zero steps to the smallest subnormal.
PABD_HD_ALWAYS_INLINE float float_next(float f, bool down) {
  std::uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  if (f == 0)
    bits = down ? 0x80000001u : 0x00000001u;
  else
    bits = (f > 0) == down ? bits - 1 : bits + 1;  // toward zero, or away from it
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

/// The float nearest x from below (above for float_above); NaN stays NaN.
PABD_HD_ALWAYS_INLINE float float_below(Real x) {
  const float f = static_cast<float>(x);
  return Real(f) > x ? float_next(f, true) : f;
}
PABD_HD_ALWAYS_INLINE float float_above(Real x) {
  const float f = static_cast<float>(x);
  return Real(f) < x ? float_next(f, false) : f;
}

/// Start of a step, after contact_pair_prepare_kernel: the idle bounds of
/// the pair ends body i lists (EndIdleBound).
PABD_HD void contact_end_bound_kernel(const ContactArrays& c, const ContactEnds& ends, int i) {
  for (int t = ends.begin[i]; t < ends.begin[i + 1]; ++t) {
    const int e = ends.index[t];
    const PairIdleBound& b = c.pair_record[e >> 1].bound;
    ends.bound[t] =
        EndIdleBound{float_below(b.start_gap), float_above(b.reach), c.pair_body[e ^ 1], e};
  }
}

/// True when every contact of a pair with bound b is surely idle
/// (contact_surely_idle) as its bodies moved, told from the bound alone: with
/// each normal a unit vector, n . translation >= -|translation|_1, so
/// start_gap - |translation|_1 - turn * reach bounds each contact's test
/// from below. A resting pile's speculative side pairs, most of its pairs,
/// cost one record each. Only a quiet pair (lambda and sticking 0) may be told so.
PABD_HD_ALWAYS_INLINE bool bound_says_idle(const PairIdleBound& b, const PairMotion& motion) {
  const Vec3 t = motion.translation;
  const Real moved = std::fabs(t.x) + std::fabs(t.y) + std::fabs(t.z);
  return b.start_gap - moved - motion.turn * b.reach > kIdleBoundSlack;
}

/// The same for quiet pair m, from its records.
/// r is the pair's PairRecord (c.pair_record[m]), which its caller has read.
PABD_HD_ALWAYS_INLINE bool pair_surely_idle(const ContactArrays& c, int m, const PairRecord& r,
                                            const PairMotion& motion) {
  return c.pair_quiet[m] && bound_says_idle(r.bound, motion);
}

/// pair_surely_idle for the pair end that body i lists with bound r, from r
/// instead of the pair's records (the motion of r.other less body i's has the
/// |t|_1 of the pair's B less A, and the turn norms add in either order). r's
/// bound, rounded outwards, is looser than the pair's, so what it tells idle
/// pair_surely_idle would; a pair it does not is evaluated, and an
/// evaluation finds an idle pair idle (first_live_contact).
/// `mine` is body i's BodyMotion, read once for all of its ends.
PABD_HD_ALWAYS_INLINE bool end_surely_idle(const BodyArrays& bodies, const ContactArrays& c,
                                           const BodyMotion& mine, const EndIdleBound& r) {
  if (!c.pair_quiet[r.end >> 1]) return false;
  const BodyMotion other = bodies.motion[r.other];
  // pair_motion(bodies, i, r.other), the same operations.
  const PairMotion motion{other.translation - mine.translation, mine.turn + other.turn};
  return bound_says_idle(PairIdleBound{r.start_gap, r.reach}, motion);
}

/// Contact k's normal and tangential penalties.
PABD_HD ContactPenalty contact_penalty(const ContactArrays& c, int k) {
  return {c.normal_penalty[k], c.penalty[k]};
}

/// Start of a step, after detection: contact k's end scales for the
/// iterations (ContactEndScales), from its bodies' shares and normal penalty.
PABD_HD void contact_prepare_kernel(const BodyArrays& bodies, const ContactArrays& c, int k,
                                    const HardBondSettings& hard, Real h2) {
  const BondShares sh =
      hard_bond_shares(inverse_mass(bodies, c.end_body[2 * k]),
                       inverse_mass(bodies, c.end_body[2 * k + 1]), hard.full_split);
  const ContactEndScales e = contact_end_scales(c.normal_penalty[k], sh.a, sh.b, h2);
  c.end_weight[2 * k] = e.weight_a;
  c.end_weight[2 * k + 1] = e.weight_b;
  c.end_scale[2 * k] = e.scale_a;
  c.end_scale[2 * k + 1] = e.scale_b;
  const Vec3* x = c.slot_local + kContactSlots * k;
  c.record[k] = ContactRecord{c.normal[k],
                              c.start_gap[k],
                              c.anchor_reach[k],
                              c.gap_offset[k],
                              x[0],
                              x[2],
                              c.normal_penalty[k],
                              c.penalty[k],
                              c.friction[k],
                              {e.weight_a, e.weight_b},
                              {e.scale_a, e.scale_b}};
}

/// Adds slot anchor x of weight w and pull w * target to an end's sums
/// (and w x x^T to its second moment when kSecondMoment).
template <bool kSecondMoment>
PABD_HD_ALWAYS_INLINE void add_contact_slot(BondEndSums& sums, Mat3& second_moment, Real w, Vec3 x,
                                            Vec3 target) {
  add_bond_end(sums, w, x, w * target);
  if (kSecondMoment) second_moment = second_moment + outer(w * x, x);
}

/// Adds one end of a pushing contact to its pair end's sums: the end pulled
/// with weight w by `correction` (its share of C', signed for its side;
/// contact_bond.h), all of it at the core anchor (local x_core, world `core`),
/// or, for a round end, the normal part at the core and the tangential part at
/// the surface anchor (local *x_surface, world `surface`; read only then).
template <bool kSecondMoment>
PABD_HD_ALWAYS_INLINE void add_contact_end(BondEndSums& sums, Mat3& second_moment, Vec3 x_core,
                                           const Vec3* x_surface, Vec3 core, Vec3 surface,
                                           bool round, Vec3 correction, Vec3 n, Real w) {
  if (!round) {
    add_contact_slot<kSecondMoment>(sums, second_moment, w, x_core, core + correction);
    return;
  }
  const Vec3 normal_part = dot(correction, n) * n;
  add_contact_slot<kSecondMoment>(sums, second_moment, w, x_core, core + normal_part);
  add_contact_slot<kSecondMoment>(sums, second_moment, w, *x_surface,
                                  surface + (correction - normal_part));
}

/// Asks the cache for what evaluating contact pair m reads first: its first
/// contact's record, multiplier and sticking flag (a host hint; nothing on
/// the device).
/// A colored sweep reaches half of a body's pairs out of order (those
/// listed under the other body), and the reads stalled on each (perf).
PABD_HD_ALWAYS_INLINE void prefetch_contact_pair(const ContactArrays& c, int m) {
#ifndef __CUDA_ARCH__
  const int k = c.pair_record[m].begin;
  __builtin_prefetch(c.lambda + k);
  __builtin_prefetch(c.sticking + k);
  // The first record's lines (152 bytes: three at most).
  const char* record = reinterpret_cast<const char*>(c.record + k);
  __builtin_prefetch(record);
  __builtin_prefetch(record + 64);
  __builtin_prefetch(record + sizeof(ContactRecord) - 1);
#else
  (void)c;
  (void)m;
#endif
}

/// The same for pair m's own records: its PairRecord, kind and quiet flag.
PABD_HD_ALWAYS_INLINE void prefetch_pair_record(const ContactArrays& c, int m) {
#ifndef __CUDA_ARCH__
  __builtin_prefetch(c.pair_record + m);
  __builtin_prefetch(c.pair_round + m);
  __builtin_prefetch(c.pair_quiet + m);
#else
  (void)c;
  (void)m;
#endif
}

/// Writes flag v unless `at` holds it already. The sticking and quiet flags
/// that a colored sweep rewrites each iteration mostly keep their value, and
/// a written byte takes its cache line from the other cores, whose bodies
/// read the flags beside it (ball_into_stack at 2 threads: solve 4% less in
/// the steps before the impact, 2.5% less over 120 steps; 1 thread unchanged).
PABD_HD_ALWAYS_INLINE void store_if_changed(std::uint8_t& at, std::uint8_t v) {
  if (at != v) at = v;
}

/// Contact k's force on B at the anchors p: kappa C + lambda projected onto
/// the friction cone, after the previous iteration's dual update with
/// dual_first (which then writes lambda and sticking, and clears `quiet`
/// unless both end at 0: the pair's quiet flag, formed on the way). Not
/// pushing (nothing to add) when the contact is idle, lets go or would pull.
PABD_HD_ALWAYS_INLINE ConeForce contact_iterate_force(const ContactArrays& c, int k,
                                                      const ContactRecord& r,
                                                      const ContactPoints& p, bool dual_first,
                                                      bool& quiet) {
  const Vec3 n = r.normal;
  Vec3 lambda = c.lambda[k];
  // An idle contact stays idle through its dual update and pulls nothing.
  if (contact_idle(p, n, lambda)) {
    if (dual_first) store_if_changed(c.sticking[k], 0);
    return ConeForce{};
  }
  const Real mu = r.friction;
  const Vec3 force = contact_penalty_force(ContactPenalty{r.normal_penalty, r.penalty}, p, n);
  if (dual_first) {
    contact_dual_update(force, n, mu, lambda, c.sticking[k]);
    c.lambda[k] = lambda;
    quiet = quiet && lambda.x == 0 && lambda.y == 0 && lambda.z == 0 && c.sticking[k] == 0;
    if (contact_idle(p, n, lambda)) return ConeForce{};  // it let go
  }
  return friction_cone_projection(force + lambda, n, mu);
}

/// The index of the first of pair m's contacts that may push: a quiet pair
/// that cannot push at all (pair_surely_idle), or leading contacts that
/// cannot (contact_surely_idle), are skipped, often the whole pair (a pile's
/// edge and corner neighbours), which then costs neither poses nor sums;
/// pair_end[m] when all are (r: the pair's PairRecord). With dual_first they
/// take their dual update (sticking = 0; a quiet pair's are 0 already).
PABD_HD_ALWAYS_INLINE int first_live_contact(const BodyArrays& bodies, const ContactArrays& c,
                                             int m, const PairRecord& r, bool dual_first) {
  const PairMotion motion = pair_motion(bodies, r.body[0], r.body[1]);
  const int last = r.end;
  if (pair_surely_idle(c, m, r, motion)) return last;
  int k = r.begin;
  for (; k < last && contact_surely_idle(c.record[k], c.lambda[k], motion); ++k)
    if (dual_first) store_if_changed(c.sticking[k], 0);
  return k;
}

/// Contact pair m's anchors for contact k, whose record is r; non-round
/// pairs (!kRound) skip the radii and surface anchors.
template <bool kRound>
PABD_HD_ALWAYS_INLINE ContactPoints pair_contact_points(const ShapePose& pa, const ShapePose& pb,
                                                        const ContactArrays& c, int k,
                                                        const ContactRecord& r) {
  if (kRound) return contact_points(pa, pb, c, k, r.a_core, r.b_core, r.gap_offset);
  const Vec3 a_core = to_world(pa, r.a_core);
  const Vec3 b_core = to_world(pb, r.b_core);
  return ContactPoints{a_core, a_core, b_core, b_core, Real(0), Real(0), r.gap_offset};
}

/// contact_pair_weights_kernel for one kind of pair: kRound when either end
/// is round (a sphere or capsule; the radii are the bodies', the same for all
/// the pair's contacts), kSecondMoment for the paper's local step. Written
/// once, instantiated four times: the box-box case carries no branch for the
/// others.
template <bool kRound, bool kSecondMoment>
PABD_HD void contact_pair_weights(const BodyArrays& bodies, const ContactArrays& c, int m,
                                  bool dual_first) {
  const PairRecord r_pair = c.pair_record[m];
  int k = first_live_contact(bodies, c, m, r_pair, dual_first);
  const int last = r_pair.end;
  if (k == last) {
    if (dual_first) c.pair_quiet[m] = 1;  // every lambda and sticking is 0
    c.pair_weight[2 * m] = 0;             // the gather reads nothing else of an end of weight 0
    c.pair_weight[2 * m + 1] = 0;
    return;
  }
  const ShapePose pa = body_pose(bodies, r_pair.body[0]);
  const ShapePose pb = body_pose(bodies, r_pair.body[1]);
  BondEndSums sa, sb;
  Mat3 da, db;
  bool quiet = true;  // the contacts skipped as surely idle are
  // The rest by the full test: a pair that pushes seldom has a contact
  // the bounds could skip, and testing each cost more than it saved
  // (ball_into_stack: 7% slower per step).
  for (; k < last; ++k) {
    const ContactRecord& r = c.record[k];
    const ContactPoints p = pair_contact_points<kRound>(pa, pb, c, k, r);
    const ConeForce f = contact_iterate_force(c, k, r, p, dual_first, quiet);
    if (!f.pushing) continue;
    const Vec3 n = r.normal;
    const Vec3* x = c.slot_local + kContactSlots * k;  // surface anchors: read when round
    if (r.end_weight[0] > 0)
      add_contact_end<kSecondMoment>(sa, da, r.a_core, x + 1, p.a_core, p.a_surface, p.radius_a > 0,
                                     (-r.end_scale[0]) * f.force, n, r.end_weight[0]);
    if (r.end_weight[1] > 0)
      add_contact_end<kSecondMoment>(sb, db, r.b_core, x + 3, p.b_core, p.b_surface, p.radius_b > 0,
                                     r.end_scale[1] * f.force, n, r.end_weight[1]);
  }
  if (dual_first) c.pair_quiet[m] = quiet ? 1 : 0;
  c.pair_weight[2 * m] = sa.weight;
  c.pair_weight[2 * m + 1] = sb.weight;
  if (sa.weight != 0) c.pair_sums[2 * m] = sa;
  if (sb.weight != 0) c.pair_sums[2 * m + 1] = sb;
  if (kSecondMoment) {
    c.pair_second_moment[2 * m] = da;
    c.pair_second_moment[2 * m + 1] = db;
  }
}

/// One end of contact pair m, end `side` (0 = A, 1 = B), evaluated as
/// contact_pair_weights evaluates both: the same forces and the same sums for
/// this end, into `sums` (and `second_moment`), which start at zero; with
/// kOtherWeight, the other end's weight alone, into other_weight (0 when
/// nothing pushes it), added as its sums would add it (once per slot, so the
/// same bits).
template <bool kRound, bool kSecondMoment, bool kOtherWeight = true>
PABD_HD_ALWAYS_INLINE void contact_pair_end_sums(const BodyArrays& bodies, const ContactArrays& c,
                                                 int m, int side, bool dual_first,
                                                 BondEndSums& sums, Mat3& second_moment,
                                                 Real& other_weight) {
  const PairRecord r_pair = c.pair_record[m];
  int k = first_live_contact(bodies, c, m, r_pair, dual_first);
  const int last = r_pair.end;
  if (k == last) {
    if (dual_first) store_if_changed(c.pair_quiet[m], 1);  // every lambda and sticking is 0
    return;
  }
  const ShapePose pa = body_pose(bodies, r_pair.body[0]);
  const ShapePose pb = body_pose(bodies, r_pair.body[1]);
  const Real sign = side ? Real(1) : Real(-1);  // B takes +F, A -F
  bool quiet = true;                            // the contacts skipped as surely idle are
  for (; k < last; ++k) {
    const ContactRecord& r = c.record[k];
    const ContactPoints p = pair_contact_points<kRound>(pa, pb, c, k, r);
    const ConeForce f = contact_iterate_force(c, k, r, p, dual_first, quiet);
    if (!f.pushing) continue;
    const Real weight = r.end_weight[side];
    if (weight > 0) {
      // The surface anchor, read only for a round end.
      const Vec3* x_surface = c.slot_local + kContactSlots * k + 2 * side + 1;
      const bool round = side ? p.radius_b > 0 : p.radius_a > 0;
      add_contact_end<kSecondMoment>(sums, second_moment, side ? r.b_core : r.a_core, x_surface,
                                     side ? p.b_core : p.a_core, side ? p.b_surface : p.a_surface,
                                     round, (sign * r.end_scale[side]) * f.force, r.normal, weight);
    }
    const Real other = kOtherWeight ? r.end_weight[side ^ 1] : Real(0);
    if (kOtherWeight && other > 0) {
      other_weight += other;
      if (side ? p.radius_a > 0 : p.radius_b > 0) other_weight += other;  // its second slot
    }
  }
  if (dual_first) store_if_changed(c.pair_quiet[m], quiet ? 1 : 0);
}

/// Evaluates contact pair m (contact_arrays.h) at the current iterate: each
/// of its contacts' slot weights and pulls, targets that apply the
/// cone-projected force kappa C + lambda (none when it would pull, for a
/// static end, or for an idle contact), summed per end into pair_sums[2m]
/// (A) and [2m + 1] (B); with need_second_moment, also sum w x x^T into
/// pair_second_moment. With dual_first, each contact first takes the previous
/// iteration's augmented-Lagrangian update (contact_dual_kernel) from the same
/// anchors and the same penalty force: both read the same iterate, so the
/// multipliers are bit-identical to the two kernels in turn, and the
/// contacts' data is read once per iteration instead of twice. The bodies'
/// poses are read once for the whole pair.
PABD_HD void contact_pair_weights_kernel(const BodyArrays& bodies, const ContactArrays& c, int m,
                                         bool dual_first, bool need_second_moment) {
  const bool round = c.pair_round[m] != 0;
  if (need_second_moment) {
    if (round)
      contact_pair_weights<true, true>(bodies, c, m, dual_first);
    else
      contact_pair_weights<false, true>(bodies, c, m, dual_first);
  } else if (round) {
    contact_pair_weights<true, false>(bodies, c, m, dual_first);
  } else {
    contact_pair_weights<false, false>(bodies, c, m, dual_first);
  }
}

/// After an iteration: the augmented-Lagrangian update of contact k.
PABD_HD void contact_dual_kernel(const BodyArrays& bodies, const ContactArrays& c, int k) {
  if (contact_surely_idle(c, k, pair_motion(bodies, c.end_body[2 * k], c.end_body[2 * k + 1]))) {
    c.sticking[k] = 0;
    return;
  }
  contact_dual_update(contact_points(bodies, c, k), c.normal[k], c.friction[k],
                      contact_penalty(c, k), c.lambda[k], c.sticking[k]);
}

/// Energy of contact k at the current iterate [J] (contact_energy).
PABD_HD Real contact_energy_kernel(const BodyArrays& bodies, const ContactArrays& c, int k) {
  return contact_energy(contact_points(bodies, c, k), c.normal[k], c.friction[k],
                        contact_penalty(c, k), c.lambda[k]);
}

}  // namespace pabd
