// Scene files (JSON, see docs/scene-format.md): load, validate, build a World.
// A scene is only one way to fill a World; everything here goes through the
// public World API.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pabd/world.h"

namespace pabd {

/// Bad scene input. what() is the one-line message "FILE: PATH: expected ...".
class SceneError : public Error {
 public:
  using Error::Error;
};

/// One joint entry of a scene: the public definition of its kind (anchors,
/// axis, stiffness, limits, drive, in the world frame) with its two bodies
/// named as in the file. The definition's body_a and body_b handles are set
/// by build_world from the names.
struct SceneJoint {
  std::string body_a;     ///< body name or "world"
  std::string body_b;     ///< body name or "world"
  JointDef def;           ///< SpringDef, SphericalJointDef, HingeJointDef, ...
  std::string json_path;  ///< where it came from, for error messages
  std::string name;       ///< the joint's name (World::set_joint_name); "" = unnamed

  JointKind kind() const { return joint_kind(def); }
};

/// A parsed, validated scene.
struct Scene {
  std::string file;                ///< path it was loaded from
  WorldDef settings;               ///< dt, iterations, gravity (defaults filled in)
  std::optional<long> steps;       ///< settings.steps if the file gives one
  std::vector<BodyDef> bodies;     ///< in file order
  std::vector<SceneJoint> joints;  ///< in file order
  /// Body pairs that never collide (World::disable_collision), by name: a
  /// robot model's parent and child links joined through a chain of joints.
  std::vector<std::pair<std::string, std::string>> no_collision;
  /// Fields beside the bodies (docs/scene-format.md, "Sand, water, wind and
  /// cloth"): built after the bodies and before the joints, so joints may
  /// name the sand body and the cloths' particles ("NAME_INDEX").
  std::optional<SandDef> sand;
  std::optional<WaterDef> water;
  std::optional<WindDef> wind;
  std::vector<ClothDef> cloths;
  /// Things the loader left out on purpose, one line each, for the user to see
  /// (a robot model's visual elements).
  std::vector<std::string> notices;
};

/// Reads and validates a scene file; throws SceneError on any problem.
Scene load_scene(const std::string& path);
/// Parses scene JSON text (file_label is used in messages); throws SceneError.
Scene parse_scene(const std::string& json_text, const std::string& file_label);
/// Creates a World from a scene with the given settings (usually scene.settings
/// with command-line overrides); throws SceneError naming the entry for a bad
/// body name or a definition the World refuses.
World build_world(const Scene& scene, const WorldDef& settings);

}  // namespace pabd
