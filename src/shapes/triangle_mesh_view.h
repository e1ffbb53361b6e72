// A static triangle mesh as the kernels see it: vertices, triangles with their
// unit normals and active-edge bits (see heightfield_view.h for what an active
// edge is), and a bounding volume hierarchy over the triangles, queried with a
// body-frame box and a fixed-size stack.
//
// The BVH (built on the host, src/shapes/triangle_mesh.cpp) splits each node's
// triangles at the median of their centroids along the node's longest axis,
// so its depth is at most ceil(log2(triangles)) + 1 and the 64-entry stack of
// mesh_query cannot overflow for any mesh that fits in memory.
#pragma once

#include <cstdint>

#include "pabd/config.h"
#include "pabd/math.h"
#include "shapes/aabb.h"

namespace pabd {

/// One BVH node: a leaf when count > 0.
struct MeshBvhNode {
  Aabb box;       ///< body frame [m]
  int first = 0;  ///< leaf: first slot in node_triangle; internal: left child (right = first + 1)
  int count = 0;  ///< leaf: number of triangles; internal: 0
};

/// Depth bound of the BVH (see the top of the file).
inline constexpr int kMeshBvhStack = 64;

/// The mesh, body frame.
struct TriangleMeshView {
  int vertex_count = 0;                           ///< number of vertices
  const Vec3* vertex = nullptr;                   ///< [m]
  int triangle_count = 0;                         ///< number of triangles
  const int* triangle_vertex = nullptr;           ///< three vertex indices per triangle
  const Vec3* triangle_normal = nullptr;          ///< unit front normal (counter-clockwise side)
  const std::uint8_t* triangle_active = nullptr;  ///< bit k: edge from corner k to k + 1 is active
  int node_count = 0;                             ///< BVH nodes (0 is the root)
  const MeshBvhNode* node = nullptr;              ///< the BVH
  const int* node_triangle = nullptr;             ///< triangle indices in leaf order
};

/// Calls visit(t) for every triangle t whose BVH leaf box meets `box` (body frame).
template <class Visit>
PABD_HD void mesh_query(const TriangleMeshView& m, const Aabb& box, Visit& visit) {
  if (m.node_count == 0) return;
  int stack[kMeshBvhStack];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const MeshBvhNode& n = m.node[stack[--top]];
    if (!aabb_overlap(n.box, box)) continue;
    if (n.count > 0) {
      for (int k = 0; k < n.count; ++k) visit(m.node_triangle[n.first + k]);
    } else if (top + 2 <= kMeshBvhStack) {
      stack[top++] = n.first + 1;
      stack[top++] = n.first;
    }
  }
}

}  // namespace pabd
