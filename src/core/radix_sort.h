// Deterministic parallel LSD radix sort of (64-bit key, int value) pairs.
//
// Each pass sorts by one 8-bit digit, stably. The input is cut into blocks of
// a fixed size (block_loops.h, not a per-thread split), so the work decomposition, and with it
// the result, is the same for any thread count:
//   1. per block, in parallel: a 256-bucket histogram of the digit;
//   2. serially: an exclusive prefix sum in (digit, block) order, which gives
//      every block the first output slot of each of its digits;
//   3. per block, in parallel: scatter the block's elements in their order.
// Stable passes from the lowest digit up leave the pairs sorted by key, ties
// in their input order. A pass whose digit is the same for every key is
// skipped (its scatter would be the identity).
#pragma once

#include <cstdint>
#include <utility>

#include "core/block_loops.h"
#include "pabd/config.h"

namespace pabd {

inline constexpr int kRadixBits = 8;                   ///< bits sorted per pass
inline constexpr int kRadixBuckets = 1 << kRadixBits;  ///< buckets per pass
/// Histogram of the digit (key >> shift) & 255 over keys[begin, end) into hist[256].
PABD_HD void radix_block_histogram(const std::uint64_t* keys, int begin, int end, int shift,
                                   int* hist) {
  for (int d = 0; d < kRadixBuckets; ++d) hist[d] = 0;
  for (int k = begin; k < end; ++k) ++hist[(keys[k] >> shift) & (kRadixBuckets - 1)];
}

/// Moves keys/values [begin, end) to their slots; next[d] is the block's next slot for digit d.
PABD_HD void radix_block_scatter(const std::uint64_t* keys, const int* values, int begin, int end,
                                 int shift, int* next, std::uint64_t* keys_out, int* values_out) {
  for (int k = begin; k < end; ++k) {
    const int slot = next[(keys[k] >> shift) & (kRadixBuckets - 1)]++;
    keys_out[slot] = keys[k];
    values_out[slot] = values[k];
  }
}

/// The key bits the passes below sort by: key_bits rounded up to whole
/// digits (an executor's own sort sorts by these too: the same order).
inline int radix_sorted_bits(int key_bits) {
  const int bits = (key_bits + kRadixBits - 1) / kRadixBits * kRadixBits;
  return bits < 64 ? bits : 64;
}

/// The key bits that hold every value in [0, n] (at least 1).
inline int radix_key_bits(long long n) {
  int bits = 1;
  while ((1LL << bits) <= n) ++bits;
  return bits;
}

/// Below this many pairs the sort is one serial insertion sort: a pass's
/// 256 buckets cost more than the keys (a chain's 20 bodies took 46,000
/// instructions a step in the broadphase, most of them in the passes).
inline constexpr int kInsertionSortBelow = 64;

/// Stable insertion sort of (keys[i], values[i]) by key & mask: the same
/// permutation as the radix passes over the mask's digits.
PABD_HD void insertion_sort_by_key(std::uint64_t* keys, int* values, int n, std::uint64_t mask) {
  for (int i = 1; i < n; ++i) {
    const std::uint64_t key = keys[i];
    const int value = values[i];
    int j = i;
    for (; j > 0 && (keys[j - 1] & mask) > (key & mask); --j) {
      keys[j] = keys[j - 1];
      values[j] = values[j - 1];
    }
    keys[j] = key;
    values[j] = value;
  }
}

/// Sorts (keys[i], values[i]) by key, ties in input order, over the low
/// `key_bits` bits (radix_sorted_bits), on any block-loop executor
/// (core/block_loops.h; one with its own sort uses it). Scratch:
/// keys_tmp, values_tmp (n each), block_counts (loop_block_count(n) *
/// kRadixBuckets + 1: the last entry says whether a pass's digit was the
/// same for every key).
template <typename Loops>
void radix_sort_by_key_on(const Loops& loops, std::uint64_t* keys, int* values,
                          std::uint64_t* keys_tmp, int* values_tmp, int* block_counts, int n,
                          int key_bits) {
  if constexpr (ExecutorOwnScans<Loops>::value) {
    if (loops.own_scans())
      return loops.sort_by_key(keys, values, keys_tmp, values_tmp, n, radix_sorted_bits(key_bits));
  }
  if (n < kInsertionSortBelow) {
    const int bits = radix_sorted_bits(key_bits);
    const std::uint64_t mask = bits >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1;
    loops.serial([=] PABD_LAMBDA() { insertion_sort_by_key(keys, values, n, mask); });
    return;
  }
  const int blocks = loop_block_count(n);
  std::uint64_t* src_k = keys;
  int* src_v = values;
  std::uint64_t* dst_k = keys_tmp;
  int* dst_v = values_tmp;
  int* one_digit = block_counts + blocks * kRadixBuckets;
  for (int shift = 0; shift < key_bits; shift += kRadixBits) {
    // Histograms per block.
    loops.each_block(n, [=] PABD_LAMBDA(int b, int begin, int end) {
      radix_block_histogram(src_k, begin, end, shift, block_counts + b * kRadixBuckets);
    });
    // Exclusive prefix sum in (digit, block) order; skip a pass with one digit.
    loops.serial([=] PABD_LAMBDA() {
      int same = 0;
      int running = 0;
      for (int d = 0; d < kRadixBuckets; ++d) {
        int total = 0;
        for (int b = 0; b < blocks; ++b) {
          int& c = block_counts[b * kRadixBuckets + d];
          const int count = c;
          c = running;
          running += count;
          total += count;
        }
        if (total == n) same = 1;
      }
      *one_digit = same;
    });
    if (loops.read(one_digit)) continue;
    // Stable scatter per block.
    loops.each_block(n, [=] PABD_LAMBDA(int b, int begin, int end) {
      radix_block_scatter(src_k, src_v, begin, end, shift, block_counts + b * kRadixBuckets, dst_k,
                          dst_v);
    });
    std::swap(src_k, dst_k);
    std::swap(src_v, dst_v);
  }
  // An odd number of scatters leaves the result in the scratch arrays.
  if (src_k != keys) {
    loops.each(n, [=] PABD_LAMBDA(int k) {
      keys[k] = src_k[k];
      values[k] = src_v[k];
    });
  }
}

/// radix_sort_by_key_on with Threading's loops.
inline void radix_sort_by_key(const Threading& th, std::uint64_t* keys, int* values,
                              std::uint64_t* keys_tmp, int* values_tmp, int* block_counts, int n,
                              int key_bits) {
  radix_sort_by_key_on(ThreadingLoops{th}, keys, values, keys_tmp, values_tmp, block_counts, n,
                       key_bits);
}

}  // namespace pabd
