// Spring bond: Psi(d) = k/2 (d - l)^2 between two points.
//
// phi(d) = k (d - l) splits into phi+ = k d (>= 0, implicit) and phi- = -k l
// (<= 0, explicit), so each end gets weight w = h^2 k toward the other end's
// iteration-k position plus the constant push h^2 k l along the bond, away
// from the other end. At d = 0 the direction is undefined: use the limit
// (weight k, no explicit force), as method-notes.md prescribes.
#pragma once

#include "bonds/bond_end_pair.h"

namespace pabd {

PABD_HD BondEndPair spring_weights(Vec3 ya, Vec3 yb, Real stiffness, Real rest_length, Real h2) {
  const Vec3 ab = yb - ya;
  const Real d = length(ab);
  const Real w = h2 * stiffness;
  BondEndPair out;
  out.weight_a = out.weight_b = w;
  out.pull_a = w * yb;
  out.pull_b = w * ya;
  if (d > Real(1e-12)) {
    const Vec3 push = (h2 * stiffness * rest_length / d) * ab;  // h^2 k l n
    out.pull_a = out.pull_a - push;
    out.pull_b = out.pull_b + push;
  }
  return out;
}

PABD_HD Real spring_energy(Vec3 ya, Vec3 yb, Real stiffness, Real rest_length) {
  const Real stretch = length(yb - ya) - rest_length;
  return Real(0.5) * stiffness * stretch * stretch;
}

}  // namespace pabd
