// Coulomb friction of a contact, as the contact bond (contact_bond.h) uses it.
//
// A contact's force on body B is one world vector F (A gets -F): the normal
// part F_n = F . n pushes B away from A, the tangential part F_t resists the
// slip of the two anchors. Coulomb's law is the cone
//
//   F_n >= 0,   |F_t| <= mu F_n.
//
// Static friction: the tangential slip of the anchors (material points that
// were opposite each other when the contact was first made, and persist
// across steps while the contact sticks) is a hard constraint pulled back to
// zero, its force F_t unbounded by anything but the cone. Kinetic friction:
// when the force the constraint asks for leaves the cone, it is moved back
// onto the cone's surface along its own direction, so the bodies slide with
// |F_t| = mu F_n opposing the slip. This is the projection of Andrews et al.
// 2022 (radial clamp in the tangent plane); a force with F_n <= 0 projects to
// zero (the contact lets go).
//
// Combine rule: mu = sqrt(mu_a mu_b), the geometric mean of the two bodies'
// `friction` (Box2D's default). Equal coefficients give that coefficient; a
// frictionless body (0) makes every contact it has frictionless.
#pragma once

#include <cmath>

#include "pabd/math.h"

namespace pabd {

/// Friction coefficient of a contact between bodies of coefficients mu_a and mu_b.
PABD_HD Real combined_friction(Real mu_a, Real mu_b) { return std::sqrt(mu_a * mu_b); }

/// A contact force projected onto the friction cone.
struct ConeForce {
  Vec3 force;             ///< F on body B after the projection [N]
  bool pushing = false;   ///< F_n > 0: the contact is active
  bool sticking = false;  ///< pushing and |F_t| <= mu F_n before the projection (static)
};

/// Projects the force f (on B) onto the cone F . n >= 0, |F_t| <= mu F . n.
PABD_HD ConeForce friction_cone_projection(Vec3 f, Vec3 n, Real mu) {
  ConeForce out;
  const Real fn = dot(f, n);
  if (!(fn > 0)) return out;  // pulling (or NaN): the contact lets go
  out.pushing = true;
  const Vec3 ft = f - fn * n;
  const Real ft2 = dot(ft, ft);
  const Real cone = mu * fn;
  // Compared squared: a sticking contact (most of a resting pile's) needs no root.
  if (ft2 <= cone * cone) {
    out.sticking = true;
    out.force = f;
  } else {
    out.force = fn * n + (cone / std::sqrt(ft2)) * ft;
  }
  return out;
}

}  // namespace pabd
