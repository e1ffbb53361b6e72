// Scenes built in code, shared by tests and benchmarks: arrays of bodies too
// large to list by hand.
#pragma once

#include "pabd/world.h"

namespace pabd {

/// Options of a square grid of boxes joined to their 4 neighbours by springs.
struct SpringGridDef {
  int side = 100;           ///< boxes per side (side^2 bodies, 2 side (side-1) springs)
  Real spacing = 1.5;       ///< centre-to-centre distance at rest [m]
  Real box_size = 0.5;      ///< edge of each box [m]
  Real stiffness = 1e4;     ///< [N/m]
  Real prestretch = 1.1;    ///< initial spacing / rest spacing
  bool pin_corners = true;  ///< hard spherical joints from two corners to the world
};

/// Adds a horizontal (XZ) grid of boxes and springs; returns the number of springs.
int add_spring_grid(World& world, const SpringGridDef& def);

}  // namespace pabd
