// Golden state hashes: reference runs whose end states must keep their exact
// bits (on 2 threads; test_determinism.cpp shows the thread count changes no
// bit). A refactoring that claims to change no
// result proves it here; a change of results is deliberate and updates the
// table (run this test with PABD_GOLDEN_PRINT=1 to print the new rows, and say
// why in the commit). The hash is World::state_hash(), FNV-1a over every
// body's position, orientation and velocities.
//
// The runs cover the contact kinds (box piles, a ball hitting a stack, mixed
// shapes with restitution under both iteration orders), the joints (the
// heavy chain, the windmill's motor and welds sweeping piles, the gears'
// compound teeth) and the mass-ratio stack.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

#include "pabd/scene.h"
#include "pabd/world.h"

namespace pabd {
namespace {

const std::string kScenes = std::string(PABD_SOURCE_DIR) + "/scenes/";

/// 36 bodies of three shapes dropped in a 3 x 3 x 4 lattice, restitution 0.5.
Scene mixed_pile(IterationOrder order) {
  Scene s;
  s.settings = default_world_def();
  s.settings.iteration_order = order;
  BodyDef ground = default_body_def();
  ground.name = "ground";
  ground.is_static = true;
  ground.shape = plane_shape({0, 1, 0}, 0);
  s.bodies.push_back(ground);
  for (int k = 0; k < 36; ++k) {
    BodyDef b = default_body_def();
    b.name = std::to_string(k);  // "b" + ... trips GCC 12's -Wrestrict false positive
    const int kind = k % 3;
    b.shape = kind == 0   ? box_shape({0.5, 0.4, 0.6})
              : kind == 1 ? sphere_shape(0.25)
                          : capsule_shape(0.15, 0.25);
    b.mass = 1 + 0.5 * (k % 4);
    b.restitution = 0.5;
    b.position = {0.7 * (k % 3) - 0.7 + 0.05 * (k % 2), 0.6 + 0.7 * (k / 9),
                  0.7 * ((k / 3) % 3) - 0.7};
    b.orientation = normalized(Quat{1, 0.1 * (k % 5), 0.05 * (k % 7), 0.02 * k});
    s.bodies.push_back(b);
  }
  return s;
}

struct GoldenRun {
  const char* name;
  std::function<Scene()> scene;
  int steps;
  std::uint64_t hash;  ///< the golden end-state hash
};

Scene file(const char* name) { return load_scene(kScenes + name); }

std::uint64_t run_hash(const GoldenRun& r, int threads) {
  const Scene s = r.scene();
  WorldDef d = s.settings;
  d.threads = threads;
  World w = build_world(s, d);
  for (int n = 0; n < r.steps; ++n) EXPECT_TRUE(w.step().ok) << r.name << " step " << n + 1;
  return w.state_hash();
}

TEST(Golden, ReferenceRunsKeepTheirBits) {
  const GoldenRun runs[] = {
      {"ball_into_stack", [] { return file("ball_into_stack.json"); }, 60, 0xc20d8b6dde8e1060},
      {"pile_20", [] { return file("pile_20.json"); }, 3, 0x6e05dfe2f1f563bb},
      {"gears", [] { return file("gears.json"); }, 120, 0x687c82180fdd80bb},
      {"windmill_piles", [] { return file("windmill_piles.json"); }, 40, 0x3ae844d9afbf896e},
      {"mass_ratio_stack", [] { return file("mass_ratio_stack.json"); }, 120, 0x7afa3d412714cae1},
      {"heavy_chain", [] { return file("heavy_chain.json"); }, 120, 0x01bb84cd46f4acc9},
      {"mixed_pile_jacobi", [] { return mixed_pile(IterationOrder::Jacobi); }, 120,
       0xc1b496bd11e111d4},
      {"mixed_pile_colored", [] { return mixed_pile(IterationOrder::Colored); }, 120,
       0x9f30f3090727c9b8},
  };
  const bool print = std::getenv("PABD_GOLDEN_PRINT") != nullptr;
  for (const GoldenRun& r : runs) {
    const std::uint64_t hash = run_hash(r, 2);
    if (print) std::printf("      {\"%s\", ..., %d, 0x%016" PRIx64 "},\n", r.name, r.steps, hash);
    EXPECT_EQ(hash, r.hash) << r.name << ": the result changed (see the top of this file)";
  }
}

}  // namespace
}  // namespace pabd
