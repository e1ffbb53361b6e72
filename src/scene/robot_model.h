// Robot models (URDF, MJCF) as one format-free description, and how it becomes
// scene bodies and joints.
//
// Both loaders (urdf_model.cpp, mjcf_model.cpp) read their format into a
// RobotModel posed in the world at its zero configuration: every link's
// inertial and collision geometry, and every joint's anchor and axis, in world
// coordinates. One builder (robot_model_build.cpp) then turns it into pabd
// bodies and joints, the same way for both formats:
//   - links welded to their parent (a URDF fixed joint, an MJCF body without
//     joints) merge into one body: masses add, inertias add about the common
//     centre of mass (parallel axes), geometry is kept where it is;
//   - links welded to the world become one static body;
//   - a link with one joint to its parent gets that joint (hinge, slider,
//     spherical); a floating link gets none;
//   - a link with several joints (an MJCF body with two or three hinges, a
//     universal or ball-like hip) becomes a chain through massless-in-spirit
//     intermediate bodies of 1% of the link's mass and inertia, which do not
//     collide; the parent and the link then never collide with each other
//     (World::disable_collision), as MuJoCo filters parent-child contacts;
//   - joint damping and stiffness become a position drive (a spring and
//     damper toward the joint's spring reference); a position or velocity
//     actuator becomes the joint's drive.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "pabd/scene.h"

namespace pabd {

/// One collision geometry, posed in the world.
struct RobotGeom {
  ShapeDef shape;                ///< box, sphere, capsule (along local Y), convex hull, or plane
  Vec3 position;                 ///< shape frame origin, world [m]
  Quat orientation{1, 0, 0, 0};  ///< world-from-shape rotation
  Real friction = 0.5;           ///< Coulomb coefficient
  bool collides = true;          ///< false: mass only (MJCF contype = conaffinity = 0)
};

/// One joint between a link and its parent, posed in the world.
struct RobotJoint {
  enum class Type { Hinge, Slider, Ball, Free };
  Type type = Type::Hinge;
  std::string name;
  Vec3 anchor;                ///< a point of the axis, world [m]
  Vec3 axis{0, 0, 1};         ///< unit axis, world
  bool limited = false;       ///< hinge and slider only
  Real lower = 0;             ///< [rad] or [m], about the zero configuration
  Real upper = 0;             ///< [rad] or [m]
  Real damping = 0;           ///< [N m s/rad] or [N s/m]
  Real stiffness = 0;         ///< [N m/rad] or [N/m], toward spring_reference
  Real spring_reference = 0;  ///< [rad] or [m], about the zero configuration
  Real armature = 0;          ///< rotor inertia [kg m^2] (hinge) or mass [kg] (slider)
  /// An actuator on this joint, as a position drive: a position actuator's
  /// spring (and damper) toward its target, a velocity actuator's damper
  /// (its control is 0 at the start). Motors are inputs: no drive.
  JointDrive actuator;
};

/// One link (URDF link, MJCF body), posed in the world.
struct RobotLink {
  std::string name;
  int parent = -1;                     ///< index of the parent link; -1 = the world
  Vec3 frame_position;                 ///< the link frame, world [m]
  Quat frame_orientation{1, 0, 0, 0};  ///< world-from-link rotation
  Real mass = 0;                       ///< [kg]; 0 = no inertial
  Vec3 center_of_mass;                 ///< world [m]
  Mat3 inertia;                        ///< about the centre of mass, world axes [kg m^2]
  std::vector<RobotGeom> geoms;
  /// Joints to the parent, parent side first; none = welded to the parent (or
  /// to the world); one of type Free = floating.
  std::vector<RobotJoint> joints;
};

/// A whole model at its zero configuration.
struct RobotModel {
  std::string file;                    ///< for messages
  std::vector<RobotLink> links;        ///< parents before children
  std::vector<RobotGeom> world_geoms;  ///< geometry fixed in the world (MJCF worldbody: floor)
  Vec3 gravity{0, 0, -9.81};           ///< [m/s^2], the format's own (Z up)
  Real timestep = 0;                   ///< [s]; 0 = the format gives none
  /// Link pairs that never collide (MJCF <contact><exclude>), by link name.
  std::vector<std::pair<std::string, std::string>> excluded;
  std::vector<std::string> notices;  ///< what was ignored, one line each
};

/// Where a model goes in a scene (docs/scene-format.md, "models").
struct RobotPlacement {
  Vec3 position;                 ///< the model's origin in the scene [m]
  Quat orientation{1, 0, 0, 0};  ///< scene-from-model rotation
  bool fixed_base = false;       ///< the root link welded to the world
  std::string prefix;            ///< put before every body name
};

/// The largest URDF or MJCF file read [bytes]: 64 MiB, as a scene file.
inline constexpr std::size_t kMaxRobotFileBytes = std::size_t(64) << 20;

/// Reads a URDF file (liburdfdom); throws SceneError "FILE: ...".
RobotModel read_urdf_model(const std::string& path);
/// Reads an MJCF file (compiled by MuJoCo's own parser); throws SceneError.
RobotModel read_mjcf_model(const std::string& path);
/// True when this build reads MJCF (MuJoCo was found at configure time).
bool mjcf_supported();

/// A cylinder along local Z as the convex hull of 2 x 32 rim points, so that
/// it keeps its flat ends (a capsule would round them) [m].
ShapeDef cylinder_hull(Real radius, Real half_length);
/// The convex hull of a mesh's points; when it has more than kMaxHullVertices
/// vertices, the hull of the kMaxHullVertices points that farthest-point
/// sampling keeps (an inner hull).
ShapeDef mesh_hull(const std::vector<Vec3>& points);
/// An ellipsoid of semi-axes `radii` (local x, y, z) as a convex hull of 242
/// surface points (volume 3.1% under) [m].
ShapeDef ellipsoid_hull(Vec3 radii);
/// A reader's message on one line: newlines become spaces, trailing ones go.
std::string single_line(std::string text);

/// A scene of the model alone, in its own frame: its gravity and time step
/// (when it gives one), every other setting at pabd's default.
Scene robot_model_scene(const RobotModel& model);

/// Appends the model's bodies, joints and no-collision pairs to `scene`.
/// Throws SceneError naming the link or joint.
void add_robot_model(const RobotModel& model, const RobotPlacement& placement, Scene& scene);

}  // namespace pabd
