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

}  // namespace

void ContactDetector::save_state(SnapshotWriter& out) const {
  const long long n = stages_.cur.count, p = stages_.cur.pairs;
  out.value(static_cast<std::int64_t>(n));
  out.value(static_cast<std::int64_t>(p));
  out.value(static_cast<std::int64_t>(stages_.cur.body_pairs));
  visit_carried_arrays(
      n, p,
      [&](long long count, const char*, const auto& a) {
        out.array(a.data(), static_cast<std::size_t>(count));
      },
      stages_.cur);
  out.array(supported_mass_);
}

void ContactDetector::load_state(SnapshotReader& in, int bodies) {
  mark_changed();  // first: a corrupt snapshot may stop it halfway
  const auto n = in.value<std::int64_t>(), p = in.value<std::int64_t>();
  const auto body_pairs = in.value<std::int64_t>();
  if (n < 0 || p < 0 || body_pairs < 0 || body_pairs > p || std::uint64_t(n) > kMaxContacts ||
      std::uint64_t(p) > kMaxContacts)
    throw Error("restore_state: corrupt snapshot (contact counts)");
  ContactSet<HostContactBackend>& b = stages_.cur;
  visit_carried_arrays(
      n, p,
      [&](long long count, const char* what, auto& a) {
        in.array(a.reserve_for(static_cast<std::size_t>(std::max(count, 1LL))),
                 static_cast<std::size_t>(count), what);
      },
      b);
  const int* first = b.begin.data();
  const int* last = b.end.data();
  for (long long i = 0; i < p; ++i)
    if (first[i] < 0 || last[i] < first[i] || last[i] > n)
      throw Error("restore_state: corrupt snapshot (contact candidate ranges)");
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
  stages_.pairs.count = 0;
  stages_.ends.built = false;
}

}  // namespace pabd
