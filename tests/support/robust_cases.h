// The scenes the defaults must hold (issue "robust by default"), built through
// the public API and measured the same way by tests/test_robust_defaults.cpp
// and bench/robustness_table.cpp (the mass-ratio table of docs/method.md):
// - stacks of 1 m boxes on the ground, each `ratio` times the mass of the one
//   below, 10 s: the largest horizontal drift, sink and tilt of any box;
// - the paper's Fig. 8 chain (19 links of 0.5 m on ball joints from a fixed
//   anchor, the last `ratio` times heavier), hanging, swinging from 45
//   degrees or released from the horizontal, 10 s: the largest joint gap and
//   how far the last link rose above where it started;
// - 2D pyramids of 1 m boxes, 2 cm apart in each row, 10 s: how far the
//   farthest box moved from its start.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <variant>
#include <vector>

#include "pabd/scene.h"
#include "pabd/world.h"

namespace pabd::robust {

constexpr double kPi = 3.14159265358979323846;
constexpr int kTenSeconds = 600;  // steps of 1/60 s

/// How a stack stood over its run.
struct StackRun {
  double drift = 0;  ///< largest horizontal distance of any box from its start [m]
  double sink = 0;   ///< largest drop of any box below its start [m]
  double tilt = 0;   ///< largest turn of any box [deg]
  bool finite = true;
  /// The bounds: drift under 2 cm, sink under 5 cm, tilt under 1 degree.
  bool stands() const { return finite && drift < 0.02 && sink < 0.05 && tilt < 1; }
};

/// Angle of the rotation q [deg].
inline double turn_degrees(Quat q) {
  return 2 * std::acos(std::min(1.0, std::fabs(q.w))) * 180 / kPi;
}

/// `boxes` 1 m boxes on a static ground plane, box k of mass ratio^k kg, run
/// for `steps` steps with `settings`.
inline StackRun run_stack(double ratio, int boxes, const WorldDef& settings,
                          int steps = kTenSeconds) {
  World w(settings);
  BodyDef ground = default_body_def();
  ground.is_static = true;
  ground.shape = plane_shape({0, 1, 0}, 0);
  w.add_body(ground);
  std::vector<BodyId> ids;
  double mass = 1;
  for (int k = 0; k < boxes; ++k, mass *= ratio) {
    BodyDef b = default_body_def();
    b.shape = box_shape({1, 1, 1});
    b.mass = mass;
    b.position = {0, 0.5 + k, 0};
    ids.push_back(w.add_body(b));
  }
  StackRun r;
  for (int s = 0; s < steps && r.finite; ++s) {
    r.finite = w.step().ok;
    for (int k = 0; k < boxes; ++k) {
      const BodyState b = w.body_state(ids[k]);
      r.drift = std::max(r.drift, std::hypot(b.position.x, b.position.z));
      r.sink = std::max(r.sink, 0.5 + k - b.position.y);
      r.tilt = std::max(r.tilt, turn_degrees(b.orientation));
    }
  }
  return r;
}

/// How the Fig. 8 chain is released.
enum class ChainStart { Hanging, Swing45, Horizontal };

/// How a chain held over its run.
struct ChainRun {
  double gap = 0;   ///< largest joint gap [m]
  double rise = 0;  ///< highest the last link's centre rose above its start [m]
  bool finite = true;
  /// The bounds: gaps under 1% of a link (2% from the horizontal), and
  /// the last link never above its release height (1 mm for the joints' stretch).
  bool holds(ChainStart start) const {
    const double link = 0.5, share = start == ChainStart::Horizontal ? 0.02 : 0.01;
    return finite && gap < share * link && rise < 1e-3;
  }
};

/// The Fig. 8 chain (scenes/heavy_chain.json, its last link `ratio` kg),
/// started as asked, run for `steps` steps with `settings` (dt from the scene).
inline ChainRun run_chain(const std::string& scenes_dir, double ratio, ChainStart start,
                          WorldDef settings, int steps = kTenSeconds) {
  Scene s = load_scene(scenes_dir + "/heavy_chain.json");
  const double link = 0.5;
  for (std::size_t i = 0; i < s.bodies.size(); ++i) {
    const double along = link * (double(i) + 0.5), at = link * double(i);
    if (start == ChainStart::Hanging) {
      s.bodies[i].position = {0, 10 - along, 0};
      s.bodies[i].orientation = {std::sqrt(0.5), 0, 0, -std::sqrt(0.5)};  // long side down
      std::get<SphericalJointDef>(s.joints[i].def).anchor = {0, 10 - at, 0};
    } else if (start == ChainStart::Horizontal) {
      s.bodies[i].position = {along, 10, 0};
      s.bodies[i].orientation = {1, 0, 0, 0};
      std::get<SphericalJointDef>(s.joints[i].def).anchor = {at, 10, 0};
    }
  }
  s.bodies.back().mass = ratio;
  settings.dt = s.settings.dt;
  World w = build_world(s, settings);
  const BodyId last = w.body_at(w.body_count() - 1);
  const double y0 = w.body_state(last).position.y;
  ChainRun r;
  for (int n = 0; n < steps && r.finite; ++n) {
    r.finite = w.step().ok;
    for (int j = 0; j < w.joint_count(); ++j) {
      const JointInfo info = w.joint_info(w.joint_at(j));
      r.gap = std::max(r.gap, length(info.world_a - info.world_b));
    }
    r.rise = std::max(r.rise, w.body_state(last).position.y - y0);
  }
  return r;
}

/// A 2D pyramid of 1 m, 1 kg boxes, `base` at the bottom, `gap` [m] apart in
/// each row, on a static ground plane.
inline void add_pyramid(World& w, int base, double gap) {
  BodyDef ground = default_body_def();
  ground.is_static = true;
  ground.shape = plane_shape({0, 1, 0}, 0);
  w.add_body(ground);
  for (int row = 0; row < base; ++row)
    for (int k = 0; k < base - row; ++k) {
      BodyDef b = default_body_def();
      b.shape = box_shape({1, 1, 1});
      b.mass = 1;
      b.position = {(k - (base - row - 1) / 2.0) * (1 + gap), 0.5 + row, 0};
      w.add_body(b);
    }
}

/// The farthest any dynamic body of w moves from where it started over `steps` steps [m];
/// infinity if a step fails.
inline double largest_motion(World& w, int steps) {
  std::vector<Vec3> start;
  for (int i = 0; i < w.body_count(); ++i) start.push_back(w.body_state(w.body_at(i)).position);
  double worst = 0;
  for (int s = 0; s < steps; ++s) {
    if (!w.step().ok) return INFINITY;
    for (int i = 0; i < w.body_count(); ++i)
      if (!w.is_static(w.body_at(i)))
        worst = std::max(worst, length(w.body_state(w.body_at(i)).position - start[i]));
  }
  return worst;
}

}  // namespace pabd::robust
