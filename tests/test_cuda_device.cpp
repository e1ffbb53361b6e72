// The CUDA backend against the CPU step, on a GPU (CTest label `gpu`; built
// with PABD_CUDA, skipped where no CUDA device is found, so CI stays green
// without one). scripts/gpu_check.sh runs it.
//
// What is compared: the same scene stepped on the CPU and on the device,
// under the settings a device sweeps by (body colours, device/device_step.h).
// The kernels are made of IEEE double additions, multiplications, divisions
// and square roots, exact-rounded on both (nvcc's defaults, and --fmad=false
// keeps it from fusing a*b+c), in the same order per index, and their sines,
// cosines and arctangents are pabd's own, made of those operations
// (math/portable_trig.h): the device must give the CPU's bits, step after
// step. Where it does not, the test says at which step the bits parted and by
// how much, which tells a stray operation (a last-bit difference, growing in
// the chaotic scenes) from a wrong result.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

#include "device/device_backend.h"
#include "device_broadphase_check.h"
#include "device_contacts_check.h"
#include "pabd/scene.h"
#include "pabd/world.h"

namespace pabd {
namespace {

/// The scenes folder: the source tree's, or $PABD_SOURCE_DIR's where the
/// build was carried to another machine (scripts/gpu_check.sh).
std::string scenes_dir() {
  const char* moved = std::getenv("PABD_SOURCE_DIR");
  return std::string(moved ? moved : PABD_SOURCE_DIR) + "/scenes/";
}

/// Skips the test where there is no CUDA device.
#define SKIP_WITHOUT_CUDA()      \
  do {                           \
    try {                        \
      (void)make_cuda_backend(); \
    } catch (const Error& e) {   \
      GTEST_SKIP() << e.what();  \
    }                            \
  } while (0)

WorldDef on(Device device, WorldDef d) {
  d.device = device;
  d.threads = 2;
  d.block_order_min_bodies = std::numeric_limits<int>::max();
  return d;
}

/// Largest difference of position [m] and velocity [m/s] over the bodies.
struct Difference {
  double position = 0, velocity = 0;
};

Difference difference(const World& a, const World& b) {
  Difference d;
  for (int i = 0; i < a.body_count(); ++i) {
    const BodyState s = a.body_state(a.body_at(i)), t = b.body_state(b.body_at(i));
    d.position = std::max(d.position, static_cast<double>(length(s.position - t.position)));
    d.velocity = std::max(d.velocity, static_cast<double>(length(s.velocity - t.velocity)));
  }
  return d;
}

/// Steps the scene on both and requires the same state hash after every
/// step. Prints one summary line for scripts/gpu_check.sh.
void compare(const char* name, int steps) {
  const Scene s = load_scene(scenes_dir() + name + ".json");
  World cpu = build_world(s, on(Device::Cpu, s.settings));
  World gpu = build_world(s, on(Device::Cuda, s.settings));
  int first_difference = 0;
  Difference after_one, last;
  for (int n = 1; n <= steps; ++n) {
    ASSERT_TRUE(cpu.step().ok) << name << " CPU step " << n;
    ASSERT_TRUE(gpu.step().ok) << name << " device step " << n;
    if (first_difference == 0 && cpu.state_hash() != gpu.state_hash()) first_difference = n;
    if (n == 1) after_one = difference(cpu, gpu);
  }
  last = difference(cpu, gpu);
  // The snapshot holds the contacts too: the card's, brought back.
  const bool same_snapshot = cpu.save_state() == gpu.save_state();
  std::printf(
      "gpu-compare %s on %s: steps %d, bits %s, snapshot %s, step 1 max |dx| %.3g m, step %d "
      "max |dx| %.3g m |dv| %.3g m/s, peak device memory %.1f MB, last step %.0f copies "
      "(%.3f MB up, %.3f MB down)\n",
      name, gpu.device_name().c_str(), steps,
      first_difference == 0 ? "identical"
                            : ("part at step " + std::to_string(first_difference)).c_str(),
      same_snapshot ? "identical" : "differs", after_one.position, steps, last.position,
      last.velocity, static_cast<double>(gpu.device_peak_memory()) / 1e6, gpu.last_timings().copies,
      gpu.last_timings().uploaded_mb, gpu.last_timings().downloaded_mb);
  EXPECT_EQ(first_difference, 0) << name << ": the bits part at step " << first_difference
                                 << " (step 1 apart by " << after_one.position << " m)";
  EXPECT_TRUE(same_snapshot) << name << ": the snapshots (contacts included) differ";
}

// The reference scenes.
TEST(CudaDevice, SpringNetMatchesTheCpu) {
  SKIP_WITHOUT_CUDA();
  compare("spring_net", 60);
}
TEST(CudaDevice, HeavyChainMatchesTheCpu) {
  SKIP_WITHOUT_CUDA();
  compare("heavy_chain", 60);
}
TEST(CudaDevice, BallIntoStackMatchesTheCpu) {
  SKIP_WITHOUT_CUDA();
  compare("ball_into_stack", 30);
}
TEST(CudaDevice, WindmillPilesMatchTheCpu) {
  SKIP_WITHOUT_CUDA();
  compare("windmill_piles", 30);
}
TEST(CudaDevice, Pile20MatchesTheCpu) {
  SKIP_WITHOUT_CUDA();
  compare("pile_20", 3);
}
TEST(CudaDevice, RobotDogMatchesTheCpu) {  // limits and position drives (sin, cos)
  SKIP_WITHOUT_CUDA();
  compare("robot_dog", 30);
}

TEST(CudaDevice, SailboatMatchesTheCpu) {  // forces every step: the state goes up each step
  SKIP_WITHOUT_CUDA();
  compare("sailboat", 20);
}

TEST(CudaDevice, HostWritesBetweenStepsReachTheCard) {
  // The card keeps the state it brought back until the host writes it
  // (ArrayMirror::Copy::Kept, WorldImpl::state_version): each write of the
  // API between steps must reach it, or the bits part from the CPU's.
  SKIP_WITHOUT_CUDA();
  const Scene s = load_scene(scenes_dir() + "ball_into_stack.json");
  World cpu = build_world(s, on(Device::Cpu, s.settings));
  World gpu = build_world(s, on(Device::Cuda, s.settings));
  for (int n = 1; n <= 20; ++n) {
    for (World* w : {&cpu, &gpu}) {
      const BodyId box = w->body_at(w->body_count() - 1);  // a top corner box
      if (n == 5) w->set_velocity(box, {0, 3, 0}, {0, 0, 2});
      if (n == 10) w->apply_impulse(box, {-5, 0, 0}, w->body_state(box).position);
      if (n == 15) {
        BodyState state = w->body_state(box);
        state.position.y += 0.3;
        w->set_body_state(box, state);
      }
    }
    ASSERT_TRUE(cpu.step().ok && gpu.step().ok) << "step " << n;
    ASSERT_EQ(cpu.state_hash(), gpu.state_hash()) << "the bits part at step " << n;
  }
  std::printf("gpu-compare host writes on %s: steps 20, bits identical, last step %.3f MB up\n",
              gpu.device_name().c_str(), gpu.last_timings().uploaded_mb);
}

// The broadphase on the card (device/device_broadphase.h, not yet in the
// device's step): the host's pairs exactly, and its time beside the host's.
void compare_broadphase(DeviceBackend& device, const char* name) {
  const Scene s = load_scene(scenes_dir() + name + ".json");
  const int pairs = expect_device_broadphase_matches(device, s, name, 3);
  World w = build_world(s, s.settings);
  const ContactDetectInput in = world_impl(w).contact_input();
  Broadphase host(0);
  host.build(in.poses, in.aabb);
  DeviceBroadphaseResult out;
  device.broadphase(in.poses, in.aabb, out);
  std::printf(
      "gpu-compare broadphase %s on %s: %d pairs, %s; device %.3f ms (sort %.3f, tree %.3f, "
      "pairs %.3f, with the copies), host %.3f ms\n",
      name, device.name().c_str(), pairs,
      ::testing::Test::HasFailure() ? "DIFFERENT from the host's" : "the host's exactly",
      out.timings.total_ms, out.timings.sort_ms, out.timings.tree_ms, out.timings.pairs_ms,
      host.last_timings().total_ms);
}

TEST(CudaDevice, BroadphaseGivesTheHostsPairs) {
  SKIP_WITHOUT_CUDA();
  const auto device = make_cuda_backend();
  compare_broadphase(*device, "pile_20");
  compare_broadphase(*device, "ball_into_stack");
}

// Contact detection on the card (device/device_contacts.h, not yet in the
// device's step): the host detector's contacts bit for bit, step after
// step, and the time of one detection beside the host's.
void compare_contacts(DeviceBackend& device, const char* name, int steps) {
  const Scene s = load_scene(scenes_dir() + name + ".json");
  const int contacts = expect_device_contacts_match(device, s, name, steps);
  World w = build_world(s, s.settings);
  const ContactDetectInput in = world_impl(w).contact_input();
  ContactDetector host(0);
  host.detect(in);
  device.detect_contacts(in, nullptr);
  const auto start = std::chrono::steady_clock::now();
  device.detect_contacts(in, nullptr);  // the second: buffers in place, the previous matched
  const double device_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  const auto host_start = std::chrono::steady_clock::now();
  host.detect(in);
  const double host_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - host_start)
          .count();
  std::printf(
      "gpu-compare contacts %s on %s: %d steps, up to %d contacts, %s; one detection %.3f ms "
      "with the copies (host %.3f ms at %d threads)\n",
      name, device.name().c_str(), steps, contacts,
      ::testing::Test::HasFailure() ? "DIFFERENT from the host's" : "the host's bits", device_ms,
      host_ms, resolve_thread_count(0));
}

TEST(CudaDevice, ContactsAreTheHostDetectors) {
  SKIP_WITHOUT_CUDA();
  const auto device = make_cuda_backend();
  compare_contacts(*device, "pile_20", 3);
  compare_contacts(*device, "ball_into_stack", 40);
  compare_contacts(*device, "robot_dog", 30);
}

TEST(CudaDevice, NamesTheCard) {
  SKIP_WITHOUT_CUDA();
  WorldDef d = default_world_def();
  d.device = Device::Cuda;
  const World w(d);
  EXPECT_NE(w.device_name(), "CPU");
  EXPECT_FALSE(w.device_name().empty());
}

}  // namespace
}  // namespace pabd
