// The paper's coupled scenes at the engine's defaults (docs/fields.md):
// scenes/robot_dog_sand.json, scenes/jeeps_sand.json, scenes/sailboat.json.
// Each is checked against what issue 17 asks of it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

#include "pabd/scene.h"
#include "pabd/world.h"

namespace pabd {
namespace {

std::string scene_path(const char* name) {
  return std::string(PABD_SOURCE_DIR) + "/scenes/" + name;
}

/// Angle between a body's local +Y and the world's +Y [degrees].
Real tilt_deg(Quat q) {
  const Real up_y = 1 - 2 * (q.x * q.x + q.z * q.z);
  return std::acos(std::clamp(up_y, Real(-1), Real(1))) * 180 / std::numbers::pi;
}

/// Heading of a body's local +x in the x-z plane, toward -z positive [degrees].
Real heading_deg(Quat q) {
  const Vec3 f = rotate(q, {1, 0, 0});
  return std::atan2(-f.z, f.x) * 180 / std::numbers::pi;
}

TEST(FieldScenes, TheDogWalksOnSandAndTheSandKeepsItsVolume) {
  const Scene scene = load_scene(scene_path("robot_dog_sand.json"));
  World world = build_world(scene, scene.settings);
  const BodyId torso = world.find_body("torso");
  const double volume = world.sand_volume();
  const Vec3 start = world.body_state(torso).position;
  Real max_tilt = 0;
  for (int i = 0; i < 600; ++i) {  // 10 s
    ASSERT_TRUE(world.step().ok) << "step " << i;
    max_tilt = std::max(max_tilt, tilt_deg(world.body_state(torso).orientation));
  }
  // The bound: the volume of sand to 1e-6 relative over 10 s (the
  // moves between vertices keep it to rounding, ~1e-13 here).
  EXPECT_NEAR(world.sand_volume(), volume, 1e-6 * volume);
  // It walks forward, slower than on rigid ground (2.2 m in 7.5 s there):
  // its feet sink and push the sand aside. Measured 1.1 m in 8.3 s.
  const Real walked = world.body_state(torso).position.x - start.x;
  std::printf("dog on sand: walked %.2f m in 10 s, tilt <= %.1f deg, volume change %.2e\n", walked,
              max_tilt, std::abs(world.sand_volume() / volume - 1));
  EXPECT_GT(walked, 0.5);
  EXPECT_LT(max_tilt, 45);  // upright: no roll-over
  // The feet left footprints: some vertex was pressed below the bed's
  // initial surface (y = 0) by more than a centimetre.
  const SurfaceInfo sand = world.surface(0);
  EXPECT_LT(*std::min_element(sand.height.begin(), sand.height.end()), -0.01);
}

TEST(FieldScenes, TwentyEightJeepsWadeThroughSand) {
  const Scene scene = load_scene(scene_path("jeeps_sand.json"));
  World world = build_world(scene, scene.settings);
  std::vector<BodyId> chassis;
  std::vector<Real> start;
  for (int k = 0; k < 28; ++k) {
    chassis.push_back(world.find_body("chassis_" + std::to_string(k)));
    start.push_back(world.body_state(chassis.back()).position.x);
  }
  const double volume = world.sand_volume();
  for (int i = 0; i < 1200; ++i) ASSERT_TRUE(world.step().ok) << "step " << i;  // 20 s
  int advanced = 0;
  for (int k = 0; k < 28; ++k)
    if (world.body_state(chassis[std::size_t(k)]).position.x - start[std::size_t(k)] >= 3)
      ++advanced;
  Real least = 1e9;
  for (int k = 0; k < 28; ++k)
    least = std::min(least,
                     world.body_state(chassis[std::size_t(k)]).position.x - start[std::size_t(k)]);
  std::printf("jeeps on sand: %d of 28 advanced 3 m in 20 s, the least %.2f m\n", advanced, least);
  // The bound: at least 20 of the 28 advance 3 m in 20 s. At 2 rad/s
  // on 0.4 m wheels a jeep rolls 16 m on hard ground; measured on sand, 15.
  EXPECT_GE(advanced, 20);
  EXPECT_NEAR(world.sand_volume(), volume, 1e-6 * volume);
  // Ruts: the wheels (3.3 kN each on a footprint of a few cells) pressed the
  // sand down centimetres below its initial surface (y = 0).
  const SurfaceInfo sand = world.surface(0);
  EXPECT_LT(*std::min_element(sand.height.begin(), sand.height.end()), -0.02);
}

/// The sailboat for `seconds`, the steering hinge driven to `boom` [rad] from
/// the start (0: the boom stays square across the wind).
struct Voyage {
  Vec3 start, end;
  Real lowest = 1e9, highest = -1e9;  ///< hull centre height over the first 5 s [m]
  Real heading = 0;                   ///< at the end [degrees]
  Real max_tilt = 0;
  Real max_strain = 0;     ///< largest |length / rest - 1| of a sail edge, at the end
  Real min_alignment = 1;  ///< smallest cos between a sail triangle's normal and the sail's mean
};

Voyage sail(Real seconds, Real boom) {
  const Scene scene = load_scene(scene_path("sailboat.json"));
  World world = build_world(scene, scene.settings);
  if (boom != 0) {
    for (int j = 0; j < world.joint_count(); ++j) {
      const JointId id = world.joint_at(j);
      if (world.joint_info(id).kind != JointKind::Hinge) continue;
      JointDrive drive;
      drive.mode = DriveMode::Position;
      drive.target = boom;
      drive.stiffness = 5000;
      drive.damping = 200;
      world.set_joint_drive(id, drive);
    }
  }
  const BodyId hull = world.find_body("hull");
  Voyage v;
  v.start = world.body_state(hull).position;
  const int steps = static_cast<int>(std::lround(seconds / scene.settings.dt));
  for (int i = 0; i < steps; ++i) {
    EXPECT_TRUE(world.step().ok) << "step " << i;
    const BodyState s = world.body_state(hull);
    if (i * scene.settings.dt < 5) {
      v.lowest = std::min(v.lowest, s.position.y);
      v.highest = std::max(v.highest, s.position.y);
    }
    v.max_tilt = std::max(v.max_tilt, tilt_deg(s.orientation));
  }
  const BodyState s = world.body_state(hull);
  v.end = s.position;
  v.heading = heading_deg(s.orientation);
  for (int c = 0; c < world.cloth_count(); ++c) {
    const ClothInfo cloth = world.cloth(c);
    const ClothDef& def = scene.cloths[std::size_t(c)];
    auto pos = [&](int k) {
      return world.body_state(world.body_at(cloth.particles[std::size_t(k)])).position;
    };
    std::vector<Vec3> normals;
    Vec3 mean{0, 0, 0};
    for (std::size_t t = 0; t < cloth.triangles.size(); t += 3) {
      const int i[3] = {cloth.triangles[t], cloth.triangles[t + 1], cloth.triangles[t + 2]};
      for (int e = 0; e < 3; ++e) {
        const int a = i[e], b = i[(e + 1) % 3];
        const Real rest = length(def.vertices[std::size_t(b)] - def.vertices[std::size_t(a)]);
        v.max_strain = std::max(v.max_strain, std::abs(length(pos(b) - pos(a)) / rest - 1));
      }
      normals.push_back(cross(pos(i[1]) - pos(i[0]), pos(i[2]) - pos(i[0])));
      mean += normals.back();
    }
    for (const Vec3 n : normals)
      v.min_alignment = std::min(v.min_alignment, dot(n, mean) / (length(n) * length(mean)));
  }
  return v;
}

TEST(FieldScenes, TheSailboatFloatsSailsDownwindAndKeepsItsSails) {
  const Voyage v = sail(30, 0);
  std::printf(
      "sailboat: %.1f m downwind in 30 s, hull y in [%.2f, %.2f] (start %.2f) over 5 s, "
      "tilt <= %.1f deg, sail strain <= %.3f, alignment >= %.2f\n",
      v.end.x - v.start.x, v.lowest, v.highest, v.start.y, v.max_tilt, v.max_strain,
      v.min_alignment);
  // Afloat: over the first 5 s the hull's centre stays within 0.5 m of
  // where it started (it rides the 0.12 m and 0.06 m waves).
  EXPECT_GT(v.lowest, v.start.y - 0.5);
  EXPECT_LT(v.highest, v.start.y + 0.5);
  // At least 5 m downwind (+x) in 30 s; measured about 40 m (1.5 m/s in an
  // 8 m/s wind, the hull's drag against the sails' push).
  EXPECT_GT(v.end.x - v.start.x, 5);
  EXPECT_LT(v.max_tilt, 45);  // never near capsizing
  // The sails billow without tearing or folding: every edge within 10% of
  // its rest length, every triangle facing the sail's own side.
  EXPECT_LT(v.max_strain, 0.10);
  EXPECT_GT(v.min_alignment, 0);
}

TEST(FieldScenes, TheSailboatTurnsWhenTheSteeringHingeIsDriven) {
  // The boom swung 0.6 rad (34 degrees) from square: the main's push is no
  // longer straight down the boat, and the boat turns. Without a rudder the
  // undriven boat holds its course only within some degrees (6 here); the
  // driven one turns through 99 degrees (measured). A prototype that also
  // keeps the island's angular momentum (docs/fields.md) turned it 137.
  const Real seconds = 15;
  const Voyage straight = sail(seconds, 0), turned = sail(seconds, -0.6);
  std::printf("sailboat heading after 15 s: %.1f deg square, %.1f deg with the boom at -0.6 rad\n",
              straight.heading, turned.heading);
  EXPECT_GT(std::abs(turned.heading - straight.heading), 60);
}

TEST(FieldScenes, ThreadCountsAndSnapshotsGiveTheSameBits) {
  // The fields' passes are serial or write their own vertex only, and a
  // snapshot keeps the sand's heights and the wake's grid: one and two
  // threads, and a run restored halfway, end with the same state and surfaces.
  for (const char* name : {"jeeps_sand.json", "sailboat.json"}) {
    const Scene scene = load_scene(scene_path(name));
    auto run = [&](int threads, int steps, World* restore_into = nullptr) {
      WorldDef settings = scene.settings;
      settings.threads = threads;
      World world = build_world(scene, settings);
      for (int i = 0; i < steps; ++i) EXPECT_TRUE(world.step().ok) << name;
      if (restore_into) restore_into->restore_state(world.save_state());
      return world;
    };
    World one = run(1, 60), two = run(2, 60);
    World restored = run(1, 0);
    run(1, 30, &restored);
    for (int i = 0; i < 30; ++i) EXPECT_TRUE(restored.step().ok) << name;
    EXPECT_EQ(one.state_hash(), two.state_hash()) << name;
    EXPECT_EQ(one.state_hash(), restored.state_hash()) << name;
    for (int k = 0; k < one.surface_count(); ++k) {
      EXPECT_EQ(one.surface(k).height, two.surface(k).height) << name;
      EXPECT_EQ(one.surface(k).height, restored.surface(k).height) << name;
    }
  }
}

}  // namespace
}  // namespace pabd
