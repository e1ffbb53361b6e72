// The one place the solver fans work out over threads. Default: an OpenMP
// static loop; a user task system can be plugged in through WorldDef. Every
// kernel writes only its own index, so the result does not depend on how the
// range is split (bit-identical across thread counts).
#pragma once

#include <functional>

#include "pabd/world.h"

namespace pabd {

/// Threads the OpenMP loops will use for a requested count (0 = OpenMP default).
int resolve_thread_count(int requested);

/// Runs fn(i) for i in [0, count) through a user's task system.
template <typename Fn>
void run_custom(const ParallelFor& custom, int count, const Fn& fn) {
  custom(count, [&fn](int begin, int end) {
    for (int i = begin; i < end; ++i) fn(i);
  });
}

/// The calling thread's place in its team (0 of 1 outside a parallel region).
struct ThreadSlot {
  int index = 0;
  int count = 1;
};
ThreadSlot this_thread_slot();

/// Below this count a loop of ~100 ns kernel calls runs inline (see parallel_for).
inline constexpr int kSerialBelow = 512;

/// Runs fn(i) for i in [0, count); inline below kSerialBelow calls.
template <typename Fn>
void parallel_for(const ParallelFor& custom, int threads, int count, const Fn& fn) {
  if (custom) return run_custom(custom, count, fn);
// Small ranges run inline: a fork-join costs microseconds on idle cores and a
// scheduler time slice when another process holds one, more than a few
// hundred kernel calls of ~100 ns each.
#pragma omp parallel for schedule(static) num_threads(threads) if (count >= kSerialBelow)
  for (int i = 0; i < count; ++i) fn(i);
}

/// Calls of uneven cost (a body with its contact pairs, 0.1 to 10 us) that
/// `cost(i)` (at least 1, in any unit) estimates: each thread takes one
/// contiguous run of [0, count) of about equal cost, and the loop runs inline
/// below 32 calls. Contiguous runs keep most of a colour's neighbouring bodies
/// (listed by index) on the thread that solved them in the colour before and
/// in the iteration before, so what a body reads of its neighbours is in its
/// own core's cache: threads taking chunks of 8 as they finished ran
/// ball_into_stack's body kernel 1.4 times as long at 2 threads as at 1
/// (perf, cycles summed over the threads), an even split by count left a
/// thread idle a fifth of the time (its lower layers carry the ground pairs).
/// Which thread runs an index does not change what it computes, so the bits
/// stay those of any other split.
template <typename Cost, typename Fn>
void parallel_for_uneven(const ParallelFor& custom, int threads, int count, const Cost& cost,
                         const Fn& fn) {
  if (custom) return run_custom(custom, count, fn);
#pragma omp parallel num_threads(threads) if (count >= 32)
  {
    const ThreadSlot slot = this_thread_slot();
    // Every thread sums the costs itself (a few hundred reads): no barrier.
    long long total = 0;
    for (int i = 0; i < count; ++i) total += cost(i);
    // Call i belongs to the thread whose share of [0, total) holds the sum
    // of the costs before it (costs of at least 1: each call has one).
    const long long first = total * slot.index / slot.count;
    const long long last = total * (slot.index + 1) / slot.count;
    long long before = 0;
    for (int i = 0; i < count && before < last; ++i) {
      if (before >= first) fn(i);
      before += cost(i);
    }
  }
}

/// Few calls of milliseconds each (a block of a block order's sweep,
/// solver/block_order.h): one at a time as the threads finish, in parallel
/// from two calls.
template <typename Fn>
void parallel_for_blocks(const ParallelFor& custom, int threads, int count, const Fn& fn) {
  if (custom) return run_custom(custom, count, fn);
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (count >= 2)
  for (int i = 0; i < count; ++i) fn(i);
}

}  // namespace pabd
