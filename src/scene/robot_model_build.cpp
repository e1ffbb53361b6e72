// RobotModel -> scene bodies and joints (see robot_model.h for the rules).

#include <cmath>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "scene/robot_model.h"
#include "shapes/convex_polytope.h"

namespace pabd {
namespace {

constexpr int kWorldGroup = -2;  ///< links welded to the world
/// Share of its link's mass and inertia that an intermediate body of a joint
/// chain carries (taken from the link, so the model's mass is kept): small
/// next to the link, so the chain moves as the link's joints would, and a mass
/// ratio of 1:100 that the solver holds (docs/method.md).
constexpr Real kChainMassShare = 0.01;
/// A link's one geometry this close to its centre of mass is the body's own
/// shape instead of a one-child compound [m].
constexpr Real kSamePlace = 1e-9;

/// The placement applied to a point, a direction and a rotation.
struct Placement {
  Mat3 r;
  Quat q;
  Vec3 t;
  Vec3 point(Vec3 p) const { return r * p + t; }
  Vec3 direction(Vec3 d) const { return r * d; }
  Quat rotation(Quat a) const { return normalized(q * a); }
};

/// Mass, centre and inertia of a group of welded links, summed.
struct MassSum {
  Real mass = 0;
  Vec3 first_moment;
  std::vector<std::pair<Real, Vec3>> parts;  // mass, centre
  std::vector<Mat3> inertias;                // about each part's centre, world axes

  void add(Real m, Vec3 c, const Mat3& inertia) {
    if (!(m > 0)) return;
    mass += m;
    first_moment += m * c;
    parts.emplace_back(m, c);
    inertias.push_back(inertia);
  }
  Vec3 center() const { return (Real(1) / mass) * first_moment; }
  /// Parallel axes: I = sum I_i + m_i (|d|^2 I3 - d d^T), d from the common centre.
  Mat3 inertia() const {
    const Vec3 c = center();
    Mat3 sum;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      const Vec3 d = parts[i].second - c;
      sum = sum + inertias[i] + parts[i].first * (dot(d, d) * identity3() - outer(d, d));
    }
    return sum;
  }
};

struct Group {
  int head = -1;  ///< the link that names the body and carries the joints
  MassSum mass;
  std::vector<RobotGeom> geoms;
};

/// The share of a group's mass and inertia its body keeps: the rest goes to the
/// intermediate bodies of its joint chain, so that the model's mass is kept.
Real kept_share(const RobotLink& head) {
  const std::size_t extra = head.joints.size() > 1 ? head.joints.size() - 1 : 0;
  return Real(1) - kChainMassShare * static_cast<Real>(extra);
}

/// A body that carries mass only: a small sphere that never collides.
void no_collision_shape(BodyDef& body) {
  body.shape = sphere_shape(Real(0.01));
  body.collision_group = 0;
  body.collision_mask = 0;
}

/// The body of a group: origin at the centre of mass, axes of its head link
/// (or of its single geometry, which then is the shape itself).
BodyDef group_body(const RobotModel& model, const Group& g, const std::string& name,
                   const Placement& at) {
  const RobotLink& head = model.links[static_cast<std::size_t>(g.head)];
  BodyDef body = default_body_def();
  body.name = name;
  const Real share = kept_share(head);
  body.mass = share * g.mass.mass;
  const Vec3 com = at.point(g.mass.center());
  Mat3 inertia_world = share * (at.r * g.mass.inertia() * transpose(at.r));
  // A rotor's inertia (armature) turns with the link: a thin ring about the
  // axis, J along it and J / 2 across. Inertia about the axis alone is no
  // rigid body's (its moments would break a + b >= c), and a motor's rotor is
  // such a ring.
  for (const RobotJoint& j : head.joints)
    if (j.type == RobotJoint::Type::Hinge && j.armature > 0) {
      const Vec3 a = at.direction(j.axis);
      inertia_world = inertia_world + (Real(0.5) * j.armature) * (identity3() + outer(a, a));
    }
  body.position = com;
  body.orientation = at.rotation(head.frame_orientation);

  std::vector<const RobotGeom*> solid;
  for (const RobotGeom& geom : g.geoms)
    if (geom.collides) solid.push_back(&geom);
  if (solid.empty()) {
    no_collision_shape(body);
  } else {
    body.friction = solid.front()->friction;
    const RobotGeom& first = *solid.front();
    const Vec3 first_at = at.point(first.position);
    const bool primitive = first.shape.type == ShapeType::Box ||
                           first.shape.type == ShapeType::Sphere ||
                           first.shape.type == ShapeType::Capsule;
    if (solid.size() == 1 && primitive && length(first_at - com) < kSamePlace) {
      body.shape = first.shape;
      body.orientation = at.rotation(first.orientation);
    } else {
      const Quat to_body = conjugate(body.orientation);
      std::vector<CompoundChild> children;
      for (const RobotGeom* geom : solid) {
        CompoundChild child;
        child.shape = geom->shape;
        child.position = rotate(to_body, at.point(geom->position) - com);
        child.orientation = normalized(to_body * at.rotation(geom->orientation));
        children.push_back(std::move(child));
      }
      body.shape = compound_shape_in_frame(children);
    }
  }
  const Mat3 r = to_matrix(body.orientation);
  body.inertia = transpose(r) * inertia_world * r;
  return body;
}

/// The drive of a joint: its actuator, with the joint's own spring and damper
/// added; or the spring and damper alone.
JointDrive joint_drive(const RobotJoint& j) {
  JointDrive drive = j.actuator;
  if (drive.mode == DriveMode::Position) {
    const Real k = drive.stiffness + j.stiffness;
    drive.target = k > 0 ? (drive.stiffness * drive.target + j.stiffness * j.spring_reference) / k
                         : drive.target;
    drive.stiffness = k;
    drive.damping += j.damping;
  } else if (drive.mode == DriveMode::Off && (j.stiffness > 0 || j.damping > 0)) {
    drive.mode = DriveMode::Position;
    drive.target = j.spring_reference;
    drive.stiffness = j.stiffness;
    drive.damping = j.damping;
  }
  return drive;
}

SceneJoint scene_joint(const RobotModel& model, const RobotJoint& j, const std::string& name,
                       const std::string& a, const std::string& b, const Placement& at) {
  SceneJoint out;
  out.body_a = a;
  out.body_b = b;
  out.json_path = "/joint '" + j.name + "'";
  out.name = name;
  JointLimits limits;
  limits.enabled = j.limited;
  limits.lower = j.lower;
  limits.upper = j.upper;
  const Vec3 anchor = at.point(j.anchor), axis = at.direction(j.axis);
  auto axis_joint = [&](auto d) {  // a hinge or a slider: the same fields
    d.anchor = anchor;
    d.axis = axis;
    d.limits = limits;
    d.drive = joint_drive(j);
    return JointDef(d);
  };
  switch (j.type) {
    case RobotJoint::Type::Hinge:
      out.def = axis_joint(HingeJointDef{});
      break;
    case RobotJoint::Type::Slider:
      out.def = axis_joint(SliderJointDef{});
      break;
    case RobotJoint::Type::Ball: {
      SphericalJointDef d;
      d.anchor = anchor;
      out.def = d;
      break;
    }
    case RobotJoint::Type::Free:
      throw SceneError(model.file + ": joint '" + j.name +
                       "': expected a free joint only as a link's one joint");
  }
  return out;
}

/// A static body for one geometry fixed in the world.
BodyDef world_geom_body(const RobotGeom& geom, const std::string& name, const Placement& at) {
  BodyDef body = default_body_def();
  body.name = name;
  body.is_static = true;
  body.friction = geom.friction;
  body.position = at.point(geom.position);
  body.orientation = at.rotation(geom.orientation);
  body.shape = geom.shape;
  if (geom.shape.type == ShapeType::Plane) {  // a plane is given in world terms
    const Vec3 n = rotate(body.orientation, geom.shape.normal);
    body.shape = plane_shape(n, dot(n, body.position));
    body.position = Vec3{};
    body.orientation = Quat{1, 0, 0, 0};
  }
  if (!geom.collides) no_collision_shape(body);
  return body;
}

}  // namespace

void add_robot_model(const RobotModel& model, const RobotPlacement& placement, Scene& scene) {
  Placement at;
  at.q = normalized(placement.orientation);
  at.r = to_matrix(at.q);
  at.t = placement.position;
  const std::size_t n = model.links.size();
  const std::string& prefix = placement.prefix;

  // Welded links join their parent's group; fixed_base welds floating roots.
  std::vector<int> group(n);
  std::vector<Group> groups;
  for (std::size_t i = 0; i < n; ++i) {
    const RobotLink& link = model.links[i];
    if (link.parent >= static_cast<int>(i))
      throw SceneError(model.file + ": link '" + link.name + "': expected its parent before it");
    const bool floating_root =
        link.parent < 0 && link.joints.size() == 1 && link.joints[0].type == RobotJoint::Type::Free;
    if (link.joints.empty() || (floating_root && placement.fixed_base)) {
      group[i] = link.parent < 0 ? kWorldGroup : group[static_cast<std::size_t>(link.parent)];
    } else {
      group[i] = static_cast<int>(groups.size());
      groups.emplace_back();
      groups.back().head = static_cast<int>(i);
    }
    if (group[i] == kWorldGroup) continue;  // welded to the world: geometry added below
    Group& g = groups[static_cast<std::size_t>(group[i])];
    g.mass.add(link.mass, link.center_of_mass, link.inertia);
    g.geoms.insert(g.geoms.end(), link.geoms.begin(), link.geoms.end());
  }

  // Geometry fixed in the world: the model's own, and that of links welded to it.
  int world_index = 0;
  auto add_world_geom = [&](const RobotGeom& geom) {
    scene.bodies.push_back(
        world_geom_body(geom, prefix + "world_geom" + std::to_string(world_index++), at));
  };
  for (const RobotGeom& geom : model.world_geoms) add_world_geom(geom);
  for (std::size_t i = 0; i < n; ++i)
    if (group[i] == kWorldGroup)
      for (const RobotGeom& geom : model.links[i].geoms) add_world_geom(geom);

  // One body per group.
  std::vector<std::string> body_name(groups.size());
  for (std::size_t k = 0; k < groups.size(); ++k) {
    const Group& g = groups[k];
    const RobotLink& head = model.links[static_cast<std::size_t>(g.head)];
    if (!(g.mass.mass > 0))
      throw SceneError(model.file + ": link '" + head.name +
                       "': expected a mass (an inertial) for a link that moves");
    body_name[k] = prefix + head.name;
    scene.bodies.push_back(group_body(model, g, body_name[k], at));
  }

  // Joints: one per link, or a chain through light intermediate bodies.
  for (std::size_t k = 0; k < groups.size(); ++k) {
    const RobotLink& link = model.links[static_cast<std::size_t>(groups[k].head)];
    if (link.joints.size() == 1 && link.joints[0].type == RobotJoint::Type::Free) continue;
    const int parent_group =
        link.parent < 0 ? kWorldGroup : group[static_cast<std::size_t>(link.parent)];
    const std::string parent =
        parent_group == kWorldGroup ? "world" : body_name[static_cast<std::size_t>(parent_group)];
    std::string previous = parent;
    for (std::size_t m = 0; m < link.joints.size(); ++m) {
      const RobotJoint& j = link.joints[m];
      std::string next = body_name[k];
      if (m + 1 < link.joints.size()) {
        BodyDef mid = default_body_def();
        mid.name = body_name[k] + "/" + j.name;
        mid.position = at.point(j.anchor);
        mid.mass = kChainMassShare * groups[k].mass.mass;
        mid.inertia = kChainMassShare * (at.r * groups[k].mass.inertia() * transpose(at.r));
        no_collision_shape(mid);
        scene.bodies.push_back(mid);
        next = mid.name;
      }
      scene.joints.push_back(scene_joint(model, j, prefix + j.name, previous, next, at));
      previous = next;
    }
    if (link.joints.size() > 1 && parent != "world")
      scene.no_collision.emplace_back(parent, body_name[k]);
  }

  // Excluded pairs, by the bodies their links became.
  std::unordered_map<std::string, std::string> body_of_link;
  for (std::size_t i = 0; i < n; ++i)
    if (group[i] != kWorldGroup)
      body_of_link[model.links[i].name] = body_name[static_cast<std::size_t>(group[i])];
  for (const auto& [a, b] : model.excluded) {
    const auto ia = body_of_link.find(a), ib = body_of_link.find(b);
    if (ia != body_of_link.end() && ib != body_of_link.end() && ia->second != ib->second)
      scene.no_collision.emplace_back(ia->second, ib->second);
  }
  scene.notices.insert(scene.notices.end(), model.notices.begin(), model.notices.end());
}

Scene robot_model_scene(const RobotModel& model) {
  Scene scene;
  scene.file = model.file;
  scene.settings = default_world_def();
  scene.settings.gravity = model.gravity;
  if (model.timestep > 0) scene.settings.dt = model.timestep;
  add_robot_model(model, RobotPlacement{}, scene);
  return scene;
}

ShapeDef cylinder_hull(Real radius, Real half_length) {
  constexpr int kRimPoints = 32;  // per end: the hull's volume within 0.7% of the cylinder's
  std::vector<Vec3> points;
  for (int k = 0; k < kRimPoints; ++k) {
    const Real a = Real(2 * 3.14159265358979323846) * k / kRimPoints;
    for (Real z : {-half_length, half_length})
      points.push_back({radius * std::cos(a), radius * std::sin(a), z});
  }
  return convex_hull_shape(points);
}

std::string single_line(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return text;
}

ShapeDef mesh_hull(const std::vector<Vec3>& points) {
  // Farthest-point sampling keeps the extreme points first (the first is the
  // one farthest from the centroid, each next the one farthest from those
  // kept), so the hull of what is kept is the largest inner one of its size.
  // Deterministic: ties go to the lower index.
  try {
    return convex_hull_shape(points);
  } catch (const Error&) {
    if (points.size() <= std::size_t(kMaxHullVertices)) throw;  // not too many: bad points
  }
  Vec3 centroid;
  for (const Vec3& p : points) centroid += p;
  centroid = (Real(1) / static_cast<Real>(points.size())) * centroid;
  std::vector<Real> distance(points.size());
  for (std::size_t i = 0; i < points.size(); ++i)
    distance[i] = length(points[i] - centroid);  // the first pick: farthest from the centroid
  std::vector<Vec3> kept;
  while (kept.size() < std::size_t(kMaxHullVertices)) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < points.size(); ++i)
      if (distance[i] > distance[best]) best = i;
    if (!(distance[best] > 0)) break;
    kept.push_back(points[best]);
    for (std::size_t i = 0; i < points.size(); ++i)
      distance[i] = std::min(distance[i], length(points[i] - points[best]));
  }
  return convex_hull_shape(kept);
}

ShapeDef ellipsoid_hull(Vec3 radii) {
  // 12 latitudes x 20 longitudes and the poles: 242 points (under the hull
  // cap of 256); the hull's volume is 3.1% under the ellipsoid's. Only the
  // collision shape: the mass and inertia are the model's.
  constexpr int kRings = 12, kSegments = 20;
  constexpr Real kPi = Real(3.14159265358979323846);
  std::vector<Vec3> points{{0, 0, radii.z}, {0, 0, -radii.z}};
  for (int r = 1; r <= kRings; ++r) {
    const Real polar = kPi * r / (kRings + 1);
    for (int s = 0; s < kSegments; ++s) {
      const Real azimuth = 2 * kPi * s / kSegments;
      points.push_back({radii.x * std::sin(polar) * std::cos(azimuth),
                        radii.y * std::sin(polar) * std::sin(azimuth), radii.z * std::cos(polar)});
    }
  }
  return convex_hull_shape(points);
}

}  // namespace pabd
