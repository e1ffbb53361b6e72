// The device broadphase (src/device/device_broadphase.h) against the host's
// Broadphase on a scene's poses: shared by tests/test_device_broadphase.cpp
// (the serial host stand-in) and tests/test_cuda_device.cpp (a GPU). The
// broadphase's output is integers (body indices) from exact comparisons of
// the same boxes, so the device must give the host's pairs exactly.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "collision/broadphase.h"
#include "device/device_backend.h"
#include "device/device_broadphase.h"
#include "pabd/scene.h"
#include "pabd/world.h"
#include "world/world_impl.h"

namespace pabd {

/// Steps `scene` on the CPU; before each of `steps` steps, the host's and
/// the device's broadphase of the world's poses must give the same pairs.
/// Returns the last step's pair count (so callers can check it found some).
inline int expect_device_broadphase_matches(DeviceBackend& device, const Scene& scene,
                                            const std::string& name, int steps) {
  World world = build_world(scene, scene.settings);
  Broadphase host(1);
  DeviceBroadphaseResult on_device;
  int pairs = 0;
  for (int n = 0; n < steps; ++n) {
    const ContactDetectInput in = world_impl(world).contact_input();
    host.build(in.poses, in.aabb);
    device.broadphase(in.poses, in.aabb, on_device);
    EXPECT_EQ(on_device.pairs.size(), host.pairs().size()) << name << " before step " << n + 1;
    EXPECT_TRUE(on_device.pairs == host.pairs())
        << name << ": body pairs differ before step " << n + 1;
    EXPECT_TRUE(on_device.plane_pairs == host.plane_pairs())
        << name << ": plane pairs differ before step " << n + 1;
    pairs = static_cast<int>(host.pairs().size() + host.plane_pairs().size());
    if (!world.step().ok) break;
  }
  return pairs;
}

}  // namespace pabd
