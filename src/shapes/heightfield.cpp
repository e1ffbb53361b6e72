#include "shapes/heightfield.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "shapes/shape_data.h"

namespace pabd {

void build_height_field(int columns, int rows, Real spacing_x, Real spacing_z,
                        const std::vector<Real>& heights, HeightFieldData& out) {
  if (columns < 2 || rows < 2)
    throw Error("height field: expected at least 2 columns and 2 rows, got " +
                std::to_string(columns) + " x " + std::to_string(rows));
  if (!(std::isfinite(spacing_x) && spacing_x > 0 && std::isfinite(spacing_z) && spacing_z > 0))
    throw Error("height field: spacing: expected finite numbers > 0");
  const std::size_t expected = std::size_t(columns) * std::size_t(rows);
  if (heights.size() != expected)
    throw Error("height field: heights: expected " + std::to_string(expected) + " numbers (" +
                std::to_string(rows) + " rows x " + std::to_string(columns) + " columns), got " +
                std::to_string(heights.size()));
  for (std::size_t i = 0; i < heights.size(); ++i)
    if (!std::isfinite(heights[i]))
      throw Error("height field: heights: value " + std::to_string(i) + " is not finite");
  out.height = heights;
  HeightFieldView& v = out.view;
  v.columns = columns;
  v.rows = rows;
  v.spacing_x = spacing_x;
  v.spacing_z = spacing_z;
  v.x0 = -Real(0.5) * Real(columns - 1) * spacing_x;
  v.z0 = -Real(0.5) * Real(rows - 1) * spacing_z;
  v.height = out.height.data();
  const auto [lo, hi] = std::minmax_element(out.height.begin(), out.height.end());
  v.min_height = *lo;
  v.max_height = *hi;
  // Active edges once, from the neighbours (the kernels read the bits).
  const int triangles = height_field_triangle_count(v);
  out.triangle_active.resize(std::size_t(triangles));
  for (int t = 0; t < triangles; ++t)
    out.triangle_active[std::size_t(t)] =
        static_cast<std::uint8_t>(height_field_active_edges(v, t));
  v.triangle_active = out.triangle_active.data();
}

ShapeDef height_field_shape(int columns, int rows, Real spacing_x, Real spacing_z,
                            const std::vector<Real>& heights) {
  auto data = std::make_shared<ShapeData>();
  build_height_field(columns, rows, spacing_x, spacing_z, heights, data->height_field);
  ShapeDef s;
  s.type = ShapeType::HeightField;
  s.geometry = data.get();
  s.data = std::move(data);
  return s;
}

}  // namespace pabd
