// The per-body kernel of a colored sweep with contacts: body i's bond ends,
// then each of its contact pairs evaluated on the spot for its own end,
// then the local step.
//
// In a colored sweep the bodies of one colour see their neighbours where the
// colours before them left them, so a contact pair is evaluated once in
// each of its two bodies' colours. Evaluated by the body that is being
// solved, it forms only that body's end's sums and adds them straight into
// the body's system: nothing is written per pair end but the weights, and
// those only when the acceleration stage will read them (acceleration.h), no
// parallel loop over the colour's pairs runs before its bodies, and the other
// end's slots cost no sums.
//
// The result is the same bits as evaluating the colour's pairs first
// (contact_pair_weights_kernel) and gathering their sums (global_local_kernel):
// a pair joins bodies of two colours (or one body and a static one), so while
// body i's colour is solved the pair's other body does not move and no other
// body touches the pair; body i moves only after its pairs are evaluated. The
// deferred dual update of the previous iteration (dual_first) is taken by the
// pair's body of the first colour, as in the pair loop.
//
// A block order (solver/block_order.h) calls the same kernel on each body of
// a block in turn: the pair's other body again does not move meanwhile (it is
// in the same block, solved before or after, or in a block of another
// colour), and the pair's first body is the one earlier in the order.
#pragma once

#include "contacts/contact_kernels.h"
#include "solver/body_kernels.h"

namespace pabd {

/// The sweep key (Colouring::colour: a body's colour, or its place in a
/// block order; -1: static) of the body of contact pair m solved first in a
/// sweep: the smaller of the two, or the one dynamic body's.
PABD_HD_ALWAYS_INLINE int first_pair_key(const int* body_key, const ContactArrays& c, int m) {
  const int a = body_key[c.pair_body[2 * m]], b = body_key[c.pair_body[2 * m + 1]];
  if (a < 0) return b;
  if (b < 0) return a;
  return a < b ? a : b;
}

/// Contact pair end e (= 2 m + side) evaluated for its own body at the
/// current iterate and added to that body's system; with kKeepWeights, both
/// ends' weights are written to pair_weight.
template <bool kRound, bool kSecondMoment, bool kKeepWeights>
PABD_HD_ALWAYS_INLINE void add_contact_pair_end(const BodyArrays& bodies, const ContactArrays& c,
                                                int e, bool dual_first, AffineSystem& sys) {
  const int m = e >> 1, side = e & 1;
  BondEndSums sums;
  Mat3 second_moment;
  Real other_weight = 0;
  contact_pair_end_sums<kRound, kSecondMoment, kKeepWeights>(bodies, c, m, side, dual_first, sums,
                                                             second_moment, other_weight);
  if (kKeepWeights) {
    c.pair_weight[e] = sums.weight;
    c.pair_weight[e ^ 1] = other_weight;
  }
  // Skipped, not added as zeros (as in global_local_kernel).
  if (sums.weight != 0) add_bond_end_sums(sys, sums, kSecondMoment ? &second_moment : nullptr);
}

/// add_contact_pair_end for a pair of either kind (pair_round) and either local step.
template <bool kKeepWeights>
PABD_HD_ALWAYS_INLINE void add_contact_pair_end_of_kind(const BodyArrays& b,
                                                        const ContactArrays& contact, int e,
                                                        bool dual_first, bool rigid_local,
                                                        AffineSystem& sys) {
  const bool round = contact.pair_round[e >> 1] != 0;
  if (rigid_local) {
    if (round)
      add_contact_pair_end<true, false, kKeepWeights>(b, contact, e, dual_first, sys);
    else
      add_contact_pair_end<false, false, kKeepWeights>(b, contact, e, dual_first, sys);
  } else if (round) {
    add_contact_pair_end<true, true, kKeepWeights>(b, contact, e, dual_first, sys);
  } else {
    add_contact_pair_end<false, true, kKeepWeights>(b, contact, e, dual_first, sys);
  }
}

/// Pair ends the body found live, evaluated after its idle ones are told
/// apart: the evaluations' prefetches then run ahead over pairs that are
/// read, not over the idle ones that most of a pile's are.
inline constexpr int kLiveEndBatch = 16;

/// A live pair end of the body being solved: the end, and whether the body
/// is the pair's first in the sweep (it then takes the pair's deferred dual
/// update), told from the other body's sweep key while the list is read.
struct LiveEnd {
  int end = 0;
  bool dual_first = false;
};

/// Whether body i, of sweep key `key` (>= 0), is its pair's first in the
/// sweep, the other body's key being other_key (-1: static): first_pair_key
/// == key, told without the pair's records.
PABD_HD_ALWAYS_INLINE bool solved_first(int key, int other_key) {
  return other_key < 0 || key <= other_key;
}

/// Evaluates `count` live pair ends of body i in their listed order (the
/// sums are added in the order they would be without the batching).
template <bool kKeepWeights>
PABD_HD_ALWAYS_INLINE void add_live_pair_ends(const BodyArrays& b, const ContactArrays& contact,
                                              const StepConstants& k, const LiveEnd* live,
                                              int count, AffineSystem& sys) {
  for (int j = 0; j < count; ++j) {
    // Two pairs ahead: where its contacts are; one ahead: its contacts.
    if (j + 2 < count) prefetch_pair_record(contact, live[j + 2].end >> 1);
    if (j + 1 < count) prefetch_contact_pair(contact, live[j + 1].end >> 1);
    add_contact_pair_end_of_kind<kKeepWeights>(b, contact, live[j].end, live[j].dual_first,
                                               k.rigid_local, sys);
  }
}

/// Asks the cache for body i's list of pair ends and their idle bounds (a
/// host hint; nothing on the device): a colour's bodies are spread over the
/// lists, so each body's list was a fresh miss (perf, pile_30).
PABD_HD_ALWAYS_INLINE void prefetch_body_ends(const ContactEnds& ends, int i) {
#ifndef __CUDA_ARCH__
  const int first = ends.begin[i], last = ends.begin[i + 1];
  if (ends.bound) {  // which names the ends: the index is not read
    const char* from = reinterpret_cast<const char*>(ends.bound + first);
    const char* to = reinterpret_cast<const char*>(ends.bound + last);
    for (; from < to; from += 64) __builtin_prefetch(from);
  } else {
    for (int t = first; t < last; t += 16) __builtin_prefetch(ends.index + t);
  }
#else
  (void)ends;
  (void)i;
#endif
}

/// Body i in a colored sweep with contacts (see the top of this file), or in
/// a block order's (solver/block_order.h): body_key is Colouring::colour.
/// `fuse_dual`: pairs take the previous iteration's deferred dual update when
/// their first body is solved. kKeepWeights: the pair ends' weights are
/// written to pair_weight for their only reader, the acceleration stage
/// (acceleration.h); a sweep that does not accelerate neither writes them
/// nor sums the other ends'.
template <bool kKeepWeights>
PABD_HD void colour_body_kernel(const BodyArrays& b, const BondArrays& bonds,
                                const ContactArrays& contact, const ContactEnds& ends,
                                const int* body_key, bool fuse_dual, int i,
                                const StepConstants& k) {
  if (b.is_static[i]) return;
  const int key = body_key[i];
  AffineSystem sys = body_bond_system(b, bonds, i, k);
  const BodyMotion mine = b.motion[i];
  LiveEnd live[kLiveEndBatch];
  int live_count = 0;
  for (int e_at = ends.begin[i]; e_at < ends.begin[i + 1]; ++e_at) {
    LiveEnd end;
    if (ends.bound) {
      // The list's bound records name their ends and the pairs' other
      // bodies: neither the index nor the pair's records are read beside them.
      const EndIdleBound& r = ends.bound[e_at];
      end.end = r.end;
      // A quiet pair told idle from the body's own list (most of a pile's:
      // speculative side, edge and corner neighbours) costs its weights'
      // zeros. Telling it first changes nothing the live ones read: only
      // this body evaluates its pairs while its colour is solved, each pair once.
      if (end_surely_idle(b, contact, mine, r)) {
        if (kKeepWeights) {
          contact.pair_weight[end.end] = 0;
          contact.pair_weight[end.end ^ 1] = 0;
        }
        continue;
      }
      end.dual_first = fuse_dual && solved_first(key, body_key[r.other]);
    } else {
      end.end = ends.index[e_at];
      end.dual_first = fuse_dual && first_pair_key(body_key, contact, end.end >> 1) == key;
    }
    if (live_count == kLiveEndBatch) {
      add_live_pair_ends<kKeepWeights>(b, contact, k, live, live_count, sys);
      live_count = 0;
    }
    live[live_count++] = end;
  }
  add_live_pair_ends<kKeepWeights>(b, contact, k, live, live_count, sys);
  body_local_step(b, i, sys, k);
}

/// colour_body_kernel with the weights kept or not, chosen at run time.
PABD_HD_ALWAYS_INLINE void colour_body_kernel(const BodyArrays& b, const BondArrays& bonds,
                                              const ContactArrays& contact, const ContactEnds& ends,
                                              const int* body_key, bool fuse_dual,
                                              bool keep_weights, int i, const StepConstants& k) {
  if (keep_weights)
    colour_body_kernel<true>(b, bonds, contact, ends, body_key, fuse_dual, i, k);
  else
    colour_body_kernel<false>(b, bonds, contact, ends, body_key, fuse_dual, i, k);
}

}  // namespace pabd
