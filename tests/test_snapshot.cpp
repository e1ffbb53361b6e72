// Exact snapshots (World::save_state, restore_state): a world restored from a
// snapshot, its own or another built from the same scene, steps on with the
// same bits as the run that never stopped, on scenes with contacts, friction,
// hard joints, drives and a slider; body states alone do not (the warm starts
// matter); bad snapshots are refused and change nothing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pabd/scene.h"
#include "pabd/world.h"

namespace pabd {
namespace {

World load(const std::string& name, int threads = 2) {
  const Scene scene = load_scene(std::string(PABD_SOURCE_DIR) + "/scenes/" + name);
  WorldDef settings = scene.settings;
  settings.threads = threads;
  return build_world(scene, settings);
}

void run(World& world, int steps) {
  for (int i = 0; i < steps; ++i) ASSERT_TRUE(world.step().ok) << "step " << world.step_count();
}

class Snapshot : public ::testing::TestWithParam<const char*> {};

TEST_P(Snapshot, ResumingGivesTheSameBitsAsRunningOn) {
  World straight = load(GetParam());
  run(straight, 60);
  const std::vector<std::uint8_t> snap = straight.save_state();
  run(straight, 60);
  const std::uint64_t expected = straight.state_hash();

  // Another world from the same scene, restored, on a different thread count
  // (results do not depend on it).
  World resumed = load(GetParam(), 1);
  resumed.restore_state(snap);
  EXPECT_EQ(resumed.step_count(), 60);
  run(resumed, 60);
  EXPECT_EQ(resumed.state_hash(), expected);
  EXPECT_EQ(resumed.time(), straight.time());

  // The same world, rewound to its own snapshot (an RL reset, an MPC rollout).
  straight.restore_state(snap);
  run(straight, 60);
  EXPECT_EQ(straight.state_hash(), expected);
}

// jeep_bridge: contacts with friction, hard spherical joints, velocity and
// position drives; gear_linkage: capsule-tooth contacts, hinges, a slider;
// mass_ratio_stack: a 10x-per-level stack held by load-aware contact penalties.
INSTANTIATE_TEST_SUITE_P(Scenes, Snapshot,
                         ::testing::Values("jeep_bridge.json", "gear_linkage.json",
                                           "mass_ratio_stack.json"));

TEST(SnapshotControl, BodyStatesAloneDoNotResumeTheRun) {
  // The snapshot is needed: copying only poses and velocities (set_body_state)
  // loses the joints' and contacts' warm starts, and the run drifts apart.
  World straight = load("jeep_bridge.json");
  run(straight, 60);
  std::vector<BodyState> states;
  for (int i = 0; i < straight.body_count(); ++i)
    states.push_back(straight.body_state(straight.body_at(i)));
  run(straight, 60);
  World copied = load("jeep_bridge.json");
  run(copied, 0);
  for (int i = 0; i < copied.body_count(); ++i)
    if (!copied.is_static(copied.body_at(i))) copied.set_body_state(copied.body_at(i), states[i]);
  run(copied, 60);
  EXPECT_NE(copied.state_hash(), straight.state_hash());
}

TEST(SnapshotErrors, BadSnapshotsAreRefusedAndChangeNothing) {
  World jeep = load("jeep_bridge.json");
  run(jeep, 5);
  const std::vector<std::uint8_t> good = jeep.save_state();
  World other = load("pendulum.json");
  const std::vector<std::uint8_t> foreign = other.save_state();
  run(jeep, 5);
  const std::uint64_t before = jeep.state_hash();
  const auto message = [&](const std::vector<std::uint8_t>& bytes) {
    try {
      jeep.restore_state(bytes);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message({}), "restore_state: not a pabd snapshot");
  EXPECT_EQ(message({'{', '"', 'a', '"', ':', '1', '}', '\n', 0, 0, 0, 0}),
            "restore_state: not a pabd snapshot");
  std::vector<std::uint8_t> cut(good.begin(), good.end() - 10);
  EXPECT_EQ(message(cut), "restore_state: truncated snapshot");
  std::vector<std::uint8_t> longer = good;
  longer.push_back(0);
  EXPECT_EQ(message(longer), "restore_state: 1 bytes after the end of the snapshot");
  EXPECT_EQ(message(foreign),
            "restore_state: the snapshot is of another world (bodies, masses or joints differ)");
  // Cut anywhere, a snapshot is refused with an Error (never a crash or a
  // half-restored world): about a hundred cut points over its length.
  for (std::size_t keep = 0; keep < good.size(); keep += good.size() / 97 + 1) {
    const std::vector<std::uint8_t> part(good.begin(), good.begin() + keep);
    EXPECT_NE(message(part), "accepted") << "cut at " << keep;
  }
  EXPECT_EQ(jeep.state_hash(), before);
  EXPECT_EQ(jeep.step_count(), 10);
  EXPECT_EQ(message(good), "accepted");
  EXPECT_EQ(jeep.step_count(), 5);
}

}  // namespace
}  // namespace pabd
