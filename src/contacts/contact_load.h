// Load-aware contact penalties: each contact's penalty covers the mass it
// carries, not just the two bodies it joins.
//
// A contact's penalty kappa = m_eff / (h^2 p) (contact_bond.h) closes the gap
// in one step if the two bodies alone take the force. At the bottom of a
// stack whose boxes grow tenfold in mass upwards (the paper's Table 2 stack),
// the 1 kg box's contacts must carry 1.1e5 kg: with m_eff about 1 kg the
// multipliers would need a gap of metres to reach that load, and the light
// boxes are squeezed out. Here each contact's penalty is raised to the mass
// resting on it over h^2:
//
//   M_i = m_i + sum over the contacts where i is the lower body of
//         M_j u_c / U_j,                                             (1)
//
// with j the upper body of contact c, u_c = max(0, n . up) its verticality
// (the normal taken from the lower body to the upper one, up = -g / |g|) and
// U_j the sum of u over the contacts where j is the upper body: a body hands
// its supported mass down through its supports in proportion to how vertical
// they are. A contact then gets kappa >= M_j u_c / (U_j h^2), which is
// m / (h^2 p) for a box of mass m on p points, and more underneath.
//
// (1) depends only on masses and the contact geometry, never on the
// multipliers: a penalty raised with the load the multipliers report ran away
// in a 1000-box pile (an impact's peak raised the penalty, which raised the
// next peak). (1) is solved by Jacobi rounds over bodies, warm-started from
// the previous step, so a stack of depth d settles in d rounds; M is capped at
// the world's dynamic mass, so a cycle of leaning bodies cannot grow it.
// Without gravity nothing rests on anything and the penalties stay m_eff based.
//
// The raised penalty is scaled as the pair's own (contact_penalty_scale,
// contacts/contact_bond.h): it is the same Jacobi step over contacts.
//
// The same masses warm-start the multipliers. A contact that touches at the
// start of the step (start gap <= g h^2, what gravity closes in one step,
// and, as a drop start_gap / u, within kSupportDropShare g h^2 of its upper
// body's nearest support, where that body lands first) starts from its
// share of the resting load, the vertical force
// g M_j u_c / U_j on the upper body: a new one (or one that carried nothing)
// takes all of it, projected onto its friction cone; a warm-started one keeps
// its push and takes the share's tangential part as its static friction.
// The push is the carried multiplier (contacts/contact_bond.h); the friction is
// not carried, because the kept anchors already remember the slip, and this
// estimate depends on masses and geometry only, so it adds no memory.
// Measured: a stack or pile built at rest carries its weight from the first
// step (the 820-box pyramid's apex fell 4 cm in its first steps without it); a
// block at rest on a 20 degree slope settles 0.4 mm down it, against 3.2 mm
// when its friction had to be rebuilt from the slip every step.
//
// A body on a joint or spring may hang from it rather than rest on its
// contacts. In an anchored articulation (bodies joined by bonds, one of them
// to the world or a static body) it hands nothing down: a windmill blade
// sweeping over a pile would otherwise load the boxes under it with its whole
// mass, and the raised penalties (friction at the iterate grows with the
// normal force) jammed the blades in the piles of scenes/windmill_piles.json.
// A free articulation (a robot, a vehicle: joined bodies, none anchored) can
// only rest on its contacts: its bodies hand down as free ones do, and the
// mass of its bodies with no support of their own (a torso above its legs)
// is shared among its supported bodies by their support weight U:
//
//   M_i = m_i + H_a U_i / sum over a's supported bodies of U   (added to (1))
//
// with H_a the masses of articulation a's unsupported bodies. Without it a
// 0.3 kg foot under a 6 kg body on a fixed joint sank 3.2 cm into the ground,
// 11.7 cm at 20:1 (its contacts were sized for the foot alone).
#pragma once

#include "contacts/contact_bond.h"
#include "model/contact_arrays.h"
#include "pabd/config.h"
#include "pabd/math.h"

namespace pabd {

/// What the load kernels read: the step's contacts and their body adjacency.
struct ContactLoadView {
  const int* end_body = nullptr;            ///< per end (2 per contact)
  const Vec3* normal = nullptr;             ///< per contact, from A to B
  const int* pair_begin = nullptr;          ///< per contact pair: first contact
  const int* pair_end = nullptr;            ///< per contact pair: one past its last
  const int* pair_body = nullptr;           ///< per pair end (2 per pair): body
  const int* begin = nullptr;               ///< per body + 1: CSR offsets into index
  const int* index = nullptr;               ///< pair end ids on each dynamic body
  const Real* mass = nullptr;               ///< per body [kg]
  const std::uint8_t* is_static = nullptr;  ///< per body, may be null
  /// Per body, may be null: 1 = in an anchored articulation, whose bonds may
  /// hold it up, so it hands no mass down through its contacts.
  const std::uint8_t* jointed = nullptr;
  /// Per body, may be null: the share of its free articulation's hanging
  /// mass that it carries, H_a U_i / sum U [kg].
  const Real* hung_mass = nullptr;
  Vec3 up{0, 1, 0};  ///< unit, against gravity
};

/// Per pair end e = 2 m + side: the verticality of pair m's contacts that
/// hold the other body up from this end, sum of max(0, u) with u = n . up
/// seen from the end (> 0: this end's body is the lower one). Computed once
/// per step, so each Jacobi round reads one number per pair end instead of
/// every contact (pile_20: 24-27 contacts per box).
PABD_HD void pair_support_kernel(const ContactLoadView& v, Real* support, int m) {
  Real below = 0, above = 0;  // A under B, A over B
  for (int k = v.pair_begin[m]; k < v.pair_end[m]; ++k) {
    const Real nu = dot(v.normal[k], v.up);
    if (nu > 0) below += nu;
    if (nu < 0) above -= nu;
  }
  support[2 * m] = below;
  support[2 * m + 1] = above;
}

/// U_i: the sum of verticality over body i's supports (contacts below it):
/// over its pair ends, the other end's support (e ^ 1).
PABD_HD void support_weight_kernel(const ContactLoadView& v, const Real* pair_support,
                                   Real* support_weight, int i) {
  Real sum = 0;
  for (int t = v.begin[i]; t < v.begin[i + 1]; ++t) sum += pair_support[v.index[t] ^ 1];
  support_weight[i] = sum;
}

/// One Jacobi round of (1) for body i: supported[i] from previous[] of the
/// bodies resting on it, capped at `cap` [kg].
PABD_HD void supported_mass_kernel(const ContactLoadView& v, const Real* pair_support,
                                   const Real* support_weight, const Real* previous, Real cap,
                                   Real* supported, int i) {
  if (v.is_static && v.is_static[i]) {
    supported[i] = 0;
    return;
  }
  Real m = v.mass[i] + (v.hung_mass ? v.hung_mass[i] : Real(0));
  for (int t = v.begin[i]; t < v.begin[i + 1]; ++t) {
    const int e = v.index[t];
    const Real u = pair_support[e];
    if (u <= 0) continue;
    const int j = v.pair_body[e ^ 1];  // the pair's other body, resting on this one
    if ((v.is_static && v.is_static[j]) || (v.jointed && v.jointed[j]) || support_weight[j] <= 0)
      continue;
    m += previous[j] * (u / support_weight[j]);
  }
  supported[i] = m < cap ? m : cap;
}

/// How much farther than its body's nearest support a touching contact may
/// be, as a drop, for it to take its share of the load at the start of the
/// step, in g h^2 (what gravity moves a body in one step) [-].
inline constexpr Real kSupportDropShare = Real(0.1);

/// Body i's nearest support as a drop: the least start_gap / u over the
/// contacts where it is the upper body (u = n . up seen from below > 0),
/// how far it falls before one of them closes [m]; 1e300 when none.
PABD_HD void support_drop_kernel(const ContactLoadView& v, const Real* start_gap, Real* drop,
                                 int i) {
  Real least = Real(1e300);
  for (int t = v.begin[i]; t < v.begin[i + 1]; ++t) {
    const int e = v.index[t], m = e >> 1;
    const Real toward = (e & 1) ? Real(1) : Real(-1);  // B is upper when n points up
    for (int k = v.pair_begin[m]; k < v.pair_end[m]; ++k) {
      const Real u = toward * dot(v.normal[k], v.up);
      if (u <= 0) continue;
      const Real d = start_gap[k] / u;
      least = d < least ? d : least;
    }
  }
  drop[i] = least;
}

/// Contact k's upper body (B when its normal points up) and verticality u = |n . up|.
struct ContactUpper {
  Real nu = 0;    ///< n . up, signed
  int upper = 0;  ///< the body above
  Real u = 0;     ///< |nu|
};

PABD_HD_ALWAYS_INLINE ContactUpper contact_upper(const ContactLoadView& v, int k) {
  const Real nu = dot(v.normal[k], v.up);
  return ContactUpper{nu, v.end_body[2 * k + (nu > 0 ? 1 : 0)], nu > 0 ? nu : -nu};
}

/// The mass contact c's upper body hands down through it, M_j u_c / U_j [kg];
/// 0 when it hands nothing down (see the top of this file).
PABD_HD Real contact_load_mass(const ContactLoadView& v, const Real* support_weight,
                               const Real* supported, const ContactUpper& c) {
  const int upper = c.upper;
  if (c.u <= 0 || (v.is_static && v.is_static[upper]) || (v.jointed && v.jointed[upper]) ||
      support_weight[upper] <= 0)
    return 0;
  return supported[upper] * (c.u / support_weight[upper]);
}

/// Raises contact k's normal penalty to the mass its upper body hands down
/// through it, over h^2, scaled as every contact penalty (see the top of this
/// file); with a gravity of magnitude g > 0, a touching contact without a
/// multiplier starts with that mass's weight along its normal.
PABD_HD void load_penalty_kernel(const ContactLoadView& v, const Real* support_weight,
                                 const Real* supported, const Real* support_drop,
                                 const Real* start_gap, const Real* approach_velocity,
                                 const Real* friction, Real impact_speed, Real g, Real h2,
                                 Real* penalty, Vec3* lambda, int k) {
  const ContactUpper c = contact_upper(v, k);
  const Real mass = contact_load_mass(v, support_weight, supported, c);
  if (mass <= 0) return;
  const Real load = contact_penalty_scale(approach_velocity[k], impact_speed) * mass / h2;
  if (load > penalty[k]) penalty[k] = load;
  // Touching: closer than gravity moves a body in one step (g h^2), so the
  // contact carries the load this step ...
  if (!(start_gap[k] <= g * h2)) return;
  // ... unless the upper body lands on a nearer support first: a box in a
  // pile 1 mm above the one below has its edge neighbours below 1.4 mm away
  // along the diagonal, 2 mm as a drop; handed a share, they pushed it
  // sideways and up while apart (pile_20's first step: 23,246 pushing pairs
  // of diagonal neighbours, against 8,959 face pairs).
  if (!(start_gap[k] / c.u <= support_drop[c.upper] + kSupportDropShare * g * h2)) return;
  // The weight's share, upward on the upper body (B when n points up).
  const Vec3 n = v.normal[k];
  const Real up_on_b = c.nu > 0 ? g * mass : -g * mass;
  const Vec3 share = up_on_b * v.up;
  const Vec3 l = lambda[k];
  const bool none = l.x == 0 && l.y == 0 && l.z == 0;
  // A new contact takes the whole share; a warm-started one keeps its push and
  // takes the share's tangential part as its static friction.
  const Vec3 start = none ? share : dot(l, n) * n + (share - dot(share, n) * n);
  lambda[k] = friction_cone_projection(start, n, friction[k]).force;
}

}  // namespace pabd
