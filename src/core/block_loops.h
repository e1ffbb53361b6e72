// Loops over fixed-size blocks of an array, and a deterministic exclusive
// prefix sum built on them. Blocks have a fixed size (not one per thread), so
// the split of the work, and every result, is the same for any thread count.
//
// parallel_for (src/core/parallel.h) sizes its fan-out for items of about
// 100 ns and runs ranges under 512 items inline. A block is thousands of
// elements, so a block loop is handed to it as a loop over chunks of 64
// elements (about 100 ns of work at 1 to 2 ns per element): item c does the
// work of block c / 64 when c is the block's first chunk and nothing
// otherwise. The wrapper (or a user task system) thus sees about the real
// amount of work, and with a static split each thread gets a contiguous run
// of blocks.
#pragma once

#include "core/parallel.h"

namespace pabd {

/// Elements per block of the block loops (a power of two).
inline constexpr int kLoopBlock = 4096;

/// Number of blocks covering n elements.
inline int loop_block_count(int n) { return (n + kLoopBlock - 1) / kLoopBlock; }

/// Threading of a loop: the World's thread count and optional task system.
struct Threading {
  int threads = 1;     ///< OpenMP threads
  ParallelFor custom;  ///< user task system; empty = OpenMP
};

/// fn(i) for i in [0, count), through parallel_for.
template <typename Fn>
void for_each_index(const Threading& th, int count, const Fn& fn) {
  parallel_for(th.custom, th.threads, count, fn);
}

/// Elements per item handed to parallel_for by the block loops.
inline constexpr int kLoopChunk = 64;

/// fn(block, begin, end) for each block [begin, end) of [0, n).
template <typename Fn>
void for_each_block(const Threading& th, int n, const Fn& fn) {
  if (n <= kLoopBlock) {  // one block (or none): nothing to split
    if (n > 0) fn(0, 0, n);
    return;
  }
  constexpr int chunks_per_block = kLoopBlock / kLoopChunk;
  const int chunks = (n + kLoopChunk - 1) / kLoopChunk;
  parallel_for(th.custom, th.threads, chunks, [&fn, n](int c) {
    if (c % chunks_per_block != 0) return;
    const int begin = c * kLoopChunk;
    const int end = begin + kLoopBlock < n ? begin + kLoopBlock : n;
    fn(c / chunks_per_block, begin, end);
  });
}

/// out[i] = in[0] + ... + in[i - 1]; returns the total. in and out may alias.
/// block_sums needs loop_block_count(n) entries.
inline long long block_exclusive_scan(const Threading& th, const int* in, int* out, int n,
                                      long long* block_sums) {
  // Sum of each block.
  for_each_block(th, n, [&](int b, int begin, int end) {
    long long s = 0;
    for (int i = begin; i < end; ++i) s += in[i];
    block_sums[b] = s;
  });
  // Exclusive scan of the block sums.
  const int blocks = loop_block_count(n);
  long long running = 0;
  for (int b = 0; b < blocks; ++b) {
    const long long s = block_sums[b];
    block_sums[b] = running;
    running += s;
  }
  // Scan inside each block from its start.
  for_each_block(th, n, [&](int b, int begin, int end) {
    long long s = block_sums[b];
    for (int i = begin; i < end; ++i) {
      const int v = in[i];
      out[i] = static_cast<int>(s);
      s += v;
    }
  });
  return running;
}

}  // namespace pabd
