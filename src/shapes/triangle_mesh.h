// Static triangle meshes: storage, construction (normals, active edges from
// the triangles' adjacency, a median-split BVH) and OBJ loading.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "pabd/world.h"
#include "shapes/triangle_mesh_view.h"

namespace pabd {

/// A triangle mesh and its storage (the view points into the vectors: not copyable).
struct TriangleMeshData {
  std::vector<Vec3> vertex;                   ///< body frame [m]
  std::vector<int> triangle_vertex;           ///< three per triangle
  std::vector<Vec3> triangle_normal;          ///< unit, counter-clockwise side
  std::vector<std::uint8_t> triangle_active;  ///< active-edge bits
  std::vector<MeshBvhNode> node;              ///< BVH, root first
  std::vector<int> node_triangle;             ///< triangle indices in leaf order
  TriangleMeshView view;                      ///< what the kernels read

  TriangleMeshData() = default;
  TriangleMeshData(const TriangleMeshData&) = delete;
  TriangleMeshData& operator=(const TriangleMeshData&) = delete;
};

/// Most triangles in one BVH leaf.
inline constexpr int kMeshLeafTriangles = 4;

/// Builds a mesh into `out`; throws Error for no triangles, an index count not
/// a multiple of 3, an index out of range or a non-finite vertex. Triangles of
/// zero area are dropped (they have no normal); if none is left, throws.
void build_triangle_mesh(const std::vector<Vec3>& vertices, const std::vector<int>& indices,
                         TriangleMeshData& out);

/// The largest OBJ file read_obj reads [bytes]: 128 MiB, about 2.5 million
/// triangles written out with their vertices (docs/scene-format.md, "Limits").
inline constexpr std::size_t kMaxObjFileBytes = std::size_t(128) << 20;

/// Reads the vertices and triangulated faces of an OBJ file (all its shapes).
/// The path must name a regular file of at most kMaxObjFileBytes; `mtllib` is
/// not followed. Throws Error "PATH: ..." when it cannot be read or holds no faces.
void read_obj(const std::string& path, std::vector<Vec3>& vertices, std::vector<int>& indices);

/// Reads the triangles of an STL file, binary or ASCII (robot models' usual
/// mesh format), under the same rules as read_obj: a regular file of at most
/// kMaxObjFileBytes. Vertices are not shared between triangles (STL has no
/// indices). Throws Error "PATH: ..." when it cannot be read or holds none.
void read_stl(const std::string& path, std::vector<Vec3>& vertices, std::vector<int>& indices);

/// read_obj on OBJ text in memory; `label` starts the messages ("LABEL: ...").
void read_obj_text(const std::string& text, const std::string& label, std::vector<Vec3>& vertices,
                   std::vector<int>& indices);

}  // namespace pabd
