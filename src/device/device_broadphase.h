// The broadphase on a device: the stages of collision/broadphase_pipeline.h
// on a device backend, over device copies of the bodies' poses. The first
// detect stage written for the device; the device step (device_step.h) does
// not call it yet, since the narrowphase and the contact arrays that read its
// pairs are still the host's (docs/gpu.md).
//
#pragma once

#include <string>
#include <vector>

#include "collision/broadphase_pipeline.h"
#include "device/array_mirror.h"
#include "device/device_stage_backend.h"
#include "pabd/world.h"

namespace pabd {

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

/// The first body whose shape's geometry only the host has, or -1.
inline int first_host_only_shape(const ShapePoseView& v) {
  for (int i = 0; i < v.count && v.shape; ++i)
    if (shape_geometry_on_host_only(v.shape[i].type)) return i;
  return -1;
}

/// Throws pabd::Error, naming `who` and the first such body, when a body's
/// shape has its geometry on the host only.
inline void require_device_geometry(const ShapePoseView& v, const char* who) {
  const int i = first_host_only_shape(v);
  if (i >= 0)
    throw Error(std::string(who) + ": body " + std::to_string(i) + ": a " +
                shape_type_name(v.shape[i].type) +
                " shape's geometry is not on the device yet (boxes, spheres, capsules and "
                "planes are)");
}

/// Points the view's arrays at device copies made through `m` (in the
/// mirror's pass). The shapes go as bytes: what the kernels read of a box,
/// sphere, capsule or plane (never ShapeDef::data, whose bytes are a host
/// object's).
inline void map_poses(ArrayMirror& m, ShapePoseView& v) {
  const std::size_t n = v.count > 0 ? static_cast<std::size_t>(v.count) : 0;
  m.map(v.shape, n, ArrayMirror::Copy::Model);
  // The bodies' state: kept on the device while the host leaves it alone
  // (the step's own pass brings it back: view_mirror.h).
  constexpr ArrayMirror::Copy kept = ArrayMirror::Copy::Kept;
  m.map(v.position, n, kept);
  m.map(v.rotation, n, kept);
  m.map(v.velocity, n, kept);
  m.map(v.angular_velocity, n, kept);
  m.map(v.is_static, n, ArrayMirror::Copy::Model);
}

/// The broadphase of `host` (host arrays) on the device of `s`: the poses
/// copied through `poses` (a mirror of their own), the pairs brought back.
/// Throws pabd::Error for a shape whose geometry is not on the device, and
/// as Broadphase::build does.
template <typename Loops>
void run_device_broadphase(BroadphaseState<DeviceStageBackend<Loops>>& s, ArrayMirror& poses,
                           const ShapePoseView& host, const AabbSettings& settings,
                           DeviceBroadphaseResult& out) {
  require_device_geometry(host, "device broadphase");
  const auto t0 = StageClock::now();
  ShapePoseView dev = host;
  poses.begin_pass();
  map_poses(poses, dev);
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
