// The contact topology from the bonds (see contact_topology.h).
#include "contacts/contact_topology.h"

#include <algorithm>

#include "contacts/contact_detect_kernels.h"

namespace pabd {

void ContactTopology::mark_articulations(const ContactDetectInput& in) {
  // Union-find over the bonds' moving ends (serial: the roots, and so the
  // sums over them, are the same for every thread count).
  const int n = in.poses.count;
  std::vector<int> root(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) root[i] = i;
  const auto find = [&](int i) {
    while (root[i] != i) i = root[i] = root[root[i]];
    return i;
  };
  const auto moving = [&](int i) {
    return i >= 0 && i < n && !(in.poses.is_static && in.poses.is_static[i]);
  };
  std::vector<std::uint8_t> bonded(static_cast<std::size_t>(n), 0), anchored(bonded);
  for (int i = 0; i < in.bond_count; ++i) {
    const int a = in.bond_end_body[2 * i], b = in.bond_end_body[2 * i + 1];
    if (moving(a)) bonded[a] = 1;
    if (moving(b)) bonded[b] = 1;
    if (moving(a) && moving(b)) {
      const int ra = find(a), rb = find(b);
      if (ra != rb) root[std::max(ra, rb)] = std::min(ra, rb);
    }
  }
  for (int i = 0; i < in.bond_count; ++i) {
    const int a = in.bond_end_body[2 * i], b = in.bond_end_body[2 * i + 1];
    if (moving(a) && !moving(b)) anchored[find(a)] = 1;
    if (moving(b) && !moving(a)) anchored[find(b)] = 1;
  }
  jointed_.assign(static_cast<std::size_t>(n), 0);
  articulation_.assign(static_cast<std::size_t>(n), -1);
  any_articulation_ = false;
  for (int i = 0; i < n; ++i) {
    if (!bonded[i]) continue;
    const int r = find(i);
    if (anchored[r]) {
      jointed_[i] = 1;
    } else {
      articulation_[i] = r;
      any_articulation_ = true;
    }
  }
}

void ContactTopology::update(const ContactDetectInput& in) {
  const int ends = 2 * in.bond_count;
  if (valid_ && static_cast<int>(joined_from_.size()) == ends &&
      static_cast<int>(jointed_.size()) == in.poses.count &&
      std::equal(joined_from_.begin(), joined_from_.end(), in.bond_end_body) &&
      static_cast<int>(joined_extra_.size()) == in.no_collision_count &&
      std::equal(joined_extra_.begin(), joined_extra_.end(), in.no_collision_pairs))
    return;
  joined_from_.assign(in.bond_end_body, in.bond_end_body + ends);
  joined_extra_.assign(in.no_collision_pairs, in.no_collision_pairs + in.no_collision_count);
  joined_ = joined_extra_;
  mark_articulations(in);
  for (int i = 0; i < in.bond_count; ++i) {
    const int a = in.bond_end_body[2 * i], b = in.bond_end_body[2 * i + 1];
    if (a < 0 || b < 0 || a == b) continue;
    joined_.push_back(a < b ? contact_pair_key(a, b) : contact_pair_key(b, a));
  }
  std::sort(joined_.begin(), joined_.end());
  joined_.erase(std::unique(joined_.begin(), joined_.end()), joined_.end());
  valid_ = true;
  ++version_;
}

}  // namespace pabd
