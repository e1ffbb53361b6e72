// The collision broadphase: candidate pairs of bodies whose fattened AABBs
// overlap, from a linear BVH rebuilt every step (Karras 2012).
//
//   Broadphase bp(threads);
//   bp.build(shape_pose_view, aabb_settings);  // or bp.build(aabb_view)
//   for (const BodyPair& p : bp.pairs()) ...    // sorted by (a, b), a < b
//   for (const PlanePair& p : bp.plane_pairs()) ...
//
// Stages (each a parallel loop over plain arrays, see docs/collision.md and
// broadphase_pipeline.h, where they are written once for the host and a
// device): fattened boxes -> tree bodies and planes -> scene bounds of the
// box centres -> Morton codes -> radix sort by (code, body) -> internal nodes
// -> refit -> per-body traversal (count, prefix sum, write, sort each body's
// slice) -> body-plane pairs. The output is bit-identical for any thread count.
//
// Memory: every array is sized on first use and grows only when a build needs
// more; a build of the same or a smaller scene allocates nothing.
#pragma once

#include <cstdint>
#include <vector>

#include "collision/broadphase_pipeline.h"
#include "core/stage_clock.h"

namespace pabd {

/// The host's backend of the broadphase's stages (broadphase_pipeline.h):
/// vectors, Threading's loops, the host's clock.
struct HostBroadphaseBackend {
  template <typename T>
  using Array = std::vector<T>;
  using Mark = StageClock::time_point;

  Threading threading;

  ThreadingLoops loops() const { return ThreadingLoops{threading}; }
  /// At least n elements; grows v, never shrinks it, so a later build of the
  /// same or a smaller scene does not allocate.
  template <typename T>
  T* room(std::vector<T>& v, std::size_t n) const {
    if (v.size() < n) v.resize(n);
    return v.data();
  }
  /// Exactly n elements (what pairs() and the like hand out), with a quarter
  /// of headroom when it must grow (pair counts fluctuate from step to step).
  template <typename T>
  T* exact(std::vector<T>& v, std::size_t n) const {
    if (n > v.capacity()) v.reserve(n + n / 4);
    v.resize(n);
    return v.data();
  }
  Mark start() const { return StageClock::now(); }
  void stop(Mark mark, double& ms) const { ms += ms_since(mark); }
  void finish() const {}
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
  const std::vector<BodyPair>& pairs() const { return state_.arrays.pairs; }
  /// (body, plane) pairs for every dynamic body whose box reaches a plane's
  /// solid side, sorted by (body, plane).
  const std::vector<PlanePair>& plane_pairs() const { return state_.arrays.plane_pairs; }
  /// Fattened boxes of the last build(ShapePoseView) (empty boxes for planes).
  const std::vector<Aabb>& body_boxes() const { return state_.arrays.body_box; }
  /// The tree of the last build (valid until the next build).
  const Lbvh& tree() const { return state_.tree; }
  /// Stage times of the last build.
  const BroadphaseTimings& last_timings() const { return state_.timings; }

 private:
  BroadphaseState<HostBroadphaseBackend> state_;
};

}  // namespace pabd
