#include "shapes/mass_properties.h"

#include <algorithm>
#include <numbers>

#include "shapes/shape_data.h"

namespace pabd {

namespace {

/// The built geometry of a hull, compound, height field or mesh (throws if missing).
const ShapeData& data_of(const ShapeDef& shape) {
  if (!shape.data || shape.geometry != shape.data.get())
    throw Error(
        "shape: expected geometry made by its builder (convex_hull_shape, compound_shape, "
        "height_field_shape, triangle_mesh_shape)");
  return *shape.data;
}

}  // namespace

Real shape_volume(const ShapeDef& shape) {
  constexpr Real pi = std::numbers::pi_v<Real>;
  switch (shape.type) {
    case ShapeType::Box:
      return shape.size.x * shape.size.y * shape.size.z;
    case ShapeType::Sphere:
      return Real(4) / 3 * pi * shape.radius * shape.radius * shape.radius;
    case ShapeType::Capsule: {
      const Real r = shape.radius;
      return pi * r * r * (2 * shape.half_height) + Real(4) / 3 * pi * r * r * r;
    }
    case ShapeType::ConvexHull:
      return data_of(shape).hull.volume;
    case ShapeType::Compound:
      return data_of(shape).compound.volume;
    case ShapeType::HeightField:
      throw Error("a height field has no volume: height fields are only allowed on static bodies");
    case ShapeType::TriangleMesh:
      throw Error("a triangle mesh has no volume: meshes are only allowed on static bodies");
    case ShapeType::Plane:
      break;
  }
  throw Error("a plane has no volume: planes are only allowed on static bodies");
}

MassProperties shape_mass_properties(const ShapeDef& shape, Real density) {
  MassProperties out;
  out.mass = density * shape_volume(shape);
  const Real m = out.mass;
  switch (shape.type) {
    case ShapeType::Box: {
      // integral x^2 over [-s/2, s/2] per unit length is s^3/12, so m s^2 / 12.
      const Vec3 s = shape.size;
      out.affine_inertia = diagonal3({m * s.x * s.x / 12, m * s.y * s.y / 12, m * s.z * s.z / 12});
      break;
    }
    case ShapeType::Sphere: {
      // Solid ball: integral x^2 = m r^2 / 5 along every axis.
      const Real p = m * shape.radius * shape.radius / 5;
      out.affine_inertia = diagonal3({p, p, p});
      break;
    }
    case ShapeType::Capsule: {
      // Cylinder (length 2hh along Y) plus two hemispheres shifted by +-hh.
      constexpr Real pi = std::numbers::pi_v<Real>;
      const Real r = shape.radius, hh = shape.half_height;
      const Real m_cyl = density * pi * r * r * 2 * hh;
      const Real m_sph = density * Real(4) / 3 * pi * r * r * r;
      const Real across = m_cyl * r * r / 4 + m_sph * r * r / 5;
      // Each hemisphere's centroid lies 3r/8 from its flat face, so the pair adds
      // m_sph (r^2/5 + 2 hh 3r/8 + hh^2) along the axis.
      const Real along = m_cyl * hh * hh / 3 + m_sph * (r * r / 5 + Real(0.75) * hh * r + hh * hh);
      out.affine_inertia = diagonal3({across, along, across});
      break;
    }
    case ShapeType::ConvexHull:  // exact polyhedral integral (convex_hull.h)
      out.affine_inertia = density * data_of(shape).hull.unit_affine_inertia;
      break;
    case ShapeType::Compound:  // children with the parallel-axis theorem (compound_shape.h)
      out.affine_inertia = density * data_of(shape).compound.unit_affine_inertia;
      break;
    case ShapeType::HeightField:
    case ShapeType::TriangleMesh:
    case ShapeType::Plane:
      break;
  }
  return out;
}

Real shape_bounding_radius(const ShapeDef& shape) {
  switch (shape.type) {
    case ShapeType::Box:
      return Real(0.5) * length(shape.size);
    case ShapeType::Sphere:
      return shape.radius;
    case ShapeType::Capsule:
      return shape.radius + shape.half_height;
    case ShapeType::ConvexHull:
      return data_of(shape).hull.view.radius;
    case ShapeType::Compound: {
      const CompoundData& c = data_of(shape).compound;
      Real r = 0;
      for (std::size_t i = 0; i < c.child_shape.size(); ++i)
        r = std::max(r, length(c.child_pose[i].position) + c.child_radius[i]);
      return r;
    }
    case ShapeType::HeightField: {
      const Aabb b = height_field_bounds(data_of(shape).height_field.view);
      Real r = 0;
      for (int k = 0; k < 8; ++k)
        r = std::max(
            r, length({k & 1 ? b.hi.x : b.lo.x, k & 2 ? b.hi.y : b.lo.y, k & 4 ? b.hi.z : b.lo.z}));
      return r;
    }
    case ShapeType::TriangleMesh: {
      Real r = 0;
      for (const Vec3& v : data_of(shape).mesh.vertex) r = std::max(r, length(v));
      return r;
    }
    case ShapeType::Plane:
      return 0;
  }
  return 0;
}

Vec3 shape_origin_shift(const ShapeDef& shape) {
  if (shape.type == ShapeType::ConvexHull) return data_of(shape).hull.origin_shift;
  if (shape.type == ShapeType::Compound) return data_of(shape).compound.origin_shift;
  return {};
}

Mat3 inertia_tensor_from_affine(const Mat3& affine_inertia) {
  return trace(affine_inertia) * identity3() - affine_inertia;
}

Mat3 affine_inertia_from_tensor(const Mat3& inertia) {
  return (Real(0.5) * trace(inertia)) * identity3() - inertia;
}

namespace {

/// Principal minors of a symmetric 3x3 matrix, each >= -tol (of its own power
/// of the scale): positive semidefinite up to rounding.
bool is_semidefinite(const Mat3& a, Real scale, Real tol) {
  const auto& m = a.m;
  for (int i = 0; i < 3; ++i)
    if (m[i][i] < -tol * scale) return false;
  for (int i = 0; i < 3; ++i)
    for (int j = i + 1; j < 3; ++j)
      if (m[i][i] * m[j][j] - m[i][j] * m[j][i] < -tol * scale * scale) return false;
  return determinant(a) >= -tol * scale * scale * scale;
}

}  // namespace

bool is_physical_inertia(const Mat3& inertia) {
  const auto& m = inertia.m;
  const Real scale = trace(inertia);
  if (!std::isfinite(scale) || !(scale > 0)) return false;
  constexpr Real kTol = 1e-9;  // relative rounding of a tensor built in doubles
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (!std::isfinite(m[i][j]) || std::abs(m[i][j] - m[j][i]) > kTol * scale) return false;
  // Positive definite: leading minors > 0 (Sylvester).
  if (!(m[0][0] > 0 && m[0][0] * m[1][1] - m[0][1] * m[1][0] > 0 && determinant(inertia) > 0))
    return false;
  return is_semidefinite(affine_inertia_from_tensor(inertia), scale, kTol);
}

}  // namespace pabd
