// The contact colouring in parallel rounds (Jones-Plassmann), for a device.
//
// Why. The greedy colouring (colouring.h) visits the bodies one after the
// other: on the host it cost 2.1 ms a step on pile_20 and 9.2 ms on pile_30
// at 1 thread, some 40 ms on the 125k pile, more than a device's whole step
// may take. A colouring with contacts is rebuilt every step, so a device
// must colour in parallel.
//
// How. Each body has a priority, a fixed bijective hash of its index
// (colouring_priority: no two bodies share one). In every round, each
// uncoloured dynamic body whose neighbours of lower priority are all
// coloured takes the smallest colour none of them has; the rounds go on
// until every dynamic body has a colour. A body's colour depends only on
// its lower neighbours' colours, so the result is the greedy colouring that
// visits the bodies by increasing priority, whatever the schedule: the
// host's colour_bodies visits them in that order, and both give the same
// colours. Hashed priorities keep the rounds few (about the logarithm of the
// bodies for a graph of bounded degree), where the index order's chains of
// increasing indices (a row of boxes) would take a round per body.
//
// A round writes colours in place: a neighbour's colour is read as -1 (its
// turn has not come: wait for the next round) or as its final value, so the
// rounds' count may vary with the schedule, never the colours.
//
// The lists (bodies by colour then index, bonds by colour then index) come
// from stable sorts by colour and the starts of each colour's run: the same
// lists as colouring.cpp's counting sorts.
#pragma once

#include <cstdint>

#include "core/block_loops.h"
#include "core/radix_sort.h"
#include "pabd/config.h"

namespace pabd {

/// A body's place in the greedy colouring's visiting order (lower first): a
/// bijective 32-bit mix of its index (Wellons' lowbias32), so no two bodies
/// tie and neighbours' indices do not form long increasing chains.
PABD_HD std::uint32_t colouring_priority(int body) {
  std::uint32_t x = static_cast<std::uint32_t>(body);
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

/// The colouring's graph, in the executor's memory: bonds through the
/// bodies' bond ends, contacts through their pair ends.
struct ColouringGraph {
  int bodies = 0;
  const std::uint8_t* is_static = nullptr;
  const int* bond_end_begin = nullptr;  ///< per body + 1 (BodyArrays::end_begin)
  const int* bond_end_index = nullptr;  ///< BodyArrays::end_index
  const int* bond_end_body = nullptr;   ///< per bond end (BondArrays::end_body), -1 = world
  int bond_count = 0;
  const int* pair_body = nullptr;       ///< per pair end (ContactArrays::pair_body)
  const int* pair_end_begin = nullptr;  ///< per body + 1 (ContactEnds::begin); null: none
  const int* pair_end_index = nullptr;  ///< ContactEnds::index
};

/// f(j) for each dynamic neighbour j of body i with a lower priority than
/// i's: the bodies whose colours i's colour depends on.
template <typename Fn>
PABD_HD void for_each_earlier_neighbour(const ColouringGraph& g, int i, const Fn& f) {
  const std::uint32_t own = colouring_priority(i);
  const auto visit = [&](int j) {
    if (j >= 0 && !g.is_static[j] && colouring_priority(j) < own) f(j);
  };
  for (int at = g.bond_end_begin[i]; at < g.bond_end_begin[i + 1]; ++at)
    visit(g.bond_end_body[g.bond_end_index[at] ^ 1]);
  if (g.pair_end_begin)
    for (int at = g.pair_end_begin[i]; at < g.pair_end_begin[i + 1]; ++at)
      visit(g.pair_body[g.pair_end_index[at] ^ 1]);
}

/// One round for body i (colour: per body, -1 = none yet): colours it when
/// its earlier neighbours all have colours. Returns 1 when it is a dynamic
/// body still without a colour, 0 otherwise.
PABD_HD int colour_round_kernel(const ColouringGraph& g, int* colour, int i) {
  if (g.is_static[i] || colour[i] >= 0) return 0;
  bool ready = true;
  for_each_earlier_neighbour(g, i, [&](int j) {
    if (colour[j] < 0) ready = false;
  });
  if (!ready) return 1;
  // The smallest colour none of them has, 64 candidates at a time.
  for (int base = 0;; base += 64) {
    std::uint64_t taken = 0;
    for_each_earlier_neighbour(g, i, [&](int j) {
      const int c = colour[j] - base;
      if (c >= 0 && c < 64) taken |= std::uint64_t(1) << c;
    });
    if (taken != ~std::uint64_t(0)) {
      int c = 0;
      while ((taken >> c) & 1) ++c;
      colour[i] = base + c;
      return 0;
    }
  }
}

/// Over p in [0, m]: begin[c] = the first place of keys[0, m) (sorted, each
/// clamped to `segments`) not below c, for every c in [0, segments]; each c
/// is written by exactly one p.
PABD_HD void segment_start_kernel(const std::uint64_t* keys, int m, int segments, int* begin,
                                  int p) {
  const auto clamped = [&](int at) {
    return keys[at] < std::uint64_t(segments) ? static_cast<int>(keys[at]) : segments;
  };
  const int previous = p > 0 ? clamped(p - 1) : -1;
  const int current = p < m ? clamped(p) : segments;
  for (int c = previous + 1; c <= current; ++c) begin[c] = p;
}

/// Bits that hold every value in [0, n].
inline int bits_holding(long long n) {
  int bits = 1;
  while ((1LL << bits) <= n) ++bits;
  return bits;
}

/// The arrays of a colouring in rounds, in a stage backend's memory
/// (collision/broadphase_pipeline.h).
template <typename Backend>
struct ColouringRoundsArrays {
  template <typename T>
  using Array = typename Backend::template Array<T>;
  Array<int> colour;             ///< per body, -1 = static
  Array<int> order;              ///< the sorted bodies, then the sorted bonds' values
  Array<int> bond_order;         ///< bonds by colour then index
  Array<int> colour_begin;       ///< colours + 1
  Array<int> bond_colour_begin;  ///< colours + 1
  // Scratch.
  Array<int> left, left_sums, count;
  Array<long long> block_sums;
  Array<std::uint64_t> key, bond_key, key_tmp;
  Array<int> value_tmp, radix_counts;
};

/// A colouring in rounds: its colour count and lists, in the backend's
/// memory (the counts in colour_begin and bond_colour_begin, colours + 1
/// each). `rounds` is how many rounds it took.
struct ColouringRoundsResult {
  int colours = 0;
  int rounds = 0;
  const int* colour = nullptr;
  const int* order = nullptr;
  const int* colour_begin = nullptr;
  const int* bond_order = nullptr;
  const int* bond_colour_begin = nullptr;
};

namespace colouring_rounds_detail {

/// Sorts (key, value) pairs [0, m) stably by key bits [0, key_bits).
template <typename Backend>
void sort_pairs(Backend& be, ColouringRoundsArrays<Backend>& a, std::uint64_t* key, int* value,
                int m, int key_bits, long long room_for) {
  if (m == 0) return;
  // Scratch for the larger of the two sorts, so the second grows nothing.
  const long long room = m > room_for ? m : room_for;
  radix_sort_by_key_on(
      be.loops(), key, value, be.room(a.key_tmp, room), be.room(a.value_tmp, room),
      be.room(a.radix_counts, 1LL * loop_block_count(static_cast<int>(room)) * kRadixBuckets + 1),
      m, key_bits);
}

}  // namespace colouring_rounds_detail

/// Colours g's dynamic bodies in rounds (above) and lists bodies and bonds
/// by colour, as colour_bodies does over the same graph.
template <typename Backend>
ColouringRoundsResult colour_in_rounds(Backend& be, ColouringRoundsArrays<Backend>& a,
                                       const ColouringGraph& g) {
  using colouring_rounds_detail::sort_pairs;
  const auto loops = be.loops();
  const int n = g.bodies;
  ColouringRoundsResult r;
  int* colour = be.room(a.colour, n);
  int* left = be.room(a.left, n);
  int* left_sums = be.room(a.left_sums, n);
  long long* block_sums = be.room(a.block_sums, loop_block_count(n) + 1LL);
  loops.each(n, [=] PABD_LAMBDA(int i) { colour[i] = -1; });

  // Rounds until every dynamic body has a colour. Each round colours at
  // least the uncoloured body of lowest priority, so n + 1 rounds suffice.
  for (long long still = n; still > 0 && r.rounds <= n; ++r.rounds) {
    loops.each(n, [=] PABD_LAMBDA(int i) { left[i] = colour_round_kernel(g, colour, i); });
    still = block_exclusive_scan_on(loops, left, left_sums, n, block_sums);
  }

  // Bodies by colour then index: a stable sort by colour, statics (key n) last.
  std::uint64_t* key = be.room(a.key, n);
  int* order = be.room(a.order, n);
  const std::uint8_t* is_static = g.is_static;
  loops.each(n, [=] PABD_LAMBDA(int i) {
    key[i] = is_static[i] ? static_cast<std::uint64_t>(n) : static_cast<std::uint64_t>(colour[i]);
    order[i] = i;
  });
  sort_pairs(be, a, key, order, n, bits_holding(n), 2LL * g.bond_count);
  // The colour count: one past the last dynamic body's colour.
  int* count = be.room(a.count, 1);
  loops.serial([=] PABD_LAMBDA() { *count = 0; });
  loops.each(n, [=] PABD_LAMBDA(int p) {
    const std::uint64_t last = static_cast<std::uint64_t>(n);
    if (key[p] < last && (p + 1 == n || key[p + 1] >= last)) *count = static_cast<int>(key[p]) + 1;
  });
  const int colours = n > 0 ? loops.read(count) : 0;
  int* colour_begin = be.room(a.colour_begin, colours + 1LL);
  loops.each(n + 1,
             [=] PABD_LAMBDA(int p) { segment_start_kernel(key, n, colours, colour_begin, p); });

  // Bonds by colour then index: each end's colour, the second end's only
  // where it differs from the first's (a bond is listed once per colour).
  const int m = 2 * g.bond_count;
  std::uint64_t* bond_key = be.room(a.bond_key, m);
  int* bond_order = be.room(a.bond_order, m);
  const int* end_body = g.bond_end_body;
  loops.each(m, [=] PABD_LAMBDA(int e) {
    const auto colour_of = [&](int end) {
      const int body = end_body[end];
      return body >= 0 && !is_static[body] ? colour[body] : -1;
    };
    const int c = colour_of(e);
    const bool listed = c >= 0 && !((e & 1) && colour_of(e - 1) == c);
    bond_key[e] = static_cast<std::uint64_t>(listed ? c : colours);
    bond_order[e] = e >> 1;
  });
  sort_pairs(be, a, bond_key, bond_order, m, bits_holding(colours), n);
  int* bond_colour_begin = be.room(a.bond_colour_begin, colours + 1LL);
  loops.each(m + 1, [=] PABD_LAMBDA(int p) {
    segment_start_kernel(bond_key, m, colours, bond_colour_begin, p);
  });

  r.colours = colours;
  r.colour = colour;
  r.order = order;
  r.colour_begin = colour_begin;
  r.bond_order = bond_order;
  r.bond_colour_begin = bond_colour_begin;
  return r;
}

}  // namespace pabd
