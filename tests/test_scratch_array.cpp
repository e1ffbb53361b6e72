// The detect stage's storage (core/scratch_array.h): growth, the contents it
// keeps, and the pages reserve_mapped maps ahead without touching any element
// a caller asked for.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/scratch_array.h"

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace pabd {
namespace {

// Large enough for the 2 MiB-aligned, huge-page path (4 MiB of ints).
constexpr std::size_t kLarge = std::size_t(1) << 20;

// No zero byte where a page starts (i a multiple of 1024), which a mapping
// write would leave unchanged.
int pattern(std::size_t i) { return static_cast<int>(i * 2654435761u + 0x5a5a5a5au); }

TEST(ScratchArray, GrowsToTwiceTheAskAndKeepsItsBlockWithinCapacity) {
  ScratchArray<int> a;
  int* p = a.reserve_for(1000);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(a.capacity(), 2000u);
  for (int i = 0; i < 1000; ++i) p[i] = i;
  EXPECT_EQ(a.reserve_for(1999), p);  // within capacity: the same block, contents kept
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(p[i], i);
  a.reserve_for(2001);
  EXPECT_EQ(a.capacity(), 4002u);
}

TEST(ScratchArray, MappingAheadKeepsEveryElementAskedFor) {
  ScratchArray<int> a;
  int* p = a.reserve_mapped(kLarge);  // capacity 2 kLarge, mapped to 1.5 kLarge
  ASSERT_EQ(a.capacity(), 2 * kLarge);
  for (std::size_t i = 0; i < kLarge; ++i) p[i] = pattern(i);
  // Past the mapped mark: the rest of the capacity is mapped now.
  const std::size_t more = kLarge + kLarge * 3 / 5;
  ASSERT_EQ(a.reserve_mapped(more), p);
  for (std::size_t i = 0; i < kLarge; ++i) ASSERT_EQ(p[i], pattern(i)) << i;
  for (std::size_t i = kLarge; i < more; ++i) p[i] = pattern(i);
  // Within the mapped room: nothing written.
  ASSERT_EQ(a.reserve_mapped(2 * kLarge - 1), p);
  for (std::size_t i = 0; i < more; ++i) ASSERT_EQ(p[i], pattern(i)) << i;
  // A move takes the block and the mark along.
  ScratchArray<int> b = std::move(a);
  EXPECT_EQ(b.data(), p);
  EXPECT_EQ(a.data(), nullptr);
  ASSERT_EQ(b.reserve_mapped(2 * kLarge), p);
  for (std::size_t i = 0; i < more; ++i) ASSERT_EQ(p[i], pattern(i)) << i;
}

TEST(ScratchArray, MappingAheadSparesWhatReserveForAskedFor) {
  // An ask through reserve_for claims its elements too: a later, smaller
  // reserve_mapped maps only past them.
  ScratchArray<int> a;
  int* p = a.reserve_for(kLarge);
  for (std::size_t i = 0; i < kLarge; ++i) p[i] = pattern(i);
  ASSERT_EQ(a.reserve_mapped(kLarge / 2), p);
  for (std::size_t i = 0; i < kLarge; ++i) ASSERT_EQ(p[i], pattern(i)) << i;
  ASSERT_EQ(a.reserve_mapped(kLarge + 1), p);
  for (std::size_t i = 0; i < kLarge; ++i) ASSERT_EQ(p[i], pattern(i)) << i;
}

#if defined(__linux__)
/// Pages of [p, p + bytes) that are resident, by mincore.
std::size_t resident_pages(const void* p, std::size_t bytes) {
  const std::uintptr_t page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const std::uintptr_t first = reinterpret_cast<std::uintptr_t>(p) & ~(page - 1);
  const std::uintptr_t last = reinterpret_cast<std::uintptr_t>(p) + bytes;
  const std::size_t count = (last - first + page - 1) / page;
  std::vector<unsigned char> in(count);
  if (mincore(reinterpret_cast<void*>(first), last - first, in.data()) != 0) return 0;
  std::size_t n = 0;
  for (unsigned char c : in) n += c & 1;
  return n;
}

TEST(ScratchArray, MapsHalfAgainAheadOfTheAskAtOnce) {
  ScratchArray<int> a;
  const int* p = a.reserve_mapped(kLarge);
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  // Every page past the asked kLarge elements up to 1.5 kLarge is mapped
  // before any is written: the writes of later steps that ask for up to 1.5
  // kLarge fault nothing there. (The asked part maps as the caller writes it.)
  const std::size_t ahead = kLarge / 2 * sizeof(int);
  EXPECT_EQ(resident_pages(p + kLarge, ahead), ahead / page);
  // Past 1.5 kLarge, nothing yet.
  // Past 1.5 kLarge (6 MiB from a 2 MiB-aligned start, so no huge page
  // spans the mark), nothing yet.
  EXPECT_EQ(resident_pages(p + kLarge * 3 / 2, ahead), 0u);
}
#endif

}  // namespace
}  // namespace pabd
