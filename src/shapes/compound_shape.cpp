#include "shapes/compound_shape.h"

#include <cmath>
#include <memory>
#include <string>

#include "shapes/mass_properties.h"
#include "shapes/shape_data.h"

namespace pabd {

namespace {

bool finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

/// Checks child i's shape values; throws Error "compound: child i: ...".
void check_child(const CompoundChild& c, std::size_t i) {
  const std::string who = "compound: child " + std::to_string(i) + ": ";
  const ShapeDef& s = c.shape;
  switch (s.type) {
    case ShapeType::Box:
      if (!(finite(s.size) && s.size.x > 0 && s.size.y > 0 && s.size.z > 0))
        throw Error(who + "size: expected three finite numbers > 0");
      break;
    case ShapeType::Sphere:
      if (!(std::isfinite(s.radius) && s.radius > 0))
        throw Error(who + "radius: expected a finite number > 0");
      break;
    case ShapeType::Capsule:
      if (!(std::isfinite(s.radius) && s.radius > 0))
        throw Error(who + "radius: expected a finite number > 0");
      if (!(std::isfinite(s.half_height) && s.half_height >= 0))
        throw Error(who + "half_height: expected a finite number >= 0");
      break;
    case ShapeType::ConvexHull:
      if (!s.data || s.geometry != s.data.get() || s.data->hull.vertex.empty())
        throw Error(who + "expected a convex hull made by convex_hull_shape()");
      break;
    case ShapeType::Plane:
    case ShapeType::Compound:
    case ShapeType::HeightField:
    case ShapeType::TriangleMesh:
      throw Error(who + "expected a box, sphere, capsule or convex hull");
  }
  if (!finite(c.position)) throw Error(who + "position: expected finite numbers");
  const Quat q = c.orientation;
  const Real qn = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
  if (!(std::isfinite(qn) && qn > 0))
    throw Error(who + "orientation: expected a finite, non-zero quaternion");
}

}  // namespace

void build_compound(const std::vector<CompoundChild>& children, CompoundData& out, bool in_frame) {
  if (children.empty()) throw Error("compound: expected at least one child");
  for (std::size_t i = 0; i < children.size(); ++i) check_child(children[i], i);
  // Each child's frame is its own centre of mass (a hull was shifted: its given
  // frame's origin lies at shape_origin_shift in the hull frame).
  Real volume = 0;
  Vec3 first;
  std::vector<MassProperties> unit(children.size());
  for (std::size_t i = 0; i < children.size(); ++i) {
    const CompoundChild& c = children[i];
    ShapePose pose;
    pose.rotation = to_matrix(normalized(c.orientation));
    pose.position = c.position - pose.rotation * shape_origin_shift(c.shape);
    out.child_shape.push_back(c.shape);
    out.child_pose.push_back(pose);
    out.child_radius.push_back(shape_bounding_radius(c.shape));
    unit[i] = shape_mass_properties(c.shape, 1);  // mass = volume at unit density
    volume += unit[i].mass;
    first += unit[i].mass * pose.position;
  }
  // Centre of mass to the origin, then the parallel-axis sum about it.
  const Vec3 com = in_frame ? Vec3{} : (Real(1) / volume) * first;
  Mat3 second;
  for (std::size_t i = 0; i < children.size(); ++i) {
    ShapePose& pose = out.child_pose[i];
    pose.position = pose.position - com;
    second = second + pose.rotation * unit[i].affine_inertia * transpose(pose.rotation) +
             unit[i].mass * outer(pose.position, pose.position);
  }
  out.volume = volume;
  out.unit_affine_inertia = second;
  out.origin_shift = -com;
  out.in_frame = in_frame;
  out.view.child_count = static_cast<int>(children.size());
  out.view.child_shape = out.child_shape.data();
  out.view.child_pose = out.child_pose.data();
  out.view.child_radius = out.child_radius.data();
}

namespace {

ShapeDef make_compound(const std::vector<CompoundChild>& children, bool in_frame) {
  auto data = std::make_shared<ShapeData>();
  build_compound(children, data->compound, in_frame);
  ShapeDef s;
  s.type = ShapeType::Compound;
  s.geometry = data.get();
  s.data = std::move(data);
  return s;
}

}  // namespace

ShapeDef compound_shape(const std::vector<CompoundChild>& children) {
  return make_compound(children, false);
}

ShapeDef compound_shape_in_frame(const std::vector<CompoundChild>& children) {
  return make_compound(children, true);
}

}  // namespace pabd
