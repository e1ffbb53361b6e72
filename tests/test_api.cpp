// The public C++ API: handles, definitions, validation and error reporting.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "pabd/world.h"

namespace pabd {
namespace {

TEST(Api, BodiesAreFoundByHandleAndName) {
  World world;
  BodyDef b = default_body_def();
  const BodyId first = world.add_body(b);  // unnamed: named by its index
  b.name = "crate";
  b.shape = box_shape({1, 2, 0.5});
  b.density = 500;
  const BodyId crate = world.add_body(b);
  EXPECT_EQ(world.body_count(), 2);
  EXPECT_EQ(world.body_name(first), "0");
  EXPECT_EQ(world.find_body("crate").index, crate.index);
  EXPECT_DOUBLE_EQ(world.body_mass(crate), 500.0);  // 1 m^3 at 500 kg/m^3
  b.name = "heavy";
  b.mass = 7;  // an explicit mass overrides density
  EXPECT_DOUBLE_EQ(world.body_mass(world.add_body(b)), 7.0);
}

TEST(Api, InvalidInputThrowsWithAMessage) {
  World world;
  BodyDef b = default_body_def();
  b.shape = box_shape({1, 0, 1});
  EXPECT_THROW(world.add_body(b), Error);
  b.shape = sphere_shape(-1);
  EXPECT_THROW(world.add_body(b), Error);
  b.shape = box_shape({1, 1, 1});
  b.position.x = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(world.add_body(b), Error);
  b.position.x = 0;
  b.shape = plane_shape({0, 1, 0}, 0);  // a plane must be static
  EXPECT_THROW(world.add_body(b), Error);
  b.shape = box_shape({1, 1, 1});
  b.name = "a";
  world.add_body(b);
  EXPECT_THROW(world.add_body(b), Error);  // duplicate name
  EXPECT_THROW(world.find_body("nobody"), Error);
  EXPECT_THROW(world.body_state(BodyId{42, 1}), Error);
  EXPECT_THROW(world.body_state(world_frame()), Error);
  SpringDef s;  // both ends on the world
  EXPECT_THROW(world.add_spring(s), Error);
  s.body_a = world.find_body("a");
  s.stiffness = -1;
  EXPECT_THROW(world.add_spring(s), Error);
  WorldDef wd = default_world_def();
  wd.dt = 0;
  EXPECT_THROW(World{wd}, Error);
  try {
    world.add_body(b);
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("expected"), std::string::npos);
  }
}

TEST(Api, StateRoundTripsAndStaticBodiesStayPut) {
  World world;
  BodyDef b = default_body_def();
  b.is_static = true;
  b.position = {1, 2, 3};
  const BodyId fixed = world.add_body(b);
  b.is_static = false;
  b.name = "free";
  const BodyId free = world.add_body(b);
  BodyState s;
  s.position = {4, 5, 6};
  s.orientation = {2, 0, 0, 0};  // normalised on the way in
  s.velocity = {1, 0, 0};
  world.set_body_state(free, s);
  EXPECT_DOUBLE_EQ(world.body_state(free).orientation.w, 1.0);
  for (int n = 0; n < 10; ++n) world.step();
  EXPECT_DOUBLE_EQ(world.body_state(fixed).position.y, 2.0);
  EXPECT_EQ(world.step_count(), 10);
  s.position.x = std::numeric_limits<double>::infinity();
  EXPECT_THROW(world.set_body_state(free, s), Error);
}

TEST(Api, NonFiniteStateIsReportedWithStepAndBody) {
  WorldDef wd = default_world_def();
  wd.dt = 1;
  World world(wd);
  BodyDef b = default_body_def();
  world.add_body(b);
  b.name = "runaway";
  b.position = {1.7e308, 0, 0};
  b.velocity = {1e308, 0, 0};  // c + h v overflows to +inf in the first step
  world.add_body(b);
  const StepResult r = world.step();
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.step, 1);
  EXPECT_EQ(r.bad_body, 1);
}

TEST(Api, StageTimingsAreFilled) {
  World world;
  world.add_body(default_body_def());
  world.step();
  const StageTimings& t = world.last_timings();
  EXPECT_GE(t.total_ms, t.predict_ms + t.solve_ms);
  EXPECT_GT(t.total_ms, 0.0);
}

}  // namespace
}  // namespace pabd

namespace pabd {
namespace {

TEST(Api, MouseSpringDragsABodyAndIsRemoved) {
  // The viewer's drag: a spring from a body to a world point that moves.
  WorldDef wd = default_world_def();
  wd.gravity = {0, 0, 0};
  World world(wd);
  const BodyId box = world.add_body(default_body_def());
  SpringDef drag;
  drag.body_a = box;
  drag.anchor_a = {0, 0, 0};
  drag.anchor_b = {0, 0, 0};
  drag.stiffness = 50;
  const JointId mouse = world.add_spring(drag);
  world.set_world_anchor(mouse, {2, 0, 0});
  for (int n = 0; n < 120; ++n) world.step();
  const double x = world.body_state(box).position.x;
  // A 1000 kg box on a 50 N/m spring toward x = 2: x(t) = 2 (1 - cos(w t)),
  // w = sqrt(k / m); at w h = 0.004 implicit Euler's error is far below 1%.
  EXPECT_NEAR(x, 2 * (1 - std::cos(std::sqrt(50.0 / 1000.0) * 2.0)), 0.01 * x);
  const JointInfo info = world.joint_info(mouse);
  EXPECT_EQ(info.kind, JointKind::Spring);
  EXPECT_TRUE(info.body_b.is_world());
  EXPECT_DOUBLE_EQ(info.world_b.x, 2.0);
  EXPECT_NEAR(info.world_a.x, x, 1e-12);  // the body end follows the body

  world.remove_joint(mouse);
  EXPECT_FALSE(world.is_valid(mouse));
  EXPECT_THROW(world.joint_info(mouse), Error);
  const Vec3 v = world.body_state(box).velocity;
  for (int n = 0; n < 10; ++n) world.step();
  // Free flight once the spring is gone: the velocity no longer changes.
  EXPECT_NEAR(world.body_state(box).velocity.x, v.x, 1e-12);
}

TEST(Api, WorldAnchorNeedsAWorldEnd) {
  World world;
  const BodyId a = world.add_body(default_body_def());
  BodyDef other = default_body_def();
  other.position = {2, 0, 0};
  const BodyId b = world.add_body(other);
  SphericalJointDef j;
  j.body_a = a;
  j.body_b = b;
  j.anchor = {1, 0, 0};
  const JointId id = world.add_spherical_joint(j);
  EXPECT_THROW(world.set_world_anchor(id, {0, 0, 0}), Error);
  EXPECT_TRUE(world.joint_info(id).hard);
  EXPECT_EQ(world.joint_at(0).index, id.index);
  EXPECT_EQ(world.body_shape(a).type, ShapeType::Box);
}

}  // namespace
}  // namespace pabd
