// Triangle meshes of the shapes, for every output that draws bodies (glTF,
// the interactive viewer). Flat shaded: every triangle has its own three
// vertices, all with the face normal.
#pragma once

#include <cstdint>
#include <vector>

#include "pabd/world.h"

namespace pabd {

/// Triangles in the body frame.
struct TriangleMesh {
  std::vector<Vec3> positions;         ///< [m], body frame
  std::vector<Vec3> normals;           ///< unit face normal per vertex
  std::vector<std::uint32_t> indices;  ///< three per triangle, counter-clockwise outside
};

/// Mesh of a shape. `segments` sets the tessellation of round shapes (>= 4).
/// A convex hull gives its faces (fanned), a compound its children's meshes at
/// their poses, a height field its surface (open, facing +Y), a triangle mesh
/// its triangles. A plane becomes a square of side `plane_extent` around its closest point
/// to the origin.
TriangleMesh shape_mesh(const ShapeDef& shape, int segments = 24, Real plane_extent = 40);

/// A distinct, saturated colour per body index (RGB in [0, 1]); static bodies grey.
Vec3 body_color(int index, bool is_static);

}  // namespace pabd
