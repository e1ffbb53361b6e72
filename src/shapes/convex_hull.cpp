// Convex hull construction with qhull's reentrant C API (libqhull_r), and the
// polyhedron volume integrals used for its mass properties.
//
// qhull merges coplanar facets ('C-0', its 3-d default), so a face of the
// result is a convex polygon, not only a triangle: the narrowphase clips
// against whole faces (a cube's hull has 6 quadrilaterals, like the box).
// Degenerate input is rejected before qhull sees it, with messages that name
// the problem; qhull's own failures are reported with its first message line.
#include "shapes/convex_hull.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "shapes/shape_data.h"

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

namespace pabd {

namespace {

bool finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

/// Rejects what qhull cannot make a solid of, with a message naming why.
void check_points(const std::vector<Vec3>& p) {
  if (p.size() < 4)
    throw Error("convex hull: expected at least 4 points, got " + std::to_string(p.size()));
  for (std::size_t i = 0; i < p.size(); ++i)
    if (!finite(p[i]))
      throw Error("convex hull: point " + std::to_string(i) + ": expected finite coordinates");
  // Farthest point from p0, then from the line, then from the plane: the
  // largest tetrahedron height found this way is zero only for flat input.
  const std::size_t a = 0;
  std::size_t b = 0, c = 0;
  Real best = 0;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (length(p[i] - p[a]) > best) {
      best = length(p[i] - p[a]);
      b = i;
    }
  const Real scale = best;
  if (!(scale > 0)) throw Error("convex hull: expected distinct points, got all equal");
  const Vec3 u = (Real(1) / scale) * (p[b] - p[a]);
  best = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Real d = length(cross(p[i] - p[a], u));
    if (d > best) {
      best = d;
      c = i;
    }
  }
  if (!(best > Real(1e-9) * scale))
    throw Error("convex hull: expected points not all on one line (a hull needs volume)");
  const Vec3 n =
      (Real(1) / length(cross(p[b] - p[a], p[c] - p[a]))) * cross(p[b] - p[a], p[c] - p[a]);
  best = 0;
  for (const Vec3& q : p) best = std::max(best, std::fabs(dot(q - p[a], n)));
  if (!(best > Real(1e-9) * scale))
    throw Error("convex hull: expected points not all on one plane (a hull needs volume)");
}

/// First line of qhull's error text (it writes several).
std::string first_line(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  return line.empty() ? "no message" : line;
}

/// Runs qhull; fills vertex positions (in order of input index) and face loops.
void run_qhull(const std::vector<Vec3>& points, std::vector<Vec3>& vertex,
               std::vector<std::vector<int>>& loops, std::vector<Vec3>& normals) {
  std::vector<coordT> coords;
  coords.reserve(points.size() * 3);
  for (const Vec3& p : points) coords.insert(coords.end(), {p.x, p.y, p.z});
  char* err_text = nullptr;
  std::size_t err_size = 0;
  FILE* err = open_memstream(&err_text, &err_size);
  qhT qh_storage;
  qhT* qh = &qh_storage;
  qh_zero(qh, err);
  char command[] = "qhull";
  const int code = qh_new_qhull(qh, 3, static_cast<int>(points.size()), coords.data(), False,
                                command, nullptr, err);
  std::string message;
  if (code == 0) {
    // Vertices in order of input point index (deterministic numbering).
    std::vector<int> ids;
    for (vertexT* v = qh->vertex_list; v && v->next; v = v->next)
      ids.push_back(qh_pointid(qh, v->point));
    std::sort(ids.begin(), ids.end());
    std::map<int, int> index;
    for (int id : ids) {
      index[id] = static_cast<int>(vertex.size());
      vertex.push_back(points[std::size_t(id)]);
    }
    // Each facet's vertices in cyclic order, wound to agree with its outward normal.
    for (facetT* f = qh->facet_list; f && f->next; f = f->next) {
      setT* ordered = qh_facet3vertex(qh, f);
      std::vector<int> loop;
      for (int k = 0; k < qh_setsize(qh, ordered); ++k)
        loop.push_back(index[qh_pointid(qh, SETelemt_(ordered, k, vertexT)->point)]);
      qh_settempfree(qh, &ordered);
      const Vec3 n{f->normal[0], f->normal[1], f->normal[2]};
      Vec3 newell;  // twice the loop's area vector
      for (std::size_t k = 0; k < loop.size(); ++k)
        newell +=
            cross(vertex[std::size_t(loop[k])], vertex[std::size_t(loop[(k + 1) % loop.size()])]);
      if (dot(newell, n) < 0) std::reverse(loop.begin(), loop.end());
      loops.push_back(std::move(loop));
      normals.push_back(n);
    }
  }
  qh_freeqhull(qh, !qh_ALL);
  int curlong = 0, totlong = 0;
  qh_memfreeshort(qh, &curlong, &totlong);
  std::fclose(err);
  if (err_text) {
    message = first_line(err_text);
    std::free(err_text);
  }
  if (code != 0) throw Error("convex hull: qhull failed (" + message + ")");
}

}  // namespace

PolyhedronIntegrals polyhedron_integrals(const std::vector<Vec3>& vertex,
                                         const std::vector<int>& face_first,
                                         const std::vector<int>& face_vertex, Vec3 apex) {
  PolyhedronIntegrals out;
  for (std::size_t f = 0; f + 1 < face_first.size(); ++f) {
    const int first = face_first[f], count = face_first[f + 1] - first;
    const Vec3 p1 = vertex[std::size_t(face_vertex[std::size_t(first)])] - apex;
    for (int k = 1; k + 1 < count; ++k) {
      // Tetrahedron (apex, p1, p2, p3), relative to the apex, then moved back.
      const Vec3 p2 = vertex[std::size_t(face_vertex[std::size_t(first + k)])] - apex;
      const Vec3 p3 = vertex[std::size_t(face_vertex[std::size_t(first + k + 1)])] - apex;
      const Real v = dot(p1, cross(p2, p3)) / 6;
      const Vec3 sum = p1 + p2 + p3;  // the apex corner is 0 here
      const Mat3 second_rel =
          (v / 20) * (outer(p1, p1) + outer(p2, p2) + outer(p3, p3) + outer(sum, sum));
      const Vec3 first_rel = (v / 4) * sum;
      // x = apex + y: x x^T = y y^T + apex y^T + y apex^T + apex apex^T.
      out.volume += v;
      out.first += first_rel + v * apex;
      out.second = out.second + second_rel + outer(apex, first_rel) + outer(first_rel, apex) +
                   v * outer(apex, apex);
    }
  }
  return out;
}

void refresh_hull_view(ConvexHullData& h) {
  ConvexHullView& v = h.view;
  v.vertex_count = static_cast<int>(h.vertex.size());
  v.vertex = h.vertex.data();
  v.face_count = static_cast<int>(h.face_normal.size());
  v.face_normal = h.face_normal.data();
  v.face_offset = h.face_offset.data();
  v.face_first = h.face_first.data();
  v.face_vertex = h.face_vertex.data();
  v.face_edge = h.face_edge.data();
  v.edge_count = static_cast<int>(h.edge_vertex.size() / 2);
  v.edge_vertex = h.edge_vertex.data();
  v.radius = 0;
  for (const Vec3& p : h.vertex) v.radius = std::max(v.radius, length(p));
}

void build_convex_hull(const std::vector<Vec3>& points, ConvexHullData& out) {
  check_points(points);
  std::vector<Vec3> vertex, normals;
  std::vector<std::vector<int>> loops;
  run_qhull(points, vertex, loops, normals);
  if (vertex.size() > std::size_t(kMaxHullVertices))
    throw Error("convex hull: expected at most " + std::to_string(kMaxHullVertices) +
                " hull vertices, got " + std::to_string(vertex.size()));

  // Faces and edges (each undirected edge numbered once, in face order).
  std::map<std::pair<int, int>, int> edge_index;
  out.face_first.push_back(0);
  for (std::size_t f = 0; f < loops.size(); ++f) {
    const std::vector<int>& loop = loops[f];
    if (loop.size() < 3) throw Error("convex hull: qhull returned a face of fewer than 3 vertices");
    if (loop.size() > std::size_t(kMaxHullFaceVertices))
      throw Error("convex hull: expected faces of at most " + std::to_string(kMaxHullFaceVertices) +
                  " vertices, got one of " + std::to_string(loop.size()) +
                  " (use fewer points on a flat face)");
    for (std::size_t k = 0; k < loop.size(); ++k) {
      const int a = loop[k], b = loop[(k + 1) % loop.size()];
      const std::pair<int, int> key{std::min(a, b), std::max(a, b)};
      auto it = edge_index.find(key);
      if (it == edge_index.end()) {
        it = edge_index.emplace(key, static_cast<int>(out.edge_vertex.size() / 2)).first;
        out.edge_vertex.push_back(key.first);
        out.edge_vertex.push_back(key.second);
      }
      out.face_vertex.push_back(a);
      out.face_edge.push_back(it->second);
    }
    out.face_first.push_back(static_cast<int>(out.face_vertex.size()));
    out.face_normal.push_back((Real(1) / length(normals[f])) * normals[f]);
  }

  // Centre of mass: integrals about the vertex mean (inside the hull), then
  // shift so the centroid is the origin and integrate again about it.
  Vec3 mean;
  for (const Vec3& p : vertex) mean += p;
  mean = (Real(1) / Real(vertex.size())) * mean;
  const PolyhedronIntegrals about_mean =
      polyhedron_integrals(vertex, out.face_first, out.face_vertex, mean);
  if (!(about_mean.volume > 0)) throw Error("convex hull: expected a hull of positive volume");
  const Vec3 centroid = (Real(1) / about_mean.volume) * about_mean.first;
  for (Vec3& p : vertex) p = p - centroid;
  out.vertex = std::move(vertex);
  const PolyhedronIntegrals about_com =
      polyhedron_integrals(out.vertex, out.face_first, out.face_vertex, Vec3{});
  out.volume = about_com.volume;
  out.unit_affine_inertia = about_com.second;
  out.origin_shift = -centroid;

  // Face planes: the largest n . v over all vertices, so every vertex lies on
  // or below every face plane (qhull's merged facets are planar only to within
  // its rounding tolerance).
  for (std::size_t f = 0; f < out.face_normal.size(); ++f) {
    Real offset = -1e300;
    for (const Vec3& p : out.vertex) offset = std::max(offset, dot(out.face_normal[f], p));
    out.face_offset.push_back(offset);
  }
  refresh_hull_view(out);
}

ShapeDef convex_hull_shape(const std::vector<Vec3>& points) {
  auto data = std::make_shared<ShapeData>();
  build_convex_hull(points, data->hull);
  ShapeDef s;
  s.type = ShapeType::ConvexHull;
  s.geometry = data.get();
  s.data = std::move(data);
  return s;
}

}  // namespace pabd
