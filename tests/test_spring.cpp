// Two boxes joined by a spring stretched to twice its rest length (the paper's
// Fig. 5a): the per-iteration error of one step, and the oscillation period.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <numbers>
#include <vector>

#include "pabd/world.h"

namespace pabd {
namespace {

struct SpringPair {
  World world;
  BodyId a, b;
};

// 1 m, 1 kg boxes; the spring joins their facing faces; rest length 1 m,
// current length 2 m. No gravity.
SpringPair make_pair(double stiffness, int iterations) {
  WorldDef wd = default_world_def();
  wd.gravity = {0, 0, 0};
  wd.iterations = iterations;
  wd.threads = 1;
  World world(wd);
  BodyDef box = default_body_def();
  box.shape = box_shape({1, 1, 1});
  box.mass = 1;
  box.position = {-1.5, 0, 0};
  const BodyId a = world.add_body(box);
  box.position = {1.5, 0, 0};
  const BodyId b = world.add_body(box);
  SpringDef s;
  s.body_a = a;
  s.body_b = b;
  s.anchor_a = {-1, 0, 0};
  s.anchor_b = {1, 0, 0};
  s.rest_length = 1;
  s.stiffness = stiffness;
  world.add_spring(s);
  return {std::move(world), a, b};
}

// Variational energy at q^0 and after each iteration of the first step.
std::vector<double> energy_per_iteration(double stiffness, int iterations) {
  SpringPair p = make_pair(stiffness, iterations);
  std::vector<double> energy;
  p.world.set_iteration_observer([&](int) { energy.push_back(p.world.variational_energy()); });
  p.world.step();
  return energy;
}

TEST(Spring, RelativeErrorFallsPerIteration) {
  // Three stiffnesses: h^2 k / m = 0.28, 2.8 and 28 (soft to very stiff for a
  // single Jacobi sweep). Both boxes move toward each other's old position,
  // so convergence slows as the spring stiffens (the double correction of
  // method-notes.md); acceleration belongs to the joints issue.
  const double stiffness[] = {1e3, 1e4, 1e5};
  const int iterations = 60;
  std::vector<std::vector<double>> curves;
  for (double k : stiffness) {
    const std::vector<double> e = energy_per_iteration(k, iterations);
    // The converged energy: the same step with many more iterations.
    const double e_star = energy_per_iteration(k, 3000).back();
    ASSERT_EQ(e.size(), static_cast<size_t>(iterations + 1));
    std::vector<double> rel;
    // Relative error as in Bouaziz et al. 2014: (E_k - E*) / (E_0 - E*).
    for (double ek : e) rel.push_back((ek - e_star) / (e[0] - e_star));
    std::printf("k = %g: rel. error %.3g after 5, %.3g after 20, %.3g after 60 iterations\n", k,
                rel[5], rel[20], rel[60]);
    // It must fall at every iteration until it reaches round-off (1e-12 of
    // E_0 - E*, as E itself carries ~1e-16 relative round-off)...
    for (size_t i = 1; i < rel.size(); ++i) {
      if (std::fabs(rel[i - 1]) < 1e-12) break;
      EXPECT_LT(std::fabs(rel[i]), std::fabs(rel[i - 1])) << "k " << k << " iteration " << i;
    }
    curves.push_back(rel);
  }
  // ...and lose at least 6 orders of magnitude in 60 iterations for the two
  // softer springs; the stiffest (measured: 0.014 after 60) must at least
  // fall below 5%.
  EXPECT_LT(std::fabs(curves[0].back()), 1e-6);
  EXPECT_LT(std::fabs(curves[1].back()), 1e-6);
  EXPECT_LT(std::fabs(curves[2].back()), 0.05);
  std::ofstream csv(std::string(PABD_TEST_OUTPUT_DIR) + "/spring_convergence.csv");
  csv << "iteration,k_1e3,k_1e4,k_1e5\n";
  for (int i = 0; i <= iterations; ++i)
    csv << i << "," << curves[0][i] << "," << curves[1][i] << "," << curves[2][i] << "\n";
}

TEST(Spring, OscillationPeriodMatchesReducedMass) {
  // k chosen for a 2 s period: implicit Euler's period error (w h)^2 / 3 is
  // then 0.1%, so the 2% bound tests the solver, not the integrator.
  const double mu = 0.5, period = 2.0;
  const double k = mu * std::pow(2 * std::numbers::pi / period, 2);
  SpringPair p = make_pair(k, 20);
  const double h = p.world.settings().dt;
  std::vector<double> crossings;
  double prev = 1.0;  // stretch d - l at t = 0
  for (int n = 1; n <= 360; ++n) {
    ASSERT_TRUE(p.world.step().ok);
    const double d =
        (p.world.body_state(p.b).position.x - 0.5) - (p.world.body_state(p.a).position.x + 0.5);
    const double stretch = d - 1.0;
    if ((prev > 0) != (stretch > 0))
      crossings.push_back(h * (n - 1 + prev / (prev - stretch)));  // linear interpolation
    prev = stretch;
  }
  ASSERT_GE(crossings.size(), 5u);
  // Successive zero crossings are half a period apart.
  const double measured = 2 * (crossings.back() - crossings.front()) / (crossings.size() - 1);
  std::printf("spring pair: period %.5f s, expected %.5f s (%.3f%%)\n", measured, period,
              100 * (measured / period - 1));
  EXPECT_NEAR(measured, period, 0.02 * period);
}

}  // namespace
}  // namespace pabd
