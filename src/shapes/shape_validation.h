// Validation of built shapes at the API boundary (throws pabd::Error).
#pragma once

#include <string>

#include "pabd/world.h"

namespace pabd {

/// Hull, compound, height field and mesh shapes: built by their builder, and
/// height fields and meshes on static bodies only. `who` starts the message.
void validate_built_shape(const ShapeDef& shape, bool is_static, const std::string& who);

}  // namespace pabd
