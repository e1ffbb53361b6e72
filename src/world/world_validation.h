// Validation of definition structs at the API boundary (throws pabd::Error).
#pragma once

#include <string>

#include "pabd/world.h"
#include "shapes/shape_validation.h"

namespace pabd {

/// The most iterations per step WorldDef, scene files and `pabd run --iterations`
/// accept: far more than any scene needs (the defaults are 20; the paper's plots
/// stop at a few hundred), and a bound on one step's time (docs/scene-format.md).
inline constexpr int kMaxIterations = 10'000;

void validate_world_def(const WorldDef& def);
void validate_body_def(const BodyDef& def);
/// Hinge and slider limits and drives; `who` starts the message ("hinge joint").
void validate_joint_limits(const JointLimits& limits, const std::string& who);
void validate_joint_drive(const JointDrive& drive, const std::string& who);

}  // namespace pabd
