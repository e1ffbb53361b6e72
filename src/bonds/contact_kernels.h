// Per-contact kernels of the solver, over the step's ContactArrays
// (collision/contact_arrays.h), with the law of contact_bond.h. They mirror
// the per-bond kernels (bond_kernels.h): weights and pulls from iterate k (one
// call per contact pair, summed per end), the augmented-Lagrangian update from
// iterate k+1 and the energy (one call per contact).
#pragma once

#include "body/body_arrays.h"
#include "bonds/bond_kernels.h"
#include "bonds/contact_bond.h"
#include "collision/contact_arrays.h"

namespace pabd {

/// A body's pose as the contact kernels read it: y = A x + c.
struct BodyPose {
  Mat3 affine;    ///< A
  Vec3 position;  ///< c [m]
};

/// Body i's pose at the current iterate.
PABD_HD_ALWAYS_INLINE BodyPose body_pose(const BodyArrays& bodies, int i) {
  return BodyPose{bodies.affine[i], bodies.position[i]};
}

/// World position of material point x of a body at pose p [m].
PABD_HD_ALWAYS_INLINE Vec3 pose_point(const BodyPose& p, Vec3 x) {
  return p.affine * x + p.position;
}

/// Contact k's anchors for its bodies at poses pa (end A) and pb (end B).
PABD_HD_ALWAYS_INLINE ContactPoints contact_points(const BodyPose& pa, const BodyPose& pb,
                                                   const ContactArrays& c, int k) {
  const Vec3* x = c.slot_local + kContactSlots * k;
  const Real radius_a = c.end_radius[2 * k], radius_b = c.end_radius[2 * k + 1];
  // A non-round end's surface anchor is its core anchor (contact_arrays.h).
  const Vec3 a_core = pose_point(pa, x[0]);
  const Vec3 b_core = pose_point(pb, x[2]);
  // Built in one aggregate: a default-constructed struct filled field by field
  // was zeroed first (rep stos), then stalled the loads that followed (perf).
  return ContactPoints{a_core,         radius_a > 0 ? pose_point(pa, x[1]) : a_core,
                       b_core,         radius_b > 0 ? pose_point(pb, x[3]) : b_core,
                       radius_a,       radius_b,
                       c.gap_offset[k]};
}

/// Contact k's anchors at the current iterate.
PABD_HD_ALWAYS_INLINE ContactPoints contact_points(const BodyArrays& bodies, const ContactArrays& c,
                                                   int k) {
  return contact_points(body_pose(bodies, c.end_body[2 * k]),
                        body_pose(bodies, c.end_body[2 * k + 1]), c, k);
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
}

/// Contact k's end scales (contact_prepare_kernel).
PABD_HD_ALWAYS_INLINE ContactEndScales contact_end_scales(const ContactArrays& c, int k) {
  return ContactEndScales{c.end_weight[2 * k], c.end_weight[2 * k + 1], c.end_scale[2 * k],
                          c.end_scale[2 * k + 1]};
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
/// contact_bond.h), all of it at the core anchor (local x[0], world `core`),
/// or, for a round end, the normal part at the core and the tangential part at
/// the surface anchor (x[1], `surface`).
template <bool kSecondMoment>
PABD_HD_ALWAYS_INLINE void add_contact_end(BondEndSums& sums, Mat3& second_moment, const Vec3* x,
                                           Vec3 core, Vec3 surface, bool round, Vec3 correction,
                                           Vec3 n, Real w) {
  if (!round) {
    add_contact_slot<kSecondMoment>(sums, second_moment, w, x[0], core + correction);
    return;
  }
  const Vec3 normal_part = dot(correction, n) * n;
  add_contact_slot<kSecondMoment>(sums, second_moment, w, x[0], core + normal_part);
  add_contact_slot<kSecondMoment>(sums, second_moment, w, x[1],
                                  surface + (correction - normal_part));
}

/// contact_pair_weights_kernel for one kind of pair: kRound when either end
/// is round (a sphere or capsule; the radii are the bodies', the same for all
/// the pair's contacts), kSecondMoment for the paper's local step. Written
/// once, instantiated four times: the box-box case carries no branch for the
/// others.
template <bool kRound, bool kSecondMoment>
PABD_HD void contact_pair_weights(const BodyArrays& bodies, const ContactArrays& c, int m,
                                  bool dual_first) {
  const BodyPose pa = body_pose(bodies, c.pair_body[2 * m]);
  const BodyPose pb = body_pose(bodies, c.pair_body[2 * m + 1]);
  BondEndSums sa, sb;
  Mat3 da, db;
  for (int k = c.pair_begin[m]; k < c.pair_begin[m + 1]; ++k) {
    ContactPoints p = contact_points(pa, pb, c, k);
    if (!kRound) p.radius_a = p.radius_b = 0;  // known: lets the compiler drop the round paths
    const Vec3 n = c.normal[k];
    Vec3 lambda = c.lambda[k];
    // An idle contact stays idle through its dual update and pulls nothing.
    if (contact_idle(p, n, lambda)) {
      if (dual_first) c.sticking[k] = 0;
      continue;
    }
    const Real mu = c.friction[k];
    const Vec3 force = contact_penalty_force(contact_penalty(c, k), p, n);
    if (dual_first) {
      contact_dual_update(force, n, mu, lambda, c.sticking[k]);
      c.lambda[k] = lambda;
      if (contact_idle(p, n, lambda)) continue;  // it let go
    }
    const ConeForce f = friction_cone_projection(force + lambda, n, mu);
    if (!f.pushing) continue;
    const ContactEndScales e = contact_end_scales(c, k);
    const Vec3* x = c.slot_local + kContactSlots * k;
    if (e.weight_a > 0)
      add_contact_end<kSecondMoment>(sa, da, x, p.a_core, p.a_surface, p.radius_a > 0,
                                     (-e.scale_a) * f.force, n, e.weight_a);
    if (e.weight_b > 0)
      add_contact_end<kSecondMoment>(sb, db, x + 2, p.b_core, p.b_surface, p.radius_b > 0,
                                     e.scale_b * f.force, n, e.weight_b);
  }
  c.pair_sums[2 * m] = sa;
  c.pair_sums[2 * m + 1] = sb;
  if (kSecondMoment) {
    c.pair_second_moment[2 * m] = da;
    c.pair_second_moment[2 * m + 1] = db;
  }
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
  const int first = c.pair_begin[m];
  const bool round = c.end_radius[2 * first] > 0 || c.end_radius[2 * first + 1] > 0;
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
  contact_dual_update(contact_points(bodies, c, k), c.normal[k], c.friction[k],
                      contact_penalty(c, k), c.lambda[k], c.sticking[k]);
}

/// Energy of contact k at the current iterate [J] (contact_energy).
PABD_HD Real contact_energy_kernel(const BodyArrays& bodies, const ContactArrays& c, int k) {
  return contact_energy(contact_points(bodies, c, k), c.normal[k], c.friction[k],
                        contact_penalty(c, k), c.lambda[k]);
}

}  // namespace pabd
