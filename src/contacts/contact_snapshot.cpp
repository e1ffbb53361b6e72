// The contacts' part of World::save_state / restore_state: the last
// detection's contacts, which the next step matches and warm-starts from
// (lambda, penalty, sticking, anchors), and the supported masses that the
// load-aware penalties carry from step to step (contact_load.h). Everything
// else the detector holds is rebuilt by the next detection.
#include <algorithm>

#include "contacts/contact_detect.h"
#include "core/snapshot_io.h"

namespace pabd {
namespace {

/// Upper bounds on what a snapshot may ask the reader to allocate: a corrupt
/// count fails cleanly instead of asking for terabytes.
constexpr std::uint64_t kMaxContacts = 1u << 30;

template <typename T>
void save(SnapshotWriter& out, const ScratchArray<T>& a, long long n) {
  out.array(a.data(), static_cast<std::size_t>(n));
}

template <typename T>
void load(SnapshotReader& in, ScratchArray<T>& a, long long n, const char* what) {
  in.array(a.reserve_for(static_cast<std::size_t>(std::max(n, 1LL))), static_cast<std::size_t>(n),
           what);
}

}  // namespace

void ContactDetector::save_state(SnapshotWriter& out) const {
  const Buffer& b = cur_;
  const long long n = b.count, p = b.pairs;
  out.value(static_cast<std::int64_t>(n));
  out.value(static_cast<std::int64_t>(p));
  out.value(static_cast<std::int64_t>(b.body_pairs));
  save(out, b.key, p);
  save(out, b.begin, p > 0 ? p + 1 : 0);  // a world that never detected has none
  save(out, b.end_body, 2 * n);
  save(out, b.end_radius, 2 * n);
  save(out, b.slot_local, kContactSlots * n);
  save(out, b.normal, n);
  save(out, b.friction, n);
  save(out, b.restitution, n);
  save(out, b.approach_velocity, n);
  save(out, b.gap_offset, n);
  save(out, b.start_gap, n);
  save(out, b.anchor_reach, n);
  save(out, b.separation, n);
  save(out, b.feature, n);
  save(out, b.penalty, n);
  save(out, b.normal_penalty, n);
  save(out, b.lambda, n);
  save(out, b.sticking, n);
  save(out, b.end_weight, 2 * n);
  save(out, b.end_scale, 2 * n);
  out.array(supported_mass_);
}

void ContactDetector::load_state(SnapshotReader& in, int bodies) {
  const auto n = in.value<std::int64_t>(), p = in.value<std::int64_t>();
  const auto body_pairs = in.value<std::int64_t>();
  if (n < 0 || p < 0 || body_pairs < 0 || body_pairs > p || std::uint64_t(n) > kMaxContacts ||
      std::uint64_t(p) > kMaxContacts)
    throw Error("restore_state: corrupt snapshot (contact counts)");
  Buffer& b = cur_;
  load(in, b.key, p, "contact candidates");
  load(in, b.begin, p > 0 ? p + 1 : 0, "contact candidate ranges");
  if (p == 0) b.begin.data()[0] = 0;
  load(in, b.end_body, 2 * n, "contact ends");
  load(in, b.end_radius, 2 * n, "contact ends");
  load(in, b.slot_local, kContactSlots * n, "contact anchors");
  load(in, b.normal, n, "contacts");
  load(in, b.friction, n, "contacts");
  load(in, b.restitution, n, "contacts");
  load(in, b.approach_velocity, n, "contacts");
  load(in, b.gap_offset, n, "contacts");
  load(in, b.start_gap, n, "contacts");
  load(in, b.anchor_reach, n, "contacts");
  load(in, b.separation, n, "contacts");
  load(in, b.feature, n, "contacts");
  load(in, b.penalty, n, "contacts");
  load(in, b.normal_penalty, n, "contacts");
  load(in, b.lambda, n, "contacts");
  load(in, b.sticking, n, "contacts");
  load(in, b.end_weight, 2 * n, "contact ends");
  load(in, b.end_scale, 2 * n, "contact ends");
  in.any_array(supported_mass_, static_cast<std::size_t>(bodies), "supported masses");
  if (!supported_mass_.empty() && static_cast<int>(supported_mass_.size()) != bodies)
    throw Error("restore_state: corrupt snapshot (supported masses)");
  for (int k = 0; k < 2 * n; ++k)
    if (b.end_body[k] < 0 || b.end_body[k] >= bodies)
      throw Error("restore_state: corrupt snapshot (a contact's body)");
  b.count = static_cast<int>(n);
  b.pairs = static_cast<int>(p);
  b.body_pairs = static_cast<int>(body_pairs);
  // The pair adjacency belongs to the step that built it; the next detection
  // rebuilds it from these contacts.
  pair_count_ = 0;
  end_begin_.clear();
}

}  // namespace pabd
