// Pushing bodies (World::apply_force, apply_torque, apply_impulse,
// set_velocity, damping) against the closed forms of the implicit Euler
// update that the step applies (src/solver/external_velocity.h), the
// one-step life of forces, bad input, and the divergence guard's accounting
// of the work done.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "pabd/scene.h"
#include "pabd/world.h"

namespace pabd {
namespace {

// Round-off of ~n additions of O(1..1000) numbers stays near 1e-12 relative;
// 1e-9 (absolute, on values of order 1-100) leaves room and still catches any
// wrong factor of h, m or the inertia.
constexpr double kTol = 1e-9;

WorldDef weightless() {
  WorldDef wd = default_world_def();
  wd.gravity = {0, 0, 0};
  return wd;
}

BodyId add_box(World& world, Vec3 size, double mass, Vec3 position = {0, 0, 0}) {
  BodyDef b = default_body_def();
  b.shape = box_shape(size);
  b.mass = mass;
  b.position = position;
  return world.add_body(b);
}

TEST(ExternalForces, ConstantForceMovesAsTheClosedForm) {
  World world(weightless());
  const BodyId box = add_box(world, {1, 1, 1}, 2);
  const double h = world.settings().dt, f = 3, m = 2;
  for (int n = 1; n <= 60; ++n) {
    world.apply_force(box, {f, 0, 0}, world.body_state(box).position);
    ASSERT_TRUE(world.step().ok);
    const BodyState s = world.body_state(box);
    // v_n = n h F/m; c_n = h^2 (F/m) n (n + 1) / 2, as a free fall under F/m.
    EXPECT_NEAR(s.velocity.x, n * h * f / m, kTol);
    EXPECT_NEAR(s.position.x, h * h * (f / m) * n * (n + 1) / 2.0, kTol);
    EXPECT_NEAR(length(s.angular_velocity), 0, kTol);  // through the centre: no turn
  }
}

TEST(ExternalForces, AForceActsDuringTheNextStepOnly) {
  World world(weightless());
  const BodyId box = add_box(world, {1, 1, 1}, 4);
  const double h = world.settings().dt;
  world.apply_force(box, {0, 8, 0}, world.body_state(box).position);
  world.apply_force(box, {0, 8, 0}, world.body_state(box).position);  // they add up
  ASSERT_TRUE(world.step().ok);
  EXPECT_NEAR(world.body_state(box).velocity.y, h * 16 / 4, kTol);
  ASSERT_TRUE(world.step().ok);  // cleared: the body coasts
  EXPECT_NEAR(world.body_state(box).velocity.y, h * 16 / 4, kTol);
}

TEST(ExternalForces, AForceOffTheCentreAlsoTurnsTheBody) {
  World world(weightless());
  // A 1 x 2 x 3 m box of 6 kg: I_yy = m (1^2 + 3^2) / 12 = 5 kg m^2.
  const BodyId box = add_box(world, {1, 2, 3}, 6);
  const double h = world.settings().dt, f = 10;
  // At 0.5 m along +z, pushing along +x: torque (0, 0, 0.5) x (10, 0, 0) = (0, 5, 0).
  world.apply_force(box, {f, 0, 0}, {0, 0, 0.5});
  ASSERT_TRUE(world.step().ok);
  const BodyState s = world.body_state(box);
  EXPECT_NEAR(s.velocity.x, h * f / 6, kTol);
  EXPECT_NEAR(s.angular_velocity.y, h * 5 / 5.0, kTol);
  EXPECT_NEAR(s.angular_velocity.x, 0, kTol);
  EXPECT_NEAR(s.angular_velocity.z, 0, kTol);
}

TEST(ExternalForces, TorqueSpinsASphereUpAsTheClosedForm) {
  World world(weightless());
  BodyDef b = default_body_def();
  b.shape = sphere_shape(0.5);
  b.mass = 10;  // I = 2/5 m r^2 = 1 kg m^2 about every axis
  const BodyId ball = world.add_body(b);
  const double h = world.settings().dt, tau = 2;
  for (int n = 1; n <= 60; ++n) {
    world.apply_torque(ball, {0, 0, tau});
    ASSERT_TRUE(world.step().ok);
    EXPECT_NEAR(world.body_state(ball).angular_velocity.z, n * h * tau / 1.0, kTol);
  }
  EXPECT_NEAR(length(world.body_state(ball).position), 0, kTol);  // a torque does not move it
}

TEST(ExternalForces, AnImpulseChangesTheVelocitiesAtOnce) {
  World world(weightless());
  // 2 x 1 x 1 m, 3 kg: I_zz = m (2^2 + 1^2) / 12 = 1.25, I_yy = 1.25, I_xx = 0.5.
  const BodyId box = add_box(world, {2, 1, 1}, 3, {1, 2, 3});
  // At 1 m along +x from the centre, along +y: angular impulse (0, 0, 6).
  world.apply_impulse(box, {0, 6, 0}, {2, 2, 3});
  const BodyState s = world.body_state(box);
  EXPECT_NEAR(s.velocity.y, 6 / 3.0, kTol);
  EXPECT_NEAR(s.angular_velocity.z, 6 / 1.25, kTol);
  EXPECT_NEAR(s.angular_velocity.x, 0, kTol);
  world.set_velocity(box, {1, 0, 0}, {0, 0.5, 0});
  EXPECT_EQ(world.body_state(box).velocity.x, 1);
  EXPECT_EQ(world.body_state(box).angular_velocity.y, 0.5);
  EXPECT_EQ(world.body_state(box).position.x, 1);  // the pose is kept
}

TEST(ExternalForces, LinearDampingFallsTowardItsTerminalSpeed) {
  World world(default_world_def());
  BodyDef b = default_body_def();
  b.shape = box_shape({1, 1, 1});
  b.linear_damping = 2;
  const BodyId box = world.add_body(b);
  const double h = world.settings().dt, g = 9.81, c = 2;
  // v_n = (v_(n-1) - h g) / (1 + h c) from rest: v_n = -(g/c) (1 - (1 + h c)^-n).
  for (int n = 1; n <= 300; ++n) {
    ASSERT_TRUE(world.step().ok);
    EXPECT_NEAR(world.body_state(box).velocity.y, -(g / c) * (1 - std::pow(1 + h * c, -n)), kTol);
  }
  // After 5 s: within (1 + h c)^-300 ~ 5e-5 of the terminal speed g / c.
  EXPECT_NEAR(world.body_state(box).velocity.y, -g / c, 1e-3);
}

TEST(ExternalForces, AngularDampingSlowsASpin) {
  World world(weightless());
  BodyDef b = default_body_def();
  b.shape = sphere_shape(0.5);
  b.angular_velocity = {0, 4, 0};
  const BodyId ball = world.add_body(b);
  world.set_damping(ball, 0, 3);
  const double h = world.settings().dt;
  for (int n = 1; n <= 120; ++n) {
    ASSERT_TRUE(world.step().ok);
    EXPECT_NEAR(world.body_state(ball).angular_velocity.y, 4 * std::pow(1 + 3 * h, -n), kTol);
  }
}

TEST(ExternalForces, DampingComesFromSceneFiles) {
  const Scene scene = parse_scene(R"({"bodies": [{"name": "b", "shape": {"type": "sphere",
    "radius": 0.5}, "linear_damping": 0.5, "angular_damping": 2}]})",
                                  "damped.json");
  EXPECT_EQ(scene.bodies.at(0).linear_damping, 0.5);
  EXPECT_EQ(scene.bodies.at(0).angular_damping, 2);
  try {
    parse_scene(R"({"bodies": [{"shape": {"type": "sphere", "radius": 0.5},
      "linear_damping": -1}]})",
                "bad.json");
    FAIL() << "a negative damping was accepted";
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("/bodies/0/linear_damping"), std::string::npos)
        << e.what();
  }
}

TEST(ExternalForces, BadInputThrowsWithTheCallsName) {
  World world(default_world_def());
  BodyDef ground = default_body_def();
  ground.shape = plane_shape({0, 1, 0}, 0);
  ground.is_static = true;
  ground.name = "ground";
  const BodyId fixed = world.add_body(ground);
  const BodyId box = add_box(world, {1, 1, 1}, 1, {0, 2, 0});
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto message = [](auto call) {
    try {
      call();
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message([&] {
              world.apply_force(fixed, {1, 0, 0}, {0, 0, 0});
            }),
            "apply_force: body 'ground' is static");
  EXPECT_EQ(message([&] {
              world.apply_force(box, {nan, 0, 0}, {0, 0, 0});
            }),
            "apply_force: force: expected finite numbers");
  EXPECT_EQ(message([&] {
              world.apply_torque(box, {0, 1e300 * 1e300, 0});
            }),
            "apply_torque: torque: expected finite numbers");
  EXPECT_EQ(message([&] {
              world.apply_impulse(box, {0, 1, 0}, {nan, 0, 0});
            }),
            "apply_impulse: world_point: expected finite numbers");
  EXPECT_EQ(message([&] { world.set_damping(box, -1, 0); }),
            "set_damping: expected finite rates >= 0");
  EXPECT_EQ(message([&] {
              world.set_velocity(BodyId{99, 1}, {}, {});
            }),
            "set_velocity: invalid body handle (index 99)");
  // Nothing was half-applied: the box falls as if never touched.
  ASSERT_TRUE(world.step().ok);
  EXPECT_EQ(world.body_state(box).velocity.x, 0);
}

TEST(ExternalForces, SustainedPushesPassTheDivergenceGuard) {
  // 1000 N on 1 kg for 2 s reaches 2000 m/s and 2 MJ: far past the guard's
  // bounds for the scene alone (twice its size per step, ~120 m/s), all of it
  // supplied by the force, so every step is sound. A steady torque likewise.
  World world(weightless());
  const BodyId box = add_box(world, {1, 1, 1}, 1);
  for (int n = 1; n <= 120; ++n) {
    world.apply_force(box, {1000, 0, 0}, world.body_state(box).position + Vec3{0, 0.1, 0});
    const StepResult r = world.step();
    ASSERT_TRUE(r.ok) << "step " << n << ": created " << r.created_energy << " J, bound "
                      << r.energy_bound;
  }
  EXPECT_GT(world.body_state(box).velocity.x, 1999);
}

}  // namespace
}  // namespace pabd
