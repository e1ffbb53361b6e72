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

/// Calls of uneven cost (a body with its contact pairs, 0.1 to 10 us): the
/// threads take chunks of kHeavyChunk as they finish, and the loop runs
/// inline only below 4 chunks. Which thread runs an index does not
/// change what it computes, so the bits stay those of any other split.
inline constexpr int kHeavyChunk = 8;

template <typename Fn>
void parallel_for_uneven(const ParallelFor& custom, int threads, int count, const Fn& fn) {
  if (custom) return run_custom(custom, count, fn);
#pragma omp parallel for schedule(dynamic, kHeavyChunk) num_threads(threads) if (count >= 32)
  for (int i = 0; i < count; ++i) fn(i);
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
