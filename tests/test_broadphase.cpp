// The LBVH broadphase against the brute-force reference (same pairs, same
// order) on scenes built to stress it, determinism across thread counts, the
// fattened boxes (speculative sweep, rotated shapes) and the pieces it is
// built from (Morton codes, radix sort, tree structure, depth bound).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "collision/broadphase.h"
#include "collision/lbvh_traverse.h"
#include "collision/morton.h"
#include "core/radix_sort.h"
#include "math/so3.h"
#include "support/broadphase_reference.h"

namespace pabd {
namespace {

// Scenes ---------------------------------------------------------------------

/// Boxes and flags as the broadphase reads them.
struct Scene {
  std::vector<Aabb> box;
  std::vector<std::uint8_t> is_static;
  std::vector<std::uint8_t> is_plane;
  std::vector<WorldPlane> plane;
  AabbView view() const {
    AabbView v;
    v.count = static_cast<int>(box.size());
    v.box = box.data();
    v.is_static = is_static.empty() ? nullptr : is_static.data();
    v.is_plane = is_plane.empty() ? nullptr : is_plane.data();
    v.plane = plane.empty() ? nullptr : plane.data();
    return v;
  }
};

Aabb box_at(Vec3 c, Vec3 half) { return {c - half, c + half}; }

/// n boxes with centres uniform in a cube sized for a few overlaps per box.
Scene uniform_scene(int n, unsigned seed) {
  std::mt19937_64 rng(seed);
  const double side = 1.6 * std::cbrt(double(n));
  std::uniform_real_distribution<double> pos(0, side), half(0.1, 0.6);
  Scene s;
  for (int i = 0; i < n; ++i)
    s.box.push_back(box_at({pos(rng), pos(rng), pos(rng)}, {half(rng), half(rng), half(rng)}));
  return s;
}

/// n boxes in 8 tight Gaussian clusters far apart (dense overlaps, empty space).
Scene clustered_scene(int n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> far(-1000, 1000), half(0.05, 0.3);
  std::normal_distribution<double> near(0, 2.0);
  std::vector<Vec3> centre;
  for (int c = 0; c < 8; ++c) centre.push_back({far(rng), far(rng), far(rng)});
  Scene s;
  for (int i = 0; i < n; ++i) {
    const Vec3 c = centre[i % 8] + Vec3{near(rng), near(rng), near(rng)};
    s.box.push_back(box_at(c, {half(rng), half(rng), half(rng)}));
  }
  return s;
}

/// n boxes, one long axis each (a random axis, 4 to 12 m), 0.04 m thin otherwise
/// (aspect ratios 100 to 300).
Scene elongated_scene(int n, unsigned seed) {
  std::mt19937_64 rng(seed);
  const double side = 3.0 * std::cbrt(double(n));
  std::uniform_real_distribution<double> pos(0, side), len(2, 6);
  std::uniform_int_distribution<int> axis(0, 2);
  Scene s;
  for (int i = 0; i < n; ++i) {
    Vec3 half{0.02, 0.02, 0.02};
    const int a = axis(rng);
    (a == 0 ? half.x : a == 1 ? half.y : half.z) = len(rng);
    s.box.push_back(box_at({pos(rng), pos(rng), pos(rng)}, half));
  }
  return s;
}

/// Marks a random fraction of the bodies static.
void make_some_static(Scene& s, double fraction, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::bernoulli_distribution coin(fraction);
  s.is_static.resize(s.box.size());
  for (auto& f : s.is_static) f = coin(rng) ? 1 : 0;
}

/// Adds `count` static planes (tilted ground planes) at random body indices.
void add_planes(Scene& s, int count, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::size_t> where(0, s.box.size());
  std::uniform_real_distribution<double> tilt(-0.3, 0.3), height(0, 10);
  s.is_plane.resize(s.box.size(), 0);
  s.plane.resize(s.box.size(), WorldPlane{});
  if (s.is_static.empty()) s.is_static.resize(s.box.size(), 0);
  for (int p = 0; p < count; ++p) {
    const std::size_t at = where(rng);
    Vec3 n{tilt(rng), 1, tilt(rng)};
    n = (1 / length(n)) * n;
    s.box.insert(s.box.begin() + at, Aabb{});  // unused for planes
    s.is_static.insert(s.is_static.begin() + at, 1);
    s.is_plane.insert(s.is_plane.begin() + at, 1);
    s.plane.insert(s.plane.begin() + at, WorldPlane{n, height(rng)});
  }
}

// Helpers ----------------------------------------------------------------------

/// Runs the broadphase with `threads` and checks it against brute force.
void expect_matches_reference(const Scene& s, const char* what, int threads = 1) {
  Broadphase bp(threads);
  bp.build(s.view());
  const std::vector<BodyPair> expect = brute_force_pairs(s.view());
  const std::vector<PlanePair> expect_planes = brute_force_plane_pairs(s.view());
  const BroadphaseTimings& t = bp.last_timings();
  std::printf("%-20s n = %5zu: %6zu pairs, %4zu body-plane; %7.2f ms (sort %.2f, pairs %.2f)\n",
              what, s.box.size(), expect.size(), expect_planes.size(), t.total_ms, t.sort_ms,
              t.pairs_ms);
  ASSERT_EQ(bp.pairs().size(), expect.size()) << what;
  for (std::size_t k = 0; k < expect.size(); ++k)
    ASSERT_TRUE(bp.pairs()[k] == expect[k])
        << what << ": pair " << k << " is (" << bp.pairs()[k].a << ", " << bp.pairs()[k].b
        << "), expected (" << expect[k].a << ", " << expect[k].b << ")";
  EXPECT_TRUE(bp.plane_pairs() == expect_planes) << what;
}

/// Depth (internal nodes on the longest root-to-leaf path) of the last tree.
int tree_depth(const Lbvh& t) {
  int deepest = 0;
  for (int k = 0; k < t.leaf_count; ++k) {
    int depth = 0;
    for (int p = t.parent[t.leaf_count - 1 + k]; p >= 0; p = t.parent[p]) ++depth;
    deepest = std::max(deepest, depth);
  }
  return deepest;
}

// Pair sets against brute force --------------------------------------------------

TEST(Broadphase, EmptyAndSingleBodyGiveNoPairs) {
  expect_matches_reference(Scene{}, "empty");
  expect_matches_reference(uniform_scene(1, 1), "one body");
}

TEST(Broadphase, TwoBodiesOverlappingTouchingAndApart) {
  Scene s;
  s.box = {box_at({0, 0, 0}, {1, 1, 1}), box_at({1.5, 0, 0}, {1, 1, 1})};
  expect_matches_reference(s, "two overlapping");
  EXPECT_EQ(brute_force_pairs(s.view()).size(), 1u);
  s.box[1] = box_at({2, 0, 0}, {1, 1, 1});  // faces touch exactly: closed boxes overlap
  expect_matches_reference(s, "two touching");
  EXPECT_EQ(brute_force_pairs(s.view()).size(), 1u);
  s.box[1] = box_at({2.001, 0, 0}, {1, 1, 1});
  expect_matches_reference(s, "two apart");
  EXPECT_EQ(brute_force_pairs(s.view()).size(), 0u);
}

TEST(Broadphase, UniformScenesMatchBruteForce) {
  expect_matches_reference(uniform_scene(1000, 2), "uniform");
  expect_matches_reference(uniform_scene(20000, 3), "uniform");
}

TEST(Broadphase, ClusteredScenesMatchBruteForce) {
  expect_matches_reference(clustered_scene(1000, 4), "clustered");
  expect_matches_reference(clustered_scene(20000, 5), "clustered");
}

TEST(Broadphase, IdenticalPositionsMatchBruteForce) {
  // Every box at one point: every Morton code is equal, the tree is built from
  // the index tie-break alone, and every pair overlaps.
  Scene s;
  for (int i = 0; i < 1000; ++i) s.box.push_back(box_at({3, -2, 7}, {0.5, 0.5, 0.5}));
  expect_matches_reference(s, "identical positions");
  EXPECT_EQ(brute_force_pairs(s.view()).size(), 1000u * 999u / 2);
  // Half of them slightly smaller: still one code, now a mixture of sizes.
  for (int i = 0; i < 1000; i += 2) s.box[i] = box_at({3, -2, 7}, {0.1, 0.2, 0.3});
  expect_matches_reference(s, "identical centres");
}

TEST(Broadphase, ElongatedBoxesMatchBruteForce) {
  expect_matches_reference(elongated_scene(1000, 6), "elongated");
  expect_matches_reference(elongated_scene(20000, 7), "elongated");
}

TEST(Broadphase, MixedStaticAndDynamicMatchBruteForce) {
  Scene s = uniform_scene(20000, 8);
  make_some_static(s, 0.5, 9);
  expect_matches_reference(s, "half static");
  Scene all = uniform_scene(1000, 10);
  make_some_static(all, 1.0, 11);
  expect_matches_reference(all, "all static");
  EXPECT_EQ(brute_force_pairs(all.view()).size(), 0u);
}

TEST(Broadphase, PlanesArePairedWithDynamicBodiesThatReachThem) {
  Scene s = uniform_scene(1000, 12);
  make_some_static(s, 0.2, 13);
  add_planes(s, 3, 14);
  expect_matches_reference(s, "with 3 planes");
  EXPECT_GT(brute_force_plane_pairs(s.view()).size(), 0u);  // the scene tests something
  Scene big = uniform_scene(20000, 15);
  add_planes(big, 2, 16);
  expect_matches_reference(big, "with 2 planes");
}

TEST(Broadphase, DeepTreeStaysWithinTheTraversalStack) {
  // Codes with a single bit set at every one of the 63 positions, plus the two
  // corners and 100 bodies at the origin: a chain of 63 splits with a
  // 101-leaf tie-break subtree at its end, deeper than 64 levels.
  Scene s;
  const double cells = double(1 << kMortonBitsPerAxis);
  const Vec3 half{0.25, 0.25, 0.25};
  s.box.push_back(box_at({cells, cells, cells}, half));
  for (int b = 0; b < kMortonBitsPerAxis; ++b) {
    const double x = std::ldexp(1.0, b);
    s.box.push_back(box_at({x, 0, 0}, half));
    s.box.push_back(box_at({0, x, 0}, half));
    s.box.push_back(box_at({0, 0, x}, half));
  }
  for (int i = 0; i < 101; ++i) s.box.push_back(box_at({0, 0, 0}, half));
  Broadphase bp(2);
  bp.build(s.view());
  const int depth = tree_depth(bp.tree());
  std::printf("deep tree: %d leaves, depth %d internal levels (stack %d)\n", bp.tree().leaf_count,
              depth, kLbvhStackSize);
  // 63 code splits + ceil(log2(101)) = 7 tie-break levels, give or take the
  // corner leaves; the proven bound is 95.
  EXPECT_GT(depth, 64);
  EXPECT_LE(depth, kLbvhStackSize - 1);
  expect_matches_reference(s, "deep tree");
}

// Tree structure -------------------------------------------------------------------

TEST(Broadphase, TreeReachesEveryLeafOnceAndBoxesNest) {
  Scene s = clustered_scene(5000, 17);
  for (int i = 0; i < 500; ++i) s.box[i] = s.box[0];  // some duplicate codes
  Broadphase bp(2);
  bp.build(s.view());
  const Lbvh& t = bp.tree();
  const int n = t.leaf_count;
  std::vector<int> seen(2 * n - 1, 0);
  std::vector<int> stack{0};
  while (!stack.empty()) {
    const int node = stack.back();
    stack.pop_back();
    ++seen[node];
    if (node >= n - 1) continue;
    const Aabb& parent = t.node[node].box;
    for (int c : t.node[node].child) {
      EXPECT_EQ(t.parent[c], node);
      // A parent's box contains its children's (min/max: exact).
      const Aabb& child = t.node[c].box;
      EXPECT_TRUE(parent.lo.x <= child.lo.x && child.hi.x <= parent.hi.x &&
                  parent.lo.y <= child.lo.y && child.hi.y <= parent.hi.y &&
                  parent.lo.z <= child.lo.z && child.hi.z <= parent.hi.z);
      stack.push_back(c);
    }
  }
  EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int v) { return v == 1; }));
  // Leaves are the bodies sorted by (code, body).
  for (int k = 1; k < n; ++k)
    EXPECT_TRUE(t.code[k - 1] < t.code[k] ||
                (t.code[k - 1] == t.code[k] && t.leaf_body[k - 1] < t.leaf_body[k]));
  std::printf("clustered 5000 with 500 duplicates: depth %d\n", tree_depth(t));
}

// Determinism ----------------------------------------------------------------------

TEST(Broadphase, SameOutputForOneTwoAndThreeThreadsAndATaskSystem) {
  Scene s = uniform_scene(20000, 18);
  make_some_static(s, 0.3, 19);
  add_planes(s, 2, 20);
  Broadphase one(1);
  one.build(s.view());
  // A user task system that splits ranges unevenly over real threads.
  ParallelFor chunks = [](int count, const std::function<void(int, int)>& body) {
    std::vector<std::thread> pool;
    const int cuts[] = {0, count / 7, count / 2, count};
    for (int c = 0; c < 3; ++c) pool.emplace_back(body, cuts[c], cuts[c + 1]);
    for (auto& t : pool) t.join();
  };
  Broadphase two(2), three(3), custom(1, chunks);
  for (Broadphase* bp : {&two, &three, &custom}) {
    bp->build(s.view());
    EXPECT_TRUE(bp->pairs() == one.pairs());
    EXPECT_TRUE(bp->plane_pairs() == one.plane_pairs());
    // The tree itself is identical too (codes, leaf order, refit boxes).
    const Lbvh& a = one.tree();
    const Lbvh& b = bp->tree();
    ASSERT_EQ(a.leaf_count, b.leaf_count);
    EXPECT_TRUE(std::equal(a.leaf_body, a.leaf_body + a.leaf_count, b.leaf_body));
    for (int k = 0; k < 2 * a.leaf_count - 1; ++k)
      ASSERT_EQ(std::memcmp(&a.node[k].box, &b.node[k].box, sizeof(Aabb)), 0) << "node " << k;
  }
  std::printf("determinism: %zu pairs, %zu body-plane pairs, equal for 1/2/3 threads\n",
              one.pairs().size(), one.plane_pairs().size());
}

TEST(Broadphase, RebuildingDoesNotReallocate) {
  Broadphase bp(2);
  Scene s = uniform_scene(5000, 21);
  bp.build(s.view());
  const BodyPair* pairs = bp.pairs().data();
  const LbvhNode* nodes = bp.tree().node;
  const std::size_t count = bp.pairs().size();
  bp.build(s.view());  // same scene
  EXPECT_EQ(bp.pairs().data(), pairs);
  EXPECT_EQ(bp.tree().node, nodes);
  EXPECT_EQ(bp.pairs().size(), count);
  Scene small = uniform_scene(3000, 22);  // smaller scene: fewer pairs
  bp.build(small.view());
  EXPECT_EQ(bp.pairs().data(), pairs);
  EXPECT_EQ(bp.tree().node, nodes);
  EXPECT_TRUE(bp.pairs() == brute_force_pairs(small.view()));
}

TEST(Broadphase, InvalidBoxThrowsNamingTheBody) {
  Scene s = uniform_scene(100, 23);
  s.box[42].hi.y = std::nan("");
  Broadphase bp(1);
  try {
    bp.build(s.view());
    FAIL() << "expected pabd::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("body 42"), std::string::npos) << e.what();
  }
  s.box[42] = Aabb{{1, 1, 1}, {0, 0, 0}};  // inverted
  EXPECT_THROW(bp.build(s.view()), Error);
}

// Fattened boxes from shapes ----------------------------------------------------------

/// A two-body view over caller-owned arrays.
struct TwoBodies {
  ShapeDef shape[2];
  Vec3 position[2];
  Mat3 rotation[2] = {identity3(), identity3()};
  Vec3 velocity[2];
  Vec3 angular_velocity[2];
  std::uint8_t is_static[2] = {0, 0};
  ShapePoseView view() const {
    return {2, shape, position, rotation, velocity, angular_velocity, is_static};
  }
};

TEST(BodyAabb, FastSphereFindsThinWallTheStepBeforeItWouldPassThrough) {
  // A sphere (r = 0.1 m) at 50 m/s moves 0.833 m per 1/60 s step towards a
  // static wall 0.02 m thick. No start-of-step pose ever touches the wall, so
  // a broadphase on the unswept boxes would miss it: the sphere tunnels.
  TwoBodies b;
  b.shape[0] = sphere_shape(0.1);
  b.shape[1] = box_shape({0.02, 2, 2});
  b.is_static[1] = 1;
  b.velocity[0] = {50, 0, 0};
  const double h = 1.0 / 60, r = 0.1, wall = 0.01, x0 = -3;
  AabbSettings swept;
  swept.dt = h;
  swept.margin = 0.01;
  AabbSettings unswept = swept;
  unswept.dt = 0;
  // The step that passes through: starts left of the wall, ends right of it.
  int crossing = -1;
  for (int k = 0; k < 10 && crossing < 0; ++k) {
    const double a = x0 + k * 50 * h, c = x0 + (k + 1) * 50 * h;
    if (a + r < -wall && c - r > wall) crossing = k;
  }
  ASSERT_GE(crossing, 0);
  Broadphase bp(1), plain(1);
  int first_found = -1;
  for (int k = 0; k <= crossing + 1; ++k) {
    b.position[0] = {x0 + k * 50 * h, 0, 0};
    bp.build(b.view(), swept);
    plain.build(b.view(), unswept);
    EXPECT_TRUE(plain.pairs().empty()) << "step " << k;  // the unswept boxes never meet
    if (first_found < 0 && !bp.pairs().empty()) first_found = k;
  }
  std::printf("fast sphere: crosses the wall in step %d, swept pair first found in step %d\n",
              crossing, first_found);
  EXPECT_EQ(first_found, crossing);  // found in time, and not earlier (the sweep is not loose)
}

/// The eight corners of a box of full size `size` at pose (c, R).
std::vector<Vec3> box_corners(Vec3 size, Vec3 c, const Mat3& r) {
  std::vector<Vec3> out;
  for (int k = 0; k < 8; ++k) {
    const Vec3 x{(k & 1 ? 0.5 : -0.5) * size.x, (k & 2 ? 0.5 : -0.5) * size.y,
                 (k & 4 ? 0.5 : -0.5) * size.z};
    out.push_back(r * x + c);
  }
  return out;
}

Quat random_rotation(std::mt19937_64& rng) {
  std::normal_distribution<double> g(0, 1);
  return normalized(Quat{g(rng), g(rng), g(rng), g(rng)});
}

// Coordinates are O(10); rounding of R x + c is ~1e-15, so 1e-12 is a
// comfortable bound on round-off that any real error in the box would exceed.
constexpr double kTol = 1e-12;

void expect_box_near(const Aabb& a, const Aabb& b, const char* what) {
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(get(a.lo, k), get(b.lo, k), kTol) << what << " axis " << k;
    EXPECT_NEAR(get(a.hi, k), get(b.hi, k), kTol) << what << " axis " << k;
  }
}

TEST(BodyAabb, AxisAlignedPosesGiveTheExactBounds) {
  const Vec3 c{1.5, -2.25, 7};
  expect_box_near(shape_aabb(box_shape({1, 2, 3}), c, identity3()),
                  {{1, -3.25, 5.5}, {2, -1.25, 8.5}}, "box");
  expect_box_near(shape_aabb(sphere_shape(0.3), c, identity3()),
                  {{1.2, -2.55, 6.7}, {1.8, -1.95, 7.3}}, "sphere");
  expect_box_near(shape_aabb(capsule_shape(0.2, 0.5), c, identity3()),
                  {{1.3, -2.95, 6.8}, {1.7, -1.55, 7.2}}, "capsule");
  // A quarter turn about Z maps local Y to world -X: the capsule lies along X.
  const Mat3 quarter = to_matrix(Quat{std::sqrt(0.5), 0, 0, std::sqrt(0.5)});
  expect_box_near(shape_aabb(capsule_shape(0.2, 0.5), c, quarter),
                  {{0.8, -2.45, 6.8}, {2.2, -2.05, 7.2}}, "capsule along X");
  expect_box_near(shape_aabb(box_shape({1, 2, 3}), c, quarter),
                  {{0.5, -2.75, 5.5}, {2.5, -1.75, 8.5}}, "box turned about Z");
}

TEST(BodyAabb, RotatedShapesContainSampledSurfacePointsAndAreTight) {
  std::mt19937_64 rng(24);
  std::uniform_real_distribution<double> u(-1, 1);
  std::normal_distribution<double> g(0, 1);
  double worst_gap = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const Vec3 c{5 * u(rng), 5 * u(rng), 5 * u(rng)};
    const Mat3 r = to_matrix(random_rotation(rng));
    const Vec3 size{1 + u(rng) * 0.5, 2 + u(rng), 0.3 + u(rng) * 0.2};
    const double radius = 0.4 + 0.2 * u(rng), hh = 1 + 0.5 * u(rng);
    // Box: the corners are the extreme points, so their bounds are the exact box.
    const Aabb box = shape_aabb(box_shape(size), c, r);
    Aabb corners = empty_aabb();
    for (Vec3 p : box_corners(size, c, r)) corners = aabb_union(corners, Aabb{p, p});
    expect_box_near(box, corners, "rotated box");
    // Capsule: the bounds of the two end spheres.
    const Aabb cap = shape_aabb(capsule_shape(radius, hh), c, r);
    const Vec3 top = r * Vec3{0, hh, 0} + c, bottom = r * Vec3{0, -hh, 0} + c;
    const Vec3 rr{radius, radius, radius};
    expect_box_near(cap, aabb_union({top - rr, top + rr}, {bottom - rr, bottom + rr}),
                    "rotated capsule");
    // Sphere: rotation does not matter.
    expect_box_near(shape_aabb(sphere_shape(radius), c, r), {c - rr, c + rr}, "rotated sphere");
    // Sampled surface points lie inside (up to round-off).
    const Aabb grown_box = aabb_fatten(box, kTol), grown_cap = aabb_fatten(cap, kTol);
    for (int s = 0; s < 50; ++s) {
      // A point on a random face of the box.
      Vec3 x{u(rng) * 0.5 * size.x, u(rng) * 0.5 * size.y, u(rng) * 0.5 * size.z};
      const int face = s % 3;
      (face == 0 ? x.x : face == 1 ? x.y : x.z) = (s % 2 ? 0.5 : -0.5) * get(size, face);
      const Vec3 on_box = r * x + c;
      EXPECT_TRUE(aabb_contains(grown_box, on_box));
      // A point on the capsule: a core point plus radius times a unit direction.
      Vec3 d{g(rng), g(rng), g(rng)};
      d = (1 / length(d)) * d;
      const Vec3 on_cap = r * Vec3{0, hh * u(rng), 0} + c + radius * d;
      EXPECT_TRUE(aabb_contains(grown_cap, on_cap));
      worst_gap = std::max(worst_gap, get(on_box, face) - get(box.hi, face));
    }
  }
  std::printf("rotated shapes: worst overshoot of a sampled box point %.3g m\n", worst_gap);
}

TEST(BodyAabb, SweptBoxContainsTheSpinningMovingBoxOverTheStep) {
  // Over one step the body goes from (c, R) to (c + h v + h^2 a, exp(h w) R);
  // every corner at every intermediate pose (straight line, constant spin)
  // must lie in the fattened box, even with no margin.
  std::mt19937_64 rng(25);
  std::uniform_real_distribution<double> u(-1, 1);
  const double h = 1.0 / 60;
  AabbSettings k;
  k.dt = h;
  k.margin = 0;
  k.acceleration = {0, -9.81, 0};
  double slack_sum = 0;
  int samples = 0;
  for (int trial = 0; trial < 100; ++trial) {
    ShapeDef shape = box_shape({2 + u(rng), 0.5 + 0.2 * u(rng), 1 + 0.5 * u(rng)});
    const Quat q = random_rotation(rng);
    const Vec3 c{u(rng), u(rng), u(rng)}, v{20 * u(rng), 20 * u(rng), 20 * u(rng)};
    const Vec3 w{30 * u(rng), 30 * u(rng), 30 * u(rng)};  // up to ~50 rad/s
    const Mat3 r = to_matrix(q);
    const std::uint8_t dynamic = 0;
    const ShapePoseView view{1, &shape, &c, &r, &v, &w, &dynamic};
    const Aabb swept = fattened_body_aabb(view, 0, k);
    const Vec3 d = h * v + (h * h) * k.acceleration;
    for (int s = 0; s <= 20; ++s) {
      const double t = s / 20.0;
      const Mat3 rt = to_matrix(normalized(quat_exp(t * h * w) * q));
      for (Vec3 p : box_corners(shape.size, c + t * d, rt)) {
        EXPECT_TRUE(aabb_contains(aabb_fatten(swept, kTol), p)) << "trial " << trial;
        slack_sum += std::min({p.x - swept.lo.x, swept.hi.x - p.x});
        ++samples;
      }
    }
  }
  std::printf("spinning box: mean x-slack of sampled corners %.3f m\n", slack_sum / samples);
}

TEST(BodyAabb, PlaneBodiesUseTheirPose) {
  // A ground plane y = 0 carried by a static body at height 1: the world plane is y = 1.
  TwoBodies b;
  b.shape[0] = plane_shape({0, 1, 0}, 0);
  b.position[0] = {0, 1, 0};
  b.is_static[0] = 1;
  b.shape[1] = sphere_shape(0.1);
  AabbSettings k;
  k.margin = 0.01;
  k.dt = 0;
  Broadphase bp(1);
  b.position[1] = {0, 1.105, 0};  // 0.005 m above: within the margin
  bp.build(b.view(), k);
  ASSERT_EQ(bp.plane_pairs().size(), 1u);
  EXPECT_TRUE((bp.plane_pairs()[0] == PlanePair{1, 0}));
  EXPECT_TRUE(bp.pairs().empty());  // planes are not in the tree
  b.position[1] = {0, 1.12, 0};     // 0.02 m above: beyond the margin
  bp.build(b.view(), k);
  EXPECT_TRUE(bp.plane_pairs().empty());
  b.position[1] = {0, -5, 0};  // deep below: still paired (the solid side)
  bp.build(b.view(), k);
  EXPECT_EQ(bp.plane_pairs().size(), 1u);
}

// Building blocks --------------------------------------------------------------------

TEST(Morton, InterleavingMatchesABitByBitReference) {
  std::mt19937_64 rng(26);
  std::uniform_int_distribution<std::uint32_t> coord(0, (1u << 21) - 1);
  for (int trial = 0; trial < 10000; ++trial) {
    const std::uint32_t x = coord(rng), y = coord(rng), z = coord(rng);
    std::uint64_t expect = 0;
    for (int b = 0; b < 21; ++b) {
      expect |= std::uint64_t((x >> b) & 1) << (3 * b + 2);
      expect |= std::uint64_t((y >> b) & 1) << (3 * b + 1);
      expect |= std::uint64_t((z >> b) & 1) << (3 * b);
    }
    ASSERT_EQ(morton_interleave(x, y, z), expect);
  }
  const Aabb bounds{{-1, -1, -1}, {1, 1, 1}};
  EXPECT_EQ(morton_code({-1, -1, -1}, bounds), 0u);
  EXPECT_EQ(morton_code({1, 1, 1}, bounds), (std::uint64_t(1) << 63) - 1);  // all 63 bits
  EXPECT_EQ(morton_code({0, -1, -1}, bounds), std::uint64_t(1) << 62);      // x's top bit
}

TEST(RadixSort, MatchesStableSortForAnyThreadCount) {
  std::mt19937_64 rng(27);
  // Below kInsertionSortBelow (64) one insertion sort, from it the passes.
  for (int n : {0, 1, 2, 63, 64, 100, 4096, 4097, 50000}) {
    for (bool few_keys : {false, true}) {
      std::vector<std::uint64_t> keys(n);
      for (auto& k : keys) k = few_keys ? rng() % 7 : rng() >> 1;  // 63-bit keys
      std::vector<std::pair<std::uint64_t, int>> expect;
      for (int i = 0; i < n; ++i) expect.push_back({keys[i], i});
      std::stable_sort(expect.begin(), expect.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      for (int threads : {1, 2, 3}) {
        std::vector<std::uint64_t> k = keys, kt(n);
        std::vector<int> v(n), vt(n);
        for (int i = 0; i < n; ++i) v[i] = i;
        std::vector<int> counts(std::size_t(loop_block_count(n)) * kRadixBuckets + 1);
        const Threading th{threads, {}};
        radix_sort_by_key(th, k.data(), v.data(), kt.data(), vt.data(), counts.data(), n, 63);
        for (int i = 0; i < n; ++i) {
          ASSERT_EQ(k[i], expect[i].first) << "n " << n << " threads " << threads;
          ASSERT_EQ(v[i], expect[i].second) << "n " << n << " threads " << threads;
        }
      }
    }
  }
}

TEST(RadixSort, BothPathsIgnoreTheBitsAboveTheSortedDigits) {
  // 10 key bits are sorted as two 8-bit digits: the keys' bits from 16 up
  // must not change the order, on the insertion path (n < 64) or the passes'.
  std::mt19937_64 rng(31);
  for (int n : {50, 5000}) {
    std::vector<std::uint64_t> keys(n);
    for (auto& k : keys) k = rng();
    std::vector<std::pair<std::uint64_t, int>> expect;
    for (int i = 0; i < n; ++i) expect.push_back({keys[i] & 0xffff, i});
    std::stable_sort(expect.begin(), expect.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::uint64_t> k = keys, kt(n);
    std::vector<int> v(n), vt(n);
    for (int i = 0; i < n; ++i) v[i] = i;
    std::vector<int> counts(std::size_t(loop_block_count(n)) * kRadixBuckets + 1);
    radix_sort_by_key(Threading{1, {}}, k.data(), v.data(), kt.data(), vt.data(), counts.data(), n,
                      10);
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(v[i], expect[i].second) << "n " << n << " at " << i;
      ASSERT_EQ(k[i], keys[std::size_t(v[i])]) << "n " << n << " at " << i;
    }
  }
}

}  // namespace
}  // namespace pabd
