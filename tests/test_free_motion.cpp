// Free bodies: free fall against the closed form of the update, and free spin
// about a principal axis (the exact exp/log maps keep the angular velocity).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>

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

SpinResult spin(PredictionMode mode, Vec3 axis, double rate, int steps,
                double max_rotation = default_world_def().max_rotation_per_step) {
  WorldDef wd = default_world_def();
  wd.gravity = {0, 0, 0};
  wd.prediction = mode;
  wd.max_rotation_per_step = max_rotation;
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

// The rotation cap (WorldDef::max_rotation_per_step, default pi/4 per step):
// a body may not turn more than that in one step, so a free spin faster than
// pi/4 / h = 47.1 rad/s at 60 Hz is slowed to it, and nothing slower is touched.
TEST(FreeMotion, RotationPerStepIsCapped) {
  const double h = default_world_def().dt, cap = std::numbers::pi / 4;
  const SpinResult slow = spin(PredictionMode::Exact, {0, 0, 1}, 40.0, 60);
  const SpinResult fast = spin(PredictionMode::Exact, {0, 0, 1}, 100.0, 60);
  const SpinResult uncapped = spin(PredictionMode::Exact, {0, 0, 1}, 100.0, 60, std::numbers::pi);
  std::printf("spin 40 rad/s: %.12f; 100 rad/s capped: %.12f (pi/4 / h = %.12f), uncapped %.12f\n",
              slow.omega, fast.omega, cap / h, uncapped.omega);
  // Below the cap the exact maps keep the spin to rounding (1e-9 relative over 60 steps).
  EXPECT_NEAR(slow.omega, 40.0, 40.0 * 1e-9);
  // Above it each step turns exactly the cap, and the velocity follows from that turn.
  EXPECT_NEAR(fast.omega, cap / h, cap / h * 1e-9);
  EXPECT_NEAR(fast.angle, 60 * cap, 60 * cap * 1e-9);
  // pi (no cap) keeps 100 rad/s (1.67 rad per step).
  EXPECT_NEAR(uncapped.omega, 100.0, 100.0 * 1e-9);
}

TEST(FreeMotion, RotationCapMustBeInZeroToPi) {
  for (double bad : {0.0, -1.0, 3.2, std::nan("")}) {
    WorldDef wd = default_world_def();
    wd.max_rotation_per_step = bad;
    EXPECT_THROW(World{wd}, Error) << bad;
  }
}

}  // namespace
}  // namespace pabd
