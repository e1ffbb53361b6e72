// Struct-of-arrays views of the bonds, as the kernels see them.
//
// A bond joins material point x_a of body a to material point x_b of body b
// (a body index < 0 means the fixed world, and then x is a world point). Every
// bond, whatever its kind, reduces each iteration to "a weight and a pull" per
// end (method-notes.md): end e adds w_e J^T J to its body's H and
// J^T pull_e to the right-hand side, with pull_e = w_e * target_e + h^2 * f_e
// (implicit pull toward a target plus an explicit force). So the per-body solve
// never needs to know the bond kind.
//
// Ends are stored flat: end 2*i is bond i's end a, end 2*i+1 its end b.
#pragma once

#include <cstdint>

#include "model/axis_bond_data.h"
#include "pabd/math.h"

namespace pabd {

/// Kinds of bond. Each kind is one header in src/bonds/ with its law.
enum class BondKind : std::uint8_t {
  Spring = 0,       ///< k/2 (d - l)^2
  Point = 1,        ///< point coincidence, soft (k/2 d^2) or hard (augmented Lagrangian)
  Line = 2,         ///< point on a line that turns with end a's body (slider), soft or hard
  Distance = 3,     ///< fixed distance between two points (rigid rod), hard
  HingeLimit = 4,   ///< one-sided bond on a hinge's angle (limit_bond.h), hard or soft
  SliderLimit = 5,  ///< one-sided bond on a slider's travel (limit_bond.h), hard or soft
  HingeDrive = 6,   ///< motor on a hinge's angle (drive_bond.h)
  SliderDrive = 7,  ///< motor on a slider's travel (drive_bond.h)
};

struct BondArrays {
  int count = 0;  ///< number of bonds

  // Model.
  const BondKind* kind = nullptr;
  const int* end_body = nullptr;  ///< per end: body index, < 0 = world
  /// Per end: material point (world point for the world). A line bond's end a
  /// slides along its axis to the foot of end b at each step's start
  /// (slide_line_anchor): the constraint is the same, its lever is right.
  Vec3* end_local = nullptr;
  const Real* stiffness = nullptr;    ///< [N/m]; 0 with `hard` = augmented Lagrangian
  const Real* rest_length = nullptr;  ///< [m] (springs, distance bonds)
  const Vec3* axis =
      nullptr;  ///< line and joint-axis bonds: unit direction in end a's frame (world if a < 0)
  const std::uint8_t* hard = nullptr;         ///< 1 = hard constraint
  const AxisBondModel* axis_model = nullptr;  ///< per bond; read by the joint-axis kinds only
  /// Per bond: the mass it holds to the world [kg] (joint_load.h); may be null.
  const Real* mass_behind = nullptr;

  // Joint-axis bonds (limits, drives): the coordinate and targets of this step.
  AxisBondState* axis_state = nullptr;  ///< per bond; used by the joint-axis kinds only

  // Augmented-Lagrangian state, carried across steps (warm start).
  Real* penalty = nullptr;  ///< kappa [N/m]
  Vec3* lambda = nullptr;   ///< multiplier [N]

  // Per-iteration output, read by the per-body gather.
  Real* end_weight = nullptr;  ///< h^2 phi+/d per end
  Vec3* end_pull = nullptr;    ///< w * target + h^2 * explicit force, per end
};

/// Settings of the augmented Lagrangian (the AVBD update, method-notes.md).
struct HardBondSettings {
  bool augmented = true;          ///< false: fixed penalty stiffness_start, no multiplier
  Real stiffness_start = 1e4;     ///< kappa_start [N/m]
  Real stiffness_growth = 1e4;    ///< beta [N/m^2]
  Real lambda_decay = 0.99;       ///< alpha
  Real stiffness_decay = 0.999;   ///< gamma
  Real stiffness_max = 1e12;      ///< cap on kappa [N/m]
  Real stiffness_mass_ratio = 1;  ///< point bonds start at >= this times m_eff / h^2 [-]
  bool full_split = false;  ///< Gauss-Seidel sweeps: each end closes the whole gap (bond_shares.h)
};

}  // namespace pabd
