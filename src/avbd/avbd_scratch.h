// State the AVBD baseline keeps beside the world's body and bond arrays
// (docs/avbd.md, "Stabilization and the initial guess"): what PABD's step has no
// use for. Sized in avbd_step() when the body or bond count changes, so a warm
// step allocates nothing; the kernels see raw pointers (AvbdStabilizerView,
// avbd_bond_terms.h).
#pragma once

#include <cstdint>
#include <vector>

#include "pabd/math.h"

namespace pabd {

struct AvbdScratch {
  /// Per bond: its constraint at the start of the step, C(x^n), for hard bonds
  /// (point: y_a - y_b; line: that across the line; distance: in x); 0 otherwise [m].
  std::vector<Vec3> start_violation;
  /// Per body: the velocity it started the last AVBD step with [m/s], for the
  /// adaptive initial guess's acceleration (v^n - v^(n-1)) / h.
  std::vector<Vec3> last_start_velocity;
  /// last_start_velocity holds v^(n-1) when the world's step counter equals this
  /// (the last step was an AVBD step) and the body count is history_bodies.
  std::int64_t history_step = -1;
  int history_bodies = -1;
};

}  // namespace pabd
