// The scene format's fields (docs/scene-format.md, "Sand, water, wind and
// cloth"): values reach the World, joints may name the sand body and the
// cloths' particles, and every bad value is one line at its JSON path.
#include <gtest/gtest.h>

#include <string>

#include "pabd/scene.h"
#include "scene/scene_limits.h"

namespace pabd {
namespace {

constexpr const char* kFile = "test.json";

/// The message of the SceneError that parsing and building `text` throws ("" if none).
std::string error_of(const std::string& text) {
  try {
    const Scene scene = parse_scene(text, kFile);
    build_world(scene, scene.settings);
  } catch (const SceneError& e) {
    return e.what();
  }
  return "";
}

constexpr const char* kSail = R"({"name": "sail", "vertices": [[0, 1, 0], [1, 1, 0], [0, 2, 0]],
                                  "triangles": [[0, 1, 2]], "stretch_stiffness": 0})";

TEST(SceneFields, ValuesReachTheWorld) {
  const Scene scene = parse_scene(std::string(R"({"bodies": [
      {"name": "post", "static": true, "shape": {"type": "box", "size": [0.1, 3, 0.1]}}],
    "sand": {"columns": 5, "rows": 4, "spacing": 0.5, "position": [1, -0.3, 2], "depth": 0.3,
             "friction": 0.7},
    "water": {"level": -1, "waves": [{"amplitude": 0.1, "wavelength": 10}], "columns": 8,
              "rows": 8},
    "wind": {"velocity": [3, 0, 0]},
    "cloths": [)") + kSail + R"(],
    "joints": [{"type": "spherical", "body_a": "post", "body_b": "sail_2", "anchor": [0, 2, 0]},
               {"type": "spring", "body_a": "sand", "body_b": "sail_0", "anchor_a": [0, 1, 0],
                "anchor_b": [0, 1, 0], "rest_length": 0, "stiffness": 100}]})",
                                  kFile);
  ASSERT_TRUE(scene.sand && scene.water && scene.wind);
  EXPECT_EQ(scene.sand->columns, 5);
  EXPECT_EQ(scene.sand->friction, 0.7);
  EXPECT_EQ(scene.water->level, -1);
  World world = build_world(scene, scene.settings);
  // The post, the sand body, three particles.
  ASSERT_EQ(world.body_count(), 5);
  const BodyId sand = world.find_body("sand");
  EXPECT_TRUE(world.is_static(sand));
  EXPECT_EQ(world.body_state(sand).position.x, 1);
  ASSERT_EQ(world.surface_count(), 2);
  const SurfaceInfo s = world.surface(0);
  EXPECT_EQ(s.columns, 5);
  EXPECT_DOUBLE_EQ(s.x0, 1 - 1.0);     // centred on x = 1, 4 cells of 0.5 m
  EXPECT_DOUBLE_EQ(s.height[0], 0.0);  // floor -0.3 plus 0.3 of sand
  EXPECT_DOUBLE_EQ(world.sand_volume(), 20 * 0.3 * 0.25);
  ASSERT_EQ(world.cloth_count(), 1);
  EXPECT_EQ(world.body_name(world.body_at(world.cloth(0).particles[2])), "sail_2");
  EXPECT_EQ(world.joint_count(), 3 + 2);  // the cloth's three edges, the scene's two joints
}

TEST(SceneFields, BadValuesAreOneLineAtTheirPath) {
  struct Case {
    std::string text, expected;
  };
  const Case cases[] = {
      {R"({"bodies": [], "sand": {"spacing": 0}})",
       "test.json: /sand/spacing: expected a positive finite number, got 0"},
      {R"({"bodies": [], "sand": {"colums": 3}})",
       "test.json: /sand/colums: expected one of the keys name, columns, rows, spacing, position, "
       "depth, heights, friction, repose_angle, sinkage_exponent, cohesive_modulus, "
       "frictional_modulus, got an unknown key"},
      {R"({"bodies": [], "sand": {"columns": 2, "rows": 2, "heights": [1, 2, 3]}})",
       "test.json: /sand/heights: expected an array of 4 numbers (rows x columns), got an array of "
       "3"},
      {R"({"bodies": [], "sand": {"repose_angle": 2}})",
       "test.json: /sand/repose_angle: expected an angle in (0, pi/2) [rad], got 2"},
      {R"({"bodies": [{"name": "sand", "shape": {"type": "sphere", "radius": 1}}], "sand": {}})",
       "test.json: /sand: expected a unique body name, got 'sand', already used"},
      {R"({"bodies": [], "water": {"waves": [{"direction": [0, 1, 0]}]}})",
       "test.json: /water/waves/0/direction: expected a direction with a non-zero x or z"},
      {R"({"bodies": [], "water": {"waves": [{"amplitude": 2, "wavelength": 4, "steepness": 1}]}})",
       "test.json: /water: water: waves: the sum of steepness x amplitude x wavenumber is "
       "3.141593: expected < 1 (the surface would fold over)"},
      {R"({"bodies": [], "wind": {"velocity": [1, 2]}})",
       "test.json: /wind/velocity: expected an array of 3 numbers, got an array of 2"},
      {R"({"bodies": [], "cloths": [{"name": "c", "vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0]],
                                     "triangles": [[0, 1, 3]]}]})",
       "test.json: /cloths/0/triangles/0/2: expected an integer from 0 to 2, got 3"},
      {R"({"bodies": [], "cloths": [{"name": "c", "vertices": [[0, 0, 0], [1, 0, 0], [2, 0, 0]],
                                     "triangles": [[0, 1, 2]]}]})",
       "test.json: /cloths/0: cloth 'c': triangle 0 has no area"},
      {R"({"bodies": [], "cloths": [{"vertices": []}]})",
       "test.json: /cloths/0/name: expected the cloth's name, but the key is missing"},
  };
  for (const Case& c : cases) EXPECT_EQ(error_of(c.text), c.expected) << c.text;
  // The cloths' particles count as bodies against the format's limits
  // (scene_limits.h), as the fuzzer's lower ones do.
  SceneLimits limits;
  limits.max_bodies = 4;
  limits.max_grid_vertices = 100;
  auto limited = [&](const std::string& text) {
    try {
      parse_scene_with_limits(text, kFile, limits);
    } catch (const SceneError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(limited(std::string(R"({"bodies": [{"name": "a", "shape": {"type": "sphere",
                                   "radius": 1}}, {"name": "b", "shape": {"type": "sphere",
                                   "radius": 1}}], "cloths": [)") +
                    kSail + "]}"),
            "test.json: /cloths/0/vertices: expected at most 4 bodies in the scene, cloth "
            "particles included, got 5");
  EXPECT_EQ(limited(R"({"bodies": [], "sand": {"columns": 11, "rows": 10}})"),
            "test.json: /sand: expected at most 100 grid vertices, got 11 x 10");
}

}  // namespace
}  // namespace pabd
