// parallel_for_uneven (core/parallel.h): every call once; runs of about
// equal cost (split_by_cost); a thread done with its run takes over the
// back of a slower thread's.
#include <gtest/gtest.h>
#include <omp.h>

#include <chrono>
#include <thread>
#include <vector>

#include "core/parallel.h"

namespace pabd {
namespace {

struct SplitRecord {
  std::vector<int> calls;   ///< per index: how often it ran
  std::vector<int> thread;  ///< per index: which thread ran it
};

template <typename Slow>
SplitRecord run_uneven(int threads, const std::vector<int>& cost, const Slow& slow) {
  const int n = static_cast<int>(cost.size());
  SplitRecord r{std::vector<int>(n, 0), std::vector<int>(n, -1)};
  parallel_for_uneven(
      ParallelFor{}, threads, n, [&](int i) { return cost[i]; },
      [&](int i) {
        slow(i);
        ++r.calls[i];  // each index is written by the one thread that runs it
        r.thread[i] = omp_get_thread_num();
      });
  return r;
}

TEST(ParallelSplit, EveryCallOnce) {
  // Costs like a colour's bodies: mostly 2-6, a few heavy (a ball's 40 pair
  // ends); sizes around the 32-call threshold and past it.
  for (int threads : {1, 2, 3, 5}) {
    for (int n : {0, 1, 31, 32, 33, 111, 1000}) {
      std::vector<int> cost(n);
      for (int i = 0; i < n; ++i) cost[i] = 2 + (i * 7) % 5 + (i % 97 == 13 ? 40 : 0);
      const SplitRecord r = run_uneven(threads, cost, [](int) {});
      for (int i = 0; i < n; ++i)
        ASSERT_EQ(r.calls[i], 1) << "threads " << threads << ", n " << n << ", index " << i;
    }
  }
}

TEST(ParallelSplit, RunsShareTheCostEvenly) {
  // 400 calls of cost 1 after one of cost 100: by count each of 2 runs
  // would take 200 calls (costs 299 and 200); by cost the heavy call's run
  // takes 150 light ones, 250 each.
  std::vector<int> cost(401, 1);
  cost[0] = 100;
  int front[3];
  split_by_cost(
      401, [&](int i) { return cost[i]; }, 2, front);
  EXPECT_EQ(front[0], 0);
  EXPECT_EQ(front[1], 151);
  EXPECT_EQ(front[2], 401);
  // Uneven costs in 5 runs: a run's cost is off total / 5 by less than its
  // largest call's (a run ends at the first call that reaches its share).
  const int n = 997;
  std::vector<int> c(n);
  long long total = 0;
  for (int i = 0; i < n; ++i) total += c[i] = 1 + (i * 37) % 23;
  int f[6];
  split_by_cost(
      n, [&](int i) { return c[i]; }, 5, f);
  EXPECT_EQ(f[0], 0);
  EXPECT_EQ(f[5], n);
  for (int r = 0; r < 5; ++r) {
    long long run = 0;
    for (int i = f[r]; i < f[r + 1]; ++i) run += c[i];
    EXPECT_NEAR(static_cast<double>(run), static_cast<double>(total) / 5, 23.0) << "run " << r;
  }
}

TEST(ParallelSplit, AThreadHeldUpLosesTheBackOfItsRun) {
  if (omp_get_thread_limit() < 2) GTEST_SKIP() << "OMP_THREAD_LIMIT allows one thread";
  // Two runs of 32 equal calls; the team's first thread takes 5 ms a call,
  // the other microseconds. The slow thread takes 4 calls of its run at a
  // time; the fast one finishes its own run and takes the rest from the back.
  const std::vector<int> cost(64, 1);
  const SplitRecord r = run_uneven(2, cost, [](int) {
    if (omp_get_thread_num() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  });
  int slow_calls = 0;
  for (int i = 0; i < 64; ++i) {
    ASSERT_EQ(r.calls[i], 1) << "index " << i;
    slow_calls += r.thread[i] == 0;
  }
  // Without taking over, the slow thread would run its 32. With it, one take
  // of 4 (20 ms, ages for the fast thread's 60 calls of microseconds), and
  // another only if the fast thread started that late.
  EXPECT_LE(slow_calls, 8);
}

}  // namespace
}  // namespace pabd
