// The broadphase's stages, in order; the kernels live in body_aabb.h,
// morton.h, radix_sort.h, lbvh_build.h and lbvh_traverse.h.
#include "collision/broadphase.h"

#include <climits>
#include <string>

#include "collision/lbvh_traverse.h"
#include "collision/morton.h"
#include "core/radix_sort.h"
#include "core/stage_clock.h"

namespace pabd {

namespace {

/// v's data with at least n elements; grows v, never shrinks it, so a later
/// build of the same or a smaller scene does not allocate.
template <typename T>
T* at_least(std::vector<T>& v, std::size_t n) {
  if (v.size() < n) v.resize(n);
  return v.data();
}

/// Resizes an output vector to exactly n, with a quarter of headroom when it
/// must grow (pair counts fluctuate from step to step).
template <typename T>
void resize_output(std::vector<T>& v, long long n) {
  if (n > INT_MAX) throw Error("broadphase: more than 2^31 - 1 pairs");
  const std::size_t size = static_cast<std::size_t>(n);
  if (size > v.capacity()) v.reserve(size + size / 4);
  v.resize(size);
}

}  // namespace

Broadphase::Broadphase(int threads, ParallelFor custom) {
  threading_.threads = resolve_thread_count(threads);
  threading_.custom = std::move(custom);
}

void Broadphase::build(const ShapePoseView& bodies, const AabbSettings& settings) {
  const StageClock::time_point t0 = StageClock::now();
  const int n = bodies.count;
  if (n < 0) throw Error("broadphase: body count: expected >= 0, got " + std::to_string(n));
  if (n > 0 && (!bodies.shape || !bodies.position || !bodies.rotation))
    throw Error("broadphase: shape, position and rotation arrays are required");
  Aabb* box = at_least(body_box_, n);
  std::uint8_t* is_plane = at_least(body_is_plane_, n);
  WorldPlane* plane = at_least(body_plane_, n);
  body_box_.resize(n);  // exact size for body_boxes(); capacity is kept
  // Fattened box, plane flag and world plane of every body.
  for_each_index(threading_, n, [&](int i) {
    box[i] = fattened_body_aabb(bodies, i, settings);
    const bool p = bodies.shape[i].type == ShapeType::Plane;
    is_plane[i] = p ? 1 : 0;
    plane[i] =
        p ? world_plane(bodies.shape[i], bodies.position[i], bodies.rotation[i]) : WorldPlane{};
  });
  const double boxes_ms = ms_since(t0);
  build(AabbView{n, box, bodies.is_static, is_plane, plane});
  timings_.boxes_ms = boxes_ms;
  timings_.total_ms += boxes_ms;
}

void Broadphase::build(const AabbView& v) {
  if (v.count < 0)
    throw Error("broadphase: body count: expected >= 0, got " + std::to_string(v.count));
  if (v.count > 0 && !v.box) throw Error("broadphase: the box array is required");
  if (v.is_plane && !v.plane) throw Error("broadphase: planes flagged but no plane array given");
  timings_ = BroadphaseTimings{};
  const StageClock::time_point start = StageClock::now();

  StageClock::time_point t0 = start;
  find_tree_and_planes(v);
  compute_codes(v);
  timings_.codes_ms = ms_since(t0);

  // Sort the leaves by (code, body): the tree bodies are in ascending order
  // and the sort is stable.
  t0 = StageClock::now();
  const int m = static_cast<int>(tree_body_.size());
  radix_sort_by_key(threading_, code_.data(), leaf_body_.data(), at_least(code_tmp_, m),
                    at_least(leaf_body_tmp_, m),
                    at_least(radix_counts_, std::size_t(loop_block_count(m)) * kRadixBuckets), m,
                    3 * kMortonBitsPerAxis);
  timings_.sort_ms = ms_since(t0);

  // Internal nodes, then the bottom-up refit.
  t0 = StageClock::now();
  const std::size_t nodes = m > 0 ? std::size_t(2 * m - 1) : 0;
  const std::size_t internal = m > 1 ? std::size_t(m - 1) : 0;
  tree_.leaf_count = m;
  tree_.code = code_.data();
  tree_.leaf_body = leaf_body_.data();
  tree_.node = at_least(nodes_, nodes);
  tree_.parent = at_least(parent_, nodes);
  tree_.visits = at_least(visits_, internal);
  if (m == 1) tree_.parent[0] = -1;  // a lone leaf is the root
  const Lbvh& tree = tree_;
  for_each_index(threading_, m - 1, [&](int i) { lbvh_build_internal_node(tree, i); });
  for_each_index(threading_, m, [&](int k) { lbvh_refit_from_leaf(tree, v.box, v.is_static, k); });
  timings_.tree_ms = ms_since(t0);

  t0 = StageClock::now();
  find_pairs(v);
  timings_.pairs_ms = ms_since(t0);

  t0 = StageClock::now();
  find_plane_pairs(v);
  timings_.planes_ms = ms_since(t0);
  timings_.total_ms = ms_since(start);
}

void Broadphase::find_tree_and_planes(const AabbView& v) {
  const int n = v.count;
  if (!v.is_plane) {  // every body is in the tree
    int* tree_body = at_least(tree_body_, n);
    tree_body_.resize(n);
    plane_body_.clear();
    plane_.clear();
    for_each_index(threading_, n, [&](int i) { tree_body[i] = i; });
    return;
  }
  // Stable compaction: counts per block, a scan over blocks, writes per block.
  const int blocks = loop_block_count(n);
  int* counts = at_least(block_count_, std::size_t(2) * blocks);
  for_each_block(threading_, n, [&](int b, int begin, int end) {
    int planes = 0;
    for (int i = begin; i < end; ++i) planes += v.is_plane[i] ? 1 : 0;
    counts[2 * b] = planes;
    counts[2 * b + 1] = (end - begin) - planes;
  });
  int planes = 0, bodies = 0;
  for (int b = 0; b < blocks; ++b) {
    const int p = counts[2 * b], t = counts[2 * b + 1];
    counts[2 * b] = planes;
    counts[2 * b + 1] = bodies;
    planes += p;
    bodies += t;
  }
  at_least(tree_body_, bodies);
  tree_body_.resize(bodies);
  at_least(plane_body_, planes);
  plane_body_.resize(planes);
  at_least(plane_, planes);
  plane_.resize(planes);
  int* tree_body = tree_body_.data();
  int* plane_body = plane_body_.data();
  WorldPlane* plane = plane_.data();
  for_each_block(threading_, n, [&](int b, int begin, int end) {
    int p = counts[2 * b], t = counts[2 * b + 1];
    for (int i = begin; i < end; ++i) {
      if (v.is_plane[i]) {
        plane_body[p] = i;
        plane[p++] = v.plane[i];
      } else {
        tree_body[t++] = i;
      }
    }
  });
}

void Broadphase::compute_codes(const AabbView& v) {
  const int m = static_cast<int>(tree_body_.size());
  const int blocks = loop_block_count(m);
  const int* tree_body = tree_body_.data();
  Aabb* bounds = at_least(block_bounds_, blocks);
  int* invalid = at_least(first_invalid_, blocks);
  // Per block: bounds of the box centres, first body with an invalid box.
  for_each_block(threading_, m, [&](int b, int begin, int end) {
    Aabb r = empty_aabb();
    int bad = -1;
    for (int t = begin; t < end; ++t) {
      const Aabb& box = v.box[tree_body[t]];
      if (!aabb_valid(box)) {
        if (bad < 0) bad = tree_body[t];
        continue;
      }
      const Vec3 c = aabb_center(box);
      r = aabb_union(r, Aabb{c, c});
    }
    bounds[b] = r;
    invalid[b] = bad;
  });
  Aabb scene = empty_aabb();
  for (int b = 0; b < blocks; ++b) {
    if (invalid[b] >= 0)
      throw Error("broadphase: body " + std::to_string(invalid[b]) +
                  ": expected a finite AABB with lo <= hi");
    scene = aabb_union(scene, bounds[b]);
  }
  // Morton code of every tree body's box centre, paired with the body.
  std::uint64_t* code = at_least(code_, m);
  int* leaf_body = at_least(leaf_body_, m);
  for_each_index(threading_, m, [&](int t) {
    const int body = tree_body[t];
    code[t] = morton_code(aabb_center(v.box[body]), scene);
    leaf_body[t] = body;
  });
}

void Broadphase::find_pairs(const AabbView& v) {
  const int n = v.count;
  const int m = tree_.leaf_count;
  const Lbvh& tree = tree_;
  int* offset = at_least(pair_offset_, std::size_t(n) + 1);
  BodyPair* cache = at_least(pair_cache_, std::size_t(m) * kPairCache);
  auto is_static = [&v](int body) { return v.is_static && v.is_static[body]; };
  // Queries run in leaf (Morton) order, so neighbouring queries walk the same
  // nodes, and each writes its body's count: a permutation, no conflicts.
  for (int p : plane_body_) offset[p] = 0;  // planes are not in the tree
  for_each_index(threading_, m, [&](int k) {
    const int body = tree.leaf_body[k];
    const Aabb& query = tree.node[m - 1 + k].box;
    offset[body] = lbvh_find_overlaps(tree, body, is_static(body), query,
                                      cache + std::size_t(k) * kPairCache, kPairCache);
  });
  // Prefix sum in body order: body i's pairs go to [offset[i], offset[i + 1]).
  const long long total = block_exclusive_scan(threading_, offset, offset, n,
                                               at_least(block_sum_, loop_block_count(n)));
  resize_output(pairs_, total);
  offset[n] = static_cast<int>(total);
  BodyPair* out = pairs_.data();
  for_each_index(threading_, m, [&](int k) {
    const int body = tree.leaf_body[k];
    BodyPair* slice = out + offset[body];
    const int count = offset[body + 1] - offset[body];
    if (count <= kPairCache) {
      const BodyPair* kept = cache + std::size_t(k) * kPairCache;
      for (int c = 0; c < count; ++c) slice[c] = kept[c];
    } else {
      lbvh_find_overlaps(tree, body, is_static(body), tree.node[m - 1 + k].box, slice, count);
    }
    sort_pairs_by_second(slice, count);
  });
}

void Broadphase::find_plane_pairs(const AabbView& v) {
  const int m = static_cast<int>(tree_body_.size());
  const int planes = static_cast<int>(plane_.size());
  if (planes == 0) {
    plane_pairs_.clear();
    return;
  }
  const int* tree_body = tree_body_.data();
  const int* plane_body = plane_body_.data();
  const WorldPlane* plane = plane_.data();
  int* offset = at_least(plane_pair_offset_, std::size_t(m) + 1);
  auto is_static = [&v](int body) { return v.is_static && v.is_static[body]; };
  for_each_index(threading_, m, [&](int t) {
    const int body = tree_body[t];
    offset[t] =
        planes_reached(v.box[body], body, is_static(body), plane_body, plane, planes, nullptr);
  });
  const long long total = block_exclusive_scan(threading_, offset, offset, m,
                                               at_least(block_sum_, loop_block_count(m)));
  resize_output(plane_pairs_, total);
  offset[m] = static_cast<int>(total);
  PlanePair* out = plane_pairs_.data();
  for_each_index(threading_, m, [&](int t) {
    const int body = tree_body[t];
    planes_reached(v.box[body], body, is_static(body), plane_body, plane, planes, out + offset[t]);
  });
}

}  // namespace pabd
