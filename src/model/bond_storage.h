// The bonds' arrays, owned: model, augmented-Lagrangian state and
// per-iteration output, one std::vector per BondArrays field. view() is the
// one place they are wired into the raw-pointer view the kernels take
// (model/bond_arrays.h).
#pragma once

#include <cstdint>
#include <vector>

#include "model/bond_arrays.h"

namespace pabd {

struct BondStorage {
  // Model (per bond, or per end: 2 per bond).
  std::vector<BondKind> kind;
  std::vector<int> end_body;
  std::vector<Vec3> end_local;
  std::vector<Real> stiffness;
  std::vector<Real> rest_length;
  std::vector<Vec3> axis;  ///< line bonds: direction in end a's body frame
  std::vector<std::uint8_t> hard;
  std::vector<AxisBondModel> axis_model;  ///< limit and drive bonds' settings
  /// The mass each bond holds to the world along the joint graph
  /// (bonds/joint_load.h), rebuilt with the topology.
  std::vector<Real> mass_behind;
  // State.
  std::vector<AxisBondState> axis_state;  ///< limit and drive bonds' per-step state
  std::vector<Real> penalty;
  std::vector<Vec3> lambda;
  // Per-iteration output, per end (sized by resize_scratch).
  std::vector<Real> end_weight;
  std::vector<Vec3> end_pull;

  int count() const { return static_cast<int>(kind.size()); }

  /// Sizes the per-end output for count() bonds.
  void resize_scratch() {
    end_weight.assign(2 * kind.size(), 0);
    end_pull.assign(2 * kind.size(), Vec3{});
  }

  BondArrays view() {
    BondArrays c;
    c.count = count();
    c.kind = kind.data();
    c.end_body = end_body.data();
    c.end_local = end_local.data();
    c.stiffness = stiffness.data();
    c.rest_length = rest_length.data();
    c.axis = axis.data();
    c.hard = hard.data();
    c.axis_model = axis_model.data();
    c.mass_behind = mass_behind.size() == kind.size() ? mass_behind.data() : nullptr;
    c.axis_state = axis_state.data();
    c.penalty = penalty.data();
    c.lambda = lambda.data();
    c.end_weight = end_weight.data();
    c.end_pull = end_pull.data();
    return c;
  }
};

}  // namespace pabd
