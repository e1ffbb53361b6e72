// What detection takes from the bonds, rebuilt only when they change: the
// body pairs that never collide (joined by a bond, or named by
// World::disable_collision), and the articulations the load-aware
// penalties treat apart (contact_load.h). Host code: a device's detector
// uploads the arrays (device/device_contacts.h).
#pragma once

#include <cstdint>
#include <vector>

#include "contacts/contact_detect_input.h"

namespace pabd {

class ContactTopology {
 public:
  /// Rebuilds the arrays when the bonds' ends or the no-collision pairs
  /// differ from the last call's (or the body count does).
  void update(const ContactDetectInput& input);

  /// Sorted keys (min << 32 | max) of the pairs that never collide.
  const std::vector<std::uint64_t>& joined() const { return joined_; }
  /// Per body: 1 = in an anchored articulation (bodies joined by bonds, one
  /// of them to the world or a static body): it may hang (contact_load.h).
  const std::vector<std::uint8_t>& jointed() const { return jointed_; }
  /// Per body: its free articulation (bodies joined by bonds, none
  /// anchored), as the index of one of its bodies; -1 for the others.
  const std::vector<int>& articulation() const { return articulation_; }
  /// Some body is in a free articulation (a pile of free boxes: none).
  bool any_articulation() const { return any_articulation_; }
  /// Counts the rebuilds: the arrays above changed since a caller last saw
  /// this number only if it differs (a device uploads them then only).
  std::uint64_t version() const { return version_; }

 private:
  void mark_articulations(const ContactDetectInput& input);

  std::vector<std::uint64_t> joined_;
  std::vector<int> joined_from_;             ///< the bond ends joined_ was built from
  std::vector<std::uint64_t> joined_extra_;  ///< the no-collision pairs it was built with
  std::vector<std::uint8_t> jointed_;
  std::vector<int> articulation_;
  bool any_articulation_ = false;
  bool valid_ = false;
  std::uint64_t version_ = 0;
};

}  // namespace pabd
