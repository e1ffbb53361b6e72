// The peer harness (bench/peers/) maps a pabd scene onto Bullet faithfully:
// run peer_bullet on two small scenes and compare with closed forms. A box
// dropped on the ground checks gravity, dt and the box's size (Bullet's
// collision margin must not grow it); a sphere pendulum on a ball joint
// between a static pivot and the sphere checks the joint's anchors and the
// sphere's mass and inertia through the period of a physical pendulum.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace {

// Writes a scene, runs peer_bullet on it tracing one body, returns its JSON line.
nlohmann::json run_bullet(const std::string& name, const std::string& scene, int steps,
                          const std::string& trace) {
  const std::string path = std::string(PABD_TEST_OUTPUT_DIR) + "/peers_" + name + ".json";
  std::ofstream(path) << scene;
  // Leak checks off in the child: Bullet's own allocations are not ours to judge
  // (the sanitizer build instruments peer_bullet, not libBullet).
  const std::string cmd = std::string("ASAN_OPTIONS=detect_leaks=0 ") + PABD_PEER_BULLET_PATH +
                          " " + path + " --steps " + std::to_string(steps) + " --trace " + trace;
  FILE* pipe = popen(cmd.c_str(), "r");
  EXPECT_NE(pipe, nullptr);
  std::string out;
  char buffer[4096];
  while (pipe && std::fgets(buffer, sizeof buffer, pipe)) out += buffer;
  EXPECT_EQ(pipe ? pclose(pipe) : -1, 0) << cmd;
  return nlohmann::json::parse(out);
}

constexpr double kG = 9.81;
constexpr double kDt = 1.0 / 60.0;

TEST(PeerBullet, BoxFallsAndRestsAtItsHalfHeight) {
  // A 1 m, 2 kg box released at rest with its centre 0.8 m up (30 cm above the
  // ground plane): it lands after 14 steps at 2.4 m/s, 4 cm per step.
  const std::string scene = R"({"settings": {"dt": 0.016666666666666666},
    "bodies": [
      {"name": "ground", "static": true, "shape": {"type": "plane"}},
      {"name": "box", "shape": {"type": "box", "size": [1, 1, 1]}, "position": [0, 0.8, 0],
       "mass": 2}]})";
  const nlohmann::json r = run_bullet("box", scene, 180, "box");
  const auto& trace = r.at("trace");
  ASSERT_EQ(trace.size(), 180u);
  // Free fall for 10 steps under Bullet's semi-implicit Euler: y_n = y0 - g h^2 n (n+1) / 2.
  const double y10 = trace[9][1].get<double>();
  const double expect10 = 0.8 - kG * kDt * kDt * 10 * 11 / 2;
  std::printf("box: y after 10 steps %.6f m (closed form %.6f m), after 3 s %.5f m\n", y10,
              expect10, trace[179][1].get<double>());
  // 1e-5 m: Bullet is single precision (6e-8 m per rounding at 0.8 m, ten steps).
  EXPECT_NEAR(y10, expect10, 1e-5);
  // At rest its centre is half its height above the ground. 5 mm: Bullet leaves
  // a resting penetration of the order of one step of gravity, g h^2 = 2.7 mm,
  // while a box grown by Bullet's 4 cm collision margin would rest at 0.54 m.
  const double rest = trace[179][1].get<double>();
  EXPECT_NEAR(rest, 0.5, 5e-3);
  std::printf("box: sideways drift %.4f m, deepest ground penetration %.4f m\n",
              std::hypot(trace[179][0].get<double>(), trace[179][2].get<double>()),
              r.at("max_ground_penetration").get<double>());
  EXPECT_EQ(r.at("stood"), false);  // it started at rest but fell 30 cm (> 5 cm)
}

TEST(PeerBullet, SpherePendulumPeriodMatchesThePhysicalPendulum) {
  // A 0.3 m radius, 1 kg sphere whose centre hangs L = 1 m below a static pivot,
  // on a ball joint at the pivot, released 5 degrees from the vertical.
  const double length = 1.0, radius = 0.3, theta0 = 5.0 * M_PI / 180.0;
  const double x0 = length * std::sin(theta0), y0 = 2.0 - length * std::cos(theta0);
  char scene[1024];
  std::snprintf(scene, sizeof scene, R"({"settings": {"dt": 0.016666666666666666},
    "bodies": [
      {"name": "pivot", "static": true, "shape": {"type": "box", "size": [0.1, 0.1, 0.1]},
       "position": [0, 2, 0]},
      {"name": "bob", "shape": {"type": "sphere", "radius": %.17g}, "position": [%.17g, %.17g, 0],
       "mass": 1}],
    "joints": [{"type": "spherical", "body_a": "pivot", "body_b": "bob", "anchor": [0, 2, 0]}]})",
                radius, x0, y0);
  const int steps = 600;
  const nlohmann::json r = run_bullet("pendulum", scene, steps, "bob");
  const auto& trace = r.at("trace");
  ASSERT_EQ(trace.size(), static_cast<std::size_t>(steps));
  // Zero crossings of x, linearly interpolated; consecutive ones are half a period apart.
  std::vector<double> crossings;
  double prev_x = x0, prev_t = 0;
  for (int i = 0; i < steps; ++i) {
    const double x = trace[i][0].get<double>(), t = (i + 1) * kDt;
    if ((prev_x > 0) != (x > 0)) crossings.push_back(prev_t + (t - prev_t) * prev_x / (prev_x - x));
    prev_x = x;
    prev_t = t;
  }
  ASSERT_GE(crossings.size(), 6u);
  const double period = 2 * (crossings.back() - crossings.front()) / (crossings.size() - 1);
  // Physical pendulum: T = 2 pi sqrt(I_p / (m g L)), I_p = m L^2 + 2/5 m r^2, with the
  // finite-amplitude factor 1 + theta0^2/16 (+0.05% at 5 degrees).
  const double ip = length * length + 0.4 * radius * radius;
  const double closed = 2 * M_PI * std::sqrt(ip / (kG * length)) * (1 + theta0 * theta0 / 16);
  const double point_mass = 2 * M_PI * std::sqrt(length / kG) * (1 + theta0 * theta0 / 16);
  std::printf(
      "pendulum: period %.5f s over %zu crossings, closed form %.5f s (%.3f%%), "
      "point mass %.5f s; max joint gap %.2e m\n",
      period, crossings.size(), closed, 100 * (period / closed - 1), point_mass,
      r.at("max_joint_gap").get<double>());
  // 0.3%: the integrator's period error is ~(omega h)^2 / 24 = 1e-4 and the crossing
  // interpolation's below that; the sphere's own inertia lengthens the period by 1.8%
  // (the point-mass period), so a harness that lost or misplaced it fails.
  EXPECT_NEAR(period / closed, 1.0, 3e-3);
  // The joint holds: a gap of 1 mm would already be 0.1% of the length.
  EXPECT_LT(r.at("max_joint_gap").get<double>(), 1e-3);
}

}  // namespace
