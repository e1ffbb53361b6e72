// What a bond law returns for one iteration: a weight and a pull per end.
#pragma once

#include "pabd/math.h"

namespace pabd {

/// Output of a bond law: end a is pulled with weight w_a by pull_a, end b likewise.
/// pull = w * target + h^2 * explicit force (see bond_arrays.h).
struct BondEndPair {
  Real weight_a = 0;
  Vec3 pull_a;
  Real weight_b = 0;
  Vec3 pull_b;
};

}  // namespace pabd
