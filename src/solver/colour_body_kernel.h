// The per-body kernel of a colored sweep with contacts: body i's bond ends,
// then each of its contact pairs evaluated on the spot for its own end,
// then the local step.
//
// In a colored sweep the bodies of one colour see their neighbours where the
// colours before them left them, so a contact pair is evaluated once in
// each of its two bodies' colours. Evaluated by the body that is being
// solved, it forms only that body's end's sums and adds them straight into
// the body's system: nothing is written per pair end but the weights
// (read by acceleration.h), no parallel loop over the colour's pairs runs
// before its bodies, and the other end's slots cost no sums.
//
// The result is the same bits as evaluating the colour's pairs first
// (contact_pair_weights_kernel) and gathering their sums (global_local_kernel):
// a pair joins bodies of two colours (or one body and a static one), so while
// body i's colour is solved the pair's other body does not move and no other
// body touches the pair; body i moves only after its pairs are evaluated. The
// deferred dual update of the previous iteration (dual_first) is taken by the
// pair's body of the first colour, as in the pair loop.
#pragma once

#include "contacts/contact_kernels.h"
#include "solver/body_kernels.h"

namespace pabd {

/// The first colour (of the two, or the one dynamic) in which contact pair m
/// is evaluated, from the bodies' colours (-1: static).
PABD_HD_ALWAYS_INLINE int first_pair_colour(const int* body_colour, const ContactArrays& c, int m) {
  const int a = body_colour[c.pair_body[2 * m]], b = body_colour[c.pair_body[2 * m + 1]];
  if (a < 0) return b;
  if (b < 0) return a;
  return a < b ? a : b;
}

/// Contact pair end e (= 2 m + side) evaluated for its own body at the
/// current iterate and added to that body's system; both ends' weights are
/// written to pair_weight.
template <bool kRound, bool kSecondMoment>
PABD_HD_ALWAYS_INLINE void add_contact_pair_end(const BodyArrays& bodies, const ContactArrays& c,
                                                int e, bool dual_first, AffineSystem& sys) {
  const int m = e >> 1, side = e & 1;
  BondEndSums sums;
  Mat3 second_moment;
  Real other_weight = 0;
  contact_pair_end_sums<kRound, kSecondMoment>(bodies, c, m, side, dual_first, sums, second_moment,
                                               other_weight);
  c.pair_weight[e] = sums.weight;
  c.pair_weight[e ^ 1] = other_weight;
  // Skipped, not added as zeros (as in global_local_kernel).
  if (sums.weight != 0) add_bond_end_sums(sys, sums, kSecondMoment ? &second_moment : nullptr);
}

/// One body of colour `colour` in a colored sweep with contacts (see the top
/// of this file). `fuse_dual`: pairs take the previous iteration's deferred
/// dual update in their first colour.
PABD_HD void colour_body_kernel(const BodyArrays& b, const BondArrays& bonds,
                                const ContactArrays& contact, const ContactEnds& ends,
                                const int* body_colour, int colour, bool fuse_dual, int i,
                                const StepConstants& k) {
  if (b.is_static[i]) return;
  AffineSystem sys = body_bond_system(b, bonds, i, k);
  const int end_first = ends.begin[i], end_last = ends.begin[i + 1];
  for (int e_at = end_first; e_at < end_last; ++e_at) {
    // Two pairs ahead: where its contacts are; one ahead: its contacts.
    if (e_at + 2 < end_last) prefetch_pair_record(contact, ends.index[e_at + 2] >> 1);
    if (e_at + 1 < end_last) prefetch_contact_pair(contact, ends.index[e_at + 1] >> 1);
    const int e = ends.index[e_at];
    const int m = e >> 1;
    const bool dual_first = fuse_dual && first_pair_colour(body_colour, contact, m) == colour;
    const bool round = contact.pair_round[m] != 0;
    if (k.rigid_local) {
      if (round)
        add_contact_pair_end<true, false>(b, contact, e, dual_first, sys);
      else
        add_contact_pair_end<false, false>(b, contact, e, dual_first, sys);
    } else if (round) {
      add_contact_pair_end<true, true>(b, contact, e, dual_first, sys);
    } else {
      add_contact_pair_end<false, true>(b, contact, e, dual_first, sys);
    }
  }
  body_local_step(b, i, sys, k);
}

}  // namespace pabd
