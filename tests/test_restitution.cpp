// Restitution (src/contacts/contact_restitution.h): bounce heights against the
// closed form e^2 H, energy of an elastic ball, two spheres exchanging their
// velocities, resting contacts that stay at rest, e = 0 unchanged, thread
// independence, and the API's and scene format's checks. Measured values are
// printed.
//
// Where the impact falls inside a step. Free fall and flight are symplectic
// Euler (v += h g, c += h v). The ball hits the ground during step N, which
// starts at a gap g0 in (0, v_N h + g h^2] with speed v_N (its approach
// velocity, v_n0 = -v_N), and ends it touching, bounced to e v_N. Euler's fall
// of N steps is g h^2 N (N + 1) / 2 = v_N^2 / (2g) + v_N h / 2, so
// v_N^2 / (2g) = H - g0 - v_N h / 2; the rebound's Euler flight from gap 0
// peaks at (e v_N)^2 / (2g) - e v_N h / 2 (to g h^2, sampling included). So
// the apex is e^2 (H - g0 - v_N h / 2) - e v_N h / 2: at most
// e^2 H - (e^2 + e) v_N h / 2 and at least e^2 H - (3 e^2 + e) v_N h / 2
// (g0 <= v_N h), each to g h^2. For e = 0.5 from 1 m at 60 Hz: 0.204 to
// 0.232 m. An elastic ball loses g0 + v_N h per bounce, at most 2 v_N h.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "pabd/scene.h"
#include "pabd/world.h"

namespace pabd {
namespace {

constexpr double kG = 9.81;
constexpr double kH = 1.0 / 60.0;
constexpr double kRadius = 0.1;

WorldDef world_def(Vec3 gravity = {0, -kG, 0}, int threads = 1) {
  WorldDef wd = default_world_def();
  wd.iterations = 20;
  wd.threads = threads;
  wd.gravity = gravity;
  return wd;
}

void add_ground(World& w, double restitution = 0) {
  BodyDef g = default_body_def();
  g.name = "ground";
  g.is_static = true;
  g.shape = plane_shape({0, 1, 0}, 0);
  g.restitution = restitution;
  w.add_body(g);
}

BodyId add_body(World& w, const ShapeDef& shape, Vec3 position, double restitution,
                Vec3 velocity = {}) {
  BodyDef b = default_body_def();
  b.shape = shape;
  b.position = position;
  b.velocity = velocity;
  b.mass = 1;
  b.restitution = restitution;
  return w.add_body(b);
}

/// Apexes of a body's bounces: the highest bottom gap of each flight after a
/// touchdown (bottom = centre height - half_height), sampled at step ends.
std::vector<double> bounce_apexes(World& w, BodyId id, double half_height, int steps) {
  std::vector<double> apexes;
  double best = -1;
  bool rising = false;
  double previous_v = 0;
  for (int s = 0; s < steps; ++s) {
    w.step();
    const BodyState st = w.body_state(id);
    const double gap = st.position.y - half_height;
    if (previous_v <= 0 && st.velocity.y > 0) {  // a bounce: a new flight starts
      rising = true;
      best = gap;
    }
    if (rising) best = std::max(best, gap);
    if (rising && previous_v > 0 && st.velocity.y <= 0) {  // the apex is behind
      apexes.push_back(best);
      rising = false;
    }
    previous_v = st.velocity.y;
  }
  return apexes;
}

/// The bracket of the top of this file for the apex after a drop from H with
/// restitution e (v_N from the drop, g h^2 on each side).
struct Bracket {
  double low, high;
};
Bracket apex_bracket(double e, double drop) {
  const double v = std::sqrt(2 * kG * drop), slack = kG * kH * kH;
  return {e * e * drop - (3 * e * e + e) * v * kH / 2 - slack,
          e * e * drop - (e * e + e) * v * kH / 2 + slack};
}

TEST(Restitution, SphereReboundsToESquaredTimesTheDrop) {
  const double e = 0.5, drop = 1.0;
  World w(world_def());
  add_ground(w, 0);
  const BodyId ball = add_body(w, sphere_shape(kRadius), {0, kRadius + drop, 0}, e);
  const std::vector<double> apex = bounce_apexes(w, ball, kRadius, 150);
  ASSERT_GE(apex.size(), 1u);
  const Bracket b = apex_bracket(e, drop);
  std::printf("sphere e = 0.5 from 1 m: first apex %.4f m (e^2 H = %.4f, bracket %.4f .. %.4f)\n",
              apex[0], e * e * drop, b.low, b.high);
  EXPECT_GE(apex[0], b.low);
  EXPECT_LE(apex[0], b.high);
}

TEST(Restitution, BoxLandingFlatReboundsToESquaredTimesTheDrop) {
  // Four corners bounce at once: the Jacobi rounds with mass splitting
  // (contact_restitution.h) leave 1e-4 of the velocity change (3 times the
  // bounce speed here), well inside the bracket's g h^2 (1% of the apex); the
  // symmetric landing must not tip the box.
  const double e = 0.5, drop = 1.0;
  World w(world_def());
  add_ground(w, 0);
  const BodyId box = add_body(w, box_shape({0.5, 0.5, 0.5}), {0, 0.25 + drop, 0}, e);
  const std::vector<double> apex = bounce_apexes(w, box, 0.25, 150);
  ASSERT_GE(apex.size(), 1u);
  const Bracket b = apex_bracket(e, drop);
  const double spin = length(w.body_state(box).angular_velocity);
  std::printf("box e = 0.5 from 1 m, flat: first apex %.4f m (bracket %.4f .. %.4f), spin %.2e\n",
              apex[0], b.low, b.high, spin);
  EXPECT_GE(apex[0], b.low);
  EXPECT_LE(apex[0], b.high);
  EXPECT_LT(spin, 1e-6);  // symmetric: only rounding can turn it
}

TEST(Restitution, ElasticBallNeverGainsEnergy) {
  const double drop = 1.0;
  World w(world_def());
  add_ground(w, 0);
  const BodyId ball = add_body(w, sphere_shape(kRadius), {0, kRadius + drop, 0}, 1.0);
  const std::vector<double> apex = bounce_apexes(w, ball, kRadius, 600);  // 10 s
  ASSERT_GE(apex.size(), 4u);
  // From each height A (the drop, then each apex) the next apex is
  // A - g0 - v h with v = sqrt(2 g A), g0 in [0, v h] (top of this file), to
  // g h^2: never higher than A, and at most 2 v h lower.
  double from = drop;
  for (std::size_t i = 0; i < apex.size(); ++i) {
    const double v = std::sqrt(2 * kG * from), slack = kG * kH * kH;
    std::printf("e = 1 bounce %zu: apex %.4f m (from %.4f: bracket %.4f .. %.4f)\n", i + 1, apex[i],
                from, from - 2 * v * kH - slack, from - v * kH + slack);
    EXPECT_LE(apex[i], from - v * kH + slack);
    EXPECT_GE(apex[i], from - 2 * v * kH - slack);
    from = apex[i];
  }
}

TEST(Restitution, ZeroIsTheInelasticDefault) {
  // The same box dropped three ways: restitution left at its default, set to 0
  // explicitly, and set to 0 beside a bouncing ball far away (so the
  // restitution stage runs in the same steps): all three are bit for bit equal.
  auto run = [](bool explicit_zero, bool bouncing_neighbour) {
    World w(world_def());
    add_ground(w);
    BodyDef b = default_body_def();
    b.shape = box_shape({1, 1, 1});
    b.position = {0, 0.8, 0};
    b.orientation = normalized(Quat{1, 0.1, 0.05, 0.02});
    b.mass = 1;
    if (explicit_zero) b.restitution = 0;
    const BodyId box = w.add_body(b);
    if (bouncing_neighbour) add_body(w, sphere_shape(kRadius), {20, 0.5, 0}, 1.0);
    std::vector<BodyState> states;
    double highest_after_touch = -1, touch = -1;
    for (int s = 0; s < 180; ++s) {
      w.step();
      states.push_back(w.body_state(box));
      if (touch < 0 && w.contact_count() > 0) touch = states.back().position.y;
      if (touch >= 0) highest_after_touch = std::max(highest_after_touch, states.back().position.y);
    }
    return std::make_tuple(states, touch, highest_after_touch);
  };
  const auto [plain, touch, highest] = run(false, false);
  const auto [zero, t2, h2] = run(true, false);
  const auto [beside, t3, h3] = run(true, true);
  ASSERT_EQ(plain.size(), zero.size());
  bool same = true;
  for (std::size_t i = 0; i < plain.size(); ++i) {
    same = same && std::memcmp(&plain[i], &zero[i], sizeof(BodyState)) == 0 &&
           std::memcmp(&plain[i], &beside[i], sizeof(BodyState)) == 0;
  }
  const BodyState end = plain.back();
  std::printf(
      "e = 0 box: identical %d, first touch at y %.4f, highest after %.4f, end speed %.2e\n",
      same ? 1 : 0, touch, highest, length(end.velocity));
  EXPECT_TRUE(same);
  // Falling (tilted) onto its corners it may settle, never rise: no bounce
  // above the height at which it first touched.
  EXPECT_LE(highest, touch + 1e-9);
  EXPECT_LT(length(end.velocity), 1e-2);  // at rest after 3 s (test_contact's bound)
}

TEST(Restitution, RestingBoxWithElasticContactsStaysAtRest) {
  World w(world_def());
  add_ground(w, 1.0);
  const BodyId box = add_body(w, box_shape({1, 1, 1}), {0, 0.5, 0}, 1.0);
  double highest = 0;
  for (int s = 0; s < 120; ++s) {
    w.step();
    highest = std::max(highest, std::fabs(w.body_state(box).position.y - 0.5));
  }
  const BodyState st = w.body_state(box);
  std::printf("resting box e = 1: speed after 2 s %.2e m/s, largest height change %.2e m\n",
              length(st.velocity), highest);
  // The threshold 2 |g| h (0.33 m/s) is far above a resting contact's
  // approach (|g| h at most): it never bounces. 1 cm/s, as test_contact's rest.
  EXPECT_LT(length(st.velocity), 1e-2);
  EXPECT_LT(highest, 5e-3);  // test_contact's 5 mm rest bound
}

/// Two equal spheres meet head-on at +-1 m/s in zero gravity; returns their
/// velocities along x once they have separated.
std::pair<double, double> head_on(double e, int threads = 1,
                                  IterationOrder order = IterationOrder::Colored) {
  WorldDef wd = world_def({0, 0, 0}, threads);
  wd.iteration_order = order;
  World w(wd);
  const BodyId a = add_body(w, sphere_shape(kRadius), {-0.5, 0, 0}, e, {1, 0, 0});
  const BodyId b = add_body(w, sphere_shape(kRadius), {0.5, 0, 0}, e, {-1, 0, 0});
  for (int s = 0; s < 60; ++s) w.step();
  return {w.body_state(a).velocity.x, w.body_state(b).velocity.x};
}

TEST(Restitution, EqualSpheresExchangeVelocitiesWhenElastic) {
  // One bouncing contact per body: the round sets the relative normal velocity
  // to e times the approach exactly, with equal and opposite impulses, so the
  // closed form v_a' = -e, v_b' = e (equal masses, +-1 m/s) holds to rounding.
  // Jacobi sweeps move both spheres by equal and opposite amounts in every
  // iteration, so momentum holds to rounding: 1e-9 m/s. Colored sweeps solve
  // one sphere against the other's latest pose, which conserves momentum only
  // as the step converges: measured 4.8e-7 m/s after 20 iterations, 1e-12
  // after 40, so 1e-6 m/s (1e-6 of the speed).
  for (IterationOrder order : {IterationOrder::Jacobi, IterationOrder::Colored}) {
    const double tolerance = order == IterationOrder::Jacobi ? 1e-9 : 1e-6;
    for (double e : {1.0, 0.5}) {
      const auto [va, vb] = head_on(e, 1, order);
      std::printf("head-on e = %.1f (%s): v_a %.12f, v_b %.12f (expected %.1f, %.1f)\n", e,
                  order == IterationOrder::Jacobi ? "jacobi" : "colored", va, vb, -e, e);
      EXPECT_NEAR(va, -e, tolerance);
      EXPECT_NEAR(vb, e, tolerance);
    }
  }
}

TEST(Restitution, SameResultForAnyThreadCount) {
  // A heap of bouncing spheres and boxes (many simultaneous bounces on shared
  // bodies): the end state is bit for bit the same for 1, 2 and 3 threads.
  auto run = [](int threads) {
    World w(world_def({0, -kG, 0}, threads));
    add_ground(w, 0.3);
    std::vector<BodyId> ids;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        for (int l = 0; l < 3; ++l) {
          const Vec3 p{0.31 * i, 0.3 + 0.35 * l, 0.29 * j};
          const double e = 0.2 + 0.05 * ((i + j + l) % 5);
          ids.push_back((i + j + l) % 2 ? add_body(w, sphere_shape(0.14), p, e)
                                        : add_body(w, box_shape({0.25, 0.25, 0.25}), p, e));
        }
    for (int s = 0; s < 120; ++s) w.step();
    std::vector<BodyState> out;
    for (BodyId id : ids) out.push_back(w.body_state(id));
    return out;
  };
  const std::vector<BodyState> one = run(1), two = run(2), three = run(3);
  bool same = true;
  for (std::size_t i = 0; i < one.size(); ++i)
    same = same && std::memcmp(&one[i], &two[i], sizeof(BodyState)) == 0 &&
           std::memcmp(&one[i], &three[i], sizeof(BodyState)) == 0;
  std::printf("48 bouncing bodies, 1/2/3 threads: identical %d\n", same ? 1 : 0);
  EXPECT_TRUE(same);
}

TEST(Restitution, ApiRejectsOutOfRange) {
  for (double e : {-0.1, 1.5, std::numeric_limits<double>::quiet_NaN()}) {
    World w(world_def());
    BodyDef b = default_body_def();
    b.name = "ball";
    b.shape = sphere_shape(kRadius);
    b.restitution = e;
    std::string message;
    try {
      w.add_body(b);
    } catch (const Error& err) {
      message = err.what();
    }
    std::printf("restitution %g: \"%s\"\n", e, message.c_str());
    EXPECT_EQ(message, "body 'ball': restitution: expected a number in [0, 1]");
  }
}

TEST(Restitution, SceneKeyIsValidated) {
  auto error_of = [](const std::string& text) -> std::string {
    try {
      parse_scene(text, "test.json");
    } catch (const SceneError& e) {
      return e.what();
    }
    return "";
  };
  const std::string sphere = R"("shape": {"type": "sphere", "radius": 0.1})";
  for (const char* e : {"-0.1", "1.5", "\"x\""}) {
    const std::string body = R"({"bodies": [{)" + sphere + R"(, "restitution": )" + e + "}]}";
    const std::string msg = error_of(body);
    std::printf("scene restitution %s: \"%s\"\n", e, msg.c_str());
    EXPECT_EQ(
        msg,
        std::string("test.json: /bodies/0/restitution: expected a number in [0, 1], got ") + e);
  }
  const std::string array = R"({"bodies": [], "arrays": [{"name": "b", "count": [1, 1, 1],
      "spacing": [1, 1, 1], )" +
                            sphere + R"(, "restitution": 2}]})";
  EXPECT_EQ(error_of(array),
            "test.json: /arrays/0/restitution: expected a number in [0, 1], got 2");
  // A valid value reaches the BodyDef, in a body and in an array's bodies.
  const Scene s = parse_scene(R"({"bodies": [{)" + sphere + R"(, "restitution": 0.75}],
      "arrays": [{"name": "b", "count": [2, 1, 1], "spacing": [1, 1, 1], )" +
                                  sphere + R"(, "restitution": 0.25}]})",
                              "test.json");
  ASSERT_EQ(s.bodies.size(), 3u);
  EXPECT_EQ(s.bodies[0].restitution, 0.75);
  EXPECT_EQ(s.bodies[1].restitution, 0.25);
  EXPECT_EQ(s.bodies[2].restitution, 0.25);
  EXPECT_EQ(parse_scene(R"({"bodies": [{)" + sphere + "}]}", "test.json").bodies[0].restitution,
            0.0);
}

}  // namespace
}  // namespace pabd
