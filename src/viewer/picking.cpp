// Ray casts against body shapes (see picking.h).

#include "viewer/picking.h"

#include <cmath>
#include <limits>
#include <utility>

#include "shapes/shape_data.h"

namespace pabd::viewer {
namespace {

/// Smallest root t >= 0 of |o + t d - c|^2 = r^2, or nothing.
std::optional<double> ray_sphere(Vec3 o, Vec3 d, Vec3 c, double r) {
  const Vec3 m = o - c;
  const double a = dot(d, d);
  const double b = dot(m, d);
  const double cc = dot(m, m) - r * r;
  if (cc <= 0) return 0.0;  // starts inside
  if (b > 0) return std::nullopt;
  const double disc = b * b - a * cc;
  if (disc < 0) return std::nullopt;
  return (-b - std::sqrt(disc)) / a;
}

/// Slab test against the box |x_i| <= h_i.
std::optional<double> ray_box(Vec3 o, Vec3 d, Vec3 h) {
  double t0 = 0, t1 = std::numeric_limits<double>::infinity();
  for (int i = 0; i < 3; ++i) {
    const double oi = get(o, i), di = get(d, i), hi = get(h, i);
    if (std::abs(di) < 1e-300) {
      if (oi < -hi || oi > hi) return std::nullopt;
      continue;
    }
    double ta = (-hi - oi) / di, tb = (hi - oi) / di;
    if (ta > tb) std::swap(ta, tb);
    t0 = std::max(t0, ta);
    t1 = std::min(t1, tb);
    if (t0 > t1) return std::nullopt;
  }
  return t0;
}

/// Capsule of radius r around the segment y in [-hh, hh] of the local Y axis.
std::optional<double> ray_capsule(Vec3 o, Vec3 d, double r, double hh) {
  std::optional<double> best;
  auto keep = [&best](std::optional<double> t) {
    if (t && (!best || *t < *best)) best = t;
  };
  // Infinite cylinder x^2 + z^2 = r^2, restricted to |y| <= hh.
  const double a = d.x * d.x + d.z * d.z;
  const double b = o.x * d.x + o.z * d.z;
  const double c = o.x * o.x + o.z * o.z - r * r;
  if (c <= 0 && std::abs(o.y) <= hh) return 0.0;  // starts inside the core
  if (a > 1e-300) {
    const double disc = b * b - a * c;
    if (disc >= 0) {
      const double t = (-b - std::sqrt(disc)) / a;
      if (t >= 0 && std::abs(o.y + t * d.y) <= hh) keep(t);
    }
  }
  keep(ray_sphere(o, d, {0, hh, 0}, r));
  keep(ray_sphere(o, d, {0, -hh, 0}, r));
  return best;
}

/// Convex hull: the ray clipped by every face's half-space n . x <= offset.
std::optional<double> ray_hull(Vec3 o, Vec3 d, const ConvexHullView& h) {
  double t0 = 0, t1 = std::numeric_limits<double>::infinity();
  for (int f = 0; f < h.face_count; ++f) {
    const double height = dot(h.face_normal[f], o) - h.face_offset[f];
    const double rate = dot(h.face_normal[f], d);
    if (std::abs(rate) < 1e-300) {
      if (height > 0) return std::nullopt;
      continue;
    }
    const double t = -height / rate;
    if (rate < 0)
      t0 = std::max(t0, t);  // entering this half-space
    else
      t1 = std::min(t1, t);  // leaving it
    if (t0 > t1) return std::nullopt;
  }
  return t0;
}

}  // namespace

std::optional<double> ray_shape(const Ray& body_ray, const ShapeDef& shape) {
  switch (shape.type) {
    case ShapeType::ConvexHull:
      return ray_hull(body_ray.origin, body_ray.dir, hull_view(shape));
    case ShapeType::Compound: {
      // The nearest hit over the children, each in its own frame.
      std::optional<double> best;
      const CompoundView& c = compound_view(shape);
      for (int i = 0; i < c.child_count; ++i) {
        const Mat3 rt = transpose(c.child_pose[i].rotation);
        const Ray local{rt * (body_ray.origin - c.child_pose[i].position), rt * body_ray.dir};
        const std::optional<double> t = ray_shape(local, c.child_shape[i]);
        if (t && (!best || *t < *best)) best = t;
      }
      return best;
    }
    case ShapeType::HeightField:   // static only: never picked
    case ShapeType::TriangleMesh:  // static only
      return std::nullopt;
    case ShapeType::Sphere:
      return ray_sphere(body_ray.origin, body_ray.dir, {0, 0, 0}, shape.radius);
    case ShapeType::Box:
      return ray_box(body_ray.origin, body_ray.dir, 0.5 * shape.size);
    case ShapeType::Capsule:
      return ray_capsule(body_ray.origin, body_ray.dir, shape.radius, shape.half_height);
    case ShapeType::Plane:
      return std::nullopt;
  }
  return std::nullopt;
}

std::optional<Pick> pick_body(const World& world, const Ray& ray) {
  std::optional<Pick> best;
  for (int i = 0; i < world.body_count(); ++i) {
    const BodyId id = world.body_at(i);
    if (world.is_static(id)) continue;
    const BodyState s = world.body_state(id);
    // Into the body frame: x_body = R^T (x_world - p).
    const Mat3 rt = transpose(to_matrix(s.orientation));
    const Ray local{rt * (ray.origin - s.position), rt * ray.dir};
    const std::optional<double> t = ray_shape(local, world.body_shape(id));
    if (t && (!best || *t < best->t)) best = Pick{id, i, ray.origin + *t * ray.dir, *t};
  }
  return best;
}

}  // namespace pabd::viewer
