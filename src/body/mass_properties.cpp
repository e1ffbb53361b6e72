#include "body/mass_properties.h"

#include <numbers>

namespace pabd {

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
    case ShapeType::Plane:
      return 0;
  }
  return 0;
}

Mat3 inertia_tensor_from_affine(const Mat3& affine_inertia) {
  return trace(affine_inertia) * identity3() - affine_inertia;
}

}  // namespace pabd
