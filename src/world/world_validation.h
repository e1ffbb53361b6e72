// Validation of definition structs at the API boundary (throws pabd::Error).
#pragma once

#include "pabd/world.h"

namespace pabd {

void validate_world_def(const WorldDef& def);
void validate_body_def(const BodyDef& def);

}  // namespace pabd
