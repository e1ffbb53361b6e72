// Triangle mesh construction: per-triangle normals, active edges from the
// adjacency of triangles (an edge shared by exactly two triangles is active
// only where the surface turns down across it, see heightfield_view.h; border
// and non-manifold edges are active) and a median-split BVH.
#include "shapes/triangle_mesh.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <utility>

#include "shapes/shape_data.h"

namespace pabd {

namespace {

bool finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

Vec3 corner(const TriangleMeshData& m, int t, int k) {
  return m.vertex[std::size_t(m.triangle_vertex[std::size_t(3 * t + k)])];
}

/// Builds the subtree of node `index` over node_triangle[begin, end).
void build_node(TriangleMeshData& m, const std::vector<Vec3>& centroid, int index, int begin,
                int end) {
  Aabb box = empty_aabb(), centres = empty_aabb();
  for (int i = begin; i < end; ++i) {
    const int t = m.node_triangle[std::size_t(i)];
    for (int k = 0; k < 3; ++k) {
      box.lo = componentwise_min(box.lo, corner(m, t, k));
      box.hi = componentwise_max(box.hi, corner(m, t, k));
    }
    centres.lo = componentwise_min(centres.lo, centroid[std::size_t(t)]);
    centres.hi = componentwise_max(centres.hi, centroid[std::size_t(t)]);
  }
  m.node[std::size_t(index)].box = box;
  if (end - begin <= kMeshLeafTriangles) {
    m.node[std::size_t(index)].first = begin;
    m.node[std::size_t(index)].count = end - begin;
    return;
  }
  // Median split along the longest axis of the centroids (index breaks ties).
  const Vec3 extent = centres.hi - centres.lo;
  const int axis =
      extent.x >= extent.y && extent.x >= extent.z ? 0 : (extent.y >= extent.z ? 1 : 2);
  const int mid = begin + (end - begin) / 2;
  auto less = [&](int a, int b) {
    const Real ca = get(centroid[std::size_t(a)], axis), cb = get(centroid[std::size_t(b)], axis);
    return ca < cb || (ca == cb && a < b);
  };
  std::nth_element(m.node_triangle.begin() + begin, m.node_triangle.begin() + mid,
                   m.node_triangle.begin() + end, less);
  const int left = static_cast<int>(m.node.size());
  m.node.resize(m.node.size() + 2);
  m.node[std::size_t(index)].first = left;
  m.node[std::size_t(index)].count = 0;
  build_node(m, centroid, left, begin, mid);
  build_node(m, centroid, left + 1, mid, end);
}

}  // namespace

void build_triangle_mesh(const std::vector<Vec3>& vertices, const std::vector<int>& indices,
                         TriangleMeshData& out) {
  if (indices.empty() || indices.size() % 3 != 0)
    throw Error("triangle mesh: expected a positive multiple of 3 vertex indices, got " +
                std::to_string(indices.size()));
  for (std::size_t i = 0; i < vertices.size(); ++i)
    if (!finite(vertices[i]))
      throw Error("triangle mesh: vertex " + std::to_string(i) + ": expected finite coordinates");
  for (std::size_t i = 0; i < indices.size(); ++i)
    if (indices[i] < 0 || std::size_t(indices[i]) >= vertices.size())
      throw Error("triangle mesh: index " + std::to_string(i) +
                  ": expected a vertex index from 0 to " + std::to_string(vertices.size()) +
                  " - 1, got " + std::to_string(indices[i]));
  out.vertex = vertices;
  // Triangles with an area (zero-area ones have no normal and touch nothing).
  for (std::size_t t = 0; t < indices.size() / 3; ++t) {
    const Vec3 a = vertices[std::size_t(indices[3 * t])],
               b = vertices[std::size_t(indices[3 * t + 1])];
    const Vec3 c = vertices[std::size_t(indices[3 * t + 2])];
    const Vec3 n = cross(b - a, c - a);
    const Real scale = std::max({length(b - a), length(c - a), length(c - b)});
    if (!(length(n) > Real(1e-12) * scale * scale)) continue;
    out.triangle_vertex.insert(out.triangle_vertex.end(),
                               {indices[3 * t], indices[3 * t + 1], indices[3 * t + 2]});
    out.triangle_normal.push_back((Real(1) / length(n)) * n);
  }
  const int count = static_cast<int>(out.triangle_normal.size());
  if (count == 0) throw Error("triangle mesh: expected at least one triangle of non-zero area");

  // Active edges: triangles around each undirected edge.
  std::map<std::pair<int, int>, std::vector<std::pair<int, int>>> around;  // -> (triangle, edge)
  for (int t = 0; t < count; ++t)
    for (int k = 0; k < 3; ++k) {
      const int a = out.triangle_vertex[std::size_t(3 * t + k)];
      const int b = out.triangle_vertex[std::size_t(3 * t + (k + 1) % 3)];
      around[{std::min(a, b), std::max(a, b)}].push_back({t, k});
    }
  out.triangle_active.assign(std::size_t(count), 0);
  for (const auto& [edge, sides] : around)
    for (const auto& [t, k] : sides) {
      bool active = sides.size() != 2;
      if (!active) {
        const auto& [u, j] = sides[0].first == t && sides[0].second == k ? sides[1] : sides[0];
        const Vec3 opposite = corner(out, u, (j + 2) % 3);
        active = edge_is_active(corner(out, t, k), corner(out, t, (k + 1) % 3),
                                out.triangle_normal[std::size_t(t)], opposite);
      }
      if (active) out.triangle_active[std::size_t(t)] |= std::uint8_t(1u << k);
    }

  // BVH over the triangles.
  std::vector<Vec3> centroid(static_cast<std::size_t>(count));
  for (int t = 0; t < count; ++t)
    centroid[std::size_t(t)] =
        (Real(1) / 3) * (corner(out, t, 0) + corner(out, t, 1) + corner(out, t, 2));
  out.node_triangle.resize(std::size_t(count));
  for (int t = 0; t < count; ++t) out.node_triangle[std::size_t(t)] = t;
  out.node.reserve(std::size_t(2 * count));
  out.node.resize(1);
  build_node(out, centroid, 0, 0, count);

  TriangleMeshView& v = out.view;
  v.vertex_count = static_cast<int>(out.vertex.size());
  v.vertex = out.vertex.data();
  v.triangle_count = count;
  v.triangle_vertex = out.triangle_vertex.data();
  v.triangle_normal = out.triangle_normal.data();
  v.triangle_active = out.triangle_active.data();
  v.node_count = static_cast<int>(out.node.size());
  v.node = out.node.data();
  v.node_triangle = out.node_triangle.data();
}

ShapeDef triangle_mesh_shape(const std::vector<Vec3>& vertices, const std::vector<int>& indices) {
  auto data = std::make_shared<ShapeData>();
  build_triangle_mesh(vertices, indices, data->mesh);
  ShapeDef s;
  s.type = ShapeType::TriangleMesh;
  s.geometry = data.get();
  s.data = std::move(data);
  return s;
}

ShapeDef triangle_mesh_from_obj(const std::string& path) {
  std::vector<Vec3> vertices;
  std::vector<int> indices;
  read_obj(path, vertices, indices);
  try {
    return triangle_mesh_shape(vertices, indices);
  } catch (const Error& e) {
    throw Error(path + ": " + e.what());
  }
}

}  // namespace pabd
