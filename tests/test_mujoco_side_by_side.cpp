// MuJoCo's own humanoid (libmujoco-samples), loaded by pabd's MJCF reader and
// run beside MuJoCo 2.2 from the same file, with no control (the motors'
// ctrl = 0): what must agree (mass, centre of mass, degrees of freedom, the
// free fall before the feet land) is asserted; what differs after landing
// (contact models, the joint chains of multi-hinge bodies) is printed, and
// docs/robot-models.md reports it.
#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "pabd/scene.h"

namespace pabd {
namespace {

const char* kHumanoid = "/usr/share/mujoco/model/humanoid/humanoid.xml";

/// Whole-model centre of mass [m] and mass [kg] of a pabd world.
std::pair<Vec3, double> pabd_com(const World& w) {
  Vec3 sum;
  double mass = 0;
  for (int i = 0; i < w.body_count(); ++i) {
    const BodyId id = w.body_at(i);
    if (w.is_static(id)) continue;
    sum += w.body_mass(id) * w.body_state(id).position;
    mass += w.body_mass(id);
  }
  return {(1 / mass) * sum, mass};
}

/// The same for MuJoCo, from the bodies' centres after forward kinematics.
std::pair<Vec3, double> mujoco_com(const mjModel* m, mjData* d) {
  mj_kinematics(m, d);
  Vec3 sum;
  double mass = 0;
  for (int b = 1; b < m->nbody; ++b) {
    sum += m->body_mass[b] * Vec3{d->xipos[3 * b], d->xipos[3 * b + 1], d->xipos[3 * b + 2]};
    mass += m->body_mass[b];
  }
  return {(1 / mass) * sum, mass};
}

TEST(MujocoSideBySide, HumanoidFallsAsInMujocoUntilItLands) {
  if (!std::filesystem::exists(kHumanoid)) GTEST_SKIP() << kHumanoid << " (libmujoco-samples)";
  char error[1000] = "";
  std::unique_ptr<mjModel, void (*)(mjModel*)> m(mj_loadXML(kHumanoid, nullptr, error, 1000),
                                                 mj_deleteModel);
  ASSERT_TRUE(m) << error;
  std::unique_ptr<mjData, void (*)(mjData*)> d(mj_makeData(m.get()), mj_deleteData);

  const Scene scene = load_scene(kHumanoid);
  World world = build_world(scene, scene.settings);
  ASSERT_EQ(world.settings().dt, m->opt.timestep);

  // Degrees of freedom: 6 per moving body less what each joint takes away
  // (a hinge 5), against MuJoCo's nv (27: a free joint and 21 hinges).
  int moving = 0;
  for (int i = 0; i < world.body_count(); ++i) moving += world.is_static(world.body_at(i)) ? 0 : 1;
  EXPECT_EQ(6 * moving - 5 * world.joint_count(), m->nv);

  const auto [c0, mass] = pabd_com(world);
  const auto [mc0, mujoco_mass] = mujoco_com(m.get(), d.get());
  EXPECT_NEAR(mass, mujoco_mass, 1e-9 * mass);  // chains move mass, never add it
  // The chains' intermediate bodies sit at joint anchors with 1% of a link's
  // mass: the centre of mass moves by at most 1% of an anchor's distance from
  // its link's centre (under 0.3 m), so within 3 mm.
  EXPECT_NEAR(length(c0 - mc0), 0, 3e-3);

  // Free fall: the feet are 0.215 m above the floor, so nothing touches for
  // sqrt(2 0.215 / 9.81) = 0.209 s. Both must fall g t^2 / 2 until then.
  std::printf("  t [s]   pabd COM z   MuJoCo COM z  [m]\n");
  const double dt = m->opt.timestep;
  const int fall_steps = static_cast<int>(0.15 / dt);
  double pabd_low = c0.z, mujoco_low = mc0.z, pabd_high_after = 0, mujoco_high_after = 0;
  for (int n = 1; n <= static_cast<int>(5.0 / dt); ++n) {
    ASSERT_TRUE(world.step().ok) << "step " << n;
    mj_step(m.get(), d.get());
    const double pz = pabd_com(world).first.z, mz = mujoco_com(m.get(), d.get()).first.z;
    if (n == fall_steps) {
      const double t = n * dt, fall = 0.5 * 9.81 * t * t;
      // pabd's implicit step falls h g t / 2 further than g t^2 / 2 (its
      // velocity is one step ahead): 0.5 0.005 9.81 0.15 = 3.7 mm; MuJoCo's
      // semi-implicit Euler the same. Both within 5 mm of the parabola.
      EXPECT_NEAR(c0.z - pz, fall, 5e-3);
      EXPECT_NEAR(mc0.z - mz, fall, 5e-3);
    }
    if (n * dt > 0.3) {  // after landing
      pabd_high_after = std::max(pabd_high_after, pz);
      mujoco_high_after = std::max(mujoco_high_after, mz);
    }
    pabd_low = std::min(pabd_low, pz);
    mujoco_low = std::min(mujoco_low, mz);
    if (n % 100 == 0) std::printf("  %5.2f   %8.3f     %8.3f\n", n * dt, pz, mz);
  }
  std::printf("  highest after landing: pabd %.3f m, MuJoCo %.3f m (start %.3f m)\n",
              pabd_high_after, mujoco_high_after, c0.z);
  // Both collapse: with no control the humanoid cannot stand, and ends low.
  EXPECT_LT(pabd_low, 0.5);
  EXPECT_LT(mujoco_low, 0.5);
}

TEST(MujocoSideBySide, ArmHoldsTheSamePoseUnderPositionActuators) {
  // scenes/arm.xml: position actuators (ctrl = 0) hold the arm straight out
  // against gravity; the sag where actuator torque meets gravity's is the
  // model's, not the solver's, so both engines must settle to the same pose.
  const std::string file = std::string(PABD_SOURCE_DIR) + "/scenes/arm.xml";
  char error[1000] = "";
  std::unique_ptr<mjModel, void (*)(mjModel*)> m(mj_loadXML(file.c_str(), nullptr, error, 1000),
                                                 mj_deleteModel);
  ASSERT_TRUE(m) << error;
  std::unique_ptr<mjData, void (*)(mjData*)> d(mj_makeData(m.get()), mj_deleteData);
  const Scene scene = load_scene(file);
  World world = build_world(scene, scene.settings);
  const BodyId forearm = world.find_body("forearm");  // the gripper is welded into it
  // The arm rings at about 5 Hz with a damping ratio of 0.02 (0.5 N m s/rad
  // against 400 N m/rad on about 0.5 kg m^2): MuJoCo's explicit damping keeps
  // it ringing for seconds, pabd's implicit step damps it sooner. Average the
  // pose over the third second (five periods) in both.
  const double dt = m->opt.timestep;
  const int steps = static_cast<int>(3.0 / dt), from = static_cast<int>(2.0 / dt);
  const int fb = mj_name2id(m.get(), mjOBJ_BODY, "forearm");
  const int gb = mj_name2id(m.get(), mjOBJ_BODY, "gripper");
  const double fm = m->body_mass[fb], gm = m->body_mass[gb];
  Vec3 ours, mujoco;
  for (int n = 1; n <= steps; ++n) {
    ASSERT_TRUE(world.step().ok);
    mj_step(m.get(), d.get());
    if (n <= from) continue;
    mj_kinematics(m.get(), d.get());
    // MuJoCo's forearm and gripper bodies, merged as pabd merges them.
    const Vec3 f{d->xipos[3 * fb], d->xipos[3 * fb + 1], d->xipos[3 * fb + 2]};
    const Vec3 g{d->xipos[3 * gb], d->xipos[3 * gb + 1], d->xipos[3 * gb + 2]};
    mujoco += (1 / (fm + gm)) * (fm * f + gm * g);
    ours += world.body_state(forearm).position;
  }
  ours = (1.0 / (steps - from)) * ours;
  mujoco = (1.0 / (steps - from)) * mujoco;
  std::printf(
      "  forearm centre, mean over 2-3 s: pabd (%.4f, %.4f, %.4f), MuJoCo (%.4f, %.4f, %.4f) m\n",
      ours.x, ours.y, ours.z, mujoco.x, mujoco.y, mujoco.z);
  // The start is (0.58, 0, 0.3). Statics give the sag: the shoulder holds
  // 9.81 (1.5 0.2 + 1 0.55 + 0.2 0.73) = 9.77 N m with 400 N m/rad, 0.0244
  // rad, the elbow 2.12 N m with 200, 0.0106 rad: the centre drops
  // 0.0244 0.58 + 0.0106 0.18 = 16.1 mm. Both within 1 mm of it and of each
  // other (what a 6% error in the sag would be).
  EXPECT_NEAR(ours.z, 0.3 - 0.0161, 1e-3);
  EXPECT_NEAR(ours.x, mujoco.x, 1e-3);
  EXPECT_NEAR(ours.z, mujoco.z, 1e-3);
  EXPECT_NEAR(ours.y, 0, 1e-3);
  EXPECT_NEAR(mujoco.y, 0, 1e-3);
}

}  // namespace
}  // namespace pabd
