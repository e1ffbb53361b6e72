// Cost of the narrowphase per shape pair: box-box manifolds (SAT over 15 axes
// and face clipping) on random near-contact pairs and on resting stacks, and
// GJK + EPA on the same random pairs for comparison. One thread; counters
// give pairs per second and the mean number of contact points.
//
//   build/bench/bench_narrowphase --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <vector>

#include "collision/epa.h"
#include "collision/gjk.h"
#include "collision/narrowphase_dispatch.h"

namespace {

using namespace pabd;

constexpr int kPairs = 4096;
constexpr Real kMargin = 0.05;

struct BoxPairs {
  std::vector<Vec3> half_a, half_b;
  std::vector<ShapePose> pose_a, pose_b;
};

Mat3 random_rotation(std::mt19937_64& rng) {
  std::normal_distribution<double> n;
  return to_matrix(normalized(Quat{n(rng), n(rng), n(rng), n(rng)}));
}

/// Random box pairs (half extents 0.1..1 m, random orientations) whose
/// centres are placed so that most pairs touch or nearly touch: the distance
/// of the centres is the sum of the bounding radii scaled by 0.4..0.9.
BoxPairs random_pairs() {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> u(0.1, 1.0), scale(0.4, 0.9);
  std::normal_distribution<double> n;
  BoxPairs p;
  for (int i = 0; i < kPairs; ++i) {
    const Vec3 ha{u(rng), u(rng), u(rng)}, hb{u(rng), u(rng), u(rng)};
    Vec3 dir{n(rng), n(rng), n(rng)};
    dir = (1 / length(dir)) * dir;
    ShapePose a, b;
    a.rotation = random_rotation(rng);
    b.rotation = random_rotation(rng);
    b.position = scale(rng) * (length(ha) + length(hb)) * dir;
    p.half_a.push_back(ha);
    p.half_b.push_back(hb);
    p.pose_a.push_back(a);
    p.pose_b.push_back(b);
  }
  return p;
}

/// Unit cubes resting on a 2 x 1 x 2 slab, turned about the vertical.
BoxPairs resting_pairs() {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> yaw(0, 1.5), shift(-0.4, 0.4);
  BoxPairs p;
  for (int i = 0; i < kPairs; ++i) {
    ShapePose a, b;
    const Real t = yaw(rng);
    b.rotation = Mat3{{{std::cos(t), 0, std::sin(t)}, {0, 1, 0}, {-std::sin(t), 0, std::cos(t)}}};
    b.position = {shift(rng), 0.999, shift(rng)};
    p.half_a.push_back({1, 0.5, 1});
    p.half_b.push_back({0.5, 0.5, 0.5});
    p.pose_a.push_back(a);
    p.pose_b.push_back(b);
  }
  return p;
}

/// The pairs of a pile of unit cubes 1 mm apart (scenes/pile_20.json) at the
/// defaults' 1 cm contact margin, each box turned by up to 1e-4 rad about a
/// random axis: `shared` = 1, a face neighbour (apart along one axis), 2 an
/// edge neighbour (two), 3 a corner neighbour (three). Of pile_20's
/// candidate pairs about 3 in 13 are face neighbours, 6 edge, 4 corner.
BoxPairs pile_pairs(int shared) {
  std::mt19937_64 rng(11 + shared);
  std::normal_distribution<double> n;
  std::uniform_real_distribution<double> tilt(0, 1e-4);
  const auto turned = [&]() {
    Vec3 axis{n(rng), n(rng), n(rng)};
    axis = (1 / length(axis)) * axis;
    const Real angle = tilt(rng);
    const Real s = std::sin(angle / 2);
    return to_matrix(Quat{std::cos(angle / 2), s * axis.x, s * axis.y, s * axis.z});
  };
  BoxPairs p;
  for (int i = 0; i < kPairs; ++i) {
    ShapePose a, b;
    a.rotation = turned();
    b.rotation = turned();
    const Real d = 1.001;
    b.position = {d, shared >= 2 ? d : 0, shared >= 3 ? d : 0};
    p.half_a.push_back({0.5, 0.5, 0.5});
    p.half_b.push_back({0.5, 0.5, 0.5});
    p.pose_a.push_back(a);
    p.pose_b.push_back(b);
  }
  return p;
}

void run_box_box(benchmark::State& state, const BoxPairs& p, Real margin = kMargin) {
  long long points = 0, manifolds = 0;
  for (auto _ : state) {
    for (int i = 0; i < kPairs; ++i) {
      const ContactManifold m =
          collide_box_box(p.half_a[i], p.pose_a[i], p.half_b[i], p.pose_b[i], margin);
      benchmark::DoNotOptimize(m);
      points += m.count;
      manifolds += m.count > 0;
    }
  }
  state.SetItemsProcessed(state.iterations() * kPairs);
  state.counters["points_per_manifold"] = manifolds ? double(points) / double(manifolds) : 0;
  state.counters["touching_fraction"] = double(manifolds) / double(state.iterations() * kPairs);
}

void BM_BoxBoxRandom(benchmark::State& state) {
  static const BoxPairs p = random_pairs();
  run_box_box(state, p);
}

void BM_BoxBoxResting(benchmark::State& state) {
  static const BoxPairs p = resting_pairs();
  run_box_box(state, p);
}

void BM_BoxBoxPileNeighbours(benchmark::State& state) {
  const BoxPairs p = pile_pairs(int(state.range(0)));
  run_box_box(state, p, Real(0.01));
}

void BM_GjkEpaBoxBoxRandom(benchmark::State& state) {
  static const BoxPairs p = random_pairs();
  for (auto _ : state) {
    for (int i = 0; i < kPairs; ++i) {
      const BoxCore a{p.half_a[i], p.pose_a[i]}, b{p.half_b[i], p.pose_b[i]};
      const GjkResult g = gjk_distance(a, b, p.pose_b[i].position - p.pose_a[i].position);
      Real sep = g.distance;
      if (g.overlap) sep = -epa_penetration(a, b, g).depth;
      benchmark::DoNotOptimize(sep);
    }
  }
  state.SetItemsProcessed(state.iterations() * kPairs);
}

BENCHMARK(BM_BoxBoxRandom)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BoxBoxResting)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_GjkEpaBoxBoxRandom)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BoxBoxPileNeighbours)->Arg(1)->Arg(2)->Arg(3)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
