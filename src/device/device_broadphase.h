// The broadphase on a device: the stages of collision/broadphase_pipeline.h
// on a device backend, over device copies of the bodies' poses. The first
// detect stage written for the device; the device step (device_step.h) does
// not call it yet, since the narrowphase and the contact arrays that read its
// pairs are still the host's (docs/gpu.md).
//
// Its block loops give each block of kLoopBlock elements one device thread
// (the same split as the host's, so the same results); the serial parts
// (scans of block sums, the radix digits' prefix) are a one-thread launch.
// Correct and deterministic first, for a card to time: the device's scans
// and sorts (CUB) come once it has.
#pragma once

#include <string>
#include <vector>

#include "collision/broadphase_pipeline.h"
#include "device/array_mirror.h"
#include "device/device_array.h"
#include "pabd/world.h"

namespace pabd {

/// The block-loop executor (core/block_loops.h) of a device's loops.
template <typename Loops>
struct DeviceBlockLoops {
  const Loops* loops = nullptr;
  DeviceMemory* memory = nullptr;

  template <typename Fn>
  void each(int n, const Fn& f) const {
    loops->each(n, f);
  }
  template <typename Fn>
  void each_block(int n, const Fn& f) const {
    loops->each(loop_block_count(n), [=] PABD_LAMBDA(int b) {
      const int begin = b * kLoopBlock;
      const int end = n - begin > kLoopBlock ? begin + kLoopBlock : n;
      f(b, begin, end);
    });
  }
  template <typename Fn>
  void serial(const Fn& f) const {
    loops->each(1, [=] PABD_LAMBDA(int) { f(); });
  }
  /// Waits for the loops launched so far (a copy does, on the device's stream).
  template <typename T>
  T read(const T* p) const {
    T value{};
    memory->download(&value, p, sizeof(T));
    return value;
  }
};

/// The broadphase pipeline's backend on a device: its memory, its loops,
/// its clock.
template <typename Loops>
struct DeviceBroadphaseBackend {
  template <typename T>
  using Array = DeviceArray<T>;
  using Mark = typename Loops::Mark;

  const Loops* device_loops = nullptr;
  DeviceMemory* memory = nullptr;
  DeviceMeter* meter = nullptr;

  DeviceBlockLoops<Loops> loops() const { return {device_loops, memory}; }
  template <typename T>
  T* room(DeviceArray<T>& a, std::size_t n) const {
    return a.reserve(*memory, *meter, n);
  }
  /// The device hands no vector out: sized like room.
  template <typename T>
  T* exact(DeviceArray<T>& a, std::size_t n) const {
    return room(a, n);
  }
  Mark start() const { return device_loops->start(); }
  void stop(Mark mark, double& ms) const { device_loops->stop(mark, ms); }
  void finish() const { device_loops->finish(); }
};

/// What a device's broadphase found, brought back to the host.
struct DeviceBroadphaseResult {
  std::vector<BodyPair> pairs;         ///< as Broadphase::pairs()
  std::vector<PlanePair> plane_pairs;  ///< as Broadphase::plane_pairs()
  BroadphaseTimings timings;           ///< by the device's clock
};

/// Shapes whose geometry lives behind ShapeDef::geometry (hulls, compounds,
/// height fields, meshes): their data is not on the device yet.
inline bool shape_geometry_on_host_only(ShapeType t) {
  return t == ShapeType::ConvexHull || t == ShapeType::Compound || t == ShapeType::HeightField ||
         t == ShapeType::TriangleMesh;
}

/// The broadphase of `host` (host arrays) on the device of `s`: the poses
/// copied through `poses` (a mirror of their own), the pairs brought back.
/// Throws pabd::Error for a shape whose geometry is not on the device, and
/// as Broadphase::build does.
template <typename Loops>
void run_device_broadphase(BroadphaseState<DeviceBroadphaseBackend<Loops>>& s, ArrayMirror& poses,
                           const ShapePoseView& host, const AabbSettings& settings,
                           DeviceBroadphaseResult& out) {
  for (int i = 0; i < host.count && host.shape; ++i)
    if (shape_geometry_on_host_only(host.shape[i].type))
      throw Error("device broadphase: body " + std::to_string(i) + ": a " +
                  shape_type_name(host.shape[i].type) +
                  " shape's geometry is not on the device yet (boxes, spheres, capsules and "
                  "planes are)");
  const auto t0 = StageClock::now();
  ShapePoseView dev = host;
  const std::size_t n = host.count > 0 ? static_cast<std::size_t>(host.count) : 0;
  poses.begin_pass();
  // The shapes' bytes: what the kernels read of a box, sphere, capsule or
  // plane (never ShapeDef::data, whose bytes are a host object's).
  poses.map(dev.shape, n);
  poses.map(dev.position, n);
  poses.map(dev.rotation, n);
  poses.map(dev.velocity, n);
  poses.map(dev.angular_velocity, n);
  poses.map(dev.is_static, n);
  const double upload_ms = ms_since(t0);

  broadphase_build(s, broadphase_boxes(s, dev, settings));

  const auto t1 = StageClock::now();
  DeviceMemory& memory = *s.backend.memory;
  out.pairs.resize(static_cast<std::size_t>(s.counts.pairs));
  out.plane_pairs.resize(static_cast<std::size_t>(s.counts.plane_pairs));
  if (!out.pairs.empty())
    memory.download(out.pairs.data(), s.arrays.pairs.data(), out.pairs.size() * sizeof(BodyPair));
  if (!out.plane_pairs.empty())
    memory.download(out.plane_pairs.data(), s.arrays.plane_pairs.data(),
                    out.plane_pairs.size() * sizeof(PlanePair));
  out.timings = s.timings;
  out.timings.total_ms += upload_ms + ms_since(t1);  // with the copies
}

}  // namespace pabd
