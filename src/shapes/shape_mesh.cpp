#include "shapes/shape_mesh.h"

#include <cmath>
#include <numbers>

#include "shapes/shape_data.h"

namespace pabd {

namespace {

Vec3 normalize(Vec3 v) { return (Real(1) / length(v)) * v; }

/// Adds a triangle with its own vertices and face normal (flat shading).
void add_triangle(TriangleMesh& m, Vec3 a, Vec3 b, Vec3 c) {
  const Vec3 n = cross(b - a, c - a);
  const Real len = length(n);
  if (len < Real(1e-14)) return;  // degenerate (pole of a sphere): nothing to draw
  const Vec3 unit = (Real(1) / len) * n;
  for (Vec3 p : {a, b, c}) {
    m.indices.push_back(static_cast<std::uint32_t>(m.positions.size()));
    m.positions.push_back(p);
    m.normals.push_back(unit);
  }
}

void add_quad(TriangleMesh& m, Vec3 a, Vec3 b, Vec3 c, Vec3 d) {
  add_triangle(m, a, b, c);
  add_triangle(m, a, c, d);
}

TriangleMesh box_mesh(Vec3 size) {
  TriangleMesh m;
  const Vec3 h = 0.5 * size;
  // Corner k has coordinates (+-h.x, +-h.y, +-h.z) from the bits of k.
  auto v = [&h](int k) {
    return Vec3{(k & 1) ? h.x : -h.x, (k & 2) ? h.y : -h.y, (k & 4) ? h.z : -h.z};
  };
  add_quad(m, v(0), v(4), v(6), v(2));  // -x
  add_quad(m, v(1), v(3), v(7), v(5));  // +x
  add_quad(m, v(0), v(1), v(5), v(4));  // -y
  add_quad(m, v(2), v(6), v(7), v(3));  // +y
  add_quad(m, v(0), v(2), v(3), v(1));  // -z
  add_quad(m, v(4), v(5), v(7), v(6));  // +z
  return m;
}

/// A sphere of radius r whose upper half is shifted by +lift and lower half by
/// -lift along Y, joined by a cylinder: a capsule (lift = half height) or a
/// sphere (lift = 0).
TriangleMesh round_mesh(Real r, Real lift, int segments) {
  TriangleMesh m;
  const int rings = segments / 2;  // latitude bands, even so the equator is a ring
  constexpr Real pi = std::numbers::pi_v<Real>;
  // Point of latitude ring `ring` (0 at +Y), on the hemisphere shifted by +-lift.
  auto point = [&](int ring, int seg, Real shift) {
    const Real theta = pi * ring / rings;
    const Real phi = 2 * pi * seg / segments;
    return Vec3{r * std::sin(theta) * std::cos(phi), r * std::cos(theta) + shift,
                -r * std::sin(theta) * std::sin(phi)};
  };
  for (int ring = 0; ring < rings; ++ring) {
    const Real shift = ring < rings / 2 ? lift : -lift;  // the band's hemisphere
    for (int seg = 0; seg < segments; ++seg)
      add_quad(m, point(ring, seg, shift), point(ring + 1, seg, shift),
               point(ring + 1, seg + 1, shift), point(ring, seg + 1, shift));
  }
  if (lift > 0) {  // the cylinder joining the two equators
    for (int seg = 0; seg < segments; ++seg)
      add_quad(m, point(rings / 2, seg, lift), point(rings / 2, seg, -lift),
               point(rings / 2, seg + 1, -lift), point(rings / 2, seg + 1, lift));
  }
  return m;
}

TriangleMesh plane_mesh(Vec3 normal, Real offset, Real extent) {
  TriangleMesh m;
  const Vec3 n = normalize(normal);
  // Any unit vector not parallel to n, then an orthonormal frame (u, w, n).
  const Vec3 helper = std::fabs(n.y) < Real(0.9) ? Vec3{0, 1, 0} : Vec3{1, 0, 0};
  const Vec3 u = normalize(cross(helper, n));
  const Vec3 w = cross(n, u);
  const Vec3 c = offset * n;
  const Real e = Real(0.5) * extent;
  add_quad(m, c - e * u - e * w, c + e * u - e * w, c + e * u + e * w, c - e * u + e * w);
  return m;
}

/// Every face of a hull, fanned into triangles (faces are convex, counter-clockwise).
TriangleMesh hull_mesh(const ConvexHullView& h) {
  TriangleMesh m;
  for (int f = 0; f < h.face_count; ++f) {
    const int first = h.face_first[f], n = hull_face_size(h, f);
    for (int k = 1; k + 1 < n; ++k)
      add_triangle(m, h.vertex[h.face_vertex[first]], h.vertex[h.face_vertex[first + k]],
                   h.vertex[h.face_vertex[first + k + 1]]);
  }
  return m;
}

/// The children's meshes, each moved to its pose in the compound's frame.
TriangleMesh compound_mesh(const CompoundView& c, int segments) {
  TriangleMesh m;
  for (int i = 0; i < c.child_count; ++i) {
    const TriangleMesh child = shape_mesh(c.child_shape[i], segments);
    const ShapePose& pose = c.child_pose[i];
    const auto base = static_cast<std::uint32_t>(m.positions.size());
    for (std::size_t k = 0; k < child.positions.size(); ++k) {
      m.positions.push_back(pose.rotation * child.positions[k] + pose.position);
      m.normals.push_back(pose.rotation * child.normals[k]);
    }
    for (std::uint32_t index : child.indices) m.indices.push_back(base + index);
  }
  return m;
}

/// The surface of a height field (two triangles per cell, facing +Y).
TriangleMesh height_field_mesh(const HeightFieldView& h) {
  TriangleMesh m;
  for (int t = 0; t < height_field_triangle_count(h); ++t) {
    Vec3 v[3], n;
    std::uint32_t active = 0;
    height_field_triangle(h, t, v, n, active);
    add_triangle(m, v[0], v[1], v[2]);
  }
  return m;
}

/// The triangles of a mesh, front faces outward.
TriangleMesh triangle_mesh_mesh(const TriangleMeshView& t) {
  TriangleMesh m;
  for (int k = 0; k < t.triangle_count; ++k)
    add_triangle(m, t.vertex[t.triangle_vertex[3 * k]], t.vertex[t.triangle_vertex[3 * k + 1]],
                 t.vertex[t.triangle_vertex[3 * k + 2]]);
  return m;
}

}  // namespace

TriangleMesh shape_mesh(const ShapeDef& shape, int segments, Real plane_extent) {
  if (segments < 4) segments = 4;
  segments += segments % 2;
  switch (shape.type) {
    case ShapeType::Box:
      return box_mesh(shape.size);
    case ShapeType::Sphere:
      return round_mesh(shape.radius, 0, segments);
    case ShapeType::Capsule:
      return round_mesh(shape.radius, shape.half_height, segments);
    case ShapeType::Plane:
      return plane_mesh(shape.normal, shape.offset, plane_extent);
    case ShapeType::ConvexHull:
      return hull_mesh(hull_view(shape));
    case ShapeType::Compound:
      return compound_mesh(compound_view(shape), segments);
    case ShapeType::HeightField:
      return height_field_mesh(height_field_view(shape));
    case ShapeType::TriangleMesh:
      return triangle_mesh_mesh(mesh_view(shape));
  }
  return {};
}

Vec3 body_color(int index, bool is_static) {
  if (is_static) return {0.55, 0.55, 0.58};
  // Golden-ratio hue steps give neighbouring indices well separated colours.
  const Real hue = std::fmod(0.13 + 0.618033988749895 * index, 1.0) * 6;
  const Real s = 0.65, v = 0.9;
  const int sector = static_cast<int>(hue);
  const Real f = hue - sector;
  const Real p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
  switch (sector) {
    case 0:
      return {v, t, p};
    case 1:
      return {q, v, p};
    case 2:
      return {p, v, t};
    case 3:
      return {p, q, v};
    case 4:
      return {t, p, v};
    default:
      return {v, p, q};
  }
}

}  // namespace pabd
