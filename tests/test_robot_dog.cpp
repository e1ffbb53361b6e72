// The paper's robot dog (Fig. 1, Table 2: 9 bodies, 8 hinges, 20 iterations)
// on rigid ground: scenes/robot_dog.json (scripts/make_scenes.py,
// robot_dog()), a torso and two capsule segments per leg on hinges with
// periodic position drives in a trot. It must walk toward +x upright.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <vector>

#include "pabd/scene.h"
#include "pabd/world.h"

namespace pabd {
namespace {

const std::string kScene = std::string(PABD_SOURCE_DIR) + "/scenes/robot_dog.json";

/// Angle between a body's local +Y and the world's +Y [degrees].
Real tilt_deg(Quat q) {
  const Real up_y = 1 - 2 * (q.x * q.x + q.z * q.z);  // (R e_y) . e_y
  return std::acos(std::clamp(up_y, Real(-1), Real(1))) * 180 / std::numbers::pi;
}

struct Walk {
  Real advance = 0;                       ///< torso x after the run minus at the start [m]
  Real max_tilt = 0;                      ///< [degrees]
  Real start_height = 0, min_height = 0;  ///< torso centre [m]
};

Walk walk(const Scene& scene, const WorldDef& settings, int steps) {
  World world = build_world(scene, settings);
  const BodyId torso = world.find_body("torso");
  Walk w;
  const BodyState start = world.body_state(torso);
  w.start_height = w.min_height = start.position.y;
  for (int step = 1; step <= steps; ++step) {
    EXPECT_TRUE(world.step().ok) << "step " << step;
    const BodyState s = world.body_state(torso);
    w.max_tilt = std::max(w.max_tilt, tilt_deg(s.orientation));
    w.min_height = std::min(w.min_height, s.position.y);
    w.advance = s.position.x - start.position.x;
  }
  return w;
}

TEST(RobotDog, WalksForwardUprightAtTheDefaultsAndThePapersIterations) {
  const Scene scene = load_scene(kScene);
  ASSERT_EQ(scene.bodies.size(), 10u);  // the ground plane and the paper's 9 bodies
  ASSERT_EQ(scene.joints.size(), 8u);
  const Real frequency = std::get<HingeJointDef>(scene.joints[0].def).drive.frequency;
  const Real seconds = 10;
  const int steps = static_cast<int>(std::lround(seconds / default_world_def().dt));
  // The engine's defaults (nothing from the scene file), then the paper's 20
  // iterations; the default is 20 today, so that second run is then the same one.
  std::vector<std::pair<const char*, WorldDef>> runs = {{"defaults", default_world_def()}};
  if (default_world_def().iterations != 20) {
    WorldDef paper = default_world_def();
    paper.iterations = 20;
    runs.emplace_back("20 iterations", paper);
  }
  for (const auto& [label, settings] : runs) {
    SCOPED_TRACE(label);
    const Walk w = walk(scene, settings, steps);
    const Real cycles = seconds * frequency;
    std::printf(
        "robot dog (%s, %d iterations), %.0f s: advanced %.3f m (%.3f m per gait cycle, "
        "%.3f m/s), max tilt %.1f deg, lowest torso %.3f m of %.3f m at the start\n",
        label, settings.iterations, seconds, w.advance, w.advance / cycles, w.advance / seconds,
        w.max_tilt, w.min_height, w.start_height);
    // The bounds. Measured 2.89 m, 10.9 deg, 0.365 of 0.41 m: a dog
    // that stumbles, falls on its side or collapses fails one of them.
    EXPECT_GE(w.advance, 0.5);
    EXPECT_LE(w.max_tilt, 30.0);
    EXPECT_GT(w.min_height, 0.5 * w.start_height);
  }
}

}  // namespace
}  // namespace pabd
