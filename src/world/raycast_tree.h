// World::raycast's tree: a linear BVH (collision/lbvh_build.h) over the
// bodies' tight world boxes at their current poses, and the list of planes,
// which have no finite box and are tested on their own.
//
// It is built lazily, by the first raycast after a change, and kept until
// the next one, so many rays cast between steps (a lidar of thousands) share
// one build. Whatever moves or adds bodies calls invalidate(): World::step,
// set_body_state, add_body and restore_state. Velocities, forces and filters
// do not enter the tree (the query reads the filters), so they leave it be.
//
// The step's broadphase tree is not reused: its boxes are fattened by the
// contact margin and swept over the step's predicted motion, and it is built
// before the step moves the bodies.
//
// Threads: concurrent raycasts may share one tree: the first builds it under
// the mutex, the others wait for it and then only read. A raycast must not
// run while another thread changes the world (as for every const call).
#pragma once

#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

#include "collision/lbvh_build.h"
#include "shapes/aabb.h"
#include "shapes/body_aabb.h"

namespace pabd {

class RaycastTree {
 public:
  RaycastTree() = default;
  // The tree view points into this object's arrays; the mutex cannot move.
  RaycastTree(const RaycastTree&) = delete;
  RaycastTree& operator=(const RaycastTree&) = delete;
  // A moved world gets a stale, empty tree: the next raycast builds it anew.
  RaycastTree(RaycastTree&&) noexcept {}
  RaycastTree& operator=(RaycastTree&&) noexcept {
    invalidate();
    return *this;
  }

  /// Marks the tree stale: the next raycast rebuilds it.
  void invalidate() { valid_ = false; }
  /// Rebuilds the tree over `bodies` (tight boxes, no margin or sweep) unless
  /// it is current; safe to call from several threads at once. Throws
  /// pabd::Error naming the first body whose box is not finite.
  void update(const ShapePoseView& bodies);

  /// The tree over every non-plane body (valid after update()).
  const Lbvh& tree() const { return tree_; }
  /// The plane bodies, ascending.
  const std::vector<int>& planes() const { return planes_; }

 private:
  void build(const ShapePoseView& bodies);

  std::mutex mutex_;
  bool valid_ = false;
  std::vector<Aabb> box_;  ///< per body (empty boxes for planes)
  std::vector<int> planes_;
  std::vector<std::pair<std::uint64_t, int>> keys_;  ///< (Morton code, body) per leaf
  std::vector<std::uint64_t> code_;                  ///< sorted codes
  std::vector<int> leaf_body_;                       ///< body of each leaf
  std::vector<LbvhNode> nodes_;
  std::vector<int> parent_, visits_;
  Lbvh tree_;
};

}  // namespace pabd
