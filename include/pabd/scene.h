// Scene files (JSON, see docs/scene-format.md): load, validate, build a World.
// A scene is only one way to fill a World; everything here goes through the
// public World API.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pabd/world.h"

namespace pabd {

/// Bad scene input. what() is the one-line message "FILE: PATH: expected ...".
class SceneError : public Error {
 public:
  using Error::Error;
};

/// Joint kinds the format names (some may not be supported by this build yet).
enum class JointType { Spherical, Hinge, Slider, Fixed, Spring, Distance };

/// One joint entry of a scene, as written in the file (world-frame anchors).
struct JointDesc {
  JointType type = JointType::Spherical;  ///< kind of joint
  std::string body_a;                     ///< body name or "world"
  std::string body_b;                     ///< body name or "world"
  Vec3 anchor{0, 0, 0};                   ///< spherical/hinge/slider/fixed anchor [m]
  Vec3 axis{0, 0, 1};                     ///< hinge/slider axis (unit)
  Vec3 anchor_a{0, 0, 0};                 ///< spring: first end [m]
  Vec3 anchor_b{0, 0, 0};                 ///< spring: second end [m]
  Real rest_length = 0;                   ///< spring [m]; distance: 0 = the anchors' distance
  Real stiffness = 0;                     ///< spring [N/m]; joints: 0 = hard
  JointLimits limits;                     ///< hinge [rad] / slider [m] range (limits, limits_deg)
  JointDrive drive;                       ///< hinge / slider drive (the "drive" object)
  std::string json_path;                  ///< where it came from, for error messages
};

/// A parsed, validated scene.
struct Scene {
  std::string file;               ///< path it was loaded from
  WorldDef settings;              ///< dt, iterations, gravity (defaults filled in)
  std::optional<long> steps;      ///< settings.steps if the file gives one
  std::vector<BodyDef> bodies;    ///< in file order
  std::vector<JointDesc> joints;  ///< in file order
};

/// Reads and validates a scene file; throws SceneError on any problem.
Scene load_scene(const std::string& path);
/// Parses scene JSON text (file_label is used in messages); throws SceneError.
Scene parse_scene(const std::string& json_text, const std::string& file_label);
/// Creates a World from a scene with the given settings (usually scene.settings
/// with command-line overrides); throws SceneError for unsupported joint types.
World build_world(const Scene& scene, const WorldDef& settings);

}  // namespace pabd
