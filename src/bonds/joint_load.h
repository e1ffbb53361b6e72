// Load-aware hard joints: a hard point bond (the spherical, hinge and fixed
// joints) starts each step with a penalty that covers the mass it holds to
// the world, as a contact's covers the mass resting on it
// (contacts/contact_load.h).
//
// A hard point bond is an augmented-Lagrangian loop: the multiplier carries
// the joint's force from step to step, and the penalty kappa sets how far the
// ends part before the multiplier catches up. At kappa = max(kappa_start,
// m_eff / h^2), m_eff the two bodies' reduced mass, a chain of light links
// holding a heavy one is as soft as its light links: the paper's Fig. 8 chain
// (19 links of 1 kg, the last 1000 kg, 10 iterations) opened by 0.26 m
// hanging at rest and threw its heavy link 4 m above where it hung. Raising
// every joint's penalty (hard_stiffness_mass_ratio 1e4) holds the chain, but
// a stiff weld between light bodies leaves them barely able to move each
// other within an iteration: a motor then turned a rotor of welded blades
// backwards.
//
// So each joint gets the stiffness of what it holds. Along the graph of hard
// joint bonds (point, point-on-line and distance bonds; not limits or drives),
// a body's distance is the number of joints between it and the world (or a
// static body). Every body hands the mass behind it, its own plus what the
// bodies farther out handed it, in equal shares to its bonds toward the world
// (bonds to the world, a static body or a body one joint nearer):
//
//   B_i = m_i + sum over bonds b from a farther body j to i of B_j / P_j,
//
// P_j the number of such bonds of j; bond b then holds M_b = B_j / P_j. A
// hard point bond starts each step with
//
//   kappa >= kJointLoadFactor (M_b - m_eff) / h^2,
//
// the stiffness that moves what it holds beyond its own two bodies (whose
// m_eff / h^2 the multiplier step already covers, bond_kernels.h) with it
// within one step, five times over for the dynamic loads (a chain released
// from the horizontal pulls with three times its weight at the bottom of the
// swing). Measured on the Fig. 8 chain with the defaults, largest joint gap
// hanging / swinging from 45 degrees / released from the horizontal: factor
// 1, 5.7 / 5.1 / 15 mm; 3, 2.7 / 3.0 / 12 mm; 5, 2.2 / 2.6 / 6.8 mm; 10, 1.9 /
// 2.3 / 6.1 mm but swinging the heavy link rose 2.9 cm above its release
// height (energy gained). Counting the bond's own bodies too (M_b instead of
// M_b - m_eff) stiffened a single hinged bar's joint past its multiplier step,
// and the bar, let go by a motor, spun on 4% faster. A blade welded to a
// driven hub holds only the blade, less than the pair's m_eff, so the
// windmill's welds keep their plain start and its motor turns it. Bodies with
// no joint path to the world (a free mechanism, a robot standing on its feet)
// hold nothing: their joints keep the plain start.
//
// M_b depends only on the masses and the joint graph, so it is found once per
// topology change (world/world_joint_loads.cpp), in the order of a breadth-
// first search from the world: the same for any thread count.
#pragma once

#include "pabd/config.h"

namespace pabd {

/// Multiple of the mass behind a hard point bond that its penalty starts at (see above).
inline constexpr Real kJointLoadFactor = 5;

/// True when a hard point bond holds more than its own two bodies (mass_behind
/// > m_eff [kg]): its load floor is active.
PABD_HD bool joint_carries_load(Real mass_behind, Real m_eff) { return mass_behind > m_eff; }

/// Penalty floor [N/m] of a hard point bond holding `mass_behind` [kg] to the
/// world, between bodies of reduced mass m_eff [kg] (the moving body's mass
/// for a bond to the world).
PABD_HD Real joint_load_penalty(Real mass_behind, Real m_eff, Real h2) {
  const Real beyond = mass_behind - m_eff;
  return beyond > 0 ? kJointLoadFactor * beyond / h2 : Real(0);
}

}  // namespace pabd
