// A detection handed between the host's ContactDetector and a device's
// (device_contacts.h). A device step leaves its contacts in device memory,
// where the next step's matching reads them; the World's ContactDetector is
// the host's copy, brought up to date only when a host reader asks for it
// (the contact queries, snapshots, restitution, the fields). A change made
// on the host (a restored snapshot, a clear, a write through arrays()) goes
// the other way before the device's next detection. Each handover copies
// what the receiver would hold had it run the detection itself.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "contacts/contact_detect.h"
#include "device/device_array.h"

namespace pabd {

/// Copies `n` elements of a device array into host memory (none: nothing).
template <typename T>
void download_elements(DeviceMemory& memory, T* host, const T* device, long long n) {
  if (n > 0) memory.download(host, device, static_cast<std::size_t>(n) * sizeof(T));
}

/// The host detector's current contacts as the device's (`dev`, on the
/// backend `be`), for its next detection to match and warm-start from. The
/// pairs and the adjacency are not copied: that detection rebuilds them.
template <typename Backend>
void upload_carried_contacts(const ContactSet<HostContactBackend>& from, ContactSet<Backend>& to,
                             const Backend& be) {
  DeviceMemory& memory = *be.memory;
  visit_carried_arrays(
      from.count, from.pairs,
      [&](long long count, const char*, const auto& host, auto& device) {
        auto* buffer = be.room(device, static_cast<std::size_t>(std::max(count, 1LL)));
        if (count > 0)
          memory.upload(buffer, host.data(), static_cast<std::size_t>(count) * sizeof(*buffer));
      },
      from, to);
  to.count = from.count;
  to.pairs = from.pairs;
  to.body_pairs = from.body_pairs;
}

/// A device's last detection (`dev` in `memory`, over `bodies` bodies) as
/// the host detector's `to`: its contacts, pairs, adjacency and support
/// weights. The scratch the iterations write and read within a step (records,
/// pair sums) stays on the device.
template <typename Backend>
void download_detection(const ContactStages<Backend>& dev, DeviceMemory& memory, int bodies,
                        ContactStages<HostContactBackend>& to) {
  const auto take = [&](auto& host, const auto& device, long long n) {
    download_elements(memory, host.reserve_for(static_cast<std::size_t>(std::max(n, 1LL))),
                      device.data(), n);
  };
  visit_carried_arrays(
      dev.cur.count, dev.cur.pairs,
      [&](long long count, const char*, const auto& device, auto& host) {
        take(host, device, count);
      },
      dev.cur, to.cur);
  to.cur.count = dev.cur.count;
  to.cur.pairs = dev.cur.pairs;
  to.cur.body_pairs = dev.cur.body_pairs;

  const long long p = dev.pairs.count;
  to.pairs.count = dev.pairs.count;
  take(to.pairs.begin, dev.pairs.begin, p);
  take(to.pairs.end, dev.pairs.end, p);
  take(to.pairs.body, dev.pairs.body, 2 * p);
  take(to.pairs.round, dev.pairs.round, p);

  to.ends.built = dev.ends.built && dev.cur.count > 0;
  if (to.ends.built) {
    take(to.ends.begin, dev.ends.begin, bodies + 1LL);
    take(to.ends.index, dev.ends.index, to.ends.begin.data()[bodies]);
  }
  to.load.weights = dev.load.weights;
  take(to.load.support_weight, dev.load.support_weight, dev.load.weights);
}

/// A device's supported masses (contact_load.h) as the host detector's:
/// `count` of them, or none (count < 0: no load stage has run).
inline void download_supported_masses(DeviceMemory& memory, const Real* device, int count,
                                      std::vector<Real>& host) {
  host.resize(count > 0 ? static_cast<std::size_t>(count) : 0);
  download_elements(memory, host.data(), device, count);
}

}  // namespace pabd
