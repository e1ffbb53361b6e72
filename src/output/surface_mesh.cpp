#include "output/surface_mesh.h"

#include <algorithm>

namespace pabd {

int grid_stride(int n, int max_vertices) {
  if (n <= max_vertices || max_vertices < 2) return 1;
  return (n - 1 + max_vertices - 2) / (max_vertices - 1);  // ceil((n - 1) / (max - 1))
}

int strided_count(int n, int stride) { return n <= 0 ? 0 : (n - 1) / std::max(1, stride) + 1; }

GridLayout strided_layout(const GridLayout& g, int stride) {
  return {strided_count(g.columns, stride), strided_count(g.rows, stride), g.spacing * stride, g.x0,
          g.z0};
}

std::vector<std::uint32_t> grid_triangles(int columns, int rows) {
  std::vector<std::uint32_t> out;
  if (columns < 2 || rows < 2) return out;
  out.reserve(std::size_t(columns - 1) * std::size_t(rows - 1) * 6);
  for (int r = 0; r + 1 < rows; ++r)
    for (int c = 0; c + 1 < columns; ++c) {
      const auto v = [columns](int cc, int rr) { return std::uint32_t(rr * columns + cc); };
      // Seen from above (+y, looking down) x runs right and z runs down the
      // screen, so (c, r) -> (c, r + 1) -> (c + 1, r) turns counter-clockwise.
      out.insert(out.end(), {v(c, r), v(c, r + 1), v(c + 1, r)});
      out.insert(out.end(), {v(c + 1, r), v(c, r + 1), v(c + 1, r + 1)});
    }
  return out;
}

void mesh_normals(const std::vector<float>& positions, const std::vector<std::uint32_t>& triangles,
                  std::vector<float>& normals) {
  normals.assign(positions.size(), 0.0f);
  const auto p = [&](std::uint32_t v) {
    return Vec3{positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]};
  };
  for (std::size_t t = 0; t + 2 < triangles.size(); t += 3) {
    const std::uint32_t a = triangles[t], b = triangles[t + 1], c = triangles[t + 2];
    const Vec3 n = cross(p(b) - p(a), p(c) - p(a));  // twice the area, along the normal
    for (const std::uint32_t v : {a, b, c}) {
      normals[3 * v] += static_cast<float>(n.x);
      normals[3 * v + 1] += static_cast<float>(n.y);
      normals[3 * v + 2] += static_cast<float>(n.z);
    }
  }
  for (std::size_t v = 0; v + 2 < normals.size(); v += 3) {
    const double len =
        std::sqrt(double(normals[v]) * normals[v] + double(normals[v + 1]) * normals[v + 1] +
                  double(normals[v + 2]) * normals[v + 2]);
    if (len > 0) {
      for (std::size_t k = 0; k < 3; ++k) normals[v + k] = static_cast<float>(normals[v + k] / len);
    } else {
      normals[v] = 0, normals[v + 1] = 1, normals[v + 2] = 0;
    }
  }
}

}  // namespace pabd
