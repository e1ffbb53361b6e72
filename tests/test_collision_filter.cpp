// Collision groups and masks (BodyDef::collision_group, collision_mask, scene
// keys, World::set_collision_filter): a box whose filter excludes the box
// below falls through it onto the ground, which it still meets.
#include <gtest/gtest.h>

#include <string>

#include "pabd/scene.h"
#include "pabd/world.h"

namespace pabd {
namespace {

/// A 1 m box dropped from 0.1 m above a 1 m box on the ground; top's and
/// bottom's filters as given. Returns top's height after 2 s.
double top_height_after_two_seconds(std::uint32_t top_group, std::uint32_t top_mask,
                                    std::uint32_t bottom_group, std::uint32_t bottom_mask,
                                    bool set_later = false) {
  World world(default_world_def());
  BodyDef ground = default_body_def();
  ground.shape = plane_shape({0, 1, 0}, 0);
  ground.is_static = true;
  world.add_body(ground);
  BodyDef box = default_body_def();
  box.shape = box_shape({1, 1, 1});
  box.position = {0, 0.5, 0};
  if (!set_later) {
    box.collision_group = bottom_group;
    box.collision_mask = bottom_mask;
  }
  const BodyId bottom = world.add_body(box);
  box.position = {0, 1.6, 0};
  if (!set_later) {
    box.collision_group = top_group;
    box.collision_mask = top_mask;
  }
  const BodyId top = world.add_body(box);
  if (set_later) {
    world.set_collision_filter(bottom, bottom_group, bottom_mask);
    world.set_collision_filter(top, top_group, top_mask);
  }
  for (int i = 0; i < 120; ++i)
    if (!world.step().ok) return -1;
  return world.body_state(top).position.y;
}

TEST(CollisionFilter, ABoxOutsideTheOthersMaskFallsThroughItOntoTheGround) {
  // Defaults: the top box rests on the bottom one, its centre at 1.5 m (within
  // the contacts' millimetre-scale compliance).
  EXPECT_NEAR(top_height_after_two_seconds(1, 0xffffffffu, 1, 0xffffffffu), 1.5, 0.01);
  // Top in group 2, meeting group 1 (the ground) only; bottom in group 4,
  // meeting everything but group 2: the top box passes through the bottom one
  // and lands on the ground, its centre at 0.5 m.
  EXPECT_NEAR(top_height_after_two_seconds(2, 1, 4, ~2u), 0.5, 0.01);
  // Either side's mask is enough to keep them apart.
  EXPECT_NEAR(top_height_after_two_seconds(2, 0xffffffffu, 4, ~2u), 0.5, 0.01);
  EXPECT_NEAR(top_height_after_two_seconds(2, 1, 4, 0xffffffffu), 0.5, 0.01);
  // The same set on the live world.
  EXPECT_NEAR(top_height_after_two_seconds(2, 1, 4, ~2u, true), 0.5, 0.01);
}

TEST(CollisionFilter, FiltersComeFromSceneFilesWithinTheirRange) {
  const Scene scene = parse_scene(R"({"bodies": [{"shape": {"type": "sphere", "radius": 1},
    "collision_group": 2, "collision_mask": 4294967293}]})",
                                  "filter.json");
  EXPECT_EQ(scene.bodies.at(0).collision_group, 2u);
  EXPECT_EQ(scene.bodies.at(0).collision_mask, 4294967293u);
  for (const char* bad : {"-1", "4294967296", "1.5", "\"1\""}) {
    try {
      parse_scene(std::string(R"({"bodies": [{"shape": {"type": "sphere", "radius": 1},
        "collision_mask": )") +
                      bad + "}]}",
                  "bad.json");
      ADD_FAILURE() << "collision_mask " << bad << " was accepted";
    } catch (const SceneError& e) {
      EXPECT_NE(std::string(e.what()).find("/bodies/0/collision_mask: expected an integer from 0 "
                                           "to 4294967295"),
                std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace pabd
