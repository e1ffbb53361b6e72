// Hinge and fixed joints: sets of hard point bonds that must hold the axis or
// the whole relative pose while the bodies are kicked and swing.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>

#include "pabd/world.h"

namespace pabd {
namespace {

constexpr double kDeg = 180.0 / std::numbers::pi;

double angle_between(Vec3 a, Vec3 b) {
  const double c = dot(a, b) / (length(a) * length(b));
  return std::acos(std::fmin(1.0, std::fmax(-1.0, c)));
}

struct Bar {
  World world;
  BodyId bar;
};

// A 1 m x 0.1 m x 0.1 m, 2 kg bar along X whose left end is hinged to the
// world about `axis`; kicked with angular velocity `spin` (world frame).
Bar hinged_bar(Vec3 axis, Vec3 spin) {
  World world;
  BodyDef b = default_body_def();
  b.shape = box_shape({1.0, 0.1, 0.1});
  b.mass = 2;
  b.position = {0.5, 0, 0};
  b.angular_velocity = spin;
  const BodyId bar = world.add_body(b);
  HingeJointDef h;
  h.body_b = bar;
  h.anchor = {0, 0, 0};
  h.axis = axis;
  world.add_hinge_joint(h);
  return {std::move(world), bar};
}

TEST(Hinge, BarKickedAboutItsLongAxisKeepsAxisAndAnchor) {
  // Hinge axis = the bar's long axis: the bar spins about it as a cantilever
  // held against gravity by the joint alone.
  Bar s = hinged_bar({1, 0, 0}, {8, 0, 0});
  double axis_err = 0, anchor_err = 0, spin_min = 1e9;
  for (int n = 0; n < 300; ++n) {
    ASSERT_TRUE(s.world.step().ok);
    const BodyState st = s.world.body_state(s.bar);
    const Vec3 long_axis = rotate(st.orientation, {1, 0, 0});
    axis_err = std::fmax(axis_err, angle_between(long_axis, {1, 0, 0}));
    anchor_err = std::fmax(anchor_err, length(rotate(st.orientation, {-0.5, 0, 0}) + st.position));
    spin_min = std::fmin(spin_min, st.angular_velocity.x);
  }
  std::printf("hinge about the long axis: axis error %.3g deg, anchor error %.3g m, spin >= %.3g\n",
              axis_err * kDeg, anchor_err, spin_min);
  EXPECT_LT(axis_err * kDeg, 0.5);  // issue 3's bounds: 0.5 degrees, 1 mm
  EXPECT_LT(anchor_err, 1e-3);
  EXPECT_GT(spin_min, 8.0 * 0.9);  // free about the axis: the spin survives (implicit Euler
                                   // and the joint take at most 10% in 5 s)
}

TEST(Hinge, PendulumKickedAcrossItsAxisStaysInItsPlane) {
  // Hinge axis = Z: the bar swings in the XY plane; a kick about its long
  // axis (X) must be absorbed by the joint, not turn the bar out of plane.
  Bar s = hinged_bar({0, 0, 1}, {6, 0, 0});
  double axis_err = 0, anchor_err = 0, max_z = 0;
  for (int n = 0; n < 300; ++n) {
    ASSERT_TRUE(s.world.step().ok);
    const BodyState st = s.world.body_state(s.bar);
    axis_err = std::fmax(axis_err, angle_between(rotate(st.orientation, {0, 0, 1}), {0, 0, 1}));
    anchor_err = std::fmax(anchor_err, length(rotate(st.orientation, {-0.5, 0, 0}) + st.position));
    max_z = std::fmax(max_z, std::fabs(st.position.z));
  }
  std::printf("hinge about Z, kicked about X: axis error %.3g deg, anchor error %.3g m\n",
              axis_err * kDeg, anchor_err);
  EXPECT_LT(axis_err * kDeg, 0.5);
  EXPECT_LT(anchor_err, 1e-3);
  EXPECT_LT(max_z, 1e-3);  // the centre stays in the swing plane
}

TEST(Fixed, WeldedPairHoldsItsRelativePose) {
  // Two boxes welded side by side, hung from the world by a spherical joint at
  // one corner and released: they tumble and swing as one body.
  World world;
  BodyDef b = default_body_def();
  b.shape = box_shape({0.4, 0.4, 0.4});
  b.mass = 1;
  b.position = {0.2, -0.2, 0};
  b.angular_velocity = {1, 2, 0};
  const BodyId a = world.add_body(b);
  b.position = {0.6, -0.2, 0};
  b.mass = 3;
  const BodyId c = world.add_body(b);
  SphericalJointDef pin;
  pin.body_b = a;
  pin.anchor = {0, 0, 0};
  world.add_spherical_joint(pin);
  FixedJointDef weld;
  weld.body_a = a;
  weld.body_b = c;
  weld.anchor = {0.4, -0.2, 0};
  world.add_fixed_joint(weld);
  double pos_err = 0, rot_err = 0;
  for (int n = 0; n < 300; ++n) {
    ASSERT_TRUE(world.step().ok);
    const BodyState sa = world.body_state(a), sc = world.body_state(c);
    // In a's frame, c's centre stays at (0.4, 0, 0) and its orientation at a's.
    const Vec3 rel = transpose(to_matrix(sa.orientation)) * (sc.position - sa.position);
    pos_err = std::fmax(pos_err, length(rel - Vec3{0.4, 0, 0}));
    const Quat dq = conjugate(sa.orientation) * sc.orientation;
    rot_err = std::fmax(rot_err, 2 * std::asin(std::fmin(1.0, length({dq.x, dq.y, dq.z}))));
  }
  std::printf("fixed joint: relative position error %.3g m, rotation error %.3g deg\n", pos_err,
              rot_err * kDeg);
  EXPECT_LT(pos_err, 1e-3);  // issue 3's bounds: 1 mm, 0.5 degrees
  EXPECT_LT(rot_err * kDeg, 0.5);
}

}  // namespace
}  // namespace pabd
