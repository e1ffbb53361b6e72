// parallel_for_uneven (core/parallel.h): every call once, each thread one
// contiguous run, the runs about equal in cost.
#include <gtest/gtest.h>
#include <omp.h>

#include <vector>

#include "core/parallel.h"

namespace pabd {
namespace {

struct SplitRecord {
  std::vector<int> calls;   ///< per index: how often it ran
  std::vector<int> thread;  ///< per index: which thread ran it
};

SplitRecord run_split(int threads, const std::vector<int>& cost) {
  const int n = static_cast<int>(cost.size());
  SplitRecord r{std::vector<int>(n, 0), std::vector<int>(n, -1)};
  parallel_for_uneven(
      ParallelFor{}, threads, n, [&](int i) { return cost[i]; },
      [&](int i) {
        ++r.calls[i];  // each index is written by one thread only
        r.thread[i] = omp_get_thread_num();
      });
  return r;
}

TEST(ParallelSplit, EveryCallOnceInOneContiguousRunPerThread) {
  // Costs like a colour's bodies: mostly 2-6, a few heavy (a ball's 40 pair
  // ends), sizes around the 32-call threshold and past it.
  for (int threads : {1, 2, 3, 5}) {
    for (int n : {0, 1, 31, 32, 33, 111, 1000}) {
      std::vector<int> cost(n);
      for (int i = 0; i < n; ++i) cost[i] = 2 + (i * 7) % 5 + (i % 97 == 13 ? 40 : 0);
      const SplitRecord r = run_split(threads, cost);
      for (int i = 0; i < n; ++i) ASSERT_EQ(r.calls[i], 1) << "n " << n << " index " << i;
      // Thread ids never decrease along the range: one run each.
      for (int i = 1; i < n; ++i)
        ASSERT_LE(r.thread[i - 1], r.thread[i]) << "n " << n << " threads " << threads;
    }
  }
}

TEST(ParallelSplit, RunsShareTheCostEvenly) {
  if (omp_get_thread_limit() < 2) GTEST_SKIP() << "OMP_THREAD_LIMIT allows one thread";
  // 400 calls of cost 1 and one of cost 100 at the start: by count each
  // thread would take 200 calls (costs 299 and 200); by cost the heavy call's
  // thread takes fewer of the light ones.
  std::vector<int> cost(401, 1);
  cost[0] = 100;
  const SplitRecord r = run_split(2, cost);
  long long share[2] = {0, 0};
  for (int i = 0; i < 401; ++i) share[r.thread[i]] += cost[i];
  // Each run ends at the first call that reaches its half of 500, so a share
  // is off its 250 by less than one call's cost (1 here).
  EXPECT_NEAR(static_cast<double>(share[0]), 250.0, 1.0);
  EXPECT_NEAR(static_cast<double>(share[1]), 250.0, 1.0);
}

}  // namespace
}  // namespace pabd
