// Cost of one broadphase build (fattened boxes, Morton codes, radix sort,
// Karras tree, refit, pair search) on grid piles of 1 m boxes: side^3 boxes
// at 1.05 m spacing with +-0.02 m jitter, small random velocities and spins,
// over a ground plane; 1 and 2 threads. Counters: ns per body, pairs found,
// and the mean stage times. A second benchmark compares the radix sort of the
// Morton codes with std::sort of (code, body) on the same codes.
//
//   build-bp/bench/bench_broadphase --benchmark_repetitions=7
//       --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include "collision/broadphase.h"
#include "collision/morton.h"
#include "core/radix_sort.h"

namespace {

using namespace pabd;

/// A side^3 grid pile of unit boxes plus a ground plane (body 0).
struct Pile {
  std::vector<ShapeDef> shape;
  std::vector<Vec3> position, velocity, angular_velocity;
  std::vector<Mat3> rotation;
  std::vector<std::uint8_t> is_static;

  explicit Pile(int side) {
    std::mt19937_64 rng(1234);
    std::uniform_real_distribution<double> jitter(-0.02, 0.02), speed(-0.5, 0.5);
    add(plane_shape({0, 1, 0}, -0.53), {}, {}, {}, true);
    for (int x = 0; x < side; ++x)
      for (int y = 0; y < side; ++y)
        for (int z = 0; z < side; ++z)
          add(box_shape({1, 1, 1}),
              Vec3{1.05 * x + jitter(rng), 1.05 * y + jitter(rng), 1.05 * z + jitter(rng)},
              Vec3{speed(rng), speed(rng), speed(rng)}, Vec3{speed(rng), speed(rng), speed(rng)},
              false);
  }
  void add(const ShapeDef& s, Vec3 p, Vec3 v, Vec3 w, bool fixed) {
    shape.push_back(s);
    position.push_back(p);
    rotation.push_back(identity3());
    velocity.push_back(v);
    angular_velocity.push_back(w);
    is_static.push_back(fixed ? 1 : 0);
  }
  ShapePoseView view() const {
    return {static_cast<int>(shape.size()),
            shape.data(),
            position.data(),
            rotation.data(),
            velocity.data(),
            angular_velocity.data(),
            is_static.data()};
  }
};

AabbSettings step_settings() {
  AabbSettings k;
  k.margin = 0.01;
  k.dt = 1.0 / 60;
  k.acceleration = {0, -9.81, 0};
  return k;
}

void BM_BroadphaseBuild(benchmark::State& state) {
  const int side = static_cast<int>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  const Pile pile(side);
  const AabbSettings k = step_settings();
  Broadphase bp(threads);
  bp.build(pile.view(), k);  // warm-up: sizes every array
  BroadphaseTimings sum;
  for (auto _ : state) {
    bp.build(pile.view(), k);
    const BroadphaseTimings& t = bp.last_timings();
    sum.boxes_ms += t.boxes_ms;
    sum.codes_ms += t.codes_ms;
    sum.sort_ms += t.sort_ms;
    sum.tree_ms += t.tree_ms;
    sum.pairs_ms += t.pairs_ms;
    sum.planes_ms += t.planes_ms;
  }
  const double iters = static_cast<double>(state.iterations());
  const double bodies = static_cast<double>(pile.shape.size());
  state.counters["ns_per_body"] =
      benchmark::Counter(bodies * iters, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["bodies"] = bodies;
  state.counters["pairs"] = static_cast<double>(bp.pairs().size());
  state.counters["plane_pairs"] = static_cast<double>(bp.plane_pairs().size());
  state.counters["boxes_ms"] = sum.boxes_ms / iters;
  state.counters["codes_ms"] = sum.codes_ms / iters;
  state.counters["sort_ms"] = sum.sort_ms / iters;
  state.counters["tree_ms"] = sum.tree_ms / iters;
  state.counters["pairs_ms"] = sum.pairs_ms / iters;
  state.counters["planes_ms"] = sum.planes_ms / iters;
}

BENCHMARK(BM_BroadphaseBuild)
    ->ArgsProduct({{10, 20, 30, 50}, {1, 2}})
    ->ArgNames({"side", "threads"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

/// Sorting the 50^3 pile's Morton codes: arg 0 = std::sort of (code, body)
/// pairs (one thread); arg 1, 2 = the radix sort with 1, 2 threads.
void BM_SortMortonCodes(benchmark::State& state) {
  const Pile pile(50);
  Broadphase bp(1);
  bp.build(pile.view(), step_settings());
  // The codes in body order, as the sort receives them.
  const Lbvh& t = bp.tree();
  const int n = t.leaf_count;
  std::vector<std::uint64_t> codes(n);
  for (int k = 0; k < n; ++k) codes[t.leaf_body[k] - 1] = t.code[k];
  std::vector<std::uint64_t> k(n), kt(n);
  std::vector<int> v(n), vt(n), counts(std::size_t(loop_block_count(n)) * kRadixBuckets + 1);
  std::vector<std::pair<std::uint64_t, int>> kv(n);
  const Threading th{static_cast<int>(state.range(0)), {}};
  for (auto _ : state) {
    if (state.range(0) == 0) {
      for (int i = 0; i < n; ++i) kv[i] = {codes[i], i};
      std::sort(kv.begin(), kv.end());
      benchmark::DoNotOptimize(kv.data());
    } else {
      std::copy(codes.begin(), codes.end(), k.begin());
      for (int i = 0; i < n; ++i) v[i] = i;
      radix_sort_by_key(th, k.data(), v.data(), kt.data(), vt.data(), counts.data(), n,
                        3 * kMortonBitsPerAxis);
      benchmark::DoNotOptimize(k.data());
    }
  }
  state.counters["ns_per_key"] =
      benchmark::Counter(static_cast<double>(n) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

BENCHMARK(BM_SortMortonCodes)
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->ArgName("radix_threads")
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
