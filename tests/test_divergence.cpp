// The classes of silent explosions found by random valid scenes, each fixed at
// its root, and the divergence guard for what remains (docs/method.md, "The
// divergence guard"): a step that creates energy or speed from nowhere fails
// with StepFailure::EnergyGrowth or SpeedGrowth, and `pabd run` exits 1.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "cli_runner.h"
#include "pabd/scene.h"
#include "pabd/world.h"
#include "stress/random_scene.h"

namespace pabd {
namespace {

/// Kinetic energy of every moving body [J].
double kinetic_energy(const World& w) {
  double e = 0;
  for (int i = 0; i < w.body_count(); ++i) {
    const BodyId id = w.body_at(i);
    if (w.is_static(id)) continue;
    const BodyState s = w.body_state(id);
    const Mat3 r = to_matrix(s.orientation);
    const Vec3 wb = transpose(r) * s.angular_velocity;  // body frame
    const Mat3 pi = w.body_affine_inertia(id);          // second moments, body frame
    const Mat3 inertia = trace(pi) * identity3() - pi;
    e += 0.5 * w.body_mass(id) * dot(s.velocity, s.velocity) + 0.5 * dot(wb, inertia * wb);
  }
  return e;
}

BodyId add_box(World& w, const char* name, Vec3 position, Real mass, Real size) {
  BodyDef b = default_body_def();
  b.name = name;
  b.shape = box_shape({size, size, size});
  b.position = position;
  b.mass = mass;
  return w.add_body(b);
}

TEST(Divergence, SliderWithALightBodyAKeepsItsEnergy) {
  // A spinning 10 g body_a holding a 1 kg body_b on a slider, in free space.
  // The rail turns with body_a; its point bond on body_a sat at the anchor,
  // not at the foot of body_b's point, so the light body turned freely under
  // the heavy one far along the rail: 1e5 m/s within 170 steps. Implicit Euler
  // only loses energy, but 20 iterations do not converge a 1000:1 pair: the
  // first step, which locks the light body's spin to the heavy one, gains up
  // to 2.6% (measured). Over the next 599 steps the 3:1 pair gains 1.9% more
  // (the 100:1 and 1000:1 pairs under 0.1%). Before free islands kept their
  // momentum (solver/island_momentum.h) this read 0.3%: the unconverged
  // sweeps gave the pair 12% of spurious momentum (0.12 kg m/s along x,
  // where it has none), whose decay hid the gain. 5% and 2.5% leave room for
  // round-off and catch any return of the growth; the momentum is now exact.
  for (const Real ratio : {3.0, 100.0, 1000.0}) {
    WorldDef def = default_world_def();
    def.gravity = {0, 0, 0};
    World w(def);
    const BodyId a = add_box(w, "a", {0, 2, 0}, 1 / ratio, 0.2);
    const BodyId b = add_box(w, "b", {1, 2, 0}, 1, 0.5);
    BodyState sa = w.body_state(a);
    sa.angular_velocity = {1, 2, 3};
    w.set_body_state(a, sa);
    BodyState sb = w.body_state(b);
    sb.velocity = {0, 0, 1};
    w.set_body_state(b, sb);
    SliderJointDef j;
    j.body_a = a;
    j.body_b = b;
    j.anchor = {0.5, 2, 0};
    j.axis = {1, 0, 0};
    w.add_slider_joint(j);
    const double start = kinetic_energy(w);
    ASSERT_TRUE(w.step().ok);
    const double first = kinetic_energy(w);
    EXPECT_LE(first, 1.05 * start) << "ratio " << ratio;
    for (int s = 1; s < 600; ++s) ASSERT_TRUE(w.step().ok) << "ratio " << ratio << ", step " << s;
    EXPECT_LE(kinetic_energy(w), 1.025 * first) << "ratio " << ratio;
    // In free space the pair keeps the momentum it started with: 1 kg m/s along z.
    const Vec3 p =
        w.body_mass(a) * w.body_state(a).velocity + w.body_mass(b) * w.body_state(b).velocity;
    EXPECT_NEAR(p.x, 0, 1e-9) << "ratio " << ratio;
    EXPECT_NEAR(p.z, 1, 1e-9) << "ratio " << ratio;
  }
}

TEST(Divergence, ZeroLengthDistanceJointHoldsLikeABallJoint) {
  // A rigid rod of length 0 between points off the centres of two spinning
  // bodies. The rod law |y_b - y_a| - 0 has no direction at its solution and
  // its pull lambda/kappa divided by the vanishing gap threw the bodies; it is
  // now a ball joint. The gap stays within 1 mm (the hard joints' tolerance
  // at 20 iterations) and the energy does not grow (1e-9 J: round-off).
  WorldDef def = default_world_def();
  def.gravity = {0, 0, 0};
  World w(def);
  const BodyId a = add_box(w, "a", {0, 2, 0}, 1, 0.5);
  const BodyId b = add_box(w, "b", {1, 2, 0}, 0.01, 0.2);
  BodyState sa = w.body_state(a);
  sa.angular_velocity = {0, 0, 3};
  w.set_body_state(a, sa);
  DistanceJointDef j;
  j.body_a = a;
  j.body_b = b;
  j.anchor_a = j.anchor_b = {0.5, 2.1, 0};
  const JointId id = w.add_distance_joint(j);
  const double start = kinetic_energy(w);
  for (int s = 0; s < 600; ++s) {
    ASSERT_TRUE(w.step().ok) << "step " << s;
    const JointInfo info = w.joint_info(id);
    ASSERT_LT(length(info.world_a - info.world_b), 1e-3) << "step " << s;
  }
  EXPECT_LE(kinetic_energy(w), start + 1e-9);
}

TEST(Divergence, RelaxationAtItsLimitKeepsARestingBoxStill) {
  // From relaxation 1.6 a resting box blew up within 60 steps (sizes 5 cm to
  // 1 m); the range is now (0, 1.5]. At 1.5 a box of each size stays put for
  // 10 s: within 1 mm of its rest height (the contacts' resting sink is
  // under 0.5 mm) and slower than 1 mm/s.
  for (const Real size : {0.05, 0.3, 1.0}) {
    WorldDef def = default_world_def();
    def.relaxation = kMaxRelaxation;
    World w(def);
    BodyDef ground = default_body_def();
    ground.is_static = true;
    ground.shape = plane_shape({0, 1, 0}, 0);
    w.add_body(ground);
    const BodyId box = add_box(w, "box", {0, size / 2, 0}, 1, size);
    for (int s = 0; s < 600; ++s) ASSERT_TRUE(w.step().ok) << "size " << size << ", step " << s;
    const BodyState st = w.body_state(box);
    EXPECT_NEAR(st.position.y, size / 2, 1e-3) << "size " << size;
    EXPECT_LT(length(st.velocity), 1e-3) << "size " << size;
  }
}

TEST(Divergence, ALimitViolatedAtTheStartRecoversWithoutAThrow) {
  // A slider created 1.5 m outside its limits [1.5, 1.6] (random stress seed
  // 20098, reduced). Closed within one step of 1/240 s it threw the bodies
  // apart at 360 m/s. It now closes at kLimitRecoverySpeed, 1 m/s: the
  // travel's rate stays within it (5% for the step's discrete rate and the
  // solver's residual) and the range is reached after 1.5 s (1 cm: the
  // residual at 20 iterations, measured under 1 mm).
  WorldDef def = default_world_def();
  def.gravity = {0, 0, 0};
  def.dt = 1.0 / 240;
  World w(def);
  SliderJointDef j;
  j.body_a = add_box(w, "a", {0, 2, 0}, 0.4, 0.2);
  j.body_b = add_box(w, "b", {1, 2, 0}, 0.12, 0.1);
  j.anchor = {0.5, 2, 0};
  j.axis = {1, 0, 0};
  j.limits.enabled = true;
  j.limits.lower = 1.5;
  j.limits.upper = 1.6;
  const JointId slider = w.add_slider_joint(j);
  Real before = w.joint_info(slider).coordinate, fastest = 0;
  for (int s = 0; s < 480; ++s) {
    ASSERT_TRUE(w.step().ok) << "step " << s;
    const Real now = w.joint_info(slider).coordinate;
    fastest = std::fmax(fastest, std::fabs(now - before) / def.dt);
    before = now;
  }
  EXPECT_LE(fastest, 1.05);
  EXPECT_GE(before, 1.5 - 0.01);
  EXPECT_LE(before, 1.6 + 0.01);
}

TEST(Divergence, HeavyBodysLeverThrowsALightOneWithinTheGuard) {
  // tests/data/lever_throw.json: a 105 kg compound falls on the ground and
  // spins up to 22 rad/s; the 7 g sphere on its slider rail 1.3 m away is
  // thrown at 24 m/s. A sound step: the guard's speed bound without the
  // heavier neighbour's motion (21 m/s) stopped it. Now every step passes,
  // the sphere's peak speed shows the throw happened (over 20 m/s), and the
  // energy stays within what the fall supplies (implicit Euler dissipates;
  // 1% for the unconverged iterations).
  const Scene scene = load_scene(std::string(PABD_SOURCE_DIR) + "/tests/data/lever_throw.json");
  World w = build_world(scene, scene.settings);
  const BodyId sphere = w.find_body("b156");
  const auto energy = [&] {
    double potential = 0;
    for (int i = 0; i < w.body_count(); ++i)
      if (!w.is_static(w.body_at(i)))
        potential += w.body_mass(w.body_at(i)) * 9.81 * w.body_state(w.body_at(i)).position.y;
    return kinetic_energy(w) + potential;
  };
  const double start = energy();
  double fastest = 0;
  for (int s = 0; s < 120; ++s) {
    ASSERT_TRUE(w.step().ok) << "step " << s;
    fastest = std::fmax(fastest, length(w.body_state(sphere).velocity));
    EXPECT_LE(energy(), 1.01 * start) << "step " << s;
  }
  EXPECT_GT(fastest, 20);
}

TEST(Divergence, EnergeticScenesPassTheGuard) {
  // What the guard must never stop: a body falling 10 s (gravity's work is in
  // the audit), a stretched stiff spring let go (its elastic energy), and a
  // motor spinning a heavy bar up (the drive's work).
  World w;
  const BodyId faller = add_box(w, "faller", {-5, 100, 0}, 1, 0.5);
  const BodyId weight = add_box(w, "weight", {5, 10, 0}, 1, 0.5);
  SpringDef spring;
  spring.body_a = world_frame();
  spring.body_b = weight;
  spring.anchor_a = {5, 12, 0};
  spring.anchor_b = {5, 10, 0};
  spring.rest_length = 0;
  spring.stiffness = 1e4;
  w.add_spring(spring);
  BodyDef bar = default_body_def();
  bar.name = "bar";
  bar.shape = box_shape({2, 0.1, 0.1});
  bar.position = {0, 50, 10};
  bar.mass = 100;
  const BodyId rotor = w.add_body(bar);
  HingeJointDef hinge;
  hinge.body_a = world_frame();
  hinge.body_b = rotor;
  hinge.anchor = {0, 50, 10};
  hinge.axis = {0, 0, 1};
  hinge.drive.mode = DriveMode::Velocity;
  hinge.drive.target = 20;
  w.add_hinge_joint(hinge);
  for (int s = 0; s < 600; ++s) ASSERT_TRUE(w.step().ok) << "step " << s;
  EXPECT_LT(w.body_state(faller).velocity.y, -90);  // g t = 98 m/s
  EXPECT_NEAR(w.body_state(rotor).angular_velocity.z, 20, 0.5);
}

TEST(Divergence, GuardStopsARandomSceneThatDiverges) {
  // Seed 176 of the stress generator (25 bodies, 10 joints) diverges: a light
  // body leaves at over 300 m/s within 10 steps. `pabd run` exits 1 with one
  // line naming the step and the body, instead of 0 with the state exploded.
  // (When a fix makes this seed stable, pick another guarded seed from
  // `pabd_stress --csv`.)
  const std::string path = test::out_path("divergence", ".json");
  std::ofstream(path) << stress::random_scene_json(176) << '\n';
  const test::Outcome r = test::run_pabd("divergence", "run " + test::quote(path) + " --steps 120");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_TRUE(test::one_line(r.err)) << r.err;
  EXPECT_NE(r.err.find("diverged"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace pabd
