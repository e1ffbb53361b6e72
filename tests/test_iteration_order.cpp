// PABD's iteration options (docs/method.md, "Iteration order and
// acceleration"): colored Gauss-Seidel sweeps, Chebyshev acceleration,
// relaxation and the mass-scaled start penalty, measured on the scenes that
// need them, above all the paper's Fig. 8 chain (scenes/heavy_chain*.json).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "pabd/scene.h"
#include "pabd/world.h"

namespace pabd {
namespace {

const std::string kScenes = std::string(PABD_SOURCE_DIR) + "/scenes/";
constexpr double kLink = 0.5;  // the Fig. 8 chain's link length [m]

/// Largest distance between the two halves of any joint of the world, now.
double max_joint_gap(const World& w) {
  double gap = 0;
  for (int j = 0; j < w.joint_count(); ++j) {
    const JointInfo info = w.joint_info(w.joint_at(j));
    gap = std::fmax(gap, length(info.world_a - info.world_b));
  }
  return gap;
}

/// What a run of the chain measured.
struct ChainRun {
  double max_gap = 0;      ///< over every step [m]
  double late_gap = 0;     ///< over the last half [m]
  double bob_high = -1e9;  ///< highest centre of the last link after the first second [m]
  double bob_start = 0;    ///< its height at the start [m]
  bool finite = true;
};

ChainRun run_chain(World& w, int steps) {
  ChainRun r;
  const BodyId bob = w.body_at(w.body_count() - 1);
  r.bob_start = w.body_state(bob).position.y;
  for (int n = 1; n <= steps && r.finite; ++n) {
    r.finite = w.step().ok;
    const double g = max_joint_gap(w);
    r.max_gap = std::fmax(r.max_gap, g);
    if (n > steps / 2) r.late_gap = std::fmax(r.late_gap, g);
    if (n > 60) r.bob_high = std::fmax(r.bob_high, w.body_state(bob).position.y);
  }
  return r;
}

Scene heavy_chain(bool augmented) {
  return load_scene(kScenes + (augmented ? "heavy_chain.json" : "heavy_chain_no_al.json"));
}

/// The Fig. 8 chain released at rest from the horizontal (same links, masses, settings).
Scene horizontal_chain() {
  Scene s = heavy_chain(true);
  for (std::size_t i = 0; i < s.bodies.size(); ++i) {
    s.bodies[i].position = {kLink * (double(i) + 0.5), 10, 0};
    s.bodies[i].orientation = {1, 0, 0, 0};
    std::get<SphericalJointDef>(s.joints[i].def).anchor = {kLink * double(i), 10, 0};
  }
  return s;
}

/// The Fig. 8 chain hanging straight down at rest (same links, masses, settings).
Scene hanging_chain() {
  Scene s = heavy_chain(true);
  for (std::size_t i = 0; i < s.bodies.size(); ++i) {
    s.bodies[i].position = {0, 10 - kLink * (double(i) + 0.5), 0};
    s.bodies[i].orientation = {std::sqrt(0.5), 0, 0, -std::sqrt(0.5)};  // long side down
    std::get<SphericalJointDef>(s.joints[i].def).anchor = {0, 10 - kLink * double(i), 0};
  }
  return s;
}

TEST(HeavyChain, Fig8SwingStaysWithinOnePercentOfALink) {
  // The paper's Fig. 8: 19 links of 0.5 m, the last 1000x heavier, 10
  // iterations, hard joints; swinging from 45 degrees for 10 s, at the
  // defaults (the scene sets only dt and iterations).
  Scene s = heavy_chain(true);
  World w = build_world(s, s.settings);
  const ChainRun r = run_chain(w, 600);
  std::printf(
      "Fig. 8 chain swinging: max gap %.3g m, last 5 s %.3g m; bob highest %.4f m "
      "(released at %.4f m)\n",
      r.max_gap, r.late_gap, r.bob_high, r.bob_start);
  ASSERT_TRUE(r.finite);
  EXPECT_LT(r.max_gap, 0.01 * kLink);  // the issue's bound: 1% of the link
  // No energy gain: the bob never climbs above its release height. Implicit
  // Euler only loses energy; 1 mm leaves room for the joints' own stretch.
  EXPECT_LT(r.bob_high, r.bob_start + 1e-3);
}

TEST(HeavyChain, HangingStaysWithinOnePercentOfALink) {
  Scene s = hanging_chain();
  World w = build_world(s, s.settings);
  const ChainRun r = run_chain(w, 600);
  std::printf(
      "Fig. 8 chain hanging: max gap %.3g m (includes the first steps, when the "
      "multipliers build up from 0), last 5 s %.3g m\n",
      r.max_gap, r.late_gap);
  ASSERT_TRUE(r.finite);
  EXPECT_LT(r.max_gap, 0.01 * kLink);  // the issue's bound: 1% of the link
}

TEST(HeavyChain, ReleasedFromTheHorizontalStaysWithinTwoPercentOfALink) {
  // The hardest release: the heavy link falls through the bottom of the swing,
  // where the chain pulls with about three times its weight.
  Scene s = horizontal_chain();
  World w = build_world(s, s.settings);
  const ChainRun r = run_chain(w, 600);
  std::printf(
      "Fig. 8 chain released from the horizontal: max gap %.3g m, last 5 s %.3g m; bob "
      "highest %.4f m (released at %.4f m)\n",
      r.max_gap, r.late_gap, r.bob_high, r.bob_start);
  ASSERT_TRUE(r.finite);
  EXPECT_LT(r.max_gap, 0.02 * kLink);  // the issue's bound: 2% of the link
  // It starts at its highest possible point: it may not rise above it (1 mm
  // for the joints' stretch, as above).
  EXPECT_LT(r.bob_high, r.bob_start + 1e-3);
}

TEST(HeavyChain, WithoutAugmentedLagrangianItStretchesVisibly) {
  // The paper's Fig. 8c: the same chain with plain penalties of 1e4 N/m.
  Scene with = heavy_chain(true), without = heavy_chain(false);
  World w1 = build_world(with, with.settings), w2 = build_world(without, without.settings);
  const ChainRun a = run_chain(w1, 600), b = run_chain(w2, 600);
  std::printf(
      "Fig. 8 chain: max joint gap %.3g m with the augmented Lagrangian, %.3g m "
      "without\n",
      a.max_gap, b.max_gap);
  ASSERT_TRUE(b.finite);
  // 1e4 N/m under the 1000 kg link's ~1e4 N sags about 1 m per joint near
  // it: at least a link's length, and over 100x the augmented gap.
  EXPECT_GT(b.max_gap, kLink);
  EXPECT_GT(b.max_gap, 100 * a.max_gap);
}

TEST(HeavyChain, JacobiSweepsHoldItLessWell) {
  // The same chain with the paper's Jacobi sweeps instead of the default
  // colored ones: bounded, but its joints open more and its multiplier loop
  // lifts the heavy link above its release height (docs/method.md). The
  // bound guards against a blow-up and against it getting worse than
  // measured (9 mm, 0.23 m above the release height).
  Scene s = heavy_chain(true);
  WorldDef d = s.settings;
  d.iteration_order = IterationOrder::Jacobi;
  World w = build_world(s, d);
  const ChainRun r = run_chain(w, 600);
  std::printf(
      "Fig. 8 chain, Jacobi sweeps: max gap %.3g m; bob highest %.3f m (released at %.3f m)\n",
      r.max_gap, r.bob_high, r.bob_start);
  ASSERT_TRUE(r.finite);
  EXPECT_LT(r.max_gap, 0.05 * kLink);
}

// ---------------------------------------------------------------------------
// Convergence per iteration of one step, as `pabd converge` measures it.

/// Relative error (E_k - E*) / (E_0 - E*) after each iteration of step
/// `step`, with E* from the same step at 3000 iterations.
std::vector<double> relative_errors(const Scene& s, WorldDef d, int step, int iterations) {
  auto energies = [&](int k) {
    WorldDef dk = d;
    dk.iterations = k;
    dk.threads = 1;
    World w = build_world(s, dk);
    for (int n = 1; n < step; ++n) w.step();
    std::vector<double> e;
    w.set_iteration_observer([&](int) { e.push_back(w.variational_energy()); });
    w.step();
    return e;
  };
  const std::vector<double> reference = energies(3000), e = energies(iterations);
  const double e_star = reference.back();
  std::vector<double> rel;
  for (double v : e) rel.push_back((v - e_star) / (e[0] - e_star));
  return rel;
}

TEST(Acceleration, RelaxationRemovesTheJacobiDoubleCorrection) {
  // Two equal boxes on a stiff spring (k = 1e5 N/m, h^2 k / m = 28): the
  // paper's split pulls each box toward the other's old position, so Jacobi
  // sweeps overshoot and the error falls only ~7% per iteration. Relaxing
  // the iterate by 0.7 damps that swap mode.
  Scene s = load_scene(kScenes + "spring_pair.json");
  std::get<SpringDef>(s.joints[0].def).stiffness = 1e5;
  WorldDef plain = s.settings;
  plain.iteration_order = IterationOrder::Jacobi;  // the order this is about
  WorldDef relaxed = plain;
  relaxed.relaxation = 0.7;
  const std::vector<double> a = relative_errors(s, plain, 1, 20),
                            b = relative_errors(s, relaxed, 1, 20);
  std::printf("stiff spring pair, after 10 iterations: Jacobi %.3g, relaxation 0.7 %.3g\n", a[11],
              b[11]);
  EXPECT_GT(a[11], 0.1);   // measured 0.49: the slow case really is slow
  EXPECT_LT(b[11], 1e-6);  // measured 3e-9: six orders better
}

TEST(Acceleration, ColoredSweepsAndChebyshevSpeedUpTheHeavyChain) {
  // One step of the Fig. 8 chain mid-swing (step 60), at the defaults
  // (colored, Chebyshev 0.95 on its loaded joints) and with each option off.
  Scene s = heavy_chain(true);
  WorldDef jacobi = s.settings, colored = s.settings, chebyshev = s.settings;
  jacobi.iteration_order = IterationOrder::Jacobi;
  jacobi.chebyshev_rho = 0;
  colored.chebyshev_rho = 0;
  const auto a = relative_errors(s, jacobi, 60, 10);
  const auto b = relative_errors(s, colored, 60, 10);
  const auto c = relative_errors(s, chebyshev, 60, 10);
  std::printf(
      "heavy chain, step 60, after 10 iterations: Jacobi %.3g, colored %.3g, colored + "
      "Chebyshev %.3g\n",
      a[10], b[10], c[10]);
  // Each option must beat the one before by a clear margin (10% of the
  // remaining error), not by round-off.
  EXPECT_LT(b[10], 0.9 * a[10]);
  EXPECT_LT(c[10], 0.9 * b[10]);
}

TEST(Colored, ReachesTheSameStepSolutionAsJacobi) {
  // Both sweeps minimise the same variational energy; with soft bonds only
  // (the spring net without its two hard corners) and enough iterations they
  // must end the step in the same state. 1e-9 m is far above round-off and
  // far below any difference in the minimiser.
  Scene s = load_scene(kScenes + "spring_net.json");
  std::vector<SceneJoint> soft;
  for (const SceneJoint& j : s.joints)
    if (j.kind() == JointKind::Spring) soft.push_back(j);
  s.joints = soft;
  WorldDef jd = s.settings, cd = s.settings;
  jd.iterations = cd.iterations = 400;
  jd.iteration_order = IterationOrder::Jacobi;
  cd.iteration_order = IterationOrder::Colored;
  World a = build_world(s, jd), b = build_world(s, cd);
  a.step();
  b.step();
  double worst = 0;
  for (int i = 0; i < a.body_count(); ++i)
    worst = std::fmax(
        worst, length(a.body_state(a.body_at(i)).position - b.body_state(b.body_at(i)).position));
  std::printf(
      "spring net, 400 iterations: Jacobi and colored end-of-step states differ by %.3g m\n",
      worst);
  EXPECT_LT(worst, 1e-9);
}

TEST(Colored, SameStateForAnyThreadCount) {
  // Colored sweeps with Chebyshev on a scene with several colours per
  // iteration (the spring net: a grid plus its corner joints) and on the
  // Fig. 8 chain: the state hash after 60 steps must not depend on the
  // number of threads (each colour's bodies are independent).
  for (const char* file : {"spring_net.json", "heavy_chain.json"}) {
    Scene s = load_scene(kScenes + file);
    s.settings.iteration_order = IterationOrder::Colored;
    s.settings.chebyshev_rho = 0.9;
    std::vector<std::uint64_t> hashes;
    for (int threads : {1, 2, 3}) {
      WorldDef d = s.settings;
      d.threads = threads;
      World w = build_world(s, d);
      for (int n = 0; n < 60; ++n) w.step();
      hashes.push_back(w.state_hash());
    }
    EXPECT_EQ(hashes[0], hashes[1]) << file;
    EXPECT_EQ(hashes[0], hashes[2]) << file;
  }
}

TEST(Settings, BadIterationSettingsAreRejected) {
  auto bad = [](const std::function<void(WorldDef&)>& change) {
    WorldDef d = default_world_def();
    change(d);
    EXPECT_THROW(World w(d), Error);
  };
  bad([](WorldDef& d) { d.chebyshev_rho = 1; });     // rho must be < 1
  bad([](WorldDef& d) { d.chebyshev_rho = -0.1; });  // and >= 0
  bad([](WorldDef& d) { d.relaxation = 0; });        // gamma in (0, 1.5]
  bad([](WorldDef& d) { d.relaxation = 1.6; });      // blows up a resting box (RelaxationRange)
  bad([](WorldDef& d) { d.relaxation = std::nan(""); });
  bad([](WorldDef& d) { d.hard_stiffness_mass_ratio = -1; });
  bad([](WorldDef& d) { d.iteration_order = static_cast<IterationOrder>(7); });
  bad([](WorldDef& d) { d.block_order_min_bodies = 0; });  // a body count >= 1

  // Scene files: one line naming the key.
  const std::string head = R"({"settings": {)";
  const std::string tail = R"(}, "bodies": []})";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"("iteration_order": "gauss")", "/settings/iteration_order"},
      {R"("iteration_order": 1)", "/settings/iteration_order"},
      {R"("chebyshev_rho": 1)", "/settings/chebyshev_rho"},
      {R"("chebyshev_rho": -0.5)", "/settings/chebyshev_rho"},
      {R"("relaxation": 2.5)", "/settings/relaxation"},
      {R"("relaxation": 1.6)", "/settings/relaxation"},
      {R"("relaxation": 0)", "/settings/relaxation"},
      {R"("hard_stiffness_mass_ratio": -3)", "/settings/hard_stiffness_mass_ratio"},
      {R"("local_step": "affine")", "/settings/local_step"},
      {R"("local_step": true)", "/settings/local_step"},
  };
  for (const auto& [text, pointer] : cases) {
    try {
      parse_scene(head + text + tail, "t.json");
      ADD_FAILURE() << text << " was accepted";
    } catch (const SceneError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("t.json: " + pointer + ": expected"), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  }
  // And the good values parse.
  const Scene s = parse_scene(head +
                                  R"("iteration_order": "colored", "chebyshev_rho": 0.9,
                                  "relaxation": 0.7, "hard_stiffness_mass_ratio": 1e4,
                                  "local_step": "paper")" +
                                  tail,
                              "t.json");
  EXPECT_EQ(s.settings.iteration_order, IterationOrder::Colored);
  EXPECT_EQ(s.settings.chebyshev_rho, 0.9);
  EXPECT_EQ(s.settings.relaxation, 0.7);
  EXPECT_EQ(s.settings.hard_stiffness_mass_ratio, 1e4);
  EXPECT_EQ(s.settings.local_step, LocalStep::Paper);
}

}  // namespace
}  // namespace pabd
