// Restitution: an optional bounce of contacts, applied to the velocities
// after the step's velocity stage (the position-based way of Mueller et al.
// 2020, "Detailed rigid body simulation with extended position based
// dynamics", section 3.5).
//
// The position solve makes every contact inelastic: the bodies end the step
// touching, with no normal velocity left but what the iterations did not
// remove. A contact with restitution e > 0 (e = max(e_a, e_b), Box2D's and
// PhysX's default rule) records at detection its normal approach velocity
// v_n0 = n . (v_b(p_b) - v_a(p_a)) at the start of the step (p the core
// anchors, v(p) = v + w x (p - c)). After the velocity stage, a contact that
// still pushed at its last dual update (lambda . n > 0) and that approached
// faster than the threshold, v_n0 < -2 |g| h, gets the normal velocity
// -e v_n0: a resting contact approaches at most |g| h per step (what
// gravity adds in one step), so it never bounces.
//
// The velocity change is a normal impulse j at the contact, shared by the
// two bodies through their effective inverse masses at the anchors,
// w = 1/m + (r x n)^T I^-1 (r x n) with the world inertia
// I = R (tr(Pi) I3 - Pi) R^T (Pi the affine inertia). A body may bounce on
// several contacts at once (a box landing flat on four corners), so the
// impulses are found by projected Jacobi rounds with mass splitting (Tonge
// et al. 2012): each round, every contact computes its impulse change from
// the velocities before the round, with each end's inverse mass multiplied
// by the number of bouncing contacts on that body, keeping its accumulated
// impulse >= 0 (a bounce only pushes); then every body adds the changes of
// its own contacts in contact order. One bouncing contact per body is exact
// after one round; a box landing flat converges by a factor 3/4 per round
// (its corners' w is 4/m). No atomics: the same result for any thread count.
//
// Accuracy. v_n0 is the speed at the start of the impact step, so a ball
// that falls under symplectic Euler (v_N^2 / (2g) = H - g0 - v_N h / 2 at a
// start gap g0 in [0, v_N h]) and flies back up from the touching pose
// (apex (e v_N)^2 / (2g) - e v_N h / 2) rebounds to
// e^2 (H - g0 - v_N h / 2) - e v_N h / 2: never above e^2 H, and up to about
// (3 e^2 + e) v_N h / 2 below it (4.6 cm for e = 0.5 from 1 m at 60 Hz; an
// elastic ball loses up to 2 v_N h of height per bounce, 15 cm from 1 m).
// Smaller steps shrink this in proportion.
#pragma once

#include "math/affine_system.h"
#include "model/body_arrays.h"
#include "model/body_inertia.h"
#include "model/contact_arrays.h"

namespace pabd {

/// Jacobi rounds of the restitution stage per step (see the top of this file):
/// a flat box keeps (3/4)^32 = 1e-4 of its velocity change unresolved (16
/// rounds left 1%, 2.2% of its bounce speed). Only steps with a bouncing
/// contact run them.
inline constexpr int kRestitutionRounds = 32;

/// A contact's coefficient of restitution from its bodies': the larger one.
PABD_HD Real combined_restitution(Real e_a, Real e_b) { return e_a > e_b ? e_a : e_b; }

/// Approach speed below which a contact never bounces, 2 |g| h [m/s]: twice
/// what gravity adds in one step, so resting contacts stay at rest.
PABD_HD Real restitution_threshold(Vec3 gravity, Real h) { return Real(2) * length(gravity) * h; }

/// True when contact k bounces this step: it has restitution, pushed at its
/// last dual update and approached faster than `threshold` at the start.
PABD_HD bool restitution_active(const ContactArrays& c, int k, Real threshold) {
  return c.restitution[k] > 0 && dot(c.lambda[k], c.normal[k]) > 0 &&
         c.approach_velocity[k] < -threshold;
}

/// The restitution stage's scratch.
struct RestitutionScratch {
  Real* impulse = nullptr;  ///< per contact: accumulated normal impulse on B [N s]
  Real* delta = nullptr;    ///< per contact: this round's change of it [N s]
  int* share = nullptr;     ///< per body: its bouncing contacts (mass splitting)
};

/// Velocity of body i's world point p now, v + w x (p - c) (0 for a static body) [m/s].
PABD_HD Vec3 body_point_velocity(const BodyArrays& b, int i, Vec3 p) {
  if (b.is_static[i]) return {};
  return b.velocity[i] + cross(b.angular_velocity[i], p - b.position[i]);
}

/// Inverse mass of body i along n at its world point p, 1/m + (r x n)^T I^-1 (r x n)
/// (0 for a static body) [1/kg].
PABD_HD Real normal_inverse_mass(const BodyArrays& b, int i, Vec3 p, Vec3 n) {
  if (b.is_static[i]) return 0;
  const Vec3 u = cross(p - b.position[i], n);
  return Real(1) / b.mass[i] + dot(u, world_inverse_inertia_times(b, i, u));
}

/// Per body: how many of its contacts bounce this step (share[i]), over the
/// contact pairs touching it.
PABD_HD void restitution_share_kernel(const ContactArrays& c, const ContactEnds& ends,
                                      Real threshold, const RestitutionScratch& s, int i) {
  int n = 0;
  for (int at = ends.begin[i]; at < ends.begin[i + 1]; ++at) {
    const int pair = ends.index[at] / 2;
    for (int k = c.pair_begin[pair]; k < c.pair_end[pair]; ++k)
      if (restitution_active(c, k, threshold)) ++n;
  }
  s.share[i] = n;
}

/// Per contact, one Jacobi round: the change of its impulse toward the normal
/// velocity -e v_n0, from the velocities before the round (first: the
/// accumulated impulse starts at 0).
PABD_HD void restitution_impulse_kernel(const BodyArrays& b, const ContactArrays& c, Real threshold,
                                        const RestitutionScratch& s, bool first, int k) {
  s.delta[k] = 0;
  if (first) s.impulse[k] = 0;
  if (!restitution_active(c, k, threshold)) return;
  const int a = c.end_body[2 * k], bb = c.end_body[2 * k + 1];
  const Vec3 n = c.normal[k];
  const Vec3 pa = world_point(b, a, c.slot_local[kContactSlots * k]);
  const Vec3 pb = world_point(b, bb, c.slot_local[kContactSlots * k + 2]);
  const Real vn = dot(n, body_point_velocity(b, bb, pb) - body_point_velocity(b, a, pa));
  const Real w = Real(s.share[a]) * normal_inverse_mass(b, a, pa, n) +
                 Real(s.share[bb]) * normal_inverse_mass(b, bb, pb, n);
  if (!(w > 0)) return;
  const Real target = -c.restitution[k] * c.approach_velocity[k];
  const Real before = s.impulse[k];
  Real after = before + (target - vn) / w;
  if (!(after > 0)) after = 0;
  s.impulse[k] = after;
  s.delta[k] = after - before;
}

/// Per body, after a round of restitution_impulse_kernel: adds the impulse
/// changes of its contacts (pair order, then contact order) to its velocity
/// and angular velocity.
PABD_HD void restitution_apply_kernel(const BodyArrays& b, const ContactArrays& c,
                                      const ContactEnds& ends, const RestitutionScratch& s, int i) {
  if (b.is_static[i] || s.share[i] == 0) return;
  Vec3 linear, angular;  // impulse [N s] and its moment about the centre [N m s]
  for (int at = ends.begin[i]; at < ends.begin[i + 1]; ++at) {
    const int pair = ends.index[at] / 2, side = ends.index[at] % 2;
    for (int k = c.pair_begin[pair]; k < c.pair_end[pair]; ++k) {
      const Real d = s.delta[k];
      if (d == 0) continue;
      const Vec3 p = (side == 1 ? d : -d) * c.normal[k];
      const Vec3 core = c.slot_local[kContactSlots * k + 2 * side];
      linear = linear + p;
      angular = angular + cross(world_point(b, i, core) - b.position[i], p);
    }
  }
  b.velocity[i] = b.velocity[i] + (Real(1) / b.mass[i]) * linear;
  b.angular_velocity[i] = b.angular_velocity[i] + world_inverse_inertia_times(b, i, angular);
}

}  // namespace pabd
