// The device backend's step (src/device/), checked on the host: the serial
// stand-in (make_emulated_backend) copies every array to buffers of its own,
// runs the same loops the CUDA backend launches, and copies back what they
// wrote. Its end states must carry the CPU step's bits on the reference
// scenes: the kernels and their order per index are the same, so any
// difference is a mirroring fault (an array not copied, copied short, or not
// brought back), which is what these tests are for. tests/test_cuda_device.cpp
// runs the same comparison on a GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "device/array_mirror.h"
#include "device/device_backend.h"
#include "device/device_step.h"
#include "pabd/scene.h"
#include "pabd/world.h"
#include "world/world_impl.h"

namespace pabd {
namespace {

const std::string kScenes = std::string(PABD_SOURCE_DIR) + "/scenes/";

/// The settings a device run is compared under: a device sweeps by body
/// colours, never by blocks (device/device_step.h), so the CPU must too.
WorldDef comparable(WorldDef d, int threads) {
  d.threads = threads;
  d.block_order_min_bodies = std::numeric_limits<int>::max();
  return d;
}

struct DeviceRun {
  const char* name;
  std::function<Scene()> scene;
  int steps;
};

Scene file(const char* name) { return load_scene(kScenes + name); }

/// Steps a CPU world and an emulated-device world side by side; the first
/// step whose state hashes differ fails the run.
void expect_same_bits(const DeviceRun& r) {
  const Scene s = r.scene();
  World cpu = build_world(s, comparable(s.settings, 2));
  World device = build_world(s, comparable(s.settings, 1));
  world_impl(device).device = make_emulated_backend();
  ASSERT_EQ(device.device_name(), "emulated on the host");
  for (int n = 1; n <= r.steps; ++n) {
    const StepResult a = cpu.step(), b = device.step();
    ASSERT_TRUE(a.ok && b.ok) << r.name << " step " << n;
    ASSERT_EQ(cpu.state_hash(), device.state_hash()) << r.name << ": bits differ at step " << n;
  }
  EXPECT_GT(device.device_peak_memory(), 0u) << r.name;
  EXPECT_GT(device.last_timings().transfer_ms, 0.0) << r.name;
}

// The reference scenes, and the kinds of step they leave out.
TEST(DeviceStep, SpringNetKeepsTheCpuBits) {
  expect_same_bits({"spring_net", [] { return file("spring_net.json"); }, 60});
}
TEST(DeviceStep, HeavyChainKeepsTheCpuBits) {  // hard joints, Chebyshev acceleration
  expect_same_bits({"heavy_chain", [] { return file("heavy_chain.json"); }, 60});
}
TEST(DeviceStep, BallIntoStackKeepsTheCpuBits) {  // contacts with a round end
  expect_same_bits({"ball_into_stack", [] { return file("ball_into_stack.json"); }, 30});
}
TEST(DeviceStep, WindmillPilesKeepTheCpuBits) {  // a motor and welds among contacts
  expect_same_bits({"windmill_piles", [] { return file("windmill_piles.json"); }, 30});
}
TEST(DeviceStep, Pile20KeepsTheCpuBits) {  // 8000 boxes: the scene a CPU sweeps in blocks
  expect_same_bits({"pile_20", [] { return file("pile_20.json"); }, 3});
}
TEST(DeviceStep, RobotDogKeepsTheCpuBits) {  // limits and position drives
  expect_same_bits({"robot_dog", [] { return file("robot_dog.json"); }, 30});
}
TEST(DeviceStep, SailboatKeepsTheCpuBits) {  // water, wind and a cloth: forces every step
  expect_same_bits({"sailboat", [] { return file("sailboat.json"); }, 20});
}
TEST(DeviceStep, CollisionsOffKeepTheCpuBits) {  // no detector: no contact arrays at all
  expect_same_bits({"chain_without_collisions",
                    [] {
                      Scene s = file("chain.json");
                      s.settings.collisions = false;
                      return s;
                    },
                    60});
}
TEST(DeviceStep, JacobiSweepsKeepTheCpuBits) {  // the paper's order: pairs evaluated apart
  expect_same_bits({"ball_into_stack_jacobi",
                    [] {
                      Scene s = file("ball_into_stack.json");
                      s.settings.iteration_order = IterationOrder::Jacobi;
                      return s;
                    },
                    20});
}

TEST(DeviceStep, RefusesIterationObservers) {
  Scene s = file("spring_pair.json");
  World w = build_world(s, s.settings);
  world_impl(w).device = make_emulated_backend();
  w.set_iteration_observer([](int) {});
  try {
    w.step();
    FAIL() << "an observer on a device step was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("iteration observers need the CPU"), std::string::npos)
        << e.what();
  }
}

TEST(DeviceStep, CudaWithoutCudaIsAOneLineError) {
  WorldDef d = default_world_def();
  d.device = Device::Cuda;
#ifdef PABD_WITH_CUDA
  GTEST_SKIP() << "this build has the CUDA backend (tests/test_cuda_device.cpp checks it)";
#else
  try {
    World w(d);
    FAIL() << "Device::Cuda was accepted by a build without CUDA";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("built without CUDA"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
#endif
}

TEST(DeviceStep, AvbdOnADeviceIsRefused) {
  WorldDef d = default_world_def();
  d.device = Device::Cuda;
  d.solver = SolverKind::Avbd;
  try {
    World w(d);
    FAIL() << "the AVBD baseline on a device was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("AVBD baseline runs on the CPU only"), std::string::npos)
        << e.what();
  }
}

/// A DeviceMemory of host buffers that counts its calls.
class CountingMemory final : public DeviceMemory {
 public:
  int allocations = 0, uploads = 0, downloads = 0, scribbles = 0;
  void* allocate(std::size_t bytes) override {
    ++allocations;
    return ::operator new(bytes);
  }
  void release(void* device) override { ::operator delete(device); }
  void upload(void* device, const void* host, std::size_t bytes) override {
    ++uploads;
    std::memcpy(device, host, bytes);
  }
  void download(void* host, const void* device, std::size_t bytes) override {
    ++downloads;
    std::memcpy(host, device, bytes);
  }
  void scribble(void* device, std::size_t bytes) override {
    ++scribbles;
    std::memset(device, 0xff, bytes);
  }
};

TEST(ArrayMirror, BringsBackOnlyWhatTheViewMayWrite) {
  CountingMemory memory;
  ArrayMirror mirror(memory);
  std::vector<double> state = {1, 2, 3};
  const std::vector<int> model = {7, 8};
  double* state_view = state.data();
  const int* model_view = model.data();
  mirror.begin_pass();
  mirror.map(state_view, state.size());
  mirror.map(model_view, model.size());
  ASSERT_NE(state_view, state.data());  // the view now names the copies
  ASSERT_NE(model_view, model.data());
  state_view[1] = 20;                    // "kernels" write the device copy
  const_cast<int*>(model_view)[0] = 70;  // a write a const view cannot make
  EXPECT_EQ(state[1], 2);                // the host sees nothing before the download
  mirror.download_writable();
  EXPECT_EQ(state, (std::vector<double>{1, 20, 3}));
  EXPECT_EQ(model, (std::vector<int>{7, 8}));
  EXPECT_EQ(memory.downloads, 1);
}

TEST(ArrayMirror, ScratchTravelsNeitherWay) {
  CountingMemory memory;
  ArrayMirror mirror(memory);
  std::vector<double> scratch = {1, 2};
  double* view = scratch.data();
  mirror.begin_pass();
  mirror.map(view, scratch.size(), ArrayMirror::Copy::None);
  EXPECT_TRUE(std::isnan(view[0]));  // scribbled on, not uploaded
  view[0] = 10;
  mirror.download_writable();
  EXPECT_EQ(scratch, (std::vector<double>{1, 2}));  // and not brought back
  EXPECT_EQ(memory.uploads + memory.downloads, 0);
  EXPECT_EQ(memory.scribbles, 1);
}

TEST(ArrayMirror, SharedArraysShareOneBufferAndBuffersOutliveThePass) {
  CountingMemory memory;
  ArrayMirror mirror(memory);
  std::vector<double> sums(8, 1.0);
  for (int pass = 0; pass < 3; ++pass) {
    double* writer = sums.data();
    const double* reader = sums.data();
    const double* absent = nullptr;
    mirror.begin_pass();
    mirror.map(writer, sums.size());
    mirror.map(absent, 5);  // null stays null, and keeps its slot
    mirror.map(reader, sums.size());
    ASSERT_EQ(absent, nullptr);
    ASSERT_EQ(reader, writer) << "one host array, two device buffers";
    writer[0] += 1;
    mirror.download_writable();
  }
  EXPECT_EQ(sums[0], 4.0);
  EXPECT_EQ(memory.allocations, 1);  // grown once, then reused
  EXPECT_EQ(memory.uploads, 3);
  EXPECT_EQ(mirror.peak_bytes(), 2 * sums.size() * sizeof(double));  // twice the asked size
}

}  // namespace
}  // namespace pabd
