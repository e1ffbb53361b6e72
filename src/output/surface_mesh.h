// Triangle meshes of height grids (the sand and water surfaces) and of cloth,
// shared by the recording (downsampling), the glTF writer and the viewer.
//
// A grid is columns x rows vertices `spacing` apart, vertex (c, r) at world
// (x0 + c spacing, height[r columns + c], z0 + r spacing): the layout of
// pabd::SurfaceInfo. Its triangles are two per cell, counter-clockwise seen
// from above (+y), and its normals are central differences of the heights
// (one-sided at the border), so a flat grid's normals are exactly +y.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "pabd/world.h"

namespace pabd {

/// The placement of a height grid in the world.
struct GridLayout {
  int columns = 0;   ///< vertices along x
  int rows = 0;      ///< vertices along z
  Real spacing = 0;  ///< [m]
  Real x0 = 0;       ///< world x of vertex (0, 0) [m]
  Real z0 = 0;       ///< world z of vertex (0, 0) [m]
};

/// The step k = ceil((n - 1) / (max_vertices - 1)) (at least 1) that keeps
/// every k-th of n vertices, so that at most max_vertices (>= 2) are kept.
int grid_stride(int n, int max_vertices);
/// Vertices kept of n when every `stride`-th is: 0, stride, 2 stride, ... < n.
int strided_count(int n, int stride);
/// The layout of `g` keeping every `stride`-th vertex along each side.
GridLayout strided_layout(const GridLayout& g, int stride);

/// Every `stride`-th vertex's height along each side of a row-major grid of
/// `columns` x `rows` heights, as floats, appended to `out`.
template <class H>
void append_strided(const H* height, int columns, int rows, int stride, std::vector<float>& out) {
  for (int r = 0; r < rows; r += stride)
    for (int c = 0; c < columns; c += stride)
      out.push_back(static_cast<float>(height[std::size_t(r) * std::size_t(columns) + c]));
}

/// Two triangles per cell, counter-clockwise seen from above.
std::vector<std::uint32_t> grid_triangles(int columns, int rows);

/// Writes each vertex's position and unit normal (three floats each) at
/// positions[v * stride] and normals[v * stride], v = r columns + c.
template <class H>
void grid_vertices(const GridLayout& g, const H* height, float* positions, float* normals,
                   std::size_t stride) {
  const auto at = [&](int c, int r) {
    return double(height[std::size_t(r) * std::size_t(g.columns) + std::size_t(c)]);
  };
  for (int r = 0; r < g.rows; ++r) {
    const int r0 = r > 0 ? r - 1 : r, r1 = r + 1 < g.rows ? r + 1 : r;
    for (int c = 0; c < g.columns; ++c) {
      const std::size_t v = (std::size_t(r) * std::size_t(g.columns) + std::size_t(c)) * stride;
      positions[v] = static_cast<float>(g.x0 + c * g.spacing);
      positions[v + 1] = static_cast<float>(at(c, r));
      positions[v + 2] = static_cast<float>(g.z0 + r * g.spacing);
      const int c0 = c > 0 ? c - 1 : c, c1 = c + 1 < g.columns ? c + 1 : c;
      // The normal of the surface y = h(x, z): (-dh/dx, 1, -dh/dz), normalised.
      const double dx = c1 > c0 ? (at(c1, r) - at(c0, r)) / ((c1 - c0) * g.spacing) : 0;
      const double dz = r1 > r0 ? (at(c, r1) - at(c, r0)) / ((r1 - r0) * g.spacing) : 0;
      const double inv = 1 / std::sqrt(dx * dx + 1 + dz * dz);
      normals[v] = static_cast<float>(-dx * inv);
      normals[v + 1] = static_cast<float>(inv);
      normals[v + 2] = static_cast<float>(-dz * inv);
    }
  }
}

/// Unit vertex normals of a triangle mesh (the sum of its triangles' area
/// normals; +y where that sum vanishes), three floats per vertex, from
/// `positions` (three floats per vertex) and `triangles` (three vertex indices each).
void mesh_normals(const std::vector<float>& positions, const std::vector<std::uint32_t>& triangles,
                  std::vector<float>& normals);

/// The colours the outputs draw surfaces and cloth with (RGB in [0, 1]), and
/// the water's opacity.
inline constexpr Vec3 kSandColor{0.86, 0.74, 0.52};
inline constexpr Vec3 kWaterColor{0.16, 0.42, 0.72};
inline constexpr double kWaterOpacity = 0.6;
inline constexpr Vec3 kClothColor{0.93, 0.91, 0.86};

}  // namespace pabd
