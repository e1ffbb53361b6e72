// Per-step storage of the detect stage: an array that grows and never
// shrinks, like std::vector, but without std::vector's zero fill and copy.
//
// Every step rewrites its contacts, pairs and manifolds from the start, so a
// grown array need not keep its old contents, and need not be zeroed first.
// std::vector did both, and the page faults of a freshly touched gigabyte (a
// 125,000-box pile has 3 million contacts of ~350 bytes, and 1.6 million
// candidate pairs of 480-byte manifolds) made the first steps of a pile
// several times slower than the rest (pile_20: contact setup 250 ms in step
// 3, 21 ms from step 6 on). So:
// - growth takes twice the asked size: a pile's contact count climbs by
//   two thirds over its first steps as it settles, and room that is never
//   written costs address space only (pages are mapped at their first
//   write), while every growth maps and faults a whole new block;
// - the new block is neither copied into nor zeroed;
// - on Linux, blocks of 2 MiB and more are aligned to 2 MiB and advised as
//   transparent huge pages (one page fault per 2 MiB instead of 512);
// - an array the step writes in full (reserve_mapped) has the pages of half
//   as much again beyond the asked size mapped at once (the asked part
//   faults as the step's parallel kernels write it): a pile's contacts grow
//   by a fifth over the steps after the first two (pile_50: 2.67 to 3.2
//   million), and faulting the new pages inside those steps, a fault and a
//   2 MiB clear at a time, cost pile_50 a fifth of its step at 1 thread and
//   more at 2 (the faults do not share out between threads).
// Only for element types that are trivially copyable and destructible (the
// kernels' plain structs): their objects begin their lifetime implicitly in
// the new storage (C++20), and every element is written before it is read.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <type_traits>
#include <utility>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace pabd {

template <typename T>
class ScratchArray {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "ScratchArray holds plain structs only");

 public:
  ScratchArray() = default;
  ScratchArray(const ScratchArray&) = delete;
  ScratchArray& operator=(const ScratchArray&) = delete;
  ScratchArray(ScratchArray&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)),
        capacity_(std::exchange(o.capacity_, 0)),
        claimed_bytes_(std::exchange(o.claimed_bytes_, 0)) {}
  ScratchArray& operator=(ScratchArray&& o) noexcept {
    if (this != &o) {
      std::free(data_);
      data_ = std::exchange(o.data_, nullptr);
      capacity_ = std::exchange(o.capacity_, 0);
      claimed_bytes_ = std::exchange(o.claimed_bytes_, 0);
    }
    return *this;
  }
  ~ScratchArray() { std::free(data_); }

  /// Room for n elements; after a growth the contents are unspecified.
  /// Returns data(). Throws std::bad_alloc when memory runs out.
  T* reserve_for(std::size_t n) {
    grow_to(n);
    claimed_bytes_ = std::max(claimed_bytes_, n * sizeof(T));
    return data_;
  }

  /// reserve_for(n), and the pages of elements n to min(capacity, 3 n / 2)
  /// mapped now (see the top of this file). For arrays whose first n
  /// elements the caller writes in full, which maps theirs: the pages ahead
  /// are mapped by writing into elements past every call's ask, which hold
  /// nothing yet.
  T* reserve_mapped(std::size_t n) {
    grow_to(n);
    if (n * sizeof(T) <= claimed_bytes_) return data_;
    const std::size_t want = std::min(capacity_, n + n / 2) * sizeof(T);
    // From the first page boundary at or after the asked bytes (the page
    // before it holds some of them, which the caller writes).
    constexpr std::uintptr_t kPage = 4096;
    const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(data_);
    const std::uintptr_t stop = base + want;
    for (std::uintptr_t at = (base + n * sizeof(T) + kPage - 1) & ~(kPage - 1); at < stop;
         at += kPage)
      *reinterpret_cast<volatile char*>(at) = 0;
    claimed_bytes_ = want;
    return data_;
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t capacity() const { return capacity_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }

 private:
  /// A block of twice n elements unless n fit already (see the top of this file).
  void grow_to(std::size_t n) {
    if (n <= capacity_) return;
    const std::size_t grown = 2 * n;
    std::free(data_);
    data_ = nullptr;
    capacity_ = 0;
    claimed_bytes_ = 0;
    const std::size_t bytes = grown * sizeof(T);
    constexpr std::size_t kHugePage = std::size_t(2) << 20;
    void* p = nullptr;
    if (bytes >= kHugePage) {
      // aligned_alloc wants a multiple of the alignment.
      p = std::aligned_alloc(kHugePage, (bytes + kHugePage - 1) / kHugePage * kHugePage);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
      if (p) madvise(p, bytes, MADV_HUGEPAGE);  // advice only: failure is harmless
#endif
    } else {
      const std::size_t align =
          alignof(T) > alignof(std::max_align_t) ? alignof(T) : alignof(std::max_align_t);
      p = std::aligned_alloc(align, (bytes + align - 1) / align * align);
    }
    if (!p) throw std::bad_alloc();
    data_ = static_cast<T*>(p);
    capacity_ = grown;
  }

  T* data_ = nullptr;
  std::size_t capacity_ = 0;
  /// The first bytes some call asked for or reserve_mapped mapped ahead: the
  /// mapping never writes into them.
  std::size_t claimed_bytes_ = 0;
};

}  // namespace pabd
