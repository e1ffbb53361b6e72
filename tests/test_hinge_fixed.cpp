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

namespace pabd {
namespace {

TEST(Slider, BoxSlidesDownAnInclinedRailWithoutTurning) {
  // A 1 kg box on a frictionless rail at 45 degrees, kicked about two axes:
  // the joint must cancel the kick's turn and every sideways motion, and let
  // gravity's along-rail part act in full.
  WorldDef wd = default_world_def();
  World world(wd);
  BodyDef b = default_body_def();
  b.shape = box_shape({0.3, 0.2, 0.2});
  b.mass = 1;
  b.angular_velocity = {3, 0, 2};
  const BodyId box = world.add_body(b);
  const Vec3 axis = (1 / std::sqrt(2.0)) * Vec3{1, -1, 0};
  SliderJointDef s;
  s.body_b = box;
  s.axis = axis;
  world.add_slider_joint(s);
  double off_axis = 0, turn = 0;
  const int steps = 60;
  for (int n = 0; n < steps; ++n) {
    ASSERT_TRUE(world.step().ok);
    const BodyState st = world.body_state(box);
    off_axis = std::fmax(off_axis, length(st.position - dot(st.position, axis) * axis));
    turn = std::fmax(turn, 2 * std::asin(std::fmin(1.0, length({st.orientation.x, st.orientation.y,
                                                                st.orientation.z}))));
  }
  const double h = wd.dt, g_along = 9.81 / std::sqrt(2.0);
  // Symplectic Euler from rest under a constant force: s_n = g h^2 n (n+1) / 2.
  const double expected = g_along * h * h * steps * (steps + 1) / 2;
  const double travelled = dot(world.body_state(box).position, axis);
  std::printf("slider: off-axis %.3g m, turn %.3g deg, travel %.5f m (expected %.5f)\n", off_axis,
              turn * kDeg, travelled, expected);
  EXPECT_LT(off_axis, 1e-3);    // issue 3's bounds: on its axis within 1 mm...
  EXPECT_LT(turn * kDeg, 0.5);  // ...and its orientation within 0.5 degrees
  // The rail takes only the across-rail force: the travel matches the
  // frictionless closed form to 1% (the kick's transient costs a little).
  EXPECT_NEAR(travelled, expected, 0.01 * expected);
}

TEST(Distance, RodPendulumKeepsItsLengthAndSpinsFreely) {
  // A sphere on a 1.5 m massless rod from the world: the distance holds while
  // the sphere keeps spinning about the rod (rotation is free).
  World world;
  BodyDef b = default_body_def();
  b.shape = sphere_shape(0.1);
  b.mass = 1;
  b.position = {1.5, 0, 0};
  b.angular_velocity = {5, 0, 0};
  const BodyId ball = world.add_body(b);
  DistanceJointDef rod;
  rod.body_b = ball;
  rod.anchor_a = {0, 0, 0};
  rod.anchor_b = {1.5, 0, 0};
  world.add_distance_joint(rod);
  double err = 0;
  for (int n = 0; n < 300; ++n) {
    ASSERT_TRUE(world.step().ok);
    err = std::fmax(err, std::fabs(length(world.body_state(ball).position) - 1.5));
  }
  const Vec3 w = world.body_state(ball).angular_velocity;
  std::printf("distance joint: length error %.3g m, spin %.4f rad/s\n", err, length(w));
  EXPECT_LT(err, 1e-3);               // a rigid rod: within 1 mm
  EXPECT_NEAR(length(w), 5.0, 0.05);  // the joint exerts no torque on the ball
}

}  // namespace
}  // namespace pabd
