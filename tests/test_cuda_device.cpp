// The CUDA backend against the CPU step, on a GPU (CTest label `gpu`; built
// with PABD_CUDA, skipped where no CUDA device is found, so CI stays green
// without one). scripts/gpu_check.sh runs it.
//
// What is compared: the same scene stepped on the CPU and on the device,
// under the settings a device sweeps by (body colours, device/device_step.h).
// Every operation of the kernels is the same IEEE double operation on both
// (--fmad=false keeps nvcc from fusing a*b+c) except sin, cos and atan2: the
// device's are within 2 ulp (CUDA C++ Programming Guide, "Double-Precision
// Floating-Point Functions"), glibc's within 1, so the bits may part where a
// body turns (the prediction's exponential map, a hinge's angle). The
// tolerance for one step: those last-bit differences, carried through 20
// iterations whose systems amplify an input error by at most their
// condition number (about 1e6 for the stiffest contact against a body's
// inertia), stay below 1e-16 * 1e6 * 10 m = 1e-9 m for a scene 10 m wide.
// Later steps of a pile or a ball's impact are chaotic (any difference
// grows), so only the smooth scenes (spring net, heavy chain) are held to a
// tolerance after many steps; the others report where their bits parted.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

#include "device/device_backend.h"
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

/// Steps the scene on both; checks step 1 against the one-step tolerance and
/// the last against `last_tolerance` (infinity: reported only). Prints one
/// summary line for scripts/gpu_check.sh.
void compare(const char* name, int steps, double last_tolerance) {
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
  std::printf(
      "gpu-compare %s on %s: steps %d, bits %s, step 1 max |dx| %.3g m, step %d max |dx| "
      "%.3g m |dv| %.3g m/s, peak device memory %.1f MB\n",
      name, gpu.device_name().c_str(), steps,
      first_difference == 0 ? "identical"
                            : ("part at step " + std::to_string(first_difference)).c_str(),
      after_one.position, steps, last.position, last.velocity,
      static_cast<double>(gpu.device_peak_memory()) / 1e6);
  EXPECT_LE(after_one.position, 1e-9) << name << ": one step apart by more than the tolerance";
  EXPECT_LE(last.position, last_tolerance) << name << " after " << steps << " steps";
}

// Smooth scenes: differences grow slowly; held after 60 steps (1e-6 m: a
// thousand times the one-step tolerance, for 60 steps that each add theirs).
TEST(CudaDevice, SpringNetMatchesTheCpu) {
  SKIP_WITHOUT_CUDA();
  compare("spring_net", 60, 1e-6);
}
TEST(CudaDevice, HeavyChainMatchesTheCpu) {
  SKIP_WITHOUT_CUDA();
  compare("heavy_chain", 60, 1e-6);
}
// Contact scenes: chaotic after the first steps, held at step 1.
constexpr double kReportOnly = std::numeric_limits<double>::infinity();
TEST(CudaDevice, BallIntoStackMatchesTheCpu) {
  SKIP_WITHOUT_CUDA();
  compare("ball_into_stack", 30, kReportOnly);
}
TEST(CudaDevice, WindmillPilesMatchTheCpu) {
  SKIP_WITHOUT_CUDA();
  compare("windmill_piles", 30, kReportOnly);
}
TEST(CudaDevice, Pile20MatchesTheCpu) {
  SKIP_WITHOUT_CUDA();
  compare("pile_20", 3, kReportOnly);
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
