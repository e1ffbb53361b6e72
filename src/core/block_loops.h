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

#include <type_traits>

#include "core/parallel.h"
#include "pabd/config.h"

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

/// The block loops as an executor (the detect stages' loops, written once
/// for the host and a device: collision/broadphase_pipeline.h): each(n, f),
/// each_block(n, f) over kLoopBlock-sized blocks, serial(f) for the short
/// sequential parts (a scan of the block sums), and read(p) for a value the
/// host needs to go on (a size). Here on the host, through Threading.
struct ThreadingLoops {
  const Threading& threading;

  template <typename Fn>
  void each(int n, const Fn& f) const {
    for_each_index(threading, n, f);
  }
  template <typename Fn>
  void each_block(int n, const Fn& f) const {
    for_each_block(threading, n, f);
  }
  template <typename Fn>
  void serial(const Fn& f) const {
    f();
  }
  template <typename T>
  T read(const T* p) const {
    return *p;
  }
};

/// Whether a block-loop executor scans and sorts its own way (a device's
/// library, which uses the whole card where the blocks give a thread each):
/// it declares `static constexpr bool kOwnScans = true` and, for when
/// own_scans() says so at run time,
///   long long exclusive_scan(const int* in, int* out, int n) const;
///     out as block_exclusive_scan_on's: sums in 64 bits, each narrowed to
///     int as it is stored (the same bits on every path); returns the
///     total; in and out may alias;
///   void sort_by_key(std::uint64_t* keys, int* values, std::uint64_t*
///                    keys_tmp, int* values_tmp, int n, int end_bit) const;
///     a stable sort of the pairs by the key's bits [0, end_bit), leaving
///     them in keys and values (radix_sort.h).
/// Integer scans and stable sorts have one answer, so any such executor
/// gives the block loops' results.
template <typename Loops, typename = void>
struct ExecutorOwnScans : std::false_type {};
template <typename Loops>
struct ExecutorOwnScans<Loops, std::void_t<decltype(Loops::kOwnScans)>>
    : std::bool_constant<Loops::kOwnScans> {};

/// out[i] = in[0] + ... + in[i - 1] on any block-loop executor (above);
/// returns the total, which the block loops also leave in
/// block_sums[loop_block_count(n)]. in and out may alias. block_sums needs
/// loop_block_count(n) + 1 entries (unused by an executor's own scan).
template <typename Loops>
long long block_exclusive_scan_on(const Loops& loops, const int* in, int* out, int n,
                                  long long* block_sums) {
  if constexpr (ExecutorOwnScans<Loops>::value) {
    if (loops.own_scans()) return loops.exclusive_scan(in, out, n);
  }
  // Sum of each block.
  loops.each_block(n, [=] PABD_LAMBDA(int b, int begin, int end) {
    long long s = 0;
    for (int i = begin; i < end; ++i) s += in[i];
    block_sums[b] = s;
  });
  // Exclusive scan of the block sums.
  const int blocks = loop_block_count(n);
  loops.serial([=] PABD_LAMBDA() {
    long long running = 0;
    for (int b = 0; b < blocks; ++b) {
      const long long s = block_sums[b];
      block_sums[b] = running;
      running += s;
    }
    block_sums[blocks] = running;
  });
  // Scan inside each block from its start.
  loops.each_block(n, [=] PABD_LAMBDA(int b, int begin, int end) {
    long long s = block_sums[b];
    for (int i = begin; i < end; ++i) {
      const int v = in[i];
      out[i] = static_cast<int>(s);
      s += v;
    }
  });
  return loops.read(block_sums + blocks);
}

/// block_exclusive_scan_on with Threading's loops.
inline long long block_exclusive_scan(const Threading& th, const int* in, int* out, int n,
                                      long long* block_sums) {
  return block_exclusive_scan_on(ThreadingLoops{th}, in, out, n, block_sums);
}

}  // namespace pabd
