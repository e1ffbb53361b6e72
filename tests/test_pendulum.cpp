// A box on a hard spherical joint to the world: the physical-pendulum period
// at small amplitude, and how far the joint point drifts from its anchor.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "pabd/world.h"

namespace pabd {
namespace {

constexpr double kArm = 1.0;   // pivot to centre of mass [m]
constexpr double kSide = 0.2;  // box edge [m]

struct Pendulum {
  World world;
  BodyId bob;
  Vec3 anchor_local;  // joint point in the body frame
};

Pendulum make_pendulum(double angle, int iterations, double stiffness) {
  WorldDef wd = default_world_def();
  wd.iterations = iterations;
  World world(wd);
  BodyDef b = default_body_def();
  b.shape = box_shape({kSide, kSide, kSide});
  b.mass = 1;
  b.position = {kArm * std::sin(angle), -kArm * std::cos(angle), 0};
  b.orientation = {std::cos(angle / 2), 0, 0, std::sin(angle / 2)};  // turned with the rod
  const BodyId bob = world.add_body(b);
  SphericalJointDef j;
  j.body_b = bob;
  j.anchor = {0, 0, 0};
  j.stiffness = stiffness;
  world.add_spherical_joint(j);
  const Vec3 local = transpose(to_matrix(b.orientation)) * (j.anchor - b.position);
  return {std::move(world), bob, local};
}

double joint_gap(const Pendulum& p) {
  const BodyState s = p.world.body_state(p.bob);
  return length(rotate(s.orientation, p.anchor_local) + s.position);  // anchor is the origin
}

TEST(Pendulum, SmallAmplitudePeriodMatchesPhysicalPendulum) {
  const double theta0 = 0.05, g = 9.81;
  Pendulum p = make_pendulum(theta0, 20, 0);
  const double inertia = (kSide * kSide + kSide * kSide) / 12 + kArm * kArm;  // per kg, about z
  // Physical pendulum with the first finite-amplitude correction (theta0^2/16).
  const double expected =
      2 * std::numbers::pi * std::sqrt(inertia / (g * kArm)) * (1 + theta0 * theta0 / 16);
  const double h = p.world.settings().dt;
  std::vector<double> crossings;
  double prev = p.world.body_state(p.bob).position.x;
  double max_gap = 0;
  for (int n = 1; n <= 480; ++n) {
    ASSERT_TRUE(p.world.step().ok);
    const double x = p.world.body_state(p.bob).position.x;
    if ((prev > 0) != (x > 0)) crossings.push_back(h * (n - 1 + prev / (prev - x)));
    prev = x;
    max_gap = std::fmax(max_gap, joint_gap(p));
  }
  ASSERT_GE(crossings.size(), 6u);
  const double measured = 2 * (crossings.back() - crossings.front()) / (crossings.size() - 1);
  // Implicit Euler lengthens the period by ~(w h)^2 / 3 = 0.1% here; the 1%
  // bound leaves room for that and still catches a wrong inertia (the
  // point-mass formula differs by 0.7%, a wrong pivot by far more).
  EXPECT_NEAR(measured, expected, 0.01 * expected);
  EXPECT_LT(max_gap, 1e-3);  // the bound: joint drift under 1 mm
}

TEST(Pendulum, LargeSwingKeepsJointWithinOneMillimetre) {
  Pendulum p = make_pendulum(1.2, 20, 0);
  double max_gap = 0;
  for (int n = 0; n < 300; ++n) {
    ASSERT_TRUE(p.world.step().ok);
    max_gap = std::fmax(max_gap, joint_gap(p));
  }
  EXPECT_LT(max_gap, 1e-3);
}

TEST(Pendulum, HangingAtRestStaysPut) {
  Pendulum p = make_pendulum(0, 20, 0);
  for (int n = 0; n < 300; ++n) ASSERT_TRUE(p.world.step().ok);
  const BodyState s = p.world.body_state(p.bob);
  // The augmented Lagrangian carries the weight in lambda: no sag beyond 1 mm.
  EXPECT_NEAR(s.position.y, -kArm, 1e-3);
  EXPECT_LT(length(s.velocity), 1e-3);
}

TEST(Pendulum, SoftJointSagsByWeightOverStiffness) {
  // A soft joint is a zero-length spring: static sag m g / k (1 cm here).
  const double k = 981;
  Pendulum p = make_pendulum(0, 50, k);
  for (int n = 0; n < 600; ++n) ASSERT_TRUE(p.world.step().ok);
  // Implicit Euler damps the bounce; after 10 s it rests within 0.1 mm of m g / k.
  EXPECT_NEAR(joint_gap(p), 9.81 / k, 1e-4);
}

}  // namespace
}  // namespace pabd
