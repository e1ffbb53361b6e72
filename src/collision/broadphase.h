// The collision broadphase: candidate pairs of bodies whose fattened AABBs
// overlap, from a linear BVH rebuilt every step (Karras 2012).
//
//   Broadphase bp(threads);
//   bp.build(shape_pose_view, aabb_settings);  // or bp.build(aabb_view)
//   for (const BodyPair& p : bp.pairs()) ...    // sorted by (a, b), a < b
//   for (const PlanePair& p : bp.plane_pairs()) ...
//
// Stages (each a parallel loop over plain arrays, see docs/collision.md):
// fattened boxes -> tree bodies and planes -> scene bounds of the box centres
// -> Morton codes -> radix sort by (code, body) -> internal nodes -> refit
// -> per-body traversal (count, prefix sum, write, sort each body's slice)
// -> body-plane pairs. The output is bit-identical for any thread count.
//
// Memory: every array is sized on first use and grows only when a build needs
// more; a build of the same or a smaller scene allocates nothing.
#pragma once

#include <cstdint>
#include <vector>

#include "collision/broadphase_pairs.h"
#include "collision/lbvh_build.h"
#include "core/block_loops.h"
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

/// Wall-clock time of each stage of the last build [ms].
struct BroadphaseTimings {
  double boxes_ms = 0;   ///< fattened boxes (build from shapes only)
  double codes_ms = 0;   ///< tree/plane lists, scene bounds, Morton codes
  double sort_ms = 0;    ///< radix sort of the codes
  double tree_ms = 0;    ///< internal nodes and refit
  double pairs_ms = 0;   ///< traversal: count, prefix sum, write, sort slices
  double planes_ms = 0;  ///< body-plane pairs
  double total_ms = 0;   ///< the whole build
};

class Broadphase {
 public:
  /// threads: OpenMP threads (0 = OpenMP's default); custom: optional task system.
  explicit Broadphase(int threads = 0, ParallelFor custom = {});
  // The tree view points into this object's arrays: no copies (moves keep them valid).
  Broadphase(const Broadphase&) = delete;
  Broadphase& operator=(const Broadphase&) = delete;
  Broadphase(Broadphase&&) = default;
  Broadphase& operator=(Broadphase&&) = default;

  /// Computes every body's fattened box (body_aabb.h), then builds as below.
  void build(const ShapePoseView& bodies, const AabbSettings& settings);
  /// Builds the tree over the non-plane bodies and finds all pairs. Throws
  /// pabd::Error naming the first body whose box is non-finite or inverted.
  void build(const AabbView& boxes);

  /// Overlapping body pairs (a < b, not both static), sorted by (a, b).
  const std::vector<BodyPair>& pairs() const { return pairs_; }
  /// (body, plane) pairs for every dynamic body whose box reaches a plane's
  /// solid side, sorted by (body, plane).
  const std::vector<PlanePair>& plane_pairs() const { return plane_pairs_; }
  /// Fattened boxes of the last build(ShapePoseView) (empty boxes for planes).
  const std::vector<Aabb>& body_boxes() const { return body_box_; }
  /// The tree of the last build (valid until the next build).
  const Lbvh& tree() const { return tree_; }
  /// Stage times of the last build.
  const BroadphaseTimings& last_timings() const { return timings_; }

 private:
  void find_tree_and_planes(const AabbView& v);
  void compute_codes(const AabbView& v);
  void find_pairs(const AabbView& v);
  void find_plane_pairs(const AabbView& v);

  Threading threading_;
  BroadphaseTimings timings_;

  // Inputs made by build(ShapePoseView).
  std::vector<Aabb> body_box_;
  std::vector<std::uint8_t> body_is_plane_;
  std::vector<WorldPlane> body_plane_;

  // Tree bodies (non-planes, ascending) and planes.
  std::vector<int> tree_body_;
  std::vector<int> plane_body_;
  std::vector<WorldPlane> plane_;
  std::vector<int> block_count_;  ///< per block: planes, then tree bodies
  std::vector<long long> block_sum_;
  std::vector<int> first_invalid_;  ///< per block: first body with a bad box, or -1
  std::vector<Aabb> block_bounds_;

  // Codes and the sort.
  std::vector<std::uint64_t> code_, code_tmp_;
  std::vector<int> leaf_body_, leaf_body_tmp_;
  std::vector<int> radix_counts_;

  // The tree.
  Lbvh tree_;
  std::vector<LbvhNode> nodes_;
  std::vector<int> parent_, visits_;

  // Output.
  std::vector<int> pair_offset_;      ///< per body (planes: 0), then the prefix sum
  std::vector<BodyPair> pair_cache_;  ///< first kPairCache pairs of each leaf
  std::vector<int> plane_pair_offset_;
  std::vector<BodyPair> pairs_;
  std::vector<PlanePair> plane_pairs_;
};

}  // namespace pabd
