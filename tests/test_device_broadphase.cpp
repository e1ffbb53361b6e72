// The broadphase on a device (src/device/device_broadphase.h), checked on the
// host through the serial stand-in (make_emulated_backend): its own buffers,
// the same block loops and one-thread serial parts a GPU runs. Its pairs must
// be the host Broadphase's exactly (device_broadphase_check.h says why);
// tests/test_cuda_device.cpp runs the same check on a GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "device_broadphase_check.h"

namespace pabd {
namespace {

const std::string kScenes = std::string(PABD_SOURCE_DIR) + "/scenes/";

Scene file(const char* name) { return load_scene(kScenes + name); }

TEST(DeviceBroadphase, Pile20GivesTheHostsPairs) {
  // 8001 bodies: two blocks of the block loops; a box has up to 13
  // neighbours above its index, past the traversal's cache of 8.
  const auto device = make_emulated_backend();
  EXPECT_GT(expect_device_broadphase_matches(*device, file("pile_20.json"), "pile_20", 3), 80000);
}

TEST(DeviceBroadphase, BallIntoStackGivesTheHostsPairsWhileItIsHit) {
  const auto device = make_emulated_backend();
  // 40 steps: the ball reaches the stack and scatters its first layers.
  EXPECT_GT(expect_device_broadphase_matches(*device, file("ball_into_stack.json"),
                                             "ball_into_stack", 40),
            1000);
}

TEST(DeviceBroadphase, ReusedBuffersStillGiveTheHostsPairs) {
  // One backend, a big scene then a small one: the second reads buffers
  // grown for the first, whose stale contents it must not take.
  const auto device = make_emulated_backend();
  expect_device_broadphase_matches(*device, file("pile_20.json"), "pile_20", 1);
  EXPECT_GT(expect_device_broadphase_matches(*device, file("pyramid.json"), "pyramid", 2), 500);
}

/// 6000 random boxes, spheres and capsules, a fifth of them static, spinning
/// and moving, between two planes: every path of the stages (static-static
/// pairs skipped, plane pairs, rotation sweeps, two blocks).
Scene random_scene() {
  Scene s;
  s.settings = default_world_def();
  std::mt19937 rng(7);
  std::uniform_real_distribution<Real> u(-1, 1);
  for (int i = 0; i < 6000; ++i) {
    BodyDef b;
    const int kind = i % 3;
    b.shape = kind == 0   ? box_shape({0.4 + 0.3 * u(rng), 0.5, 0.3})
              : kind == 1 ? sphere_shape(0.25)
                          : capsule_shape(0.1, 0.3);
    b.position = {12 * u(rng), 3 + 3 * u(rng), 12 * u(rng)};
    b.orientation = normalized(Quat{1, u(rng), u(rng), u(rng)});
    b.velocity = {4 * u(rng), 4 * u(rng), 4 * u(rng)};
    b.angular_velocity = {6 * u(rng), 6 * u(rng), 6 * u(rng)};
    b.is_static = i % 5 == 0;
    s.bodies.push_back(b);
  }
  for (const Real y : {Real(0), Real(6.2)}) {
    BodyDef plane;
    plane.shape = plane_shape({0, y == 0 ? Real(1) : Real(-1), 0}, y == 0 ? Real(0) : -y);
    plane.is_static = true;
    s.bodies.push_back(plane);
  }
  return s;
}

TEST(DeviceBroadphase, RandomShapesWithStaticsAndPlanesGiveTheHostsPairs) {
  const auto device = make_emulated_backend();
  EXPECT_GT(expect_device_broadphase_matches(*device, random_scene(), "random", 3), 1000);
}

TEST(DeviceBroadphase, ABadBoxIsTheHostsOneLineError) {
  std::vector<ShapeDef> shapes(3, box_shape({1, 1, 1}));
  std::vector<Vec3> position = {{0, 0, 0}, {0.5, 0, 0}, {0, 0, 0}};
  position[2].y = std::numeric_limits<Real>::quiet_NaN();
  const std::vector<Mat3> rotation(3, identity3());
  ShapePoseView v;
  v.count = 3;
  v.shape = shapes.data();
  v.position = position.data();
  v.rotation = rotation.data();
  std::string host_error, device_error;
  try {
    Broadphase host(1);
    host.build(v, AabbSettings{});
  } catch (const Error& e) {
    host_error = e.what();
  }
  try {
    DeviceBroadphaseResult out;
    make_emulated_backend()->broadphase(v, AabbSettings{}, out);
  } catch (const Error& e) {
    device_error = e.what();
  }
  EXPECT_NE(host_error.find("body 2"), std::string::npos) << host_error;
  EXPECT_EQ(device_error, host_error);
}

TEST(DeviceBroadphase, ShapesWhoseGeometryIsNotOnTheDeviceAreRefused) {
  const Scene s = file("gear_linkage.json");
  World w = build_world(s, s.settings);
  const ContactDetectInput in = world_impl(w).contact_input();
  DeviceBroadphaseResult out;
  try {
    make_emulated_backend()->broadphase(in.poses, in.aabb, out);
    FAIL() << "a hull or compound went to the device";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not on the device yet"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace pabd
