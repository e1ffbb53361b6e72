// Contact bond: one contact point as a hard one-sided bond with Coulomb
// friction (friction_bond.h), solved with the augmented Lagrangian.
//
// Each end has a core anchor (where the normal acts) and a surface anchor
// (where friction acts), equal for boxes and planes; a sphere or capsule
// anchors its core and reaches its surface by its radius r along the step's
// fixed normal n (model/contact_arrays.h). With y the anchors' world
// points, the gap and the tangential slip are
//
//   g = n . (y_b,core - y_a,core) - r_a - r_b     (signed, never clamped),
//   t = P (y_b,surface - y_a,surface),            P = I - n n^T,
//
// and the violation, in the joints' convention C = "a minus b", is
// C = -(g - g_off) n - t, with the stabilization offset g_off below. A gap
// clamped at zero would let a resting stack sink (method-notes.md, "Pitfalls").
//
// Force. The iterate asks for the augmented-Lagrangian force on B
// F = kappa C + lambda, projected onto the friction cone (F . n >= 0,
// |F_t| <= mu F . n). In the projective form of the hard joints
// (projected_bond.h) with C' = F_cone / kappa and shares s (bond_shares.h),
// end A is pulled with weight h^2 kappa / s_a toward y_a - s_a C' and end B
// with h^2 kappa / s_b toward y_b + s_b C', so at the iterate the bodies feel
// exactly -F_cone and +F_cone. A round end splits this: its core slot takes
// the normal part (through the centre: no torque) and its surface slot the
// tangential part (friction's torque: a ball rolls); each slot holds the
// other's direction at the iterate. When F . n <= 0 the contact does nothing
// (weight 0): a speculative contact found at a positive gap pushes only once
// the bodies would close it. A new contact has lambda = 0, so it acts only
// while g < 0; a warm-started one while g < lambda_n / kappa, the offset at
// which it holds its resting load with zero gap once lambda has converged.
//
// Penalty. kappa = s m_eff / (h^2 p) with m_eff = 1 / (1/m_a + 1/m_b), p
// the points of the manifold and s = kContactPenaltyScale = 1/16, fixed for
// the step (raised with the load a contact carries, contacts/contact_load.h,
// by the same factor). m_eff / (h^2 p) is the stiffness that would close the
// gap in one step if the pair's p points pushed two particles. A box is not a
// particle: its contact points also turn it, and it shares its mass with the
// pairs on its other faces. The multiplier update is a Jacobi step over all
// contact points, stable only while kappa h^2 stays below the inverse of the
// largest eigenvalue of the Delassus operator W = J M^-1 J^T of the points
// acting on a body. For a 1 m cube (corners as anchors, rotation included)
// that eigenvalue is 14/m on the ground (4 points), 24/m pressed between two
// neighbours (8 points) and 48/m inside a pyramid (16 points), against the
// 4/m per end that m_eff / (h^2 p) assumes: 1/6 to 1/12 of the penalty is what
// a Jacobi step over contacts can take. Measured at 20 iterations
// (scripts/robust_defaults.sh, docs/method.md): with s = 1 a 5-box column
// nudged by 1e-4 rad/s rocked itself up to 1.6e-3 rad/s, a 12-wide pyramid
// slid 4-7 cm in 10 s and stacks with mass ratios of 10 flipped; 1/8 still
// left a 10-box column rocking; 1/16 damps every such nudge to round-off;
// 1/32 is soft enough that the 820-box pyramid sags 4 cm. The scale is for
// touching contacts, the network of a resting pile, where the multipliers
// are warm-started from step to step. An impact, a contact whose bodies
// approach at the start of the step faster than |g| h / 2 (contact_impact_speed:
// a body that fell freely for one step approaches at |g| h, a resting one at
// what its last step left, 1e-4 m/s in the piles measured), must stop the
// approach within this step, from a multiplier that carried nothing: it keeps
// the full m_eff / (h^2 p) for that step (scaled by 1/16, a 50 m/s sphere went
// through a 0.1 m wall and a dropped box sank 1 cm into the ground before its
// multiplier caught up). Its multiplier is the force that stopped the
// approach, not a load, so the next step does not warm-start from it: carried
// over, it pushed a 50 m/s sphere back out of a wall at 7.5 m/s. Telling
// impacts by a positive start gap instead let
// resting contacts flip between the two penalties from step to step: the
// 820-box pyramid slid 9 cm. Each point at the
// unshared m_eff / h^2 made the multipliers overshoot fourfold; the joints'
// start of 1e4 N/m with the growth beta |C| wound the multipliers up to 8
// times the load.
//
// Multiplier. After each iteration lambda <- cone projection of
// (lambda + kappa C): the normal multiplier only ever pushes, the tangential
// one stays within mu times it. Each step starts from the contact with the
// same body pair and feature id in the previous step: its normal part
// lambda_n = 0.995 (lambda_prev . n) (kContactWarmStart), no tangential part.
// The factor is a leak that keeps the loop of multiplier and penetration
// damped: with none (1) columns of boxes nudged by 1e-4 rad/s rocked at
// 1e-3 rad/s and the 820-box pyramid slid 23 cm; with the joints' 0.99 x 0.999
// (the AVBD values) the pyramid's apex sank 2.1 cm under its steady loss of
// 1.1% of the load per step; 0.995 left 1.3 cm. Static friction's memory is the anchors instead: a
// contact that ended the previous step sticking keeps them, so its slip since
// it first touched is pulled back (contacts/contact_detect_kernels.h).
// Warm-starting the tangential multiplier as well counts that slip twice,
// once in the carried force and again in the penalty on the kept anchors: a
// double integrator, which rocked every column of boxes and pyramid we tried
// with a growing oscillation (5 boxes, 1e-4 rad/s grew to 1.6e-3 rad/s in
// 10 s). A touching contact's static friction, and a new touching contact's
// push, start from its share of the resting load instead, which depends on
// masses and geometry only (contacts/contact_load.h); other new contacts
// start at lambda = 0.
//
// Stabilization. A penetration g_0 < 0 found at the start of the step is
// pushed out by (1 - alpha) of it per step, not at once: the gap counted is
// g - alpha g_0 (kContactStabilization = alpha). Positions corrected inside
// a step become velocity (v = (c^{n+1} - c^n) / h), so pushing a stack's
// millimetre of compression out in one step made it bounce (AVBD stabilizes
// its constraints the same way). With alpha = 0.95 the 10-box stack settles;
// 0.9 left the Jacobi sweeps oscillating, 0.99 the stack sagging. Contacts
// always use the augmented Lagrangian (WorldDef::augmented_lagrangian concerns
// joints).
#pragma once

#include "contacts/friction_bond.h"
#include "model/bond_arrays.h"

namespace pabd {

/// A contact's anchors at the iterate, world frame.
struct ContactPoints {
  Vec3 a_core, a_surface;  ///< end A [m]
  Vec3 b_core, b_surface;  ///< end B [m]
  Real radius_a = 0;       ///< A's radius (0: the core is on the surface) [m]
  Real radius_b = 0;       ///< B's radius [m]
  Real gap_offset = 0;     ///< stabilization: the gap counted as closed (<= 0) [m]
};

/// Signed gap along n [m]; < 0 = penetration.
PABD_HD Real contact_gap(const ContactPoints& p, Vec3 n) {
  return dot(n, p.b_core - p.a_core) - p.radius_a - p.radius_b;
}

/// The gap the contact acts on: the gap less the stabilization offset [m].
PABD_HD Real contact_solve_gap(const ContactPoints& p, Vec3 n) {
  return contact_gap(p, n) - p.gap_offset;
}

/// Violation C = -g n - P (y_b,surface - y_a,surface) [m].
PABD_HD Vec3 contact_violation(const ContactPoints& p, Vec3 n) {
  const Vec3 d = p.b_surface - p.a_surface;
  const Vec3 slip = d - dot(d, n) * n;
  return (-contact_solve_gap(p, n)) * n - slip;
}

/// A contact's penalties [N/m]: along the normal, raised to the load it
/// carries (contacts/contact_load.h), and across it (friction), the pair's
/// m_eff / (h^2 p).
struct ContactPenalty {
  Real normal = 0;
  Real tangent = 0;
};

/// An idle contact: it did not push at its last dual update (lambda = 0) and
/// its bodies do not overlap at the iterate (solve gap > 0). The cone
/// projection would find F . n = -kappa_n g < 0 for it (up to rounding of
/// the slip's normal part, ~1e-16 of the anchors' distance) and let it go, so
/// the kernels skip its slip, force and projections. Most speculative contacts
/// are idle: 55-75% of the contacts of scenes/ball_into_stack.json and 75% of
/// scenes/pile_20.json's ended their steps with lambda = 0 (measured).
PABD_HD_ALWAYS_INLINE bool contact_idle(const ContactPoints& p, Vec3 n, Vec3 lambda) {
  return lambda.x == 0 && lambda.y == 0 && lambda.z == 0 && contact_solve_gap(p, n) > 0;
}

/// The penalty force of a violation c: kappa_n (c . n) n + kappa_t P c.
PABD_HD Vec3 contact_penalty_force(const ContactPenalty& pen, Vec3 c, Vec3 n) {
  const Vec3 cn = dot(c, n) * n;
  return pen.normal * cn + pen.tangent * (c - cn);
}

/// The penalty force kappa_n (C . n) n + kappa_t P C of the violation at the
/// anchors p (contact_violation). Between two non-round ends the surface
/// anchors are the core anchors, so with d = y_b - y_a, C . n = -g and
/// P C = -P d: the force is -kappa_n g n - kappa_t (d - (d . n) n), computed
/// so (the hot path of the iterations: 1000-box piles are all boxes).
PABD_HD_ALWAYS_INLINE Vec3 contact_penalty_force(const ContactPenalty& pen, const ContactPoints& p,
                                                 Vec3 n) {
  if (p.radius_a == 0 && p.radius_b == 0) {
    const Vec3 d = p.b_core - p.a_core;
    const Real dn = dot(d, n);
    const Real gap = dn - p.gap_offset;
    return (-pen.normal * gap) * n - pen.tangent * (d - dn * n);
  }
  return contact_penalty_force(pen, contact_violation(p, n), n);
}

/// What a contact's ends do with its force in the iterations, fixed for the
/// step: each end's slot weight w = h^2 kappa / s and correction scale s / kappa
/// for its share s (bond_shares.h), so that a force F corrects the end by
/// its share of C' = F / kappa; both 0 for an end with share 0 (static).
struct ContactEndScales {
  Real weight_a = 0, weight_b = 0;  ///< [N m^-1 s^2]
  Real scale_a = 0, scale_b = 0;    ///< [m/N]
};

/// The end scales of a contact of normal penalty kappa and shares s_a, s_b.
PABD_HD ContactEndScales contact_end_scales(Real kappa, Real share_a, Real share_b, Real h2) {
  ContactEndScales e;
  if (share_a > 0) {
    e.weight_a = h2 * kappa / share_a;
    e.scale_a = share_a / kappa;
  }
  if (share_b > 0) {
    e.weight_b = h2 * kappa / share_b;
    e.scale_b = share_b / kappa;
  }
  return e;
}

/// Scale of a touching contact's penalty against the pair's m_eff / (h^2 p) (see the top of this
/// file).
inline constexpr Real kContactPenaltyScale = Real(1) / Real(16);

/// Approach speed above which a contact is an impact [m/s]: |g| h / 2, and
/// at least 1 mm/s (without gravity), from gravity g [m/s^2] and the step h [s].
PABD_HD Real contact_impact_speed(Vec3 gravity, Real h) {
  const Real half_step = Real(0.5) * length(gravity) * h;
  return half_step > Real(1e-3) ? half_step : Real(1e-3);
}

/// The penalty scale of a contact whose bodies approach at `approach_velocity`
/// (normal velocity at the start of the step, < 0 closing) [m/s]: 1 for an
/// impact, faster than impact_speed (contact_impact_speed), else
/// kContactPenaltyScale (see the top of this file).
PABD_HD Real contact_penalty_scale(Real approach_velocity, Real impact_speed) {
  return approach_velocity < -impact_speed ? Real(1) : kContactPenaltyScale;
}

/// Share of a start-of-step penetration that a step keeps (see the top of this file).
inline constexpr Real kContactStabilization = Real(0.95);

/// Augmented-Lagrangian update after an iteration (see the top of this file),
/// given the penalty force kappa C at the iterate (contact_penalty_force).
/// `sticking` records whether static friction held. The caller leaves an
/// idle contact (contact_idle) at lambda = 0 and sticking = 0.
PABD_HD void contact_dual_update(Vec3 penalty_force, Vec3 n, Real mu, Vec3& lambda,
                                 std::uint8_t& sticking) {
  const ConeForce f = friction_cone_projection(lambda + penalty_force, n, mu);
  lambda = f.force;
  sticking = f.sticking ? 1 : 0;
}

/// The same from the anchors at the iterate; an idle contact stays at lambda = 0.
PABD_HD void contact_dual_update(const ContactPoints& p, Vec3 n, Real mu, const ContactPenalty& pen,
                                 Vec3& lambda, std::uint8_t& sticking) {
  if (contact_idle(p, n, lambda)) {
    sticking = 0;
    return;
  }
  contact_dual_update(contact_penalty_force(pen, p, n), n, mu, lambda, sticking);
}

/// Share of its previous multiplier a contact starts a step with (see the top of this file).
inline constexpr Real kContactWarmStart = Real(0.995);

/// Start of a step: the multiplier of a contact matched to `previous_lambda`:
/// its push along this step's normal times kContactWarmStart, and no
/// tangential part (see the top of this file).
PABD_HD Vec3 contact_warm_start(Vec3 previous_lambda, Vec3 n) {
  const Real push = kContactWarmStart * dot(previous_lambda, n);
  return push > 0 ? push * n : Vec3{};
}

/// Augmented-Lagrangian energy of a contact at the iterate [J] (a diagnostic
/// for convergence plots): the normal part kappa/2 C_n^2 + lambda_n C_n while
/// it pushes, else its minimum -lambda_n^2 / (2 kappa); while sticking, the
/// tangential kappa/2 |C_t|^2 + lambda_t . C_t. Kinetic friction dissipates
/// and has no potential: it adds nothing.
PABD_HD Real contact_energy(const ContactPoints& p, Vec3 n, Real mu, const ContactPenalty& pen,
                            Vec3 lambda) {
  const Vec3 c = contact_violation(p, n);
  const ConeForce f = friction_cone_projection(contact_penalty_force(pen, c, n) + lambda, n, mu);
  const Real cn = dot(c, n), ln = dot(lambda, n);
  if (!f.pushing) return -ln * ln / (Real(2) * pen.normal);
  Real e = Real(0.5) * pen.normal * cn * cn + ln * cn;
  if (f.sticking) {
    const Vec3 ct = c - cn * n, lt = lambda - ln * n;
    e += Real(0.5) * pen.tangent * dot(ct, ct) + dot(lt, ct);
  }
  return e;
}

}  // namespace pabd
