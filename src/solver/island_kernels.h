// The island momentum stage's kernels (solver/island_momentum.h), over the
// islands' lists the host builds from the bonds (build_island_lists): one
// pass per body tells whether a contact holds its island, one per island
// shifts a free island's centres. Written once for any executor (the host's
// loops, a device's), so the CPU and a device compute the same bits: each
// island sums its bodies in body order, as the stage always did.
#pragma once

#include <cstdint>

#include "model/body_arrays.h"
#include "model/contact_arrays.h"

namespace pabd {

/// The islands of two or more moving bodies (bodies joined by bonds between
/// moving bodies), as lists: what changes only with the bonds and the static
/// flags. Host or device memory, as the loops that read it.
struct IslandLists {
  int body_count = 0;
  int island_count = 0;
  /// Per body: its island, or -1 (static, or alone).
  const int* island_of = nullptr;
  /// Per body: a bond ties it to the world or to a static body.
  const std::uint8_t* bond_held = nullptr;
  /// Per island + 1: island k's bodies are body[begin[k] .. begin[k + 1]).
  const int* begin = nullptr;
  /// Each island's bodies in ascending order.
  const int* body = nullptr;
};

/// Whether body i's island is held this step (held[i]): a bond ties body i
/// to the world or a static body, or a contact pair of body i joins it to a
/// body outside its island (the other body's push is not an applied force).
/// A contact between two of its own bodies (the links of a chain folding
/// onto each other) is internal. 0 for a body outside every island.
PABD_HD void island_held_kernel(const IslandLists& lists, const ContactGraph& graph,
                                std::uint8_t* held, int i) {
  const int island = lists.island_of[i];
  std::uint8_t h = island >= 0 ? lists.bond_held[i] : std::uint8_t(0);
  if (island >= 0 && graph.end_begin) {
    for (int at = graph.end_begin[i]; at < graph.end_begin[i + 1] && !h; ++at) {
      const int other = graph.pair_body[graph.end_index[at] ^ 1];
      if (other < 0 || lists.island_of[other] != island) h = 1;
    }
  }
  held[i] = h;
}

/// Island k, unless one of its bodies is held: every centre shifted by
/// -sum m (c - s) / sum m, summed in body order.
PABD_HD void island_shift_kernel(const IslandLists& lists, const BodyArrays& b,
                                 const std::uint8_t* held, int k) {
  const int first = lists.begin[k], last = lists.begin[k + 1];
  double mass = 0;
  Vec3 excess;
  for (int at = first; at < last; ++at) {
    const int i = lists.body[at];
    if (held[i]) return;
    mass += double(b.mass[i]);
    excess += b.mass[i] * (b.position[i] - b.target_position[i]);
  }
  const Vec3 shift = (Real(-1) / Real(mass)) * excess;
  for (int at = first; at < last; ++at) b.position[lists.body[at]] += shift;
}

/// The stage's loops on any executor (solver/step_loops.h); `held` is
/// scratch of one byte per body.
template <typename Loops>
void island_momentum_loops(const BodyArrays& bodies, const IslandLists& lists,
                           const ContactGraph& graph, std::uint8_t* held, const Loops& loops) {
  loops.each(lists.body_count,
             [=] PABD_LAMBDA(int i) { island_held_kernel(lists, graph, held, i); });
  loops.each(lists.island_count,
             [=] PABD_LAMBDA(int k) { island_shift_kernel(lists, bodies, held, k); });
}

}  // namespace pabd
