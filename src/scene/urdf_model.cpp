// URDF -> RobotModel, read with liburdfdom (Debian's URDF parser).
//
// URDF is Z up with gravity -9.81 along Z; the model is posed at its zero
// configuration with the root link's frame at the origin. A root link named
// "world" is the fixed world frame, as ROS tools read it; any other root
// floats. Cylinders become convex hulls of 32 rim points (a capsule would
// change the flat ends the robot stands on); meshes (OBJ, STL) become the convex
// hull of their vertices, scaled, as most engines collide URDF meshes.
#include <console_bridge/console.h>
#include <urdf_parser/urdf_parser.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/regular_file.h"
#include "scene/robot_model.h"
#include "shapes/triangle_mesh.h"

namespace pabd {
namespace {

/// Collects what urdfdom reports, so that a parse error becomes one line of ours
/// instead of console_bridge's lines on stderr.
class CapturedLog : public console_bridge::OutputHandler {
 public:
  CapturedLog() { console_bridge::useOutputHandler(this); }
  ~CapturedLog() override { console_bridge::restorePreviousOutputHandler(); }
  CapturedLog(const CapturedLog&) = delete;
  CapturedLog& operator=(const CapturedLog&) = delete;
  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR && first_error.empty())
      first_error = text;
  }
  std::string first_error;
};

struct Frame {
  Vec3 p;
  Quat q{1, 0, 0, 0};
  Frame then(const urdf::Pose& local) const {
    const Quat lq =
        normalized(Quat{local.rotation.w, local.rotation.x, local.rotation.y, local.rotation.z});
    return {p + rotate(q, Vec3{local.position.x, local.position.y, local.position.z}),
            normalized(q * lq)};
  }
};

Vec3 vec(const urdf::Vector3& v) { return {v.x, v.y, v.z}; }

std::string where(const std::string& file, const std::string& what) { return file + ": " + what; }

ShapeDef mesh_hull(const urdf::Mesh& mesh, const std::string& file, const std::string& link) {
  std::string name = mesh.filename;
  if (name.rfind("file://", 0) == 0) name = name.substr(7);
  if (name.find("://") != std::string::npos)
    throw SceneError(where(file, "link '" + link + "': mesh '" + mesh.filename +
                                     "': expected a file path (package:// URIs are not resolved)"));
  std::filesystem::path path(name);
  if (path.is_relative()) path = std::filesystem::path(file).parent_path() / path;
  std::string extension = path.extension().string();
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (extension != ".obj" && extension != ".stl")
    throw SceneError(where(
        file, "link '" + link + "': mesh '" + mesh.filename + "': expected an .obj or .stl file"));
  std::vector<Vec3> vertices;
  std::vector<int> indices;
  try {
    (extension == ".stl" ? read_stl : read_obj)(path.string(), vertices, indices);
  } catch (const Error& e) {
    throw SceneError(where(file, "link '" + link + "': mesh: " + e.what()));
  }
  const Vec3 s = vec(mesh.scale);
  for (Vec3& v : vertices) v = {v.x * s.x, v.y * s.y, v.z * s.z};
  return pabd::mesh_hull(vertices);
}

RobotGeom collision_geom(const urdf::Collision& c, const Frame& link_frame, const std::string& file,
                         const std::string& link) {
  if (!c.geometry) throw SceneError(where(file, "link '" + link + "': collision without geometry"));
  RobotGeom g;
  const Frame at = link_frame.then(c.origin);
  g.position = at.p;
  g.orientation = at.q;
  switch (c.geometry->type) {
    case urdf::Geometry::SPHERE:
      g.shape = sphere_shape(static_cast<const urdf::Sphere&>(*c.geometry).radius);
      break;
    case urdf::Geometry::BOX:
      g.shape = box_shape(vec(static_cast<const urdf::Box&>(*c.geometry).dim));
      break;
    case urdf::Geometry::CYLINDER: {
      const auto& cyl = static_cast<const urdf::Cylinder&>(*c.geometry);
      g.shape = cylinder_hull(cyl.radius, cyl.length / 2);
      break;
    }
    case urdf::Geometry::MESH:
      g.shape = mesh_hull(static_cast<const urdf::Mesh&>(*c.geometry), file, link);
      break;
  }
  return g;
}

/// The inertia tensor of a URDF inertial, turned into world axes.
Mat3 world_inertia(const urdf::Inertial& in, Quat world_from_inertial) {
  Mat3 local;
  local.m[0][0] = in.ixx;
  local.m[1][1] = in.iyy;
  local.m[2][2] = in.izz;
  local.m[0][1] = local.m[1][0] = in.ixy;
  local.m[0][2] = local.m[2][0] = in.ixz;
  local.m[1][2] = local.m[2][1] = in.iyz;
  const Mat3 r = to_matrix(world_from_inertial);
  return r * local * transpose(r);
}

struct Reader {
  const std::string& file;
  RobotModel& model;

  /// Appends `link` (reached through `joint`, null for the root) and its subtree.
  void add(const urdf::Link& link, const urdf::Joint* joint, int parent, const Frame& frame) {
    RobotLink out;
    out.name = link.name;
    out.parent = parent;
    out.frame_position = frame.p;
    out.frame_orientation = frame.q;
    if (link.inertial && link.inertial->mass > 0) {
      const Frame c = frame.then(link.inertial->origin);
      out.mass = link.inertial->mass;
      out.center_of_mass = c.p;
      out.inertia = world_inertia(*link.inertial, c.q);
    }
    for (const auto& c : link.collision_array)
      if (c) out.geoms.push_back(collision_geom(*c, frame, file, link.name));
    if (joint) {
      add_joint(*joint, frame, out);
    } else if (link.name != "world") {
      RobotJoint free;
      free.type = RobotJoint::Type::Free;
      free.name = link.name + "_free";
      out.joints.push_back(free);
    }
    const int index = static_cast<int>(model.links.size());
    model.links.push_back(std::move(out));
    for (const auto& child_joint : link.child_joints) {
      const auto child =
          std::find_if(link.child_links.begin(), link.child_links.end(),
                       [&](const auto& l) { return l && l->name == child_joint->child_link_name; });
      if (child == link.child_links.end()) continue;
      add(**child, child_joint.get(), index,
          frame.then(child_joint->parent_to_joint_origin_transform));
    }
  }

  void add_joint(const urdf::Joint& joint, const Frame& frame, RobotLink& out) const {
    const std::string who = "joint '" + joint.name + "': ";
    RobotJoint j;
    j.name = joint.name;
    j.anchor = frame.p;
    Vec3 axis = vec(joint.axis);
    if (length(axis) > 0) axis = (Real(1) / length(axis)) * axis;
    j.axis = rotate(frame.q, axis);
    if (joint.dynamics) j.damping = joint.dynamics->damping;
    switch (joint.type) {
      case urdf::Joint::FIXED:
        return;  // welded: no joint
      case urdf::Joint::FLOATING:
        j.type = RobotJoint::Type::Free;
        break;
      case urdf::Joint::CONTINUOUS:
        j.type = RobotJoint::Type::Hinge;
        break;
      case urdf::Joint::REVOLUTE:
      case urdf::Joint::PRISMATIC:
        j.type = joint.type == urdf::Joint::REVOLUTE ? RobotJoint::Type::Hinge
                                                     : RobotJoint::Type::Slider;
        if (!joint.limits)
          throw SceneError(where(file, who + "expected <limit> on a revolute or prismatic joint"));
        j.limited = joint.limits->upper > joint.limits->lower;
        j.lower = joint.limits->lower;
        j.upper = joint.limits->upper;
        break;
      default:
        throw SceneError(where(file, who +
                                         "expected type revolute, continuous, prismatic, fixed or "
                                         "floating (planar is not supported)"));
    }
    if (joint.mimic)
      throw SceneError(where(file, who + "<mimic> is not supported (it couples two joints)"));
    if (j.type != RobotJoint::Type::Free && !(length(axis) > 0))
      throw SceneError(where(file, who + "axis: expected a non-zero vector"));
    out.joints.push_back(j);
  }
};

}  // namespace

RobotModel read_urdf_model(const std::string& path) {
  RobotModel model;
  model.file = path;
  std::string text;
  try {
    text = read_regular_file(path, kMaxRobotFileBytes, "URDF file");
  } catch (const Error& e) {
    throw SceneError(e.what());
  }
  urdf::ModelInterfaceSharedPtr urdf;
  {
    CapturedLog log;
    urdf = urdf::parseURDF(text);
    if (!urdf)
      throw SceneError(where(path, "expected a valid URDF file: " +
                                       (log.first_error.empty() ? std::string("parse failed")
                                                                : single_line(log.first_error))));
  }
  const auto root = urdf->getRoot();
  if (!root) throw SceneError(where(path, "expected a root link"));
  Reader reader{path, model};
  reader.add(*root, nullptr, -1, Frame{});
  model.gravity = {0, 0, -9.81};
  return model;
}

}  // namespace pabd
