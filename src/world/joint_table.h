// The World's joints: each joint is a range of bonds plus what the API needs
// to name it, check its handle, and drive and limit it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pabd/world.h"

namespace pabd {

/// A hinge's or slider's axis, fixed at creation, as its limit and drive bonds
/// (src/world/joint_axes.cpp) need it.
struct JointAxis {
  bool used = false;    ///< true for hinges and sliders
  bool hinge = false;   ///< a hinge (angle) or a slider (travel)
  int body_a = -1;      ///< first end's body, -1 = world
  int body_b = -1;      ///< second end's body, -1 = world
  Vec3 axis_a;          ///< unit axis, body_a's frame (world if body_a < 0)
  Vec3 pivot_a;         ///< the anchor, body_a's frame
  Vec3 pivot_b;         ///< the anchor, body_b's frame
  Vec3 radial_a;        ///< hinge: a unit direction across the axis, body_a's frame
  Vec3 radial_b;        ///< the same direction, body_b's frame
  Real lever = 1;       ///< hinge: reference points' distance from the axis [m]
  bool hard = true;     ///< the joint is hard, so are its limits
  Real stiffness = 0;   ///< the joint's bond stiffness when soft [N/m]
  int limit_bond = -1;  ///< first limit bond (a hinge has two, a slider one), -1 = none
  int drive_bond = -1;  ///< first drive bond (as many), -1 = none
};

/// Joint j owns bonds [first_bond[j], first_bond[j] + bond_count[j]).
struct JointTable {
  std::vector<int> first_bond;
  std::vector<int> bond_count;
  std::vector<JointKind> kind;
  std::vector<std::uint32_t> generation;  ///< bumped when a joint is removed
  std::vector<std::uint8_t> alive;
  std::vector<JointAxis> axis;  ///< hinges and sliders: axis, limit and drive bonds
  /// Hinges and sliders: the effort input (World::set_joint_effort), a torque
  /// [N m] or force [N] on body_b along +axis, body_a taking the opposite.
  std::vector<Real> effort;
  std::vector<std::string> name;  ///< "" = unnamed (World::set_joint_name)

  int count() const { return static_cast<int>(first_bond.size()); }
};

}  // namespace pabd
