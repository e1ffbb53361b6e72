// The one place the solver fans work out over threads. Default: an OpenMP
// static loop; a user task system can be plugged in through WorldDef. Every
// kernel writes only its own index, so the result does not depend on how the
// range is split (bit-identical across thread counts).
#pragma once

#include <atomic>
#include <cstdint>
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

/// The calling thread's number in its team (0 outside a parallel region).
int this_thread_index();

/// Below this count a loop of ~100 ns kernel calls runs inline (see parallel_for).
inline constexpr int kSerialBelow = 512;

/// Runs fn(i) for i in [0, count); inline below kSerialBelow calls.
template <typename Fn>
void parallel_for(const ParallelFor& custom, int threads, int count, const Fn& fn) {
  if (custom) return run_custom(custom, count, fn);
  // Small ranges, and every range at one thread, run inline: a fork-join
  // costs microseconds on idle cores and a scheduler time slice when another
  // process holds one, more than a few hundred kernel calls of ~100 ns each.
  // Inline means outside any OpenMP region: an `if` clause that is false
  // still starts a team of one (libgomp allocates and frees it per region).
  if (threads <= 1 || count < kSerialBelow) {
    for (int i = 0; i < count; ++i) fn(i);
    return;
  }
#pragma omp parallel for schedule(static) num_threads(threads)
  for (int i = 0; i < count; ++i) fn(i);
}

/// A run of calls [front, back) that its owner takes from one end and the
/// other threads, once done with theirs, from the other; one 64-bit word,
/// changed by compare-and-swap, on a cache line of its own. With
/// kRoundBits > 0 the word also holds the round (an iteration) the run was
/// armed for, and a taker of another round gets nothing: a run re-armed
/// round after round (solver/colour_flow.h) needs no barrier between its
/// takers. The bounds take the other bits, half each.
template <int kRoundBits>
struct alignas(64) TakeableRun {
  static constexpr int kBoundBits = (64 - kRoundBits) / 2;
  static constexpr std::uint64_t kBoundMask = (std::uint64_t(1) << kBoundBits) - 1;
  /// Bounds and rounds a word holds: [0, kBoundLimit), [0, kRoundLimit).
  static constexpr long long kBoundLimit =
      (1LL << kBoundBits) - 1 > 0x7fffffffLL ? 0x7fffffffLL : 1LL << kBoundBits;
  static constexpr long long kRoundLimit = 1LL << kRoundBits;

  std::atomic<std::uint64_t> bounds{0};

  static std::uint64_t pack(int round, int front, int back) {
    std::uint64_t word = (std::uint64_t(std::uint32_t(front)) & kBoundMask) |
                         ((std::uint64_t(std::uint32_t(back)) & kBoundMask) << kBoundBits);
    if constexpr (kRoundBits > 0) word |= std::uint64_t(std::uint32_t(round)) << (2 * kBoundBits);
    return word;
  }
  void arm(int round, int front, int back) {
    bounds.store(pack(round, front, back), std::memory_order_relaxed);
  }
  /// Takes up to `n` calls of `round` from the front (from_back: from the
  /// back) into [begin, end); false when none are left or the run is armed
  /// for another round.
  bool take(int round, int n, bool from_back, int& begin, int& end) {
    std::uint64_t seen = bounds.load(std::memory_order_relaxed);
    for (;;) {
      if constexpr (kRoundBits > 0)
        if (seen >> (2 * kBoundBits) != std::uint64_t(std::uint32_t(round))) return false;
      const int front = int(seen & kBoundMask), back = int((seen >> kBoundBits) & kBoundMask);
      if (front >= back) return false;
      begin = from_back ? (back - n > front ? back - n : front) : front;
      end = from_back ? back : (front + n < back ? front + n : back);
      const std::uint64_t next = from_back ? pack(round, front, begin) : pack(round, end, back);
      if (bounds.compare_exchange_weak(seen, next, std::memory_order_relaxed)) return true;
    }
  }
};

/// A run of parallel_for_uneven: one round, bounds of 32 bits.
using StealableRun = TakeableRun<0>;

/// Most threads a loop of uneven calls splits its runs for (more take part
/// by taking from the others' runs).
inline constexpr int kMaxUnevenRuns = 64;

/// Calls taken at a time from a run.
inline constexpr int kUnevenTake = 4;

/// Splits [0, count) into `runs` contiguous runs of about equal cost (cost(i)
/// >= 1): run r is [front[r], front[r + 1]), the calls whose preceding
/// costs' sum lies in r's share of the total (so each call has one run).
/// front needs runs + 1 entries.
template <typename Cost>
void split_by_cost(int count, const Cost& cost, int runs, int* front) {
  long long total = 0;
  for (int i = 0; i < count; ++i) total += cost(i);
  long long before = 0;
  int r = 0;
  front[0] = 0;
  for (int i = 0; i < count; ++i) {
    while (r + 1 < runs && before >= total * (r + 1) / runs) front[++r] = i;
    before += cost(i);
  }
  while (r < runs) front[++r] = count;
}

/// Calls of uneven cost (a body with its contact pairs, 0.1 to 10 us) that
/// `cost(i)` (at least 1, in any unit) estimates. Each thread owns one
/// contiguous run of [0, count) of about equal cost and takes it from the
/// front, 4 calls at a time; a thread done with its run takes from the back
/// of the others'. The loop runs inline below 32 calls.
///
/// Why runs: they keep most of a colour's neighbouring bodies (listed by
/// index) on the thread that solved them in the colour before and in the
/// iteration before, so what a body reads of its neighbours is in its own
/// core's cache. Threads taking chunks of 8 as they finished ran
/// ball_into_stack's body kernel 1.4 times as long at 2 threads as at 1
/// (perf, cycles summed over the threads). Why taking from the others' back:
/// the estimate is rough (a live pair end costs far more than an idle one),
/// and runs of equal estimated cost alone left a thread idle about a tenth
/// of each colour. Which thread runs an index does not change what it
/// computes, so the bits stay those of any other split.
template <typename Cost, typename Fn>
void parallel_for_uneven(const ParallelFor& custom, int threads, int count, const Cost& cost,
                         const Fn& fn) {
  if (custom) return run_custom(custom, count, fn);
  const int runs = threads < kMaxUnevenRuns ? threads : kMaxUnevenRuns;
  if (runs <= 1 || count < 32) {
    for (int i = 0; i < count; ++i) fn(i);
    return;
  }
  StealableRun run[kMaxUnevenRuns];
  int front[kMaxUnevenRuns + 1];
  split_by_cost(count, cost, runs, front);
  for (int r = 0; r < runs; ++r) run[r].arm(0, front[r], front[r + 1]);
#pragma omp parallel num_threads(runs)
  {
    const int me = this_thread_index();
    int begin = 0, end = 0;
    for (int v = 0; v < runs; ++v) {
      // Its own run first, from the front; then the others', from the back.
      const int r = (me + v) % runs;
      while (run[r].take(0, kUnevenTake, v > 0, begin, end))
        for (int i = begin; i < end; ++i) fn(i);
    }
  }
}

/// The calling thread's team size (1 outside a parallel region).
int this_team_size();

/// Runs fn(me, team) once on each thread of a team of at most `threads`
/// (me in [0, team)): for work whose threads order themselves, as the
/// colour flow's (solver/colour_flow.h), where a team may be smaller than
/// asked for.
template <typename Fn>
void parallel_team(int threads, const Fn& fn) {
#pragma omp parallel num_threads(threads)
  fn(this_thread_index(), this_team_size());
}

/// Few calls of milliseconds each (a block of a block order's sweep,
/// solver/block_order.h): one at a time as the threads finish, in parallel
/// from two calls (a team of one, unlike parallel_for's inline loop, costs
/// nothing beside a call's milliseconds).
template <typename Fn>
void parallel_for_blocks(const ParallelFor& custom, int threads, int count, const Fn& fn) {
  if (custom) return run_custom(custom, count, fn);
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (count >= 2)
  for (int i = 0; i < count; ++i) fn(i);
}

}  // namespace pabd
