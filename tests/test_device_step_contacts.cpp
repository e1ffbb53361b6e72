// A device step's contacts (device/device_step.h, device/contact_handover.h),
// checked on the host's serial stand-in: they are detected on the device and
// stay there, and the World's host detector gets them only when a host reader
// asks (contact queries, snapshots, restitution); a change made on the host
// (a restored snapshot, collisions switched off) goes to the device before
// its next detection. Every comparison is with a CPU world stepping the same
// scene: the kernels and their order per index are the same, so the state
// hashes and the snapshots' bytes must be equal. A missed handover shows as
// a different warm start, which changes the bits within a step or two.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "device/device_backend.h"
#include "pabd/scene.h"
#include "pabd/world.h"
#include "world/world_impl.h"

namespace pabd {
namespace {

const std::string kScenes = std::string(PABD_SOURCE_DIR) + "/scenes/";

/// A device sweeps by body colours, never by blocks: the CPU must too.
WorldDef comparable(WorldDef d) {
  d.threads = 2;
  d.block_order_min_bodies = std::numeric_limits<int>::max();
  return d;
}

/// A CPU world and an emulated-device world of one scene.
struct SideBySide {
  World cpu, device;
  /// library_scans: the stand-in's scans and sorts are the standard
  /// library's, in the place of CUB's (make_emulated_backend).
  explicit SideBySide(const Scene& s, bool library_scans = false)
      : cpu(build_world(s, comparable(s.settings))),
        device(build_world(s, comparable(s.settings))) {
    world_impl(device).device = make_emulated_backend(library_scans);
  }
  /// Steps both `steps` times; false (with a failure) at the first step
  /// whose bits differ.
  bool step(int steps, const char* what) {
    for (int n = 1; n <= steps; ++n) {
      const StepResult a = cpu.step(), b = device.step();
      EXPECT_TRUE(a.ok && b.ok) << what << " step " << n;
      if (cpu.state_hash() != device.state_hash()) {
        ADD_FAILURE() << what << ": bits differ at step " << n;
        return false;
      }
    }
    return true;
  }
};

bool same_bits(const Vec3& a, const Vec3& b) { return std::memcmp(&a, &b, sizeof(Vec3)) == 0; }

TEST(DeviceStepContacts, StayOnTheDeviceUntilAHostReaderAsks) {
  SideBySide w(load_scene(kScenes + "ball_into_stack.json"));
  ASSERT_TRUE(w.step(12, "ball_into_stack"));
  const ContactDetector& host = world_impl(w.device).contacts;
  // The count comes from the device; the host's copy is still empty.
  ASSERT_GT(w.cpu.contact_count(), 0);
  EXPECT_EQ(w.device.contact_count(), w.cpu.contact_count());
  EXPECT_EQ(host.count(), 0) << "the contacts travelled to the host unasked";
  for (int k = 0; k < w.cpu.contact_count(); ++k) {
    const ContactInfo a = w.cpu.contact(k), b = w.device.contact(k);
    ASSERT_TRUE(a.body_a.index == b.body_a.index && a.body_b.index == b.body_b.index) << k;
    ASSERT_TRUE(same_bits(a.normal, b.normal) && same_bits(a.point_a, b.point_a) &&
                same_bits(a.point_b, b.point_b) && same_bits(a.friction_force, b.friction_force))
        << "contact " << k;
    ASSERT_EQ(a.normal_force, b.normal_force) << k;
    ASSERT_EQ(a.separation, b.separation) << k;
    ASSERT_EQ(a.sticking, b.sticking) << k;
  }
  EXPECT_EQ(host.count(), w.cpu.contact_count()) << "contact() brought them over";
  // With them the load-aware penalties' per-body sums (the sand reads them).
  ContactDetector& cpu_contacts = world_impl(w.cpu).contacts;
  for (int i = 0; i < w.cpu.body_count(); ++i) {
    ASSERT_EQ(host.supported_mass(i), cpu_contacts.supported_mass(i)) << "body " << i;
    ASSERT_EQ(host.support_weight(i), cpu_contacts.support_weight(i)) << "body " << i;
  }
  // Reading them leaves the device's own untouched: the steps go on alike.
  EXPECT_TRUE(w.step(12, "ball_into_stack after the queries"));
}

TEST(DeviceStepContacts, SnapshotsHoldTheDevicesContacts) {
  SideBySide w(load_scene(kScenes + "ball_into_stack.json"));
  ASSERT_TRUE(w.step(15, "ball_into_stack"));
  // The snapshot's contacts (anchors, multipliers, penalties) and supported
  // masses come from the device: byte for byte the CPU world's.
  const std::vector<std::uint8_t> snapshot = w.device.save_state();
  EXPECT_EQ(snapshot, w.cpu.save_state());
  ASSERT_TRUE(w.step(10, "ball_into_stack after the save"));
  const std::uint64_t later = w.device.state_hash();
  // Restored, the device must match from the snapshot's contacts, not from
  // the ones it detected last.
  w.device.restore_state(snapshot);
  for (int n = 0; n < 10; ++n) ASSERT_TRUE(w.device.step().ok);
  EXPECT_EQ(w.device.state_hash(), later) << "the restored contacts did not reach the device";
}

TEST(DeviceStepContacts, CollisionsSwitchedOffForgetTheDevicesContacts) {
  SideBySide w(load_scene(kScenes + "ball_into_stack.json"));
  ASSERT_TRUE(w.step(10, "ball_into_stack"));
  for (World* world : {&w.cpu, &w.device}) {
    WorldDef d = world->settings();
    d.collisions = false;
    world->set_settings(d);
  }
  ASSERT_TRUE(w.step(2, "without collisions"));
  EXPECT_EQ(w.device.contact_count(), 0);
  for (World* world : {&w.cpu, &w.device}) {
    WorldDef d = world->settings();
    d.collisions = true;
    world->set_settings(d);
  }
  // Back on, both start from no contacts: the device must not warm-start
  // from the ones it held before.
  EXPECT_TRUE(w.step(10, "collisions back on"));
}

TEST(DeviceStepContacts, ModelChangesReachTheDevice) {
  // The device uploads the bodies' model (mass, shape, static flag, collision
  // filter, ...) only after the World changed it (ArrayMirror::Copy::Model):
  // each change below must reach it, or the bits part from the CPU's.
  SideBySide w(load_scene(kScenes + "ball_into_stack.json"));
  ASSERT_TRUE(w.step(3, "ball_into_stack"));
  const BodyId top = w.cpu.body_at(w.cpu.body_count() - 1);  // a box of the top layer
  for (World* world : {&w.cpu, &w.device}) world->set_collision_filter(top, 2, 0);
  ASSERT_TRUE(w.step(3, "a box that no longer collides"));
  // The filter's arrays exist now: a second change keeps their addresses and sizes.
  for (World* world : {&w.cpu, &w.device}) world->set_collision_filter(top, 1, 0xffffffffu);
  ASSERT_TRUE(w.step(3, "the box collides again"));
  BodyDef heavy = default_body_def();
  heavy.shape = box_shape({1, 1, 1});
  heavy.mass = 50;
  heavy.position =
      w.cpu.body_state(w.cpu.body_at(w.cpu.body_count() - 2)).position + Vec3{0, 1.5, 0};
  for (World* world : {&w.cpu, &w.device}) world->add_body(heavy);
  ASSERT_TRUE(w.step(3, "a heavy box added"));
  const BodyId side = w.cpu.body_at(w.cpu.body_count() - 5);
  for (World* world : {&w.cpu, &w.device}) world->remove_body(side);
  EXPECT_TRUE(w.step(3, "a box removed"));
}

/// Spheres and boxes dropped on a bouncy floor: restitution reads the
/// contacts on the host every step that has a bouncing contact.
Scene bouncing_scene() {
  Scene s;
  s.settings = default_world_def();
  BodyDef ground = default_body_def();
  ground.is_static = true;
  ground.shape = plane_shape({0, 1, 0}, 0);
  ground.restitution = 0.6;
  s.bodies.push_back(ground);
  for (int i = 0; i < 6; ++i) {
    BodyDef b = default_body_def();
    b.shape = i % 2 ? box_shape({0.3, 0.3, 0.3}) : sphere_shape(0.2);
    b.position = {0.5 * i, 0.4 + 0.3 * i, 0.1 * i};
    b.restitution = 0.6;
    s.bodies.push_back(b);
  }
  return s;
}

TEST(DeviceStepContacts, RestitutionKeepsTheCpuBits) {
  SideBySide w(bouncing_scene());
  double rebound = 0;             // the fastest upward speed after a landing [m/s]
  double most_down = 0;           // the most a step brought back [bytes]
  for (int n = 0; n < 90; ++n) {  // 1.5 s: several bounces each
    ASSERT_TRUE(w.step(1, "bouncing"));
    for (int i = 1; i < w.cpu.body_count(); ++i)
      rebound = std::max(rebound, double(w.cpu.body_state(w.cpu.body_at(i)).velocity.y));
    most_down = std::max(most_down, w.device.last_timings().downloaded_mb * 1e6);
  }
  // No bond: restitution runs on the device after its velocities, so the
  // contacts stay there. What comes back is each body's state and carried
  // speed (pose 24, rotation 72, quaternion 32, velocities 48, speed 8
  // bytes) and the stages' counts and flags (4 to 12 bytes each, some 30);
  // the contacts (about 250 bytes each, a dozen here) would pass that.
  const double bodies = w.device.body_count();
  EXPECT_LE(most_down, bodies * (24 + 72 + 32 + 48 + 8) + 512);
  // Dropped from 0.4 m or more, each lands at 1.9 m/s or more and leaves at
  // e = 0.6 of it: the restitution stage ran.
  EXPECT_GT(rebound, 1.0);
}

TEST(DeviceStepContacts, HullsDetectOnTheHostAndKeepTheCpuBits) {
  // gears.json's teeth are convex hulls, whose geometry the device lacks:
  // the step detects on the host and the contacts travel with the bodies.
  SideBySide w(load_scene(kScenes + "gears.json"));
  ASSERT_TRUE(w.step(20, "gears"));
  ASSERT_GT(w.cpu.contact_count(), 0);
  EXPECT_EQ(world_impl(w.device).contacts.count(), w.cpu.contact_count())
      << "host detection fills the host's detector";
}

// The detect stages' scans and sorts by a library (CUDA: CUB) instead of
// the host's blocks: any algorithm that keeps their contract (64-bit sums
// stored as int, a stable sort by the rounded key bits) gives the same bits.
// pile_20's scans and sorts span several blocks of 4096.
TEST(DeviceStepContacts, LibraryScansKeepTheCpuBits) {
  SideBySide pile(load_scene(kScenes + "pile_20.json"), true);
  EXPECT_TRUE(pile.step(3, "pile_20 with library scans"));
  SideBySide ball(load_scene(kScenes + "ball_into_stack.json"), true);
  EXPECT_TRUE(ball.step(20, "ball_into_stack with library scans"));
  EXPECT_EQ(ball.device.device_name(), "emulated on the host (library scans)");
}

}  // namespace
}  // namespace pabd
