// Free bodies: free fall against the closed form of the update, and free spin
// about a principal axis (the exact exp/log maps keep the angular velocity).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "pabd/world.h"

namespace pabd {
namespace {

TEST(FreeMotion, FreeFallMatchesClosedFormOfTheUpdate) {
  WorldDef wd = default_world_def();
  World world(wd);
  BodyDef b = default_body_def();
  b.shape = box_shape({1, 1, 1});
  b.position = {0, 10, 0};
  b.velocity = {1, 2, -0.5};
  const BodyId id = world.add_body(b);
  const double h = wd.dt;
  const Vec3 g = wd.gravity;
  for (int n = 1; n <= 120; ++n) {
    ASSERT_TRUE(world.step().ok);
    // v_n = v_0 + n h g; c_n = c_0 + n h v_0 + h^2 g n (n + 1) / 2 (symplectic Euler).
    const double fall = h * h * n * (n + 1) / 2.0;
    const BodyState s = world.body_state(id);
    // Round-off of ~n additions of O(10) numbers: ~1e-13; the issue asks for 1e-9.
    EXPECT_NEAR(s.position.x, 0 + n * h * 1 + fall * g.x, 1e-9);
    EXPECT_NEAR(s.position.y, 10 + n * h * 2 + fall * g.y, 1e-9);
    EXPECT_NEAR(s.position.z, 0 + n * h * -0.5 + fall * g.z, 1e-9);
    EXPECT_NEAR(s.velocity.y, 2 + n * h * g.y, 1e-9);
    EXPECT_NEAR(s.angular_velocity.x, 0, 1e-12);
  }
}

struct SpinResult {
  double omega;  // final angular velocity about the axis [rad/s]
  double angle;  // total turned angle, unwrapped [rad]
};

SpinResult spin(PredictionMode mode, Vec3 axis, double rate, int steps) {
  WorldDef wd = default_world_def();
  wd.gravity = {0, 0, 0};
  wd.prediction = mode;
  World world(wd);
  BodyDef b = default_body_def();
  b.shape = box_shape({0.4, 1.0, 2.0});  // three distinct principal moments
  b.angular_velocity = rate * axis;
  const BodyId id = world.add_body(b);
  double angle = 0;
  Quat prev = world.body_state(id).orientation;
  for (int n = 0; n < steps; ++n) {
    world.step();
    const Quat q = world.body_state(id).orientation;
    const Quat d = q * conjugate(prev);  // rotation of this step
    const double s = std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
    const double sign = (d.x * axis.x + d.y * axis.y + d.z * axis.z) * d.w >= 0 ? 1 : -1;
    angle += sign * 2 * std::atan2(s, std::fabs(d.w));
    prev = q;
  }
  return {dot(world.body_state(id).angular_velocity, axis), angle};
}

TEST(FreeMotion, SpinAboutPrincipalAxisKeepsAngularVelocity) {
  const double rate = 2.0, time = 2.0;
  const int steps = 120;  // 2 s at 60 Hz
  for (Vec3 axis : {Vec3{1, 0, 0}, Vec3{0, 1, 0}, Vec3{0, 0, 1}}) {
    const SpinResult r = spin(PredictionMode::Exact, axis, rate, steps);
    std::printf("exact maps: omega %.12f rad/s, angle %.12f rad (expected %g, %g)\n", r.omega,
                r.angle, rate, rate * time);
    // The bound is 0.5%; the exact maps should do far better.
    EXPECT_NEAR(r.omega, rate, 0.005 * rate);
    EXPECT_NEAR(r.angle, rate * time, 0.005 * rate * time);
  }
}

TEST(FreeMotion, PapersFirstOrderRecoveryLosesSpin) {
  // The paper's Algorithm 1 (Q + h/2 [w,0] Q, W = dA A^-1 / h) shrinks w by
  // about (h w)^2 / 6 per step: ~3% after 2 s at 60 Hz for 2 rad/s. This pins
  // down why the exact maps are the default.
  const SpinResult r = spin(PredictionMode::FirstOrder, {0, 0, 1}, 2.0, 120);
  std::printf("paper's first order: omega %.6f rad/s after 2 s (%.2f%% lost)\n", r.omega,
              100 * (1 - r.omega / 2.0));
  EXPECT_LT(r.omega, 0.99 * 2.0);
  EXPECT_GT(r.omega, 0.95 * 2.0);
}

}  // namespace
}  // namespace pabd
