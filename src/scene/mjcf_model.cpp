// MJCF -> RobotModel, compiled by MuJoCo's own parser (libmujoco-dev).
//
// MuJoCo's compiler does what real models lean on: default classes (nested,
// childclass), fromto, every orientation form, compiler angle units, mesh
// files, and inertias from geometry and density. The compiled model, posed by
// forward kinematics at qpos0, is read into a RobotModel. What pabd does not
// simulate is refused with one line naming the element: tendons, equality
// constraints, explicit contact pairs, composites, actuators other than motor,
// position and velocity on a joint, height fields, ellipsoids. Excluded body
// pairs (<contact><exclude>) are kept. Visual elements (materials, textures,
// cameras, lights, skins) are ignored with one notice.
#include <mujoco/mujoco.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/regular_file.h"
#include "math/polar.h"
#include "scene/robot_model.h"

namespace pabd {
namespace {

constexpr int kErrorBytes = 1000;

/// MuJoCo's warnings during loading, kept instead of printed.
std::string* g_warnings = nullptr;
void keep_warning(const char* text) {
  if (g_warnings && g_warnings->empty()) *g_warnings = single_line(text);
}

Vec3 vec3(const mjtNum* v) { return {v[0], v[1], v[2]}; }
Quat quat(const mjtNum* q) { return normalized(Quat{q[0], q[1], q[2], q[3]}); }
Mat3 mat3(const mjtNum* m) {
  Mat3 r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.m[i][j] = m[3 * i + j];
  return r;
}

std::string name_of(const mjModel* m, mjtObj type, int id, const char* kind) {
  const char* n = mj_id2name(m, type, id);
  return n && *n ? std::string(n) : std::string(kind) + std::to_string(id);
}

/// Whole-element scan of the file for what the compiler turns into plain
/// bodies and so cannot be seen in the compiled model.
void refuse_composites(const std::string& path) {
  std::string s;
  try {
    s = read_regular_file(path, kMaxRobotFileBytes, "MJCF file");
  } catch (const Error& e) {
    throw SceneError(e.what());
  }
  for (const char* element : {"<composite", "<flexcomp"})
    if (s.find(element) != std::string::npos)
      throw SceneError(path + ": element " + std::string(element + 1) +
                       ": not supported (it changes the physics); remove it to load the model");
}

/// One compiled geom as a RobotGeom; pabd's capsule runs along local Y,
/// MuJoCo's along local Z, hence the quarter turn about X.
RobotGeom geom_of(const mjModel* m, const mjData* d, int g, const std::string& file) {
  RobotGeom out;
  const mjtNum* size = m->geom_size + 3 * g;
  out.position = vec3(d->geom_xpos + 3 * g);
  out.orientation = rotation_closest_to(mat3(d->geom_xmat + 9 * g));
  out.friction = m->geom_friction[3 * g];
  out.collides = (m->geom_contype[g] | m->geom_conaffinity[g]) != 0;
  const std::string who = file + ": geom '" + name_of(m, mjOBJ_GEOM, g, "geom") + "': ";
  switch (m->geom_type[g]) {
    case mjGEOM_PLANE:
      out.shape = plane_shape({0, 0, 1}, 0);  // placed by the builder: normal = local Z
      break;
    case mjGEOM_SPHERE:
      out.shape = sphere_shape(size[0]);
      break;
    case mjGEOM_CAPSULE: {
      out.shape = capsule_shape(size[0], size[1]);
      const Real h = std::sqrt(Real(0.5));
      out.orientation = normalized(out.orientation * Quat{h, h, 0, 0});
      break;
    }
    case mjGEOM_CYLINDER:
      out.shape = cylinder_hull(size[0], size[1]);
      break;
    case mjGEOM_ELLIPSOID:
      out.shape = ellipsoid_hull({size[0], size[1], size[2]});
      break;
    case mjGEOM_BOX:
      out.shape = box_shape({2 * size[0], 2 * size[1], 2 * size[2]});
      break;
    case mjGEOM_MESH: {
      const int mesh = m->geom_dataid[g];
      std::vector<Vec3> points;
      const float* v = m->mesh_vert + 3 * m->mesh_vertadr[mesh];
      for (int k = 0; k < m->mesh_vertnum[mesh]; ++k)
        points.push_back({v[3 * k], v[3 * k + 1], v[3 * k + 2]});
      out.shape = mesh_hull(points);  // MuJoCo collides a mesh's convex hull too
      break;
    }
    default:
      throw SceneError(who + "type: expected plane, sphere, capsule, ellipsoid, cylinder, box " +
                       "or mesh (height fields are not supported)");
  }
  return out;
}

RobotJoint joint_of(const mjModel* m, const mjData* d, int j) {
  RobotJoint out;
  out.name = name_of(m, mjOBJ_JOINT, j, "joint");
  out.anchor = vec3(d->xanchor + 3 * j);
  out.axis = vec3(d->xaxis + 3 * j);
  const int q = m->jnt_qposadr[j], v = m->jnt_dofadr[j];
  switch (m->jnt_type[j]) {
    case mjJNT_FREE:
      out.type = RobotJoint::Type::Free;
      return out;
    case mjJNT_BALL:
      out.type = RobotJoint::Type::Ball;
      return out;
    case mjJNT_SLIDE:
      out.type = RobotJoint::Type::Slider;
      break;
    default:
      out.type = RobotJoint::Type::Hinge;
      break;
  }
  // pabd's joint coordinate is 0 at the pose built (qpos0): MuJoCo's values move with it.
  const Real zero = m->qpos0[q];
  out.limited = m->jnt_limited[j] != 0;
  out.lower = m->jnt_range[2 * j] - zero;
  out.upper = m->jnt_range[2 * j + 1] - zero;
  out.damping = m->dof_damping[v];
  out.stiffness = m->jnt_stiffness[j];
  out.spring_reference = m->qpos_spring[q] - zero;
  out.armature = m->dof_armature[v];
  return out;
}

/// Position and velocity actuators become the joint's drive; motors are inputs
/// that start at zero (ctrl = 0 in MuJoCo), so they load as nothing.
void add_actuators(const mjModel* m, RobotModel& model, const std::vector<int>& joint_link,
                   const std::vector<int>& joint_slot, const std::string& file) {
  for (int u = 0; u < m->nu; ++u) {
    const std::string who =
        file + ": actuator '" + name_of(m, mjOBJ_ACTUATOR, u, "actuator") + "': ";
    if (m->actuator_trntype[u] != mjTRN_JOINT)
      throw SceneError(who + "expected a joint transmission (tendons and sites are not supported)");
    if (m->actuator_dyntype[u] != mjDYN_NONE || m->actuator_gaintype[u] != mjGAIN_FIXED)
      throw SceneError(who + "expected a motor, position or velocity actuator");
    const mjtNum* gain = m->actuator_gainprm + mjNGAIN * u;
    const mjtNum* bias = m->actuator_biasprm + mjNBIAS * u;
    const int j = m->actuator_trnid[2 * u];
    RobotJoint& joint =
        model.links[static_cast<std::size_t>(joint_link[static_cast<std::size_t>(j)])]
            .joints[static_cast<std::size_t>(joint_slot[static_cast<std::size_t>(j)])];
    const Real gear = m->actuator_gear[6 * u];
    JointDrive drive;
    if (m->actuator_biastype[u] == mjBIAS_NONE) continue;  // a motor: an input, zero at start
    if (m->actuator_biastype[u] != mjBIAS_AFFINE)
      throw SceneError(who + "expected a motor, position or velocity actuator");
    // The joint's torque is gear * k (ctrl - gear q) = k gear^2 (ctrl / gear - q), ctrl = 0.
    const Real k = gain[0], k_joint = k * gear * gear;
    if (bias[1] != 0 && bias[2] == 0 && std::abs(bias[1] + k) <= 1e-12 * std::abs(k)) {
      drive.mode = DriveMode::Position;  // position: kp (ctrl - q)
      drive.stiffness = k_joint;
      drive.target = 0 - m->qpos0[m->jnt_qposadr[j]];  // q = 0, in pabd's coordinate
    } else if (bias[1] == 0 && bias[2] != 0 && std::abs(bias[2] + k) <= 1e-12 * std::abs(k)) {
      drive.mode = DriveMode::Position;  // velocity: kv (ctrl - qdot), a damper at ctrl = 0
      drive.damping = k_joint;
    } else {
      throw SceneError(who + "expected a motor, position or velocity actuator");
    }
    if (m->actuator_forcelimited[u]) {
      const mjtNum* range = m->actuator_forcerange + 2 * u;
      drive.max_force = std::max(std::abs(range[0]), std::abs(range[1])) * std::abs(gear);
    }
    joint.actuator = drive;
  }
}

}  // namespace

bool mjcf_supported() { return true; }

RobotModel read_mjcf_model(const std::string& path) {
  refuse_composites(path);  // also: a regular file of at most kMaxRobotFileBytes

  std::string warning;
  g_warnings = &warning;
  void (*previous)(const char*) = mju_user_warning;
  mju_user_warning = keep_warning;
  char error[kErrorBytes] = "";
  std::unique_ptr<mjModel, void (*)(mjModel*)> m(
      mj_loadXML(path.c_str(), nullptr, error, kErrorBytes), mj_deleteModel);
  mju_user_warning = previous;
  g_warnings = nullptr;
  if (!m) throw SceneError(path + ": expected a valid MJCF model: " + single_line(error));

  const auto refuse = [&](int count, const char* element) {
    if (count > 0)
      throw SceneError(path + ": element " + element +
                       ": not supported (it changes the physics); remove it to load the model");
  };
  refuse(m->ntendon, "tendon");
  refuse(m->neq, "equality");
  refuse(m->npair, "contact/pair");

  std::unique_ptr<mjData, void (*)(mjData*)> d(mj_makeData(m.get()), mj_deleteData);
  mj_kinematics(m.get(), d.get());

  RobotModel model;
  model.file = path;
  model.gravity = vec3(m->opt.gravity);
  model.timestep = m->opt.timestep;
  for (int g = m->body_geomadr[0]; g < m->body_geomadr[0] + m->body_geomnum[0]; ++g)
    model.world_geoms.push_back(geom_of(m.get(), d.get(), g, path));

  std::vector<int> joint_link(static_cast<std::size_t>(m->njnt), -1);
  std::vector<int> joint_slot(static_cast<std::size_t>(m->njnt), -1);
  for (int b = 1; b < m->nbody; ++b) {
    RobotLink link;
    link.name = name_of(m.get(), mjOBJ_BODY, b, "body");
    link.parent = m->body_parentid[b] == 0 ? -1 : m->body_parentid[b] - 1;
    link.frame_position = vec3(d->xpos + 3 * b);
    link.frame_orientation = quat(d->xquat + 4 * b);
    link.mass = m->body_mass[b];
    link.center_of_mass = vec3(d->xipos + 3 * b);
    const Mat3 r = mat3(d->ximat + 9 * b);
    link.inertia = r * diagonal3(vec3(m->body_inertia + 3 * b)) * transpose(r);
    for (int g = m->body_geomadr[b]; g < m->body_geomadr[b] + m->body_geomnum[b]; ++g) {
      RobotGeom geom = geom_of(m.get(), d.get(), g, path);
      if (geom.shape.type == ShapeType::Plane)
        throw SceneError(path + ": geom '" + name_of(m.get(), mjOBJ_GEOM, g, "geom") +
                         "': expected a plane only in the worldbody");
      link.geoms.push_back(std::move(geom));
    }
    for (int j = m->body_jntadr[b]; j < m->body_jntadr[b] + m->body_jntnum[b]; ++j) {
      joint_link[static_cast<std::size_t>(j)] = b - 1;
      joint_slot[static_cast<std::size_t>(j)] = static_cast<int>(link.joints.size());
      link.joints.push_back(joint_of(m.get(), d.get(), j));
    }
    model.links.push_back(std::move(link));
  }
  add_actuators(m.get(), model, joint_link, joint_slot, path);
  for (int e = 0; e < m->nexclude; ++e) {
    const int signature = m->exclude_signature[e];
    const int b1 = (signature >> 16) - 1, b2 = (signature & 0xffff) - 1;
    if (b1 > 0 && b2 > 0)
      model.excluded.emplace_back(model.links[static_cast<std::size_t>(b1 - 1)].name,
                                  model.links[static_cast<std::size_t>(b2 - 1)].name);
  }
  if (m->nmat + m->ntex + m->ncam + m->nlight + m->nskin > 0)
    model.notices.push_back(path + ": visual elements (materials, textures, cameras, lights, " +
                            "skins) ignored");
  if (!warning.empty()) model.notices.push_back(path + ": MuJoCo: " + warning);
  return model;
}

}  // namespace pabd
