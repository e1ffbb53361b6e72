// What the defaults must hold with no setting but dt and iterations: stacks
// with mass ratios, pyramids, and small disturbances of resting contacts
// (docs/method.md, "Robust defaults"). The heavy chain's cases are in
// test_iteration_order.cpp (HeavyChain.*).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "pabd/scene.h"
#include "pabd/world.h"
#include "support/robust_cases.h"

namespace pabd {
namespace {

const std::string kScenes = std::string(PABD_SOURCE_DIR) + "/scenes";

WorldDef defaults(int iterations) {
  WorldDef d = default_world_def();
  d.iterations = iterations;
  return d;
}

TEST(RobustDefaults, MassRatioStacksStand) {
  // The paper's six-box stack, each box 10x the one below (1 kg to 100 t), and
  // four-box stacks at ratios of 100, 1000 and 1e4, all at the paper's 30
  // iterations for 10 s. The bounds are the (robust::StackRun::stands):
  // drift under 2 cm, sink under 5 cm, tilt under 1 degree.
  struct Case {
    double ratio;
    int boxes;
  };
  for (const Case c : {Case{10, 6}, Case{100, 4}, Case{1e3, 4}, Case{1e4, 4}}) {
    const robust::StackRun r = robust::run_stack(c.ratio, c.boxes, defaults(30));
    std::printf("%d-box stack, ratio %g: drift %.3g m, sink %.3g m, tilt %.3g deg\n", c.boxes,
                c.ratio, r.drift, r.sink, r.tilt);
    EXPECT_TRUE(r.stands()) << "ratio " << c.ratio;
  }
}

TEST(RobustDefaults, SmallPyramidHoldsEveryBoxWithinOneCentimetre) {
  // 78 unit boxes, 12 at the base, 2 cm apart in each row, 20 iterations, 10
  // s: every box within 1 cm of where it started (the bound; the
  // boxes start touching, so this covers the first steps' settling too).
  World w(defaults(20));
  robust::add_pyramid(w, 12, 0.02);
  ASSERT_EQ(w.body_count(), 79);
  const double worst = robust::largest_motion(w, robust::kTenSeconds);
  std::printf("78-box pyramid: farthest box moved %.3g m in 10 s\n", worst);
  EXPECT_LT(worst, 0.01);
}

TEST(RobustDefaults, LargePyramidHoldsEveryBoxWithinTwoCentimetres) {
  // scenes/pyramid.json: 820 boxes, 40 at the base, at its own dt and
  // iterations (20), 10 s: every box within 2 cm (the bound).
  const Scene s = load_scene(kScenes + "/pyramid.json");
  World w = build_world(s, s.settings);
  const double worst = robust::largest_motion(w, robust::kTenSeconds);
  std::printf("820-box pyramid: farthest box moved %.3g m in 10 s\n", worst);
  EXPECT_LT(worst, 0.02);
}

TEST(RobustDefaults, ALightFootCarriesTheBodyWeldedAboveIt) {
  // A free articulation resting on one light body: a 0.3 kg flat foot (30 x 6
  // x 30 cm) on the ground, welded to a cube of 1, 4, 20 and 100 times its
  // mass, as a robot's foot under its leg. Its contacts must carry the cube:
  // sized for the foot alone, it sank 2.5 cm at 4:1 and went through the
  // ground (-8 and -15 cm) at 20:1 and 100:1 within 3 s. Bound: the foot's
  // centre at most 5 mm under its resting height after 3 s at the defaults
  // (measured 0.1 to 1.7 mm; the sink of the stacks' bound is 5 cm, this is a
  // tenth of it as the foot is only 6 cm tall).
  for (const double ratio : {1.0, 4.0, 20.0, 100.0}) {
    World w(default_world_def());
    BodyDef ground = default_body_def();
    ground.is_static = true;
    ground.shape = plane_shape({0, 1, 0}, 0);
    w.add_body(ground);
    BodyDef foot = default_body_def();
    foot.shape = box_shape({0.3, 0.06, 0.3});
    foot.mass = 0.3;
    foot.position = {0, 0.03, 0};
    const BodyId foot_id = w.add_body(foot);
    BodyDef cube = default_body_def();
    cube.shape = box_shape({0.3, 0.3, 0.3});
    cube.mass = 0.3 * ratio;
    cube.position = {0, 0.21, 0};
    FixedJointDef weld;
    weld.body_a = foot_id;
    weld.body_b = w.add_body(cube);
    weld.anchor = {0, 0.06, 0};
    w.add_fixed_joint(weld);
    double lowest = 1;
    for (int s = 0; s < 180; ++s) {
      ASSERT_TRUE(w.step().ok);
      lowest = std::min<double>(lowest, w.body_state(foot_id).position.y);
    }
    const double sink = 0.03 - w.body_state(foot_id).position.y;
    std::printf("foot under a %gx body: sink after 3 s %.3g m (lowest centre %.4f m)\n", ratio,
                sink, lowest);
    EXPECT_LT(sink, 0.005) << "ratio " << ratio;
  }
}

TEST(RobustDefaults, NudgedColumnsSettle) {
  // A column of 3, 5 and 10 boxes whose top box starts turning at 1e-4 rad/s
  // about a horizontal axis. A stable step damps the nudge; the previous
  // contact law (full penalties, tangential warm start) fed it: 5 boxes
  // rocked up to 1.6e-3 rad/s and 10 boxes to 7e-2 rad/s after 10 s. Bound:
  // every box below a tenth of the nudge after 10 s (measured 6e-15 to 8e-6
  // rad/s).
  for (int boxes : {3, 5, 10}) {
    World w(defaults(20));
    BodyDef ground = default_body_def();
    ground.is_static = true;
    ground.shape = plane_shape({0, 1, 0}, 0);
    w.add_body(ground);
    for (int k = 0; k < boxes; ++k) {
      BodyDef b = default_body_def();
      b.shape = box_shape({1, 1, 1});
      b.mass = 1;
      b.position = {0, 0.5 + k, 0};
      if (k == boxes - 1) b.angular_velocity = {1e-4, 0, 1e-4};
      w.add_body(b);
    }
    for (int s = 0; s < robust::kTenSeconds; ++s) ASSERT_TRUE(w.step().ok);
    double spin = 0;
    for (int i = 1; i < w.body_count(); ++i)
      spin = std::max(spin, length(w.body_state(w.body_at(i)).angular_velocity));
    std::printf("%d-box column nudged at 1.4e-4 rad/s: largest turn rate after 10 s %.3g rad/s\n",
                boxes, spin);
    EXPECT_LT(spin, 1.4e-5) << boxes << " boxes";
  }
}

}  // namespace
}  // namespace pabd
