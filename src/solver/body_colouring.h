// Graph colouring of the bodies for Gauss-Seidel sweeps (IterationOrder::Colored
// and the AVBD baseline).
//
// Two dynamic bodies joined by a bond get different colours, so the bodies of
// one colour can be updated in parallel: each reads only bodies of other
// colours, which do not move meanwhile. Greedy and deterministic: bodies in
// index order, each takes the smallest colour none of its already-coloured
// neighbours has. Static bodies and the world are fixed, so they link nothing.
//
//   colour 0   colour 1          a 1-D chain  0 - 1 - 2 - 3 - 4
//   0 2 4      1 3               gets colours  0   1   0   1   0
//
// For each colour it also lists the bonds touching its bodies: before a colour
// is solved only those bonds need fresh weights. A bond touches at most two
// colours, so a sweep over all colours evaluates each bond at most twice.
//
// The colouring depends only on which bodies each bond joins: it is rebuilt
// when that changes (a bond added or removed, a body added), never per step.
#pragma once

#include <vector>

namespace pabd {

class WorldImpl;

/// Bodies (and the bonds touching them) grouped by colour, plus the bond
/// topology it was built for.
struct BodyColouring {
  std::vector<int> order;              ///< dynamic bodies sorted by colour, then index
  std::vector<int> colour_begin;       ///< colour c is order[colour_begin[c] .. colour_begin[c+1])
  std::vector<int> bond_order;         ///< bonds touching each colour, by colour then index
  std::vector<int> bond_colour_begin;  ///< colour c's bonds: bond_order[bond_colour_begin[c] ..)
  int body_count = -1;                 ///< body count it was built for (-1: never built)
  std::vector<int> end_body;           ///< the bonds' end bodies it was built for

  int colour_count() const { return static_cast<int>(colour_begin.size()) - 1; }
};

/// True when `colouring` was built for the world's current bodies and bonds.
bool colouring_is_current(const BodyColouring& colouring, const WorldImpl& world);

/// Greedy colouring of the world's dynamic bodies from its body-to-bond-end
/// adjacency (build_topology must have run).
BodyColouring colour_bodies(const WorldImpl& world);

}  // namespace pabd
