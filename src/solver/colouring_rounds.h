// The contact colouring in parallel rounds (Jones-Plassmann), for a device.
//
// Why. The greedy colouring (colouring.h) visits the bodies one after the
// other: on the host it cost 2.1 ms a step on pile_20 and 9.2 ms on pile_30
// at 1 thread, some 40 ms on the 125k pile, more than a device's whole step
// may take. A colouring with contacts is rebuilt every step, so a device
// must colour in parallel.
//
// How. Each body has a priority: first the parity class of its cell in a
// grid of its own size (colouring_class), then a fixed bijective hash of its
// index (colouring_priority), so no two bodies share one. In every round,
// each uncoloured dynamic body whose neighbours of lower priority are all
// coloured takes the smallest colour none of them has; the rounds go on
// until every dynamic body has a colour. A body's colour depends only on
// its lower neighbours' colours, so the result is the greedy colouring that
// visits the bodies by increasing priority, whatever the schedule: the
// host's colour_bodies visits them in that order, and both give the same
// colours. The rounds are at most the longest chain of neighbours of
// increasing priority.
//
// Why this priority. The index order's chains follow a scene's rows (a row
// of n boxes in contact is n rounds; pile_20: 134). A hash alone cuts them
// (pile_20: 50) but packs colours badly (17 where the index order has 8).
// The cell classes give a lattice of bodies the 2 x 2 x 2 pattern's 8
// colours, and the hash orders the bodies inside a class, few of which
// touch: pile_20 8 colours with a longest chain of 10 (tests/
// test_colouring_rounds.cpp).
//
// A round writes colours in place: a neighbour's colour is read as -1 (its
// turn has not come: wait for the next round) or as its final value, so the
// rounds' count may vary with the schedule, never the colours.
//
// The lists (bodies by colour then index, bonds by colour then index) come
// from stable sorts by colour and each colour's first place (a binary
// search, as the contact adjacency's): the same lists as colouring.cpp's
// counting sorts.
#pragma once

#include <cmath>
#include <cstdint>

#include "contacts/contact_detect_kernels.h"
#include "core/block_loops.h"
#include "core/radix_sort.h"
#include "model/body_arrays.h"
#include "pabd/config.h"
#include "pabd/math.h"

namespace pabd {

/// The order of the bodies inside a class of the visiting order (lower
/// first): a bijective 32-bit mix of the index (Wellons' lowbias32), so no
/// two bodies tie and neighbours' indices form no long increasing chains.
PABD_HD std::uint32_t colouring_priority(int body) {
  std::uint32_t x = static_cast<std::uint32_t>(body);
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

/// A body's class in the visiting order: the parity of its cell, along
/// each axis, in a grid of its own size s = 2 sqrt(tr(Pi) / m) (a cube's
/// edge; 1.55 r for a sphere). The bodies of a pile in a lattice alternate
/// classes like the cells of a 2 x 2 x 2 pattern. In [0, 8); 0 where the
/// size is not a positive number (a particle without inertia).
PABD_HD std::uint32_t colouring_class(Vec3 centre, Real mass, const Mat3& affine_inertia) {
  const Real size = Real(2) * std::sqrt(trace(affine_inertia) / mass);
  if (!(size > 0 && size < Real(1e300))) return 0;
  const auto odd = [&](Real x) -> std::uint32_t {
    const Real cell = std::floor(x / size);
    return cell - Real(2) * std::floor(cell * Real(0.5)) == Real(1) ? 1u : 0u;
  };
  return odd(centre.x) | odd(centre.y) << 1 | odd(centre.z) << 2;
}

/// A body's place in the visiting order (lower first): its class, then the
/// hash of its index.
PABD_HD std::uint64_t colouring_key(std::uint32_t cell_class, int body) {
  return std::uint64_t(cell_class) << 32 | colouring_priority(body);
}

/// The colouring's graph, in the executor's memory: bonds through the
/// bodies' bond ends, contacts through their pair ends; the bodies'
/// centres, masses and inertias for their classes (no centres: class 0).
struct ColouringGraph {
  int bodies = 0;
  const std::uint8_t* is_static = nullptr;
  const Vec3* position = nullptr;
  const Real* mass = nullptr;
  const Mat3* affine_inertia = nullptr;
  const int* bond_end_begin = nullptr;  ///< per body + 1 (BodyArrays::end_begin)
  const int* bond_end_index = nullptr;  ///< BodyArrays::end_index
  const int* bond_end_body = nullptr;   ///< per bond end (BondArrays::end_body), -1 = world
  int bond_count = 0;
  const int* pair_body = nullptr;       ///< per pair end (ContactArrays::pair_body)
  const int* pair_end_begin = nullptr;  ///< per body + 1 (ContactEnds::begin); null: none
  const int* pair_end_index = nullptr;  ///< ContactEnds::index
};

/// The graph of `bodies` (their bond ends through bond_end_body) and of the
/// contact pairs (pair_body, and per body its pair ends: null for none), in
/// whichever memory they are.
inline ColouringGraph colouring_graph_of(const BodyArrays& bodies, const int* bond_end_body,
                                         int bond_count, const int* pair_body,
                                         const int* pair_end_begin, const int* pair_end_index) {
  ColouringGraph g;
  g.bodies = bodies.count;
  g.is_static = bodies.is_static;
  g.position = bodies.position;
  g.mass = bodies.mass;
  g.affine_inertia = bodies.affine_inertia;
  g.bond_end_begin = bodies.end_begin;
  g.bond_end_index = bodies.end_index;
  g.bond_end_body = bond_end_body;
  g.bond_count = bond_count;
  g.pair_body = pair_body;
  g.pair_end_begin = pair_end_begin;
  g.pair_end_index = pair_end_index;
  return g;
}

/// Body i's colouring_key from the graph's bodies.
PABD_HD std::uint64_t colouring_key_of(const ColouringGraph& g, int i) {
  const std::uint32_t c =
      g.position ? colouring_class(g.position[i], g.mass[i], g.affine_inertia[i]) : 0;
  return colouring_key(c, i);
}

/// f(j) for each dynamic neighbour j of body i with a lower key than i's
/// (key: per body, colouring_key_of): the bodies whose colours i's colour
/// depends on.
template <typename Fn>
PABD_HD void for_each_earlier_neighbour(const ColouringGraph& g, const std::uint64_t* key, int i,
                                        const Fn& f) {
  const std::uint64_t own = key[i];
  const auto visit = [&](int j) {
    if (j >= 0 && !g.is_static[j] && key[j] < own) f(j);
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
PABD_HD int colour_round_kernel(const ColouringGraph& g, const std::uint64_t* key, int* colour,
                                int i) {
  if (g.is_static[i] || colour[i] >= 0) return 0;
  bool ready = true;
  for_each_earlier_neighbour(g, key, i, [&](int j) {
    if (colour[j] < 0) ready = false;
  });
  if (!ready) return 1;
  // The smallest colour none of them has, 64 candidates at a time.
  for (int base = 0;; base += 64) {
    std::uint64_t taken = 0;
    for_each_earlier_neighbour(g, key, i, [&](int j) {
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

/// The arrays of a colouring in rounds, in a stage backend's memory
/// (collision/broadphase_pipeline.h).
template <typename Backend>
struct ColouringRoundsArrays {
  template <typename T>
  using Array = typename Backend::template Array<T>;
  Array<std::uint64_t> priority;  ///< per body, colouring_key_of
  Array<int> colour;              ///< per body, -1 = static
  Array<int> order;               ///< the sorted bodies, then the sorted bonds' values
  Array<int> bond_order;          ///< bonds by colour then index
  Array<int> colour_begin;        ///< colours + 1
  Array<int> bond_colour_begin;   ///< colours + 1
  // Scratch.
  Array<int> left, left_sums, count;
  Array<long long> block_sums;
  Array<std::uint64_t> key, bond_key, key_tmp;
  Array<int> value_tmp, radix_counts;
};

/// A colouring in rounds: its colour count and lists, in the backend's
/// memory (the counts in colour_begin and bond_colour_begin, colours + 1
/// each). `rounds` is how many rounds ran: those it took, and up to
/// check_every - 1 more (colour_in_rounds).
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

/// Rounds run between two counts of the bodies still without a colour. A
/// count is a scan and a read back (a wait on a device); a round after the
/// last colour changes nothing (colour_round_kernel leaves coloured bodies
/// alone), so running a few too many gives the same colouring for fewer
/// waits: the piles take 8 to 10 rounds (docs/gpu.md).
inline constexpr int kColouringRoundsPerCount = 4;

/// Colours g's dynamic bodies in rounds (above) and lists bodies and bonds
/// by colour, as colour_bodies does over the same graph. The bodies left are
/// counted after every `check_every` rounds.
template <typename Backend>
ColouringRoundsResult colour_in_rounds(Backend& be, ColouringRoundsArrays<Backend>& a,
                                       const ColouringGraph& g,
                                       int check_every = kColouringRoundsPerCount) {
  using colouring_rounds_detail::sort_pairs;
  const auto loops = be.loops();
  const int n = g.bodies;
  ColouringRoundsResult r;
  int* colour = be.room(a.colour, n);
  int* left = be.room(a.left, n);
  int* left_sums = be.room(a.left_sums, n);
  long long* block_sums = be.room(a.block_sums, loop_block_count(n) + 1LL);
  std::uint64_t* key_of = be.room(a.priority, n);
  loops.each(n, [=] PABD_LAMBDA(int i) {
    colour[i] = -1;
    key_of[i] = colouring_key_of(g, i);
  });

  // Rounds until every dynamic body has a colour. Each round colours at
  // least the uncoloured body of lowest priority, so n + 1 rounds suffice.
  for (long long still = n; still > 0 && r.rounds <= n;) {
    loops.each(n, [=] PABD_LAMBDA(int i) { left[i] = colour_round_kernel(g, key_of, colour, i); });
    if (++r.rounds % check_every == 0 || r.rounds > n)
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
  sort_pairs(be, a, key, order, n, radix_key_bits(n), 2LL * g.bond_count);
  // The colour count: one past the last dynamic body's colour.
  int* count = be.room(a.count, 1);
  loops.serial([=] PABD_LAMBDA() { *count = 0; });
  loops.each(n, [=] PABD_LAMBDA(int p) {
    const std::uint64_t last = static_cast<std::uint64_t>(n);
    if (key[p] < last && (p + 1 == n || key[p + 1] >= last)) *count = static_cast<int>(key[p]) + 1;
  });
  const int colours = n > 0 ? loops.read(count) : 0;
  int* colour_begin = be.room(a.colour_begin, colours + 1LL);
  loops.each(colours + 1, [=] PABD_LAMBDA(int c) {
    colour_begin[c] = first_index_not_below(0, n, static_cast<std::uint64_t>(c), KeyArray{key});
  });

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
  sort_pairs(be, a, bond_key, bond_order, m, radix_key_bits(colours), n);
  int* bond_colour_begin = be.room(a.bond_colour_begin, colours + 1LL);
  loops.each(colours + 1, [=] PABD_LAMBDA(int c) {
    bond_colour_begin[c] =
        first_index_not_below(0, m, static_cast<std::uint64_t>(c), KeyArray{bond_key});
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
