// Scene -> World, through the public World API only (a scene is one way of
// filling a World, not a privileged one). Errors the World API raises for a
// scene's values are re-thrown as SceneError at the JSON path they came from,
// so the user still gets one line "FILE: PATH: message".

#include <string>
#include <unordered_map>
#include <utility>
#include <variant>

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

/// The AVBD baseline solves springs and point, line and distance bonds: a hinge's
/// or slider's limits and drives are refused here, at the joint, before anything
/// is built (the World would refuse them only at the first step, naming no entry).
void check_joints_for_avbd(const Scene& scene, const WorldDef& settings) {
  if (settings.solver != SolverKind::Avbd) return;
  for (const SceneJoint& joint : scene.joints) {
    const auto [limits, drive] = std::visit(
        [](const auto& d) -> std::pair<bool, bool> {
          if constexpr (requires {
                          d.limits;
                          d.drive;
                        })
            return {d.limits.enabled, d.drive.mode != DriveMode::Off};
          else
            return {false, false};
        },
        joint.def);
    if (limits || drive)
      throw SceneError(scene.file + ": " + joint.json_path + ": expected a joint solver avbd " +
                       "supports (no limits or drive: those need solver pabd), got a " +
                       joint_kind_name(joint.kind()) + " joint with " +
                       (limits && drive ? "limits and a drive"
                        : limits        ? "limits"
                                        : "a drive"));
  }
}

}  // namespace

World build_world(const Scene& scene, const WorldDef& settings) {
  World world = at_path(scene, "/settings", [&] { return World(settings); });
  check_joints_for_avbd(scene, settings);

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

  // Fields: the sand body and the cloths' particles may be joint ends.
  if (scene.sand)
    ids.emplace(scene.sand->name,
                at_path(scene, "/sand", [&] { return world.add_sand(*scene.sand); }));
  if (scene.water) at_path(scene, "/water", [&] { world.add_water(*scene.water); });
  if (scene.wind) at_path(scene, "/wind", [&] { world.set_wind(*scene.wind); });
  for (std::size_t i = 0; i < scene.cloths.size(); ++i) {
    const ClothDef& cloth = scene.cloths[i];
    const int first =
        at_path(scene, "/cloths/" + std::to_string(i), [&] { return world.add_cloth(cloth); });
    for (std::size_t k = 0; k < cloth.vertices.size(); ++k)
      ids.emplace(cloth.name + "_" + std::to_string(k), world.body_at(first + static_cast<int>(k)));
  }

  // A name the parser did not check (a Scene built in code) is reported, not dereferenced.
  const auto body = [&](const SceneJoint& joint, const std::string& name, const char* key) {
    const auto it = ids.find(name);
    if (it == ids.end())
      throw SceneError(scene.file + ": " + joint.json_path + "/" + key +
                       ": expected the name of a body or \"world\", got '" + name + "'");
    return it->second;
  };

  for (const SceneJoint& joint : scene.joints) {
    JointDef def = joint.def;
    const BodyId a = body(joint, joint.body_a, "body_a");
    const BodyId b = body(joint, joint.body_b, "body_b");
    std::visit(
        [&](auto& d) {
          d.body_a = a;
          d.body_b = b;
        },
        def);
    const JointId id = at_path(scene, joint.json_path, [&] { return world.add_joint(def); });
    if (!joint.name.empty())
      at_path(scene, joint.json_path, [&] { world.set_joint_name(id, joint.name); });
  }
  for (const auto& [a, b] : scene.no_collision) {
    const auto ia = ids.find(a), ib = ids.find(b);
    if (ia == ids.end() || ib == ids.end())
      throw SceneError(scene.file + ": no_collision: expected two body names, got '" + a +
                       "' and '" + b + "'");
    at_path(scene, "/no_collision", [&] { world.disable_collision(ia->second, ib->second); });
  }
  return world;
}

}  // namespace pabd
