// The broadphase's stages, written once for the host (collision/broadphase.h)
// and a device (device/device_broadphase.h): fattened boxes -> tree bodies
// and planes -> scene bounds of the box centres -> Morton codes -> radix sort
// by (code, body) -> internal nodes -> refit -> per-body traversal (count,
// prefix sum, write, sort each body's slice) -> body-plane pairs.
//
// A backend gives the stages three things:
// - loops() (core/block_loops.h's executor): each, each_block, serial and
//   read. The loop bodies are PABD_LAMBDA lambdas that capture plain
//   pointers and values, so a device launches the same code;
// - memory: Array<T>, room(array, n) (at least n elements, grown, never
//   shrunk) and exact(array, n) (exactly n where the host hands the array
//   out as a vector; the device's are sized like room);
// - timing: start(), stop(mark, ms), finish() (the device's clock is read
//   once its loops are done).
// The host reads three values back per build (the tree's size, the first
// bad box, the pair count) and one per radix pass, to size what follows: on a
// device each is a wait for its loops, cheaper than sizing for the worst case.
//
// The work is cut into fixed blocks and per-index kernels that write only
// their own index, so the output is the same for any thread count and on
// any backend.
#pragma once

#include <climits>
#include <cstdint>
#include <string>

#include "collision/broadphase_pairs.h"
#include "collision/lbvh_build.h"
#include "collision/lbvh_traverse.h"
#include "collision/morton.h"
#include "core/block_loops.h"
#include "core/radix_sort.h"
#include "shapes/aabb.h"
#include "shapes/body_aabb.h"

namespace pabd {

/// Boxes the broadphase sorts, one per body (struct of arrays).
struct AabbView {
  int count = 0;                            ///< number of bodies
  const Aabb* box = nullptr;                ///< fattened box per body [m]; unused for planes
  const std::uint8_t* is_static = nullptr;  ///< 1 = static; null = none static
  const std::uint8_t* is_plane = nullptr;   ///< 1 = an infinite plane; null = none
  const WorldPlane* plane = nullptr;        ///< per body, read for planes only
};

/// Time of each stage of the last build [ms].
struct BroadphaseTimings {
  double boxes_ms = 0;   ///< fattened boxes (build from shapes only)
  double codes_ms = 0;   ///< tree/plane lists, scene bounds, Morton codes
  double sort_ms = 0;    ///< radix sort of the codes
  double tree_ms = 0;    ///< internal nodes and refit
  double pairs_ms = 0;   ///< traversal: count, prefix sum, write, sort slices
  double planes_ms = 0;  ///< body-plane pairs
  double total_ms = 0;   ///< the whole build
};

/// Sizes of the last build.
struct BroadphaseCounts {
  int bodies = 0;       ///< bodies given (boxes made by the shapes' build)
  int tree_bodies = 0;  ///< bodies in the tree (not planes)
  int planes = 0;
  int pairs = 0;
  int plane_pairs = 0;
};

/// Every array of a build, in the backend's memory.
template <typename Backend>
struct BroadphaseArrays {
  template <typename T>
  using Array = typename Backend::template Array<T>;

  // Inputs made by the build from shapes.
  Array<Aabb> body_box;
  Array<std::uint8_t> body_is_plane;
  Array<WorldPlane> body_plane;

  // Tree bodies (non-planes, ascending) and planes.
  Array<int> tree_body;
  Array<int> plane_body;
  Array<WorldPlane> plane;
  Array<int> block_count;  ///< per block: the planes before it; then the planes' total
  Array<long long> block_sum;
  Array<int> first_invalid;  ///< per block: first body with a bad box, or -1; then the first of all
  Array<Aabb> block_bounds;  ///< per block: bounds of the box centres; then the scene's

  // Codes and the sort.
  Array<std::uint64_t> code, code_tmp;
  Array<int> leaf_body, leaf_body_tmp;
  Array<int> radix_counts;

  // The tree.
  Array<LbvhNode> nodes;
  Array<int> parent, visits;

  // Output.
  Array<int> pair_offset;      ///< per body (planes: 0), then the prefix sum
  Array<BodyPair> pair_cache;  ///< first kPairCache pairs of each leaf
  Array<int> plane_pair_offset;
  Array<BodyPair> pairs;
  Array<PlanePair> plane_pairs;
};

/// A broadphase's arrays, sizes, tree and timings on one backend.
template <typename Backend>
struct BroadphaseState {
  Backend backend;
  BroadphaseArrays<Backend> arrays;
  BroadphaseCounts counts;
  Lbvh tree;
  BroadphaseTimings timings;
};

/// Every body's fattened box (body_aabb.h), plane flag and world plane, into
/// the state's body_box, body_is_plane and body_plane; returns them as a view.
template <typename Backend>
AabbView broadphase_boxes(BroadphaseState<Backend>& s, const ShapePoseView& bodies,
                          const AabbSettings& settings) {
  const int n = bodies.count;
  if (n < 0) throw Error("broadphase: body count: expected >= 0, got " + std::to_string(n));
  if (n > 0 && (!bodies.shape || !bodies.position || !bodies.rotation))
    throw Error("broadphase: shape, position and rotation arrays are required");
  Backend& be = s.backend;
  const auto mark = be.start();
  Aabb* box = be.exact(s.arrays.body_box, n);
  std::uint8_t* is_plane = be.room(s.arrays.body_is_plane, n);
  WorldPlane* plane = be.room(s.arrays.body_plane, n);
  s.counts.bodies = n;
  be.loops().each(n, [=] PABD_LAMBDA(int i) {
    box[i] = fattened_body_aabb(bodies, i, settings);
    const bool p = bodies.shape[i].type == ShapeType::Plane;
    is_plane[i] = p ? 1 : 0;
    plane[i] =
        p ? world_plane(bodies.shape[i], bodies.position[i], bodies.rotation[i]) : WorldPlane{};
  });
  // Into the state's own figure: a device adds its time there once done.
  s.timings.boxes_ms = 0;
  be.stop(mark, s.timings.boxes_ms);
  return AabbView{n, box, bodies.is_static, is_plane, plane};
}

/// The tree bodies (ascending) and the planes with their bodies, by a stable
/// compaction: planes per block, a scan over blocks, writes per block.
template <typename Backend>
void broadphase_tree_and_planes(BroadphaseState<Backend>& s, const AabbView& v) {
  Backend& be = s.backend;
  const auto loops = be.loops();
  const int n = v.count;
  if (!v.is_plane) {  // every body is in the tree
    int* tree_body = be.room(s.arrays.tree_body, n);
    s.counts.tree_bodies = n;
    s.counts.planes = 0;
    loops.each(n, [=] PABD_LAMBDA(int i) { tree_body[i] = i; });
    return;
  }
  // Each block's planes, then their exclusive sum: where the block's planes
  // start. Every body is a plane or in the tree, so its tree bodies start at
  // its first index less the planes before it; one count comes back (a wait
  // on a device).
  const int blocks = loop_block_count(n);
  int* counts = be.room(s.arrays.block_count, std::size_t(blocks) + 1);
  const std::uint8_t* is_plane_of = v.is_plane;
  loops.each_block(n, [=] PABD_LAMBDA(int b, int begin, int end) {
    int planes = 0;
    for (int i = begin; i < end; ++i) planes += is_plane_of[i] ? 1 : 0;
    counts[b] = planes;
  });
  loops.serial([=] PABD_LAMBDA() {
    int planes = 0;
    for (int b = 0; b < blocks; ++b) {
      const int p = counts[b];
      counts[b] = planes;
      planes += p;
    }
    counts[blocks] = planes;
  });
  const int planes = loops.read(counts + blocks);
  const int bodies = n - planes;
  s.counts.tree_bodies = bodies;
  s.counts.planes = planes;
  int* tree_body = be.room(s.arrays.tree_body, bodies);
  int* plane_body = be.room(s.arrays.plane_body, planes);
  WorldPlane* plane = be.room(s.arrays.plane, planes);
  const WorldPlane* plane_of = v.plane;
  loops.each_block(n, [=] PABD_LAMBDA(int b, int begin, int end) {
    int p = counts[b], t = begin - counts[b];
    for (int i = begin; i < end; ++i) {
      if (is_plane_of[i]) {
        plane_body[p] = i;
        plane[p++] = plane_of[i];
      } else {
        tree_body[t++] = i;
      }
    }
  });
}

/// The Morton code of every tree body's box centre in the centres' bounds,
/// paired with the body. Throws pabd::Error naming the first body whose box
/// is non-finite or inverted.
template <typename Backend>
void broadphase_codes(BroadphaseState<Backend>& s, const AabbView& v) {
  Backend& be = s.backend;
  const auto loops = be.loops();
  const int m = s.counts.tree_bodies;
  const int blocks = loop_block_count(m);
  const int* tree_body = s.arrays.tree_body.data();
  Aabb* bounds = be.room(s.arrays.block_bounds, std::size_t(blocks) + 1);
  int* invalid = be.room(s.arrays.first_invalid, std::size_t(blocks) + 1);
  const Aabb* box = v.box;
  // Per block: bounds of the box centres, first body with an invalid box.
  loops.each_block(m, [=] PABD_LAMBDA(int b, int begin, int end) {
    Aabb r = empty_aabb();
    int bad = -1;
    for (int t = begin; t < end; ++t) {
      const Aabb& body_box = box[tree_body[t]];
      if (!aabb_valid(body_box)) {
        if (bad < 0) bad = tree_body[t];
        continue;
      }
      const Vec3 c = aabb_center(body_box);
      r = aabb_union(r, Aabb{c, c});
    }
    bounds[b] = r;
    invalid[b] = bad;
  });
  // The scene's bounds, and the first bad body in block order.
  loops.serial([=] PABD_LAMBDA() {
    Aabb scene = empty_aabb();
    int bad = -1;
    for (int b = 0; b < blocks; ++b) {
      if (bad < 0) bad = invalid[b];
      scene = aabb_union(scene, bounds[b]);
    }
    bounds[blocks] = scene;
    invalid[blocks] = bad;
  });
  const int bad = loops.read(invalid + blocks);
  if (bad >= 0)
    throw Error("broadphase: body " + std::to_string(bad) +
                ": expected a finite AABB with lo <= hi");
  std::uint64_t* code = be.room(s.arrays.code, m);
  int* leaf_body = be.room(s.arrays.leaf_body, m);
  const Aabb* scene = bounds + blocks;
  loops.each(m, [=] PABD_LAMBDA(int t) {
    const int body = tree_body[t];
    code[t] = morton_code(aabb_center(box[body]), *scene);
    leaf_body[t] = body;
  });
}

/// Bodies j > i overlapping each tree body i, as pairs sorted by (i, j).
template <typename Backend>
void broadphase_pairs(BroadphaseState<Backend>& s, const AabbView& v) {
  Backend& be = s.backend;
  const auto loops = be.loops();
  const int n = v.count;
  const int m = s.tree.leaf_count;
  const Lbvh tree = s.tree;
  int* offset = be.room(s.arrays.pair_offset, std::size_t(n) + 1);
  BodyPair* cache = be.room(s.arrays.pair_cache, std::size_t(m) * kPairCache);
  const std::uint8_t* is_static = v.is_static;
  const int* plane_body = s.arrays.plane_body.data();
  // Planes are not in the tree.
  loops.each(s.counts.planes, [=] PABD_LAMBDA(int p) { offset[plane_body[p]] = 0; });
  // Queries run in leaf (Morton) order, so neighbouring queries walk the same
  // nodes, and each writes its body's count: a permutation, no conflicts.
  loops.each(m, [=] PABD_LAMBDA(int k) {
    const int body = tree.leaf_body[k];
    const Aabb& query = tree.node[m - 1 + k].box;
    offset[body] = lbvh_find_overlaps(tree, body, is_static && is_static[body], query,
                                      cache + std::size_t(k) * kPairCache, kPairCache);
  });
  // Prefix sum in body order: body i's pairs go to [offset[i], offset[i + 1]).
  long long* block_sum = be.room(s.arrays.block_sum, std::size_t(loop_block_count(n)) + 1);
  const long long total = block_exclusive_scan_on(loops, offset, offset, n, block_sum);
  if (total > INT_MAX) throw Error("broadphase: more than 2^31 - 1 pairs");
  s.counts.pairs = static_cast<int>(total);
  BodyPair* out = be.exact(s.arrays.pairs, total);
  const int pair_total = static_cast<int>(total);
  loops.serial([=] PABD_LAMBDA() { offset[n] = pair_total; });
  loops.each(m, [=] PABD_LAMBDA(int k) {
    const int body = tree.leaf_body[k];
    BodyPair* slice = out + offset[body];
    const int count = offset[body + 1] - offset[body];
    if (count <= kPairCache) {
      const BodyPair* kept = cache + std::size_t(k) * kPairCache;
      for (int c = 0; c < count; ++c) slice[c] = kept[c];
    } else {
      lbvh_find_overlaps(tree, body, is_static && is_static[body], tree.node[m - 1 + k].box, slice,
                         count);
    }
    sort_pairs_by_second(slice, count);
  });
}

/// (body, plane) pairs of every dynamic tree body whose box reaches a plane's
/// solid side, sorted by (body, plane).
template <typename Backend>
void broadphase_plane_pairs(BroadphaseState<Backend>& s, const AabbView& v) {
  Backend& be = s.backend;
  const auto loops = be.loops();
  const int m = s.counts.tree_bodies;
  const int planes = s.counts.planes;
  if (planes == 0) {
    s.counts.plane_pairs = 0;
    be.exact(s.arrays.plane_pairs, 0);
    return;
  }
  const int* tree_body = s.arrays.tree_body.data();
  const int* plane_body = s.arrays.plane_body.data();
  const WorldPlane* plane = s.arrays.plane.data();
  const Aabb* box = v.box;
  const std::uint8_t* is_static = v.is_static;
  int* offset = be.room(s.arrays.plane_pair_offset, std::size_t(m) + 1);
  loops.each(m, [=] PABD_LAMBDA(int t) {
    const int body = tree_body[t];
    offset[t] = planes_reached(box[body], body, is_static && is_static[body], plane_body, plane,
                               planes, nullptr);
  });
  long long* block_sum = be.room(s.arrays.block_sum, std::size_t(loop_block_count(m)) + 1);
  const long long total = block_exclusive_scan_on(loops, offset, offset, m, block_sum);
  if (total > INT_MAX) throw Error("broadphase: more than 2^31 - 1 pairs");
  s.counts.plane_pairs = static_cast<int>(total);
  PlanePair* out = be.exact(s.arrays.plane_pairs, total);
  loops.each(m, [=] PABD_LAMBDA(int t) {
    const int body = tree_body[t];
    planes_reached(box[body], body, is_static && is_static[body], plane_body, plane, planes,
                   out + offset[t]);
  });
}

/// Builds the tree over the non-plane bodies of `v` and finds all pairs.
/// Throws pabd::Error naming the first body whose box is non-finite or inverted.
template <typename Backend>
void broadphase_build(BroadphaseState<Backend>& s, const AabbView& v) {
  if (v.count < 0)
    throw Error("broadphase: body count: expected >= 0, got " + std::to_string(v.count));
  if (v.count > 0 && !v.box) throw Error("broadphase: the box array is required");
  if (v.is_plane && !v.plane) throw Error("broadphase: planes flagged but no plane array given");
  Backend& be = s.backend;
  const auto loops = be.loops();
  const double boxes_ms = s.timings.boxes_ms;
  BroadphaseTimings& t = s.timings;
  t = BroadphaseTimings{};
  t.boxes_ms = boxes_ms;
  const auto start = be.start();

  auto mark = be.start();
  broadphase_tree_and_planes(s, v);
  broadphase_codes(s, v);
  be.stop(mark, t.codes_ms);

  // Sort the leaves by (code, body): the tree bodies are in ascending order
  // and the sort is stable.
  mark = be.start();
  const int m = s.counts.tree_bodies;
  BroadphaseArrays<Backend>& a = s.arrays;
  radix_sort_by_key_on(
      loops, a.code.data(), a.leaf_body.data(), be.room(a.code_tmp, m), be.room(a.leaf_body_tmp, m),
      be.room(a.radix_counts, std::size_t(loop_block_count(m)) * kRadixBuckets + 1), m,
      3 * kMortonBitsPerAxis);
  be.stop(mark, t.sort_ms);

  // Internal nodes, then the bottom-up refit.
  mark = be.start();
  const std::size_t nodes = m > 0 ? std::size_t(2 * m - 1) : 0;
  const std::size_t internal = m > 1 ? std::size_t(m - 1) : 0;
  Lbvh tree;
  tree.leaf_count = m;
  tree.code = a.code.data();
  tree.leaf_body = a.leaf_body.data();
  tree.node = be.room(a.nodes, nodes);
  tree.parent = be.room(a.parent, nodes);
  tree.visits = be.room(a.visits, internal);
  s.tree = tree;
  if (m == 1) loops.serial([=] PABD_LAMBDA() { tree.parent[0] = -1; });  // a lone leaf is the root
  const Aabb* box = v.box;
  const std::uint8_t* is_static = v.is_static;
  loops.each(m - 1, [=] PABD_LAMBDA(int i) { lbvh_build_internal_node(tree, i); });
  loops.each(m, [=] PABD_LAMBDA(int k) { lbvh_refit_from_leaf(tree, box, is_static, k); });
  be.stop(mark, t.tree_ms);

  mark = be.start();
  broadphase_pairs(s, v);
  be.stop(mark, t.pairs_ms);

  mark = be.start();
  broadphase_plane_pairs(s, v);
  be.stop(mark, t.planes_ms);
  be.stop(start, t.total_ms);
  be.finish();
  t.total_ms += t.boxes_ms;
}

}  // namespace pabd
