// Contact detection on a device (src/device/device_contacts.h) against a
// host ContactDetector fed the same poses: shared by
// tests/test_device_contacts.cpp (the serial host stand-in) and
// tests/test_cuda_device.cpp (a GPU). Their contacts must agree bit for bit
// (test_device_contacts.cpp says why).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "contacts/contact_detect.h"
#include "device/device_backend.h"
#include "device/device_contacts.h"
#include "pabd/scene.h"
#include "pabd/world.h"
#include "world/world_impl.h"

namespace pabd {

/// Byte-equal vectors (NaN-safe: bits, not values).
template <typename T>
inline bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

/// The first field of `a` and `b` whose bits differ, or "".
inline std::string first_difference(const DetectedContacts& a, const DetectedContacts& b) {
  if (a.count != b.count) return "count";
  if (a.pair_count != b.pair_count) return "pair_count";
#define PABD_COMPARE(field) \
  if (!same_bits(a.field, b.field)) return #field;
  PABD_COMPARE(end_body)
  PABD_COMPARE(end_radius)
  PABD_COMPARE(slot_local)
  PABD_COMPARE(normal)
  PABD_COMPARE(friction)
  PABD_COMPARE(restitution)
  PABD_COMPARE(approach_velocity)
  PABD_COMPARE(gap_offset)
  PABD_COMPARE(start_gap)
  PABD_COMPARE(anchor_reach)
  PABD_COMPARE(penalty)
  PABD_COMPARE(normal_penalty)
  PABD_COMPARE(lambda)
  PABD_COMPARE(sticking)
  PABD_COMPARE(pair_begin)
  PABD_COMPARE(pair_end)
  PABD_COMPARE(pair_body)
  PABD_COMPARE(pair_round)
  PABD_COMPARE(end_begin)
  PABD_COMPARE(end_index)
#undef PABD_COMPARE
  return "";
}

/// Steps `scene` on the CPU; before each step, a host detector and the
/// device's detector detect its poses and must agree. Returns the most
/// contacts seen (so callers can check the scene had some).
inline int expect_device_contacts_match(DeviceBackend& device, const Scene& s,
                                        const std::string& scene, int steps) {
  World world = build_world(s, s.settings);
  ContactDetector host(1);
  DetectedContacts on_host, on_device;
  int most = 0;
  for (int n = 0; n < steps; ++n) {
    const ContactDetectInput in = world_impl(world).contact_input();
    host.detect(in);
    read_detected(
        host.arrays(), host.ends(), in.poses.count,
        [](void* to, const void* from, std::size_t bytes) { std::memcpy(to, from, bytes); },
        on_host);
    device.detect_contacts(in, &on_device);
    const std::string field = first_difference(on_host, on_device);
    EXPECT_EQ(field, "") << scene << ": the contacts' " << field << " differ before step " << n + 1
                         << " (host " << on_host.count << " contacts, device " << on_device.count
                         << ")";
    if (!field.empty()) break;
    most = std::max(most, on_host.count);
    if (!world.step().ok) break;
  }
  return most;
}

}  // namespace pabd
