// A height field as the kernels see it, and its triangles.
//
// Axes (body frame): grid columns run along +x, rows along +z, heights along
// +Y; the solid lies below the surface. Vertex (c, r) is at
// (x0 + c spacing_x, height[r columns + c], z0 + r spacing_z), with the grid
// centred on the body origin in x and z (x0 = -(columns - 1) spacing_x / 2).
// Cell (c, r) holds two triangles, both counter-clockwise seen from +Y:
//   triangle 2 cell + 0: (c, r), (c, r + 1), (c + 1, r + 1)
//   triangle 2 cell + 1: (c, r), (c + 1, r + 1), (c + 1, r)
// with cell = r (columns - 1) + c.
//
// Active edges. An edge whose neighbouring triangle is coplanar or bends up
// (concave) is inactive: a contact there belongs to a face, and an edge normal
// would make a sphere rolling across a flat field bump on the internal edges.
// Edges on the border and convex edges (ridges) are active.
#pragma once

#include <cmath>
#include <cstdint>

#include "pabd/config.h"
#include "pabd/math.h"
#include "shapes/aabb.h"
#include "shapes/shape_geometry.h"

namespace pabd {

/// A neighbour must bend down by more than this sine of angle for an edge to be active [-].
inline constexpr Real kActiveEdgeSine = Real(0.01);

/// The grid, body frame.
struct HeightFieldView {
  int columns = 0;                                ///< vertices along x (>= 2)
  int rows = 0;                                   ///< vertices along z (>= 2)
  Real spacing_x = 1;                             ///< [m]
  Real spacing_z = 1;                             ///< [m]
  Real x0 = 0;                                    ///< x of column 0 [m]
  Real z0 = 0;                                    ///< z of row 0 [m]
  const Real* height = nullptr;                   ///< rows x columns, row-major [m]
  const std::uint8_t* triangle_active = nullptr;  ///< active-edge bits per triangle
  Real min_height = 0;                            ///< [m]
  Real max_height = 0;                            ///< [m]
};

/// Body-frame position of grid vertex (c, r).
PABD_HD Vec3 height_field_vertex(const HeightFieldView& h, int c, int r) {
  return {h.x0 + Real(c) * h.spacing_x, h.height[r * h.columns + c], h.z0 + Real(r) * h.spacing_z};
}

/// Number of triangles.
PABD_HD int height_field_triangle_count(const HeightFieldView& h) {
  return 2 * (h.columns - 1) * (h.rows - 1);
}

/// True when edge (a, b) of a triangle with unit normal n is active, given the
/// neighbouring triangle's third vertex (see the top of the file).
PABD_HD bool edge_is_active(Vec3 a, Vec3 b, Vec3 n, Vec3 opposite) {
  const Vec3 u = normalized_or(b - a, Vec3{1, 0, 0});
  const Real across = length(cross(opposite - a, u));
  return dot(n, opposite - a) < -kActiveEdgeSine * across;
}

/// Corners (body frame, counter-clockwise from +Y) of triangle t and its unit normal.
PABD_HD void height_field_corners(const HeightFieldView& h, int t, Vec3* v, Vec3& normal) {
  const int cell = t / 2, k = t % 2;
  const int c = cell % (h.columns - 1), r = cell / (h.columns - 1);
  v[0] = height_field_vertex(h, c, r);
  v[1] = k == 0 ? height_field_vertex(h, c, r + 1) : height_field_vertex(h, c + 1, r + 1);
  v[2] = k == 0 ? height_field_vertex(h, c + 1, r + 1) : height_field_vertex(h, c + 1, r);
  normal = normalized_or(cross(v[1] - v[0], v[2] - v[0]), Vec3{0, 1, 0});
}

/// Active-edge bits of triangle t (bit k: edge from corner k to corner k + 1),
/// from its neighbours across each edge (the build precomputes them).
PABD_HD std::uint32_t height_field_active_edges(const HeightFieldView& h, int t) {
  Vec3 v[3], normal;
  height_field_corners(h, t, v, normal);
  const int cell = t / 2, k = t % 2;
  const int c = cell % (h.columns - 1), r = cell / (h.columns - 1);
  // Neighbours' third vertices and whether they exist, per edge.
  Vec3 opposite[3];
  bool inside[3];
  if (k == 0) {
    inside[0] = c > 0;  // edge x = c: cell (c - 1, r), triangle 1
    if (inside[0]) opposite[0] = height_field_vertex(h, c - 1, r);
    inside[1] = r + 2 < h.rows;  // edge z = r + 1: cell (c, r + 1), triangle 1
    if (inside[1]) opposite[1] = height_field_vertex(h, c + 1, r + 2);
    inside[2] = true;  // the diagonal: this cell's triangle 1
    opposite[2] = height_field_vertex(h, c + 1, r);
  } else {
    inside[0] = true;  // the diagonal: this cell's triangle 0
    opposite[0] = height_field_vertex(h, c, r + 1);
    inside[1] = c + 2 < h.columns;  // edge x = c + 1: cell (c + 1, r), triangle 0
    if (inside[1]) opposite[1] = height_field_vertex(h, c + 2, r + 1);
    inside[2] = r > 0;  // edge z = r: cell (c, r - 1), triangle 0
    if (inside[2]) opposite[2] = height_field_vertex(h, c, r - 1);
  }
  std::uint32_t active = 0;
  for (int e = 0; e < 3; ++e)
    if (!inside[e] || edge_is_active(v[e], v[(e + 1) % 3], normal, opposite[e])) active |= 1u << e;
  return active;
}

/// Corners, unit normal and active-edge bits of triangle t.
PABD_HD void height_field_triangle(const HeightFieldView& h, int t, Vec3* v, Vec3& normal,
                                   std::uint32_t& active) {
  height_field_corners(h, t, v, normal);
  active = h.triangle_active ? h.triangle_active[t] : height_field_active_edges(h, t);
}

/// Range of cells [c0, c1] x [r0, r1] whose x, z extent meets a body-frame box;
/// false when the box misses the grid (or its height range).
PABD_HD bool height_field_cells(const HeightFieldView& h, const Aabb& local, int& c0, int& c1,
                                int& r0, int& r1) {
  if (local.lo.y > h.max_height || local.hi.y < h.min_height) return false;
  const Real fc0 = std::floor((local.lo.x - h.x0) / h.spacing_x);
  const Real fc1 = std::floor((local.hi.x - h.x0) / h.spacing_x);
  const Real fr0 = std::floor((local.lo.z - h.z0) / h.spacing_z);
  const Real fr1 = std::floor((local.hi.z - h.z0) / h.spacing_z);
  const Real last_c = Real(h.columns - 2), last_r = Real(h.rows - 2);
  if (!(fc1 >= 0 && fc0 <= last_c && fr1 >= 0 && fr0 <= last_r)) return false;
  c0 = static_cast<int>(fc0 < 0 ? 0 : fc0);
  c1 = static_cast<int>(fc1 > last_c ? last_c : fc1);
  r0 = static_cast<int>(fr0 < 0 ? 0 : fr0);
  r1 = static_cast<int>(fr1 > last_r ? last_r : fr1);
  return true;
}

/// Body-frame bounds of the whole field.
PABD_HD Aabb height_field_bounds(const HeightFieldView& h) {
  return {{h.x0, h.min_height, h.z0},
          {h.x0 + Real(h.columns - 1) * h.spacing_x, h.max_height,
           h.z0 + Real(h.rows - 1) * h.spacing_z}};
}

}  // namespace pabd
