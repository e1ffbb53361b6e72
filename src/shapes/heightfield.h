// Height fields (static bodies only): storage and construction. The layout
// and axes are described in src/shapes/heightfield_view.h.
#pragma once

#include <cstdint>
#include <vector>

#include "pabd/world.h"
#include "shapes/heightfield_view.h"

namespace pabd {

/// A height field and its storage (the view points into the vector: not copyable).
struct HeightFieldData {
  std::vector<Real> height;                   ///< rows x columns, row-major [m]
  std::vector<std::uint8_t> triangle_active;  ///< active-edge bits per triangle
  HeightFieldView view;                       ///< what the kernels read

  HeightFieldData() = default;
  HeightFieldData(const HeightFieldData&) = delete;
  HeightFieldData& operator=(const HeightFieldData&) = delete;
};

/// Builds a height field into `out`; throws Error for fewer than 2 x 2 vertices,
/// a non-positive or non-finite spacing, a heights array of the wrong size or a
/// non-finite height.
void build_height_field(int columns, int rows, Real spacing_x, Real spacing_z,
                        const std::vector<Real>& heights, HeightFieldData& out);

}  // namespace pabd
