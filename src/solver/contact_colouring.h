// Body colouring for Gauss-Seidel sweeps (IterationOrder::Colored) when the
// step has contacts: the joint colouring (body_colouring.h) extended by this
// step's contact edges, rebuilt every step.
//
// A colour's bodies are solved in parallel, each reading the others' poses;
// that is a Gauss-Seidel sweep only if no two bodies of one colour share a
// bond, contacts included: two boxes of one colour resting on each other
// would both move from the other's old pose (the Jacobi double correction
// inside a colour, and with full-gap shares, colored sweeps' default, it
// overshoots). So the contacts join the graph. Contacts change every step,
// hence the rebuild: greedy, bodies in index order, each takes the smallest
// colour none of its coloured neighbours (through a bond or a contact) has;
// serial and deterministic, linear in bodies + bond ends + contact pair ends.
// Each colour lists its bodies, the bonds touching them and the contact pairs
// touching them. Arrays are reused from step to step (no allocation once warm).
#pragma once

#include <vector>

#include "model/body_arrays.h"
#include "model/contact_arrays.h"

namespace pabd {

/// Bodies, bonds and contacts grouped by colour (as BodyColouring, plus contacts).
struct ContactColouring {
  std::vector<int> order;                 ///< dynamic bodies by colour, then index
  std::vector<int> colour_begin;          ///< colour c: order[colour_begin[c] .. [c+1])
  std::vector<int> bond_order;            ///< bonds touching each colour
  std::vector<int> bond_colour_begin;     ///< colour c's bonds: bond_order[.. [c] .. [c+1])
  std::vector<int> contact_order;         ///< contact pairs touching each colour
  std::vector<int> contact_colour_begin;  ///< colour c's contact pairs
  std::vector<int> colour;                ///< scratch: per body, -1 = static
  std::vector<int> used;                  ///< scratch: used[c] == i marks a taken colour
  std::vector<int> fill;                  ///< scratch: counting-sort cursors

  int colour_count() const { return static_cast<int>(colour_begin.size()) - 1; }
};

/// The first colour (of the two, or the one dynamic) in which contact pair m is evaluated.
inline int first_contact_colour(const ContactColouring& cc, const ContactArrays& c, int m) {
  const int a = cc.colour[c.pair_body[2 * m]], b = cc.colour[c.pair_body[2 * m + 1]];
  if (a < 0) return b;
  if (b < 0) return a;
  return a < b ? a : b;
}

/// Colours the bodies over the bond adjacency (bodies.end_begin/end_index,
/// bond ends' bodies in bond_end_body) and the contact pair adjacency (ends),
/// and lists each colour's bonds and contact pairs.
void colour_bodies_with_contacts(const BodyArrays& bodies, const int* bond_end_body, int bond_count,
                                 const ContactArrays& contacts, const ContactEnds& ends,
                                 ContactColouring& out);

}  // namespace pabd
