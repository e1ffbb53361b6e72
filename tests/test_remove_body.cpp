// World::remove_body: what was resting on a removed body falls, its joints go
// with it, nothing touches it (contacts, rays), its handle and name are
// released, other handles keep their meaning, and runs stay deterministic.
#include <gtest/gtest.h>

#include <cmath>

#include "pabd/world.h"

namespace pabd {
namespace {

struct Stack {
  World world{default_world_def()};
  BodyId ground, bottom, top;
};

/// Two 1 m boxes resting on each other on the ground (y up), settled.
Stack make_stack() {
  Stack s;
  BodyDef g = default_body_def();
  g.name = "ground";
  g.is_static = true;
  g.shape = plane_shape({0, 1, 0}, 0);
  s.ground = s.world.add_body(g);
  BodyDef b = default_body_def();
  b.shape = box_shape({1, 1, 1});
  b.name = "bottom";
  b.position = {0, 0.5, 0};
  s.bottom = s.world.add_body(b);
  b.name = "top";
  b.position = {0, 1.5, 0};
  s.top = s.world.add_body(b);
  for (int n = 0; n < 30; ++n) EXPECT_TRUE(s.world.step().ok);
  return s;
}

TEST(RemoveBody, WhatRestedOnItFallsToTheGround) {
  Stack s = make_stack();
  const double before = s.world.body_state(s.top).position.y;
  EXPECT_NEAR(before, 1.5, 0.02);  // resting on the bottom box (margin and settling)
  s.world.remove_body(s.bottom);
  for (int n = 0; n < 90; ++n) ASSERT_TRUE(s.world.step().ok);
  // Falls 1 m onto the ground: from 1.5 to 0.5 (its half size) above it.
  EXPECT_NEAR(s.world.body_state(s.top).position.y, 0.5, 0.02);
  EXPECT_FALSE(s.world.is_valid(s.bottom));
  EXPECT_TRUE(s.world.is_valid(s.top));
  EXPECT_TRUE(s.world.is_valid(s.ground));
  // No contact of the last step involves the removed slot.
  for (int c = 0; c < s.world.contact_count(); ++c) {
    const ContactInfo info = s.world.contact(c);
    EXPECT_NE(info.body_a.index, s.bottom.index);
    EXPECT_NE(info.body_b.index, s.bottom.index);
  }
}

TEST(RemoveBody, HandleAndNameAreReleasedAndOtherHandlesKeepTheirMeaning) {
  Stack s = make_stack();
  s.world.remove_body(s.bottom);
  EXPECT_THROW(s.world.body_state(s.bottom), Error);
  EXPECT_THROW(s.world.remove_body(s.bottom), Error);
  EXPECT_THROW(s.world.find_body("bottom"), Error);
  EXPECT_EQ(s.world.body_count(), 3);  // the slot stays
  EXPECT_FALSE(s.world.is_valid(s.world.body_at(1)));
  EXPECT_EQ(s.world.body_name(s.top), "top");
  // The name can be used again, by a new body in a new slot.
  BodyDef b = default_body_def();
  b.name = "bottom";
  b.shape = sphere_shape(0.5);
  b.position = {3, 0.5, 0};
  const BodyId again = s.world.add_body(b);
  EXPECT_EQ(again.index, 3u);
  EXPECT_EQ(s.world.find_body("bottom").index, 3u);
  EXPECT_TRUE(s.world.step().ok);
}

TEST(RemoveBody, ItsJointsGoWithItAndRaysPassThrough) {
  World world(default_world_def());
  BodyDef b = default_body_def();
  b.shape = box_shape({0.2, 0.2, 0.2});
  b.name = "link";
  b.position = {1, 0, 0};
  const BodyId link = world.add_body(b);
  b.name = "bob";
  b.position = {2, 0, 0};
  const BodyId bob = world.add_body(b);
  HingeJointDef h;
  h.body_b = link;
  h.anchor = {0, 0, 0};
  const JointId to_world = world.add_hinge_joint(h);
  SphericalJointDef sj;
  sj.body_a = link;
  sj.body_b = bob;
  sj.anchor = {1.5, 0, 0};
  const JointId between = world.add_spherical_joint(sj);
  ASSERT_TRUE(world.raycast({1, 5, 0}, {0, -1, 0}, 10).has_value());
  world.remove_body(link);
  EXPECT_FALSE(world.is_valid(to_world));
  EXPECT_FALSE(world.is_valid(between));
  EXPECT_FALSE(world.raycast({1, 5, 0}, {0, -1, 0}, 10).has_value());
  // The bob, free now, falls as the implicit step falls a free body: g h^2
  // n (n + 1) / 2 after n steps (nothing holds it; rounding only).
  const double y0 = world.body_state(bob).position.y;
  const int n = 30;
  for (int k = 0; k < n; ++k) ASSERT_TRUE(world.step().ok);
  const double dt = world.settings().dt;
  EXPECT_NEAR(y0 - world.body_state(bob).position.y, 9.81 * dt * dt * n * (n + 1) / 2, 1e-9);
}

TEST(RemoveBody, RunsStayDeterministicAndSnapshotsKnowTheModelChanged) {
  auto run = [] {
    Stack s = make_stack();
    s.world.remove_body(s.bottom);
    for (int n = 0; n < 30; ++n) EXPECT_TRUE(s.world.step().ok);
    return s.world.state_hash();
  };
  EXPECT_EQ(run(), run());
  Stack s = make_stack();
  const std::vector<std::uint8_t> before = s.world.save_state();
  s.world.remove_body(s.bottom);
  EXPECT_THROW(s.world.restore_state(before), Error);  // another model now
}

}  // namespace
}  // namespace pabd
