// Hinge and slider limits and drives (docs/joints/limits.md, drives.md):
// limits hold under load and leave the free range untouched; velocity drives
// reach their speed and saturate at their bound; position drives settle where
// the spring balances the load and track a periodic target; the scene keys
// and the C++ API accept good input and reject bad input with one line.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <variant>
#include <vector>

#include "pabd/scene.h"
#include "pabd/world.h"

namespace pabd {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kDeg = kPi / 180;
constexpr double kG = 9.81;

struct Rig {
  World world;
  BodyId body;
  JointId joint;
};

// A 1 m x 0.1 m x 0.1 m, 2 kg bar along +X whose left end (the origin) is
// hinged to the world about `axis` (a soft hinge for a stiffness > 0).
Rig hinged_bar(Vec3 axis, const JointLimits& limits, const JointDrive& drive,
               Vec3 gravity = {0, -kG, 0}, Real stiffness = 0) {
  WorldDef wd = default_world_def();
  wd.gravity = gravity;
  World world(wd);
  BodyDef b = default_body_def();
  b.shape = box_shape({1.0, 0.1, 0.1});
  b.mass = 2;
  b.position = {0.5, 0, 0};
  const BodyId bar = world.add_body(b);
  HingeJointDef h;
  h.body_b = bar;
  h.axis = axis;
  h.limits = limits;
  h.drive = drive;
  h.stiffness = stiffness;
  const JointId j = world.add_hinge_joint(h);
  return {std::move(world), bar, j};
}

// A 0.3 m cube of `mass` kg on a vertical (+Y) slider to the world at the origin.
Rig block_on_slider(Real mass, const JointLimits& limits, const JointDrive& drive,
                    Vec3 velocity = {0, 0, 0}, int iterations = 20) {
  WorldDef wd = default_world_def();
  wd.iterations = iterations;
  World world(wd);
  BodyDef b = default_body_def();
  b.shape = box_shape({0.3, 0.3, 0.3});
  b.mass = mass;
  b.velocity = velocity;
  const BodyId block = world.add_body(b);
  SliderJointDef s;
  s.body_b = block;
  s.axis = {0, 1, 0};
  s.limits = limits;
  s.drive = drive;
  const JointId j = world.add_slider_joint(s);
  return {std::move(world), block, j};
}

JointLimits limits(Real lower, Real upper) { return JointLimits{true, lower, upper}; }

JointDrive velocity_drive(Real speed, Real max_force) {
  JointDrive d;
  d.mode = DriveMode::Velocity;
  d.target = speed;
  d.max_force = max_force;
  return d;
}

// Angle of the bar's long axis about +Z from +X [rad].
double angle_about_z(const BodyState& s) {
  const Vec3 x = rotate(s.orientation, {1, 0, 0});
  return std::atan2(x.y, x.x);
}

// Least-squares slope of y over x.
double slope(const std::vector<double>& x, const std::vector<double>& y) {
  const double n = static_cast<double>(x.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sx += x[i];
    sy += y[i];
    sxx += x[i] * x[i];
    sxy += x[i] * y[i];
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

// Limits ---------------------------------------------------------------------

TEST(HingeLimit, BarFallingOntoEitherLimitStopsThere) {
  // A horizontal bar hinged at one end falls under gravity onto its limit at
  // 30 degrees below the horizontal: about +Z that is the lower limit, about
  // -Z (angles counted the other way) the upper one. Hard, and on a soft
  // hinge (1e5 N/m per bond: limit bonds of the same stiffness, which hold
  // 8.5 N m with a sag of about 1e-4 rad).
  for (const double stiffness : {0.0, 1e5})
    for (const double sign : {1.0, -1.0}) {
      SCOPED_TRACE(sign > 0 ? "lower limit" : "upper limit");
      SCOPED_TRACE(stiffness);
      Rig r = hinged_bar({0, 0, sign}, limits(-30 * kDeg, 30 * kDeg), {}, {0, -kG, 0}, stiffness);
      const double limit = -30 * kDeg;  // where the limit stops the bar, as an angle about +Z
      double overshoot = 0, readback_err = 0;
      for (int n = 0; n < 240; ++n) {
        ASSERT_TRUE(r.world.step().ok);
        const double angle = angle_about_z(r.world.body_state(r.body));
        overshoot = std::fmax(overshoot, limit - angle);
        readback_err = std::fmax(readback_err,
                                 std::fabs(r.world.joint_info(r.joint).coordinate - sign * angle));
      }
      const JointInfo info = r.world.joint_info(r.joint);
      const double rest = sign * info.coordinate;  // about +Z
      // At rest on the limit it carries gravity's torque m g L/2 cos 30 degrees.
      const double torque = 2 * kG * 0.5 * std::cos(30 * kDeg);
      std::printf(
          "hinge %s %s limit: overshoot %.3g deg, rest %.6g deg (limit -30 about +Z), "
          "limit torque %.5g N m (gravity %.5g), read-back error %.2g rad\n",
          stiffness > 0 ? "soft" : "hard", sign > 0 ? "lower" : "upper", overshoot / kDeg,
          rest / kDeg, sign * info.limit_force, torque, readback_err);
      EXPECT_LT(overshoot / kDeg, 1.0);  // the issue's bound: 1 degree
      EXPECT_LT(std::fabs(rest - limit) / kDeg, 1.0);
      // The multiplier is the constraint force at the fixed point; 1% allows for the
      // iteration's remaining error and the joint's own compliance.
      EXPECT_NEAR(sign * info.limit_force, torque, 0.01 * torque);
      // The read-back angle is the bar's geometric angle, to the hinge's own error.
      EXPECT_LT(readback_err, 1e-6);
    }
}

TEST(HingeLimit, PendulumSwingsThroughTheFreeRangeAsWithoutLimits) {
  // Released horizontal, the pendulum swings down through the bottom (-90
  // degrees) toward -180; a lower limit at -150 degrees must not act before
  // the free pendulum reaches it, and must stop it there.
  Rig limited = hinged_bar({0, 0, 1}, limits(-150 * kDeg, 150 * kDeg), {});
  Rig free = hinged_bar({0, 0, 1}, {}, {});
  double free_range_diff = 0, overshoot = 0, lowest_free = 0;
  bool reached = false;
  for (int n = 0; n < 120; ++n) {
    ASSERT_TRUE(limited.world.step().ok);
    ASSERT_TRUE(free.world.step().ok);
    const double a_limited = limited.world.joint_info(limited.joint).coordinate;
    const double a_free = free.world.joint_info(free.joint).coordinate;
    reached = reached || a_free < -150 * kDeg;
    if (!reached) {
      free_range_diff = std::fmax(free_range_diff, std::fabs(a_limited - a_free));
      lowest_free = std::fmin(lowest_free, a_free);
    }
    overshoot = std::fmax(overshoot, -150 * kDeg - a_limited);
  }
  std::printf(
      "free range: |limited - free| <= %.3g rad down to %.4g deg; overshoot at -150: "
      "%.3g deg\n",
      free_range_diff, lowest_free / kDeg, overshoot / kDeg);
  ASSERT_TRUE(reached);                 // the free pendulum does pass -150 degrees
  EXPECT_LT(lowest_free, -140 * kDeg);  // the compared stretch covers the bottom of the swing
  // An inactive limit has no weight and no pull: it adds zeros to the same sums
  // (measured 0; 1e-12 leaves room for round-off only).
  EXPECT_LT(free_range_diff, 1e-12);
  EXPECT_LT(overshoot / kDeg, 1.0);
}

TEST(SliderLimit, BlockBouncesBetweenLimitsAndRestsOnTheLower) {
  // A 1 kg block on a vertical slider, thrown up at 5 m/s: it meets the upper
  // limit (+0.5 m), falls freely to the lower one (-0.5 m) and rests there.
  // The limit's force at rest is checked at 40 iterations: at 20 the slider's
  // line bonds still hold part of the weight along the rail (they pull toward
  // the previous iterate in every direction; see SliderLiftsItsLoadOrSaturates).
  for (const int iterations : {20, 40}) {
    SCOPED_TRACE(iterations);
    Rig limited = block_on_slider(1, limits(-0.5, 0.5), {}, {0, 5, 0}, iterations);
    Rig free = block_on_slider(1, {}, {}, {0, 5, 0}, iterations);
    double above = 0, below = 0, free_diff = 0;
    bool touched = false;
    for (int n = 0; n < 180; ++n) {
      ASSERT_TRUE(limited.world.step().ok);
      ASSERT_TRUE(free.world.step().ok);
      const double s = limited.world.joint_info(limited.joint).coordinate;
      const double s_free = free.world.joint_info(free.joint).coordinate;
      touched = touched || s_free > 0.5;
      if (!touched) free_diff = std::fmax(free_diff, std::fabs(s - s_free));
      above = std::fmax(above, s - 0.5);
      below = std::fmax(below, -0.5 - s);
    }
    const JointInfo info = limited.world.joint_info(limited.joint);
    std::printf(
        "slider limits, %d iterations: above upper %.3g mm, below lower %.3g mm, rest "
        "%.6g m, limit force %.5g N (m g = %.4g), free-range diff %.2g m\n",
        iterations, above * 1e3, below * 1e3, info.coordinate, info.limit_force, kG, free_diff);
    EXPECT_LT(above, 1e-3);  // the issue's bound: 1 mm
    EXPECT_LT(below, 1e-3);
    EXPECT_NEAR(info.coordinate, -0.5, 1e-3);
    EXPECT_LT(free_diff, 1e-12);  // inactive limits add exact zeros
    // Carries the weight: 1% at 40 iterations, the iteration's remaining error.
    if (iterations == 40) {
      EXPECT_NEAR(info.limit_force, kG, 0.01 * kG);
    }
  }
}

TEST(HingeLimit, RangeBeyondHalfATurnStopsAMotor) {
  // Limits of +-200 degrees lie past +-180: the angle must be counted across
  // the turn. A 5 N m motor added later (set_joint_drive) turns the bar about
  // a vertical axis (no gravity torque) until the upper limit stops it, then
  // pushes on it with its full torque.
  Rig r = hinged_bar({0, 1, 0}, limits(-200 * kDeg, 200 * kDeg), {});
  ASSERT_TRUE(r.world.step().ok);
  r.world.set_joint_drive(r.joint, velocity_drive(3, 5));
  double highest = 0;
  for (int n = 0; n < 180; ++n) {
    ASSERT_TRUE(r.world.step().ok);
    highest = std::fmax(highest, r.world.joint_info(r.joint).coordinate);
  }
  const JointInfo info = r.world.joint_info(r.joint);
  std::printf(
      "limit at 200 deg against a 5 N m motor: highest %.5g deg, rest %.5g deg, "
      "limit torque %.5g N m, motor torque %.5g N m\n",
      highest / kDeg, info.coordinate / kDeg, info.limit_force, info.drive_force);
  EXPECT_LT(highest / kDeg, 201.0);  // the issue's 1 degree
  EXPECT_NEAR(info.coordinate / kDeg, 200.0, 1.0);
  // At rest the two balance; the motor is saturated at its bound (an exact explicit
  // force), the limit's torque carries the iteration's error (1%).
  EXPECT_NEAR(info.drive_force, 5.0, 1e-9);
  EXPECT_NEAR(info.limit_force, -5.0, 0.05);
}

// Velocity drives -------------------------------------------------------------

TEST(VelocityDrive, HingeHoldsItsSpeedAgainstGravity) {
  // The bar hinged at one end about a horizontal axis is an unbalanced load:
  // gravity's torque swings between +-9.81 N m as it turns. A motor of 1000 N m
  // keeps 2 rad/s all the way round.
  Rig r = hinged_bar({0, 0, 1}, {}, velocity_drive(2, 1000));
  const double h = r.world.settings().dt;
  double prev = 0, worst = 0, turned = 0, torque_err = 0;
  for (int n = 0; n < 300; ++n) {
    ASSERT_TRUE(r.world.step().ok);
    const JointInfo info = r.world.joint_info(r.joint);
    if (n >= 60) {  // after one second
      worst = std::fmax(worst, std::fabs((info.coordinate - prev) / h - 2) / 2);
      // At a steady speed the motor carries gravity's torque m g L/2 cos(theta).
      torque_err =
          std::fmax(torque_err, std::fabs(info.drive_force - kG * std::cos(info.coordinate)));
    }
    prev = info.coordinate;
    turned = info.coordinate;
  }
  std::printf(
      "hinge velocity drive: worst per-step speed error %.3g%%, turned %.4g rad in 5 s, "
      "motor torque - gravity torque <= %.3g N m (gravity's largest %.4g)\n",
      100 * worst, turned, torque_err, kG);
  EXPECT_LT(worst, 0.02);           // the issue's bound: 2%
  EXPECT_GT(turned, 2 * 5 * 0.98);  // whole turns counted: the angle is unwrapped
  // The read-back is the torque of the last solve; the 2% bound on the speed leaves it
  // within 2% of the largest gravity torque.
  EXPECT_LT(torque_err, 0.02 * kG);
}

TEST(VelocityDrive, HingeSaturatesAtItsMaxTorque) {
  // About a vertical axis through the centre of the bar gravity has no
  // torque; a motor asking for 100 rad/s with at most 0.5 N m can only spin
  // the bar up at alpha = tau / I, I = m (1^2 + 0.1^2) / 12.
  World world;
  BodyDef b = default_body_def();
  b.shape = box_shape({1.0, 0.1, 0.1});
  b.mass = 2;
  const BodyId bar = world.add_body(b);
  HingeJointDef hd;
  hd.body_b = bar;
  hd.axis = {0, 1, 0};
  hd.drive = velocity_drive(100, 0.5);
  const JointId j = world.add_hinge_joint(hd);
  const double inertia = 2 * (1.0 + 0.01) / 12;
  std::vector<double> t, w;
  double readback = 0;
  for (int n = 1; n <= 60; ++n) {
    ASSERT_TRUE(world.step().ok);
    t.push_back(world.time());
    w.push_back(world.body_state(bar).angular_velocity.y);
    readback = world.joint_info(j).drive_force;
  }
  const double torque = inertia * slope(t, w);
  std::printf(
      "hinge velocity drive saturated: torque from the motion %.6g N m, read-back %.6g "
      "(bound 0.5)\n",
      torque, readback);
  // Past its bound the drive is an explicit force of exactly the bound; 1% allows for the
  // iteration's remaining error.
  EXPECT_NEAR(torque, 0.5, 0.005);
  EXPECT_NEAR(readback, 0.5, 1e-12);  // the multiplier sits on its bound
}

TEST(VelocityDrive, SliderLiftsItsLoadOrSaturates) {
  // A 2 kg block on a vertical slider, driven up at 0.5 m/s: with 100 N it
  // lifts its weight (19.6 N) at the target speed; with 10 N it cannot, and
  // falls with a = F/m - g. Along its rail a slider converges slowly: its
  // three hard line bonds pull the block toward the previous iterate in every
  // direction, the free one included (weight about 3 m against the mass m), so
  // a force along the rail is taken up by about 0.8 per iteration. 20
  // iterations leave 1 to 3% of it (the line bonds take the rest), 40 about 0.01%.
  for (const int iterations : {20, 40}) {
    SCOPED_TRACE(iterations);
    const double tolerance = iterations == 20 ? 0.03 : 0.001;
    Rig lift = block_on_slider(2, {}, velocity_drive(0.5, 100), {0, 0, 0}, iterations);
    double worst = 0, force = 0;
    for (int n = 0; n < 120; ++n) {
      ASSERT_TRUE(lift.world.step().ok);
      const double v = lift.world.body_state(lift.body).velocity.y;
      if (n >= 30) worst = std::fmax(worst, std::fabs(v - 0.5) / 0.5);
      force = lift.world.joint_info(lift.joint).drive_force;
    }
    Rig weak = block_on_slider(2, {}, velocity_drive(0.5, 10), {0, 0, 0}, iterations);
    std::vector<double> t, v;
    for (int n = 0; n < 60; ++n) {
      ASSERT_TRUE(weak.world.step().ok);
      t.push_back(weak.world.time());
      v.push_back(weak.world.body_state(weak.body).velocity.y);
    }
    const double saturated = 2 * (slope(t, v) + kG);
    std::printf(
        "slider velocity drive, %d iterations: worst speed error %.3g%%, force %.6g N "
        "(m g %.4g); saturated: force from the motion %.6g N (bound 10)\n",
        iterations, 100 * worst, force, 2 * kG, saturated);
    EXPECT_LT(worst, 0.02);                          // the issue's bound: 2%
    EXPECT_NEAR(force, 2 * kG, tolerance * 2 * kG);  // it carries the weight
    EXPECT_NEAR(saturated, 10, tolerance * 10);
  }
}

// Position drives -------------------------------------------------------------

TEST(PositionDrive, SteadyAngleIsTargetMinusGravityTorqueOverK) {
  // Target 0.3 rad above the horizontal, k = 100 N m/rad, d = 10 N m s/rad:
  // at rest the spring carries gravity, k (0.3 - theta) = m g L/2 cos(theta).
  JointDrive d;
  d.mode = DriveMode::Position;
  d.target = 0.3;
  d.stiffness = 100;
  d.damping = 10;
  Rig r = hinged_bar({0, 0, 1}, {}, d);
  for (int n = 0; n < 480; ++n) ASSERT_TRUE(r.world.step().ok);
  // Independent reference: Newton's method on the static balance.
  const double m_g_half = 2 * kG * 0.5;
  double theta = 0.3;
  for (int k = 0; k < 50; ++k) {
    const double f = 100 * (0.3 - theta) - m_g_half * std::cos(theta);
    const double df = -100 + m_g_half * std::sin(theta);
    theta -= f / df;
  }
  const JointInfo info = r.world.joint_info(r.joint);
  const double torque = m_g_half * std::cos(theta);
  std::printf(
      "position drive: steady angle %.8g rad, balance %.8g (error %.2g), "
      "target - torque/k at theta %.8g; drive torque %.6g N m (gravity %.6g)\n",
      info.coordinate, theta, info.coordinate - theta, 0.3 - torque / 100, info.drive_force,
      torque);
  // After 8 s (about 15 time constants of the damped spring) the remaining motion is
  // below 1e-6 rad; the implicit step at rest is the static balance itself.
  EXPECT_NEAR(info.coordinate, theta, 1e-5);
  EXPECT_NEAR(info.drive_force, torque, 1e-3 * torque);
}

TEST(PositionDrive, PeriodicTargetTrackedAtOneHertz) {
  // A leg-like bar on a horizontal hinge under gravity, driven by
  // theta*(t) = 0.2 + 0.5 sin(2 pi t) with k = 2000 N m/rad, d = 20 N m s/rad.
  JointDrive d;
  d.mode = DriveMode::Position;
  d.target = 0.2;
  d.amplitude = 0.5;
  d.frequency = 1;
  d.stiffness = 2000;
  d.damping = 20;
  Rig r = hinged_bar({0, 0, 1}, {}, d);
  // Fit theta = c + a sin(w t) + b cos(w t) over 3 s after 2 s of transients
  // (normal equations of the three-term least-squares fit).
  const double w = 2 * kPi;
  double m[3][3] = {}, v[3] = {};
  for (int n = 1; n <= 300; ++n) {
    ASSERT_TRUE(r.world.step().ok);
    if (n <= 120) continue;
    const double t = r.world.time(), y = r.world.joint_info(r.joint).coordinate;
    const double f[3] = {1, std::sin(w * t), std::cos(w * t)};
    for (int i = 0; i < 3; ++i) {
      v[i] += f[i] * y;
      for (int k = 0; k < 3; ++k) m[i][k] += f[i] * f[k];
    }
  }
  // Gaussian elimination on the 3x3 system.
  for (int i = 0; i < 3; ++i)
    for (int k = i + 1; k < 3; ++k) {
      const double q = m[k][i] / m[i][i];
      for (int c = i; c < 3; ++c) m[k][c] -= q * m[i][c];
      v[k] -= q * v[i];
    }
  double x[3];
  for (int i = 2; i >= 0; --i) {
    x[i] = v[i];
    for (int c = i + 1; c < 3; ++c) x[i] -= m[i][c] * x[c];
    x[i] /= m[i][i];
  }
  const double amplitude = std::hypot(x[1], x[2]);
  const double lag = std::atan2(-x[2], x[1]);
  std::printf(
      "periodic position drive at 1 Hz: amplitude %.5g (target 0.5, error %.3g%%), "
      "offset %.5g (0.2 minus gravity's sag), lag %.3g deg\n",
      amplitude, 100 * (amplitude / 0.5 - 1), x[0], lag / kDeg);
  EXPECT_LT(std::fabs(amplitude / 0.5 - 1), 0.05);  // the issue's bound: 5%
}

// API -------------------------------------------------------------------------

TEST(DriveApi, SetJointDriveActsWithinOneStep) {
  // Without gravity a hinged bar at rest: one step after a 3 rad/s motor is
  // set it turns at 3 rad/s; switched to a position drive on the current
  // angle it stops; switched off it keeps its speed.
  Rig r = hinged_bar({0, 0, 1}, {}, {}, {0, 0, 0});
  const double h = r.world.settings().dt;
  ASSERT_TRUE(r.world.step().ok);
  EXPECT_EQ(r.world.joint_info(r.joint).coordinate, 0.0);  // nothing moves it
  r.world.set_joint_drive(r.joint, velocity_drive(3, 1e6));
  ASSERT_TRUE(r.world.step().ok);
  const double w1 = r.world.body_state(r.body).angular_velocity.z;
  const double a1 = r.world.joint_info(r.joint).coordinate;
  JointDrive hold;
  hold.mode = DriveMode::Position;
  hold.target = a1;
  hold.stiffness = 1e4;
  hold.damping = 1e3;
  r.world.set_joint_drive(r.joint, hold);
  for (int n = 0; n < 30; ++n) ASSERT_TRUE(r.world.step().ok);
  const double w2 = r.world.body_state(r.body).angular_velocity.z;
  const double a2 = r.world.joint_info(r.joint).coordinate;
  r.world.set_joint_drive(r.joint, velocity_drive(-1, 1e6));
  ASSERT_TRUE(r.world.step().ok);
  r.world.set_joint_drive(r.joint, JointDrive{});
  ASSERT_TRUE(r.world.step().ok);
  const double w3 = r.world.body_state(r.body).angular_velocity.z;
  std::printf(
      "set_joint_drive: after 1 step %.6g rad/s (3), angle %.6g (3 h = %.6g); held at "
      "%.6g rad/s, angle drift %.3g rad; off after -1 rad/s: %.6g rad/s\n",
      w1, a1, 3 * h, w2, a2 - a1, w3);
  // A hard motor with an unbounded force fixes the step's turn; 1% allows for its
  // multiplier starting cold in this step (the AL converges over the iterations).
  EXPECT_NEAR(w1, 3, 0.03);
  EXPECT_NEAR(a1, 3 * h, 0.01 * 3 * h);
  EXPECT_LT(std::fabs(w2), 0.05);  // the stiff, damped spring stops it within half a second
  EXPECT_LT(std::fabs(a2 - a1), 0.05);
  EXPECT_NEAR(w3, -1, 1e-2);  // off: no torque, the bar keeps the speed it had
  // Removed with a drive set: the bar turns on freely (no joint holds it: it flies off).
  r.world.set_joint_drive(r.joint, velocity_drive(5, 1e6));
  r.world.remove_joint(r.joint);
  ASSERT_TRUE(r.world.step().ok);
  EXPECT_NEAR(r.world.body_state(r.body).angular_velocity.z, w3, 1e-12);
}

TEST(DriveApi, InvalidCallsThrow) {
  Rig r = hinged_bar({0, 0, 1}, {}, {});
  const auto throws = [&](const JointDrive& d) {
    try {
      r.world.set_joint_drive(r.joint, d);
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
      return true;
    }
    return false;
  };
  JointDrive d = velocity_drive(1, -5);
  EXPECT_TRUE(throws(d));  // negative max_force
  d = velocity_drive(std::nan(""), 5);
  EXPECT_TRUE(throws(d));  // NaN target
  d = JointDrive{};
  d.mode = DriveMode::Position;
  d.stiffness = 0;
  EXPECT_TRUE(throws(d));  // a position drive needs a stiffness
  d.stiffness = 10;
  d.damping = -1;
  EXPECT_TRUE(throws(d));
  d.damping = 0;
  d.frequency = -1;
  EXPECT_TRUE(throws(d));
  d.frequency = 1;
  EXPECT_FALSE(throws(d));  // valid
  d.mode = static_cast<DriveMode>(7);
  EXPECT_TRUE(throws(d));

  // A spherical joint has no axis to drive.
  SphericalJointDef s;
  s.body_b = r.body;
  s.anchor = {1, 0, 0};
  const JointId ball = r.world.add_spherical_joint(s);
  EXPECT_THROW(r.world.set_joint_drive(ball, velocity_drive(1, 1)), Error);
  // A removed joint.
  r.world.remove_joint(r.joint);
  EXPECT_THROW(r.world.set_joint_drive(r.joint, velocity_drive(1, 1)), Error);
  // Limits the wrong way round, at creation.
  HingeJointDef h;
  h.body_b = r.body;
  h.limits = limits(1, -1);
  EXPECT_THROW(r.world.add_hinge_joint(h), Error);
  SliderJointDef sl;
  sl.body_b = r.body;
  sl.limits = limits(0, std::nan(""));
  EXPECT_THROW(r.world.add_slider_joint(sl), Error);
}

// Scenes ----------------------------------------------------------------------

constexpr const char* kFile = "test.json";

std::string error_of(const std::string& text) {
  try {
    parse_scene(text, kFile);
  } catch (const SceneError& e) {
    return e.what();
  }
  return "";
}

const std::string kBodies =
    R"("bodies": [{"name": "a", "shape": {"type": "box", "size": [1, 1, 1]}},
                  {"name": "b", "shape": {"type": "box", "size": [1, 1, 1]}}])";
std::string scene_with(const std::string& joints) {
  return "{" + kBodies + R"(, "joints": [)" + joints + "]}";
}
std::string hinge_with(const std::string& extra) {
  return scene_with(R"({"type": "hinge", "body_a": "world", "body_b": "a", "anchor": [0, 0, 0],
                        "axis": [0, 0, 1], )" +
                    extra + "}");
}

TEST(LimitsDrivesScene, EveryFormParsesAndBuilds) {
  const Scene s = parse_scene(scene_with(R"(
    {"type": "hinge", "body_a": "world", "body_b": "a", "anchor": [0, 0, 0], "axis": [0, 0, 1],
     "limits": [-0.5, 1.5], "drive": {"mode": "velocity", "target": 2, "max_force": 30}},
    {"type": "hinge", "body_a": "a", "body_b": "b", "anchor": [0, 1, 0], "axis": [1, 0, 0],
     "limits_deg": [-90, 45],
     "drive": {"mode": "position", "target": 0.25, "stiffness": 100, "damping": 5}},
    {"type": "slider", "body_a": "world", "body_b": "b", "anchor": [0, 0, 0], "axis": [0, 1, 0],
     "limits": [-1, 2],
     "drive": {"mode": "position", "offset": 0.1, "amplitude": 0.2, "frequency": 1.5,
               "phase": 0.3, "stiffness": 500, "max_force": 50}},
    {"type": "slider", "body_a": "world", "body_b": "a", "anchor": [0, 0, 0], "axis": [1, 0, 0],
     "drive": {"mode": "velocity", "target": -0.5}}
  )"),
                              kFile);
  ASSERT_EQ(s.joints.size(), 4u);
  // Values are copied from decimal text: exact equality, except the degree conversion.
  const auto& h0 = std::get<HingeJointDef>(s.joints[0].def);
  EXPECT_TRUE(h0.limits.enabled);
  EXPECT_EQ(h0.limits.lower, -0.5);
  EXPECT_EQ(h0.limits.upper, 1.5);
  EXPECT_EQ(h0.drive.mode, DriveMode::Velocity);
  EXPECT_EQ(h0.drive.target, 2.0);
  EXPECT_EQ(h0.drive.max_force, 30.0);
  const auto& h1 = std::get<HingeJointDef>(s.joints[1].def);
  EXPECT_NEAR(h1.limits.lower, -kPi / 2, 1e-15);  // one rounding in the product
  EXPECT_NEAR(h1.limits.upper, kPi / 4, 1e-15);
  EXPECT_EQ(h1.drive.mode, DriveMode::Position);
  EXPECT_EQ(h1.drive.target, 0.25);
  EXPECT_EQ(h1.drive.stiffness, 100.0);
  EXPECT_EQ(h1.drive.damping, 5.0);
  EXPECT_TRUE(std::isinf(h1.drive.max_force));  // absent: unbounded
  const auto& s2 = std::get<SliderJointDef>(s.joints[2].def);
  EXPECT_EQ(s2.limits.upper, 2.0);
  EXPECT_EQ(s2.drive.target, 0.1);  // the offset
  EXPECT_EQ(s2.drive.amplitude, 0.2);
  EXPECT_EQ(s2.drive.frequency, 1.5);
  EXPECT_EQ(s2.drive.phase, 0.3);
  EXPECT_EQ(s2.drive.max_force, 50.0);
  const auto& s3 = std::get<SliderJointDef>(s.joints[3].def);
  EXPECT_EQ(s3.drive.mode, DriveMode::Velocity);
  EXPECT_FALSE(s3.limits.enabled);

  World world = build_world(s, s.settings);
  ASSERT_EQ(world.joint_count(), 4);
  for (int n = 0; n < 10; ++n) ASSERT_TRUE(world.step().ok);
  for (int j = 0; j < 4; ++j)
    EXPECT_TRUE(std::isfinite(world.joint_info(world.joint_at(j)).coordinate));
}

TEST(LimitsDrivesScene, BadKeysGiveOneLineErrorsAtTheirPointer) {
  struct Bad {
    const char* what;
    std::string text;
    std::string path;
  };
  const std::vector<Bad> cases = {
      {"unknown mode", hinge_with(R"("drive": {"mode": "spin", "target": 1})"),
       "/joints/0/drive/mode"},
      {"negative max_force",
       hinge_with(R"("drive": {"mode": "velocity", "target": 1, "max_force": -3})"),
       "/joints/0/drive/max_force"},
      {"lower above upper", hinge_with(R"("limits": [0.5, -0.5])"), "/joints/0/limits"},
      {"lower above upper in degrees", hinge_with(R"("limits_deg": [10, -10])"),
       "/joints/0/limits_deg"},
      {"limits on a spherical joint",
       scene_with(R"({"type": "spherical", "body_a": "world", "body_b": "a", "anchor": [0,0,0],
                      "limits": [0, 1]})"),
       "/joints/0/limits"},
      {"drive on a fixed joint",
       scene_with(R"({"type": "fixed", "body_a": "world", "body_b": "a", "anchor": [0,0,0],
                      "drive": {"mode": "velocity", "target": 1}})"),
       "/joints/0/drive"},
      {"limits_deg on a slider",
       scene_with(R"({"type": "slider", "body_a": "world", "body_b": "a", "anchor": [0,0,0],
                      "axis": [1, 0, 0], "limits_deg": [0, 1]})"),
       "/joints/0/limits_deg"},
      {"limits and limits_deg", hinge_with(R"("limits": [0, 1], "limits_deg": [0, 1])"),
       "/joints/0/limits_deg"},
      {"limits of 3", hinge_with(R"("limits": [0, 1, 2])"), "/joints/0/limits"},
      {"string in limits", hinge_with(R"("limits": [0, "1"])"), "/joints/0/limits/1"},
      {"drive not an object", hinge_with(R"("drive": "velocity")"), "/joints/0/drive"},
      {"missing mode", hinge_with(R"("drive": {"target": 1})"), "/joints/0/drive/mode"},
      {"velocity drive with a stiffness",
       hinge_with(R"("drive": {"mode": "velocity", "target": 1, "stiffness": 3})"),
       "/joints/0/drive/stiffness"},
      {"velocity drive without target", hinge_with(R"("drive": {"mode": "velocity"})"),
       "/joints/0/drive/target"},
      {"position drive without stiffness",
       hinge_with(R"("drive": {"mode": "position", "target": 1})"), "/joints/0/drive/stiffness"},
      {"zero stiffness",
       hinge_with(R"("drive": {"mode": "position", "target": 1, "stiffness": 0})"),
       "/joints/0/drive/stiffness"},
      {"negative damping",
       hinge_with(R"("drive": {"mode": "position", "target": 1, "stiffness": 1, "damping": -1})"),
       "/joints/0/drive/damping"},
      {"target and amplitude",
       hinge_with(R"("drive": {"mode": "position", "target": 1, "amplitude": 1, "frequency": 1,
                               "stiffness": 1})"),
       "/joints/0/drive/target"},
      {"periodic without frequency",
       hinge_with(R"("drive": {"mode": "position", "amplitude": 1, "stiffness": 1})"),
       "/joints/0/drive/frequency"},
      {"negative frequency",
       hinge_with(R"("drive": {"mode": "position", "amplitude": 1, "frequency": -1,
                               "stiffness": 1})"),
       "/joints/0/drive/frequency"},
  };
  for (const Bad& c : cases) {
    SCOPED_TRACE(c.what);
    const std::string message = error_of(c.text);
    std::printf("%s -> %s\n", c.what, message.c_str());
    EXPECT_EQ(message.rfind(std::string(kFile) + ": " + c.path + ": ", 0), 0u) << message;
    EXPECT_NE(message.find("expected"), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST(WindmillScene, TurnsAtItsDriveSpeedWithBladesAttached) {
  const Scene s = load_scene(std::string(PABD_SOURCE_DIR) + "/scenes/windmill.json");
  World world = build_world(s, s.settings);
  // The driven hinge is the scene's only velocity drive.
  double target = 0;
  int driven = -1;
  for (std::size_t j = 0; j < s.joints.size(); ++j)
    if (const auto* hinge = std::get_if<HingeJointDef>(&s.joints[j].def);
        hinge && hinge->drive.mode == DriveMode::Velocity) {
      target = hinge->drive.target;
      driven = static_cast<int>(j);
    }
  ASSERT_GE(driven, 0);
  const JointId hub_joint = world.joint_at(driven);
  const BodyId hub = world.joint_info(hub_joint).body_b;
  const double h = world.settings().dt;
  double prev = 0, worst = 0, weld_gap = 0;
  for (int n = 0; n < 300; ++n) {
    const StepResult res = world.step();
    ASSERT_TRUE(res.ok) << "step " << res.step << " body " << res.bad_body;
    const double angle = world.joint_info(hub_joint).coordinate;
    if (n >= 60) worst = std::fmax(worst, std::fabs((angle - prev) / h - target) / target);
    prev = angle;
    for (int j = 0; j < world.joint_count(); ++j) {
      const JointInfo info = world.joint_info(world.joint_at(j));
      if (info.kind == JointKind::Fixed)
        weld_gap = std::fmax(weld_gap, length(info.world_a - info.world_b));
    }
  }
  const Vec3 w = world.body_state(hub).angular_velocity;
  std::printf(
      "windmill: hub speed error <= %.3g%% after 1 s, |w| %.5g rad/s (target %.4g), "
      "largest weld gap %.3g mm\n",
      100 * worst, length(w), target, 1e3 * weld_gap);
  EXPECT_LT(worst, 0.02);     // the drive's 2% bound, as for a single bar
  EXPECT_LT(weld_gap, 1e-3);  // blades stay on the hub to 1 mm (the joints' bound)
}

}  // namespace
}  // namespace pabd
