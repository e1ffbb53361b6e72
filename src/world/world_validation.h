// Validation of definition structs at the API boundary (throws pabd::Error).
#pragma once

#include <string>

#include "pabd/world.h"
#include "shapes/shape_validation.h"

namespace pabd {

void validate_world_def(const WorldDef& def);
void validate_body_def(const BodyDef& def);
/// Hinge and slider limits and drives; `who` starts the message ("hinge joint").
void validate_joint_limits(const JointLimits& limits, const std::string& who);
void validate_joint_drive(const JointDrive& drive, const std::string& who);

}  // namespace pabd
