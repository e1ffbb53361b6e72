// Graph colouring of the bodies for Gauss-Seidel sweeps (IterationOrder::Colored
// and the AVBD baseline).
//
// Two dynamic bodies joined by a bond or touching through a contact get
// different colours, so the bodies of one colour can be updated in parallel:
// each reads only bodies of other colours, which do not move meanwhile.
// Greedy and deterministic: bodies in a fixed order, each takes the smallest
// colour none of its already-coloured neighbours has. Static bodies and the
// world are fixed, so they link nothing.
//
//   colour 0   colour 1          a 1-D chain  0 - 1 - 2 - 3 - 4
//   0 2 4      1 3               gets colours  0   1   0   1   0
//                                (over its bonds, in index order)
//
// The order (VisitOrder). Over bonds alone, the bodies' index order, which
// packs the fewest colours into what is built in order (a chain gets 2, a
// cloth 4); such a colouring is rebuilt only when the bonds change. Over
// bonds and contacts, rebuilt every step, the order of colouring_key
// (colouring_rounds.h): each body's cell class in a grid of its own size,
// then a hash of its index. It packs as few colours as the index order
// (pile_20 8, ball_into_stack 9, windmill_piles 10), and a device computes
// the same colours in a few parallel rounds (pile_20: 8 to 9 rounds; the
// index order's chains of neighbours would take 134).
//
// For each colour it also lists the bonds touching its bodies: before a
// colour is solved only those need fresh weights. A bond touches at most two
// colours, so a sweep evaluates each at most twice. Contact pairs need no
// list: each colour's bodies evaluate their own (solver/colour_body_kernel.h).
//
// Why contacts join the graph: two boxes of one colour resting on each other
// would both move from the other's old pose (the Jacobi double correction
// inside a colour; with full-gap shares it overshoots). Contacts change every
// step, so a colouring with contacts is rebuilt every step; one over bonds
// only is rebuilt when the bond topology changes (colouring_is_current).
// Serial, linear in bodies + bond ends + contact pair ends; the arrays are
// reused from step to step (no allocation once warm).
#pragma once

#include <cstdint>
#include <vector>

#include "model/body_arrays.h"
#include "model/contact_arrays.h"

namespace pabd {

/// Bodies and bonds grouped by colour: the order of a Gauss-Seidel sweep.
/// A block order (block_order.h) fills the same fields, its colours holding
/// blocks of bodies instead of single bodies.
struct Colouring {
  std::vector<int> order;              ///< dynamic bodies by colour, then index
  std::vector<int> colour_begin;       ///< colour c: order[colour_begin[c] .. [c+1])
  std::vector<int> bond_order;         ///< bonds touching each colour, by colour then index
  std::vector<int> bond_colour_begin;  ///< colour c's bonds: bond_order[.. [c] .. [c+1])
  /// Per body, -1 = static: its colour, or in a block order its place in
  /// `order`. Either way a contact pair's body with the smaller value is
  /// solved first in a sweep (solver/colour_body_kernel.h).
  std::vector<int> colour;
  /// A block order's blocks (empty for a body colouring): block b is
  /// order[block_begin[b] .. [b + 1]), solved body after body by one thread;
  /// colour c's blocks are colour_block_begin[c] .. [c + 1].
  std::vector<int> block_begin;
  std::vector<int> colour_block_begin;
  // VisitOrder::Priority (colouring_rounds.h: colouring_key).
  std::vector<int> hash_order;   ///< bodies by colouring_priority, kept for its size
  std::vector<int> visit_class;  ///< per body: colouring_class
  std::vector<int> visit_order;  ///< bodies by colouring_key
  std::vector<int> used;         ///< scratch: used[c] == i marks a taken colour
  std::vector<int> fill;         ///< scratch: counting-sort cursors
  // Scratch of a block order (block_order.cpp).
  std::vector<Real> coordinate;     ///< the bodies' centres along one axis
  std::vector<int> cell_begin;      ///< per grid cell: its first body in `order`
  std::vector<int> block_of;        ///< per body: its block in grid order, -1 = static
  std::vector<int> block_colour;    ///< per block in grid order
  std::vector<int> block_list;      ///< blocks by colour
  std::vector<int> sorted;          ///< bodies being sorted
  int built_body_count = -1;        ///< bodies it was built for (-1: never built)
  std::vector<int> built_end_body;  ///< the bonds' end bodies it was built for
  /// Counts colour_bodies' builds (bonds only): a device uploads a bond
  /// colouring again only when this changed (device/view_mirror.h).
  std::uint64_t bond_builds = 0;

  int colour_count() const { return static_cast<int>(colour_begin.size()) - 1; }
};

/// The smallest colour not marked taken for `node` (used[c] == node), a new
/// one (colours grows) when all are: the greedy step of a colouring.
inline int smallest_free_colour(std::vector<int>& used, int& colours, int node) {
  int c = 0;
  while (c < colours && used[c] == node) ++c;
  if (c == colours) {
    ++colours;
    used.push_back(-1);
  }
  return c;
}

/// The order a greedy colouring visits the bodies in.
enum class VisitOrder {
  Index,     ///< by index
  Priority,  ///< by colouring_key (colouring_rounds.h: what its rounds compute)
};

/// Colours the bodies over the bond adjacency (bodies.end_begin/end_index,
/// the bond ends' bodies in bond_end_body) and the contact pair adjacency,
/// visiting them in `order`, and lists each colour's bonds; by priority, the
/// lists colour_in_rounds gives (colouring_rounds.h).
void colour_bodies(const BodyArrays& bodies, const int* bond_end_body, int bond_count,
                   const ContactGraph& contacts, VisitOrder order, Colouring& out);

/// The same over the bonds alone, visiting the bodies in index order;
/// records the bond topology it was built for (colouring_is_current).
void colour_bodies(const BodyArrays& bodies, const int* bond_end_body, int bond_count,
                   Colouring& out);

/// True when `colouring` was built for these bodies and bond ends.
bool colouring_is_current(const Colouring& colouring, int body_count, const int* bond_end_body,
                          int bond_count);

}  // namespace pabd
