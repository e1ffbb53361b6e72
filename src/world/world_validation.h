// Validation of definition structs at the API boundary (throws pabd::Error).
#pragma once

#include <string>

#include "pabd/world.h"

namespace pabd {

void validate_world_def(const WorldDef& def);
void validate_body_def(const BodyDef& def);
/// Hull, compound, height field and mesh shapes: built by their builder, and
/// height fields and meshes on static bodies only. `who` starts the message.
void validate_built_shape(const ShapeDef& shape, bool is_static, const std::string& who);
/// Hinge and slider limits and drives; `who` starts the message ("hinge joint").
void validate_joint_limits(const JointLimits& limits, const std::string& who);
void validate_joint_drive(const JointDrive& drive, const std::string& who);

}  // namespace pabd
