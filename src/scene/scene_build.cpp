// Scene -> World, through the public World API only (a scene is one way of
// filling a World, not a privileged one). Errors the World API raises for a
// scene's values are re-thrown as SceneError at the JSON path they came from,
// so the user still gets one line "FILE: PATH: message".

#include <string>
#include <unordered_map>

#include "pabd/scene.h"

namespace pabd {
namespace {

/// Runs an API call; a pabd::Error it throws becomes a SceneError at `path`.
template <typename Call>
auto at_path(const Scene& scene, const std::string& path, Call&& call) {
  try {
    return call();
  } catch (const SceneError&) {
    throw;
  } catch (const Error& e) {
    throw SceneError(scene.file + ": " + (path.empty() ? "/" : path) + ": " + e.what());
  }
}

}  // namespace

World build_world(const Scene& scene, const WorldDef& settings) {
  World world = at_path(scene, "/settings", [&] { return World(settings); });

  // Body names -> handles returned by add_body ("world" is the fixed frame).
  std::unordered_map<std::string, BodyId> ids;
  ids.reserve(scene.bodies.size() + 1);  // no rehashing for large (array-generated) scenes
  ids.emplace("world", world_frame());
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    const BodyDef& def = scene.bodies[i];
    const BodyId id =
        at_path(scene, "/bodies/" + std::to_string(i), [&] { return world.add_body(def); });
    ids.emplace(def.name.empty() ? std::to_string(i) : def.name, id);
  }

  // A name the parser did not check (a Scene built in code) is reported, not dereferenced.
  const auto body = [&](const JointDesc& joint, const std::string& name, const char* key) {
    const auto it = ids.find(name);
    if (it == ids.end())
      throw SceneError(scene.file + ": " + joint.json_path + "/" + key +
                       ": expected the name of a body or \"world\", got '" + name + "'");
    return it->second;
  };

  for (const JointDesc& joint : scene.joints) {
    const BodyId a = body(joint, joint.body_a, "body_a");
    const BodyId b = body(joint, joint.body_b, "body_b");
    switch (joint.type) {
      case JointType::Spherical: {
        SphericalJointDef def;
        def.body_a = a;
        def.body_b = b;
        def.anchor = joint.anchor;
        def.stiffness = joint.stiffness;
        at_path(scene, joint.json_path, [&] { return world.add_spherical_joint(def); });
        break;
      }
      case JointType::Spring: {
        SpringDef def;
        def.body_a = a;
        def.body_b = b;
        def.anchor_a = joint.anchor_a;
        def.anchor_b = joint.anchor_b;
        def.rest_length = joint.rest_length;
        def.stiffness = joint.stiffness;
        at_path(scene, joint.json_path, [&] { return world.add_spring(def); });
        break;
      }
      case JointType::Hinge: {
        HingeJointDef def;
        def.body_a = a;
        def.body_b = b;
        def.anchor = joint.anchor;
        def.axis = joint.axis;
        def.stiffness = joint.stiffness;
        def.limits = joint.limits;
        def.drive = joint.drive;
        at_path(scene, joint.json_path, [&] { return world.add_hinge_joint(def); });
        break;
      }
      case JointType::Fixed: {
        FixedJointDef def;
        def.body_a = a;
        def.body_b = b;
        def.anchor = joint.anchor;
        def.stiffness = joint.stiffness;
        at_path(scene, joint.json_path, [&] { return world.add_fixed_joint(def); });
        break;
      }
      case JointType::Slider: {
        SliderJointDef def;
        def.body_a = a;
        def.body_b = b;
        def.anchor = joint.anchor;
        def.axis = joint.axis;
        def.stiffness = joint.stiffness;
        def.limits = joint.limits;
        def.drive = joint.drive;
        at_path(scene, joint.json_path, [&] { return world.add_slider_joint(def); });
        break;
      }
      case JointType::Distance: {
        DistanceJointDef def;
        def.body_a = a;
        def.body_b = b;
        def.anchor_a = joint.anchor_a;
        def.anchor_b = joint.anchor_b;
        def.length = joint.rest_length;
        def.stiffness = joint.stiffness;
        at_path(scene, joint.json_path, [&] { return world.add_distance_joint(def); });
        break;
      }
    }
  }
  return world;
}

}  // namespace pabd
