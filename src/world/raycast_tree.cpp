// Building World::raycast's tree (see raycast_tree.h): tight boxes, Morton
// codes of their centres, a sort by (code, body), then Karras's internal
// nodes and the bottom-up refit of collision/lbvh_build.h, all on the calling
// thread (a raycast may itself run on one of the user's threads).
#include "world/raycast_tree.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "collision/morton.h"

namespace pabd {

namespace {

/// Each box is grown by this fraction of its largest coordinate's magnitude
/// (plus one metre) [-]: its corners and a ray's slab test are each rounded by
/// a few ulps (1e-16 relative), so a ray that grazes a face of the shape in
/// the body frame could miss the box by as much; 1e-9 is far above that and
/// far below any shape's size.
constexpr Real kBoxSlack = Real(1e-9);

/// The box grown by kBoxSlack of its scale.
Aabb padded(const Aabb& b) {
  Real scale = 1;
  for (int i = 0; i < 3; ++i)
    scale = std::max({scale, std::fabs(get(b.lo, i)), std::fabs(get(b.hi, i))});
  return aabb_fatten(b, kBoxSlack * scale);
}

}  // namespace

void RaycastTree::update(const ShapePoseView& bodies) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (valid_) return;
  build(bodies);
  valid_ = true;
}

void RaycastTree::build(const ShapePoseView& v) {
  const int n = v.count;
  // Tight boxes of the tree bodies and the bounds of their centres; planes apart.
  box_.assign(n, empty_aabb());
  planes_.clear();
  leaf_body_.clear();
  Aabb centres = empty_aabb();
  for (int i = 0; i < n; ++i) {
    if (v.shape[i].type == ShapeType::Plane) {
      planes_.push_back(i);
      continue;
    }
    const Aabb b = shape_aabb(v.shape[i], v.position[i], v.rotation[i]);
    if (!aabb_valid(b))
      throw Error("raycast: body " + std::to_string(i) + ": expected a finite AABB");
    box_[i] = padded(b);
    leaf_body_.push_back(i);
    const Vec3 c = aabb_center(b);
    centres = aabb_union(centres, Aabb{c, c});
  }
  // Leaves sorted by (Morton code, body): distinct keys, as lbvh_build.h needs.
  const int m = static_cast<int>(leaf_body_.size());
  keys_.resize(m);
  for (int k = 0; k < m; ++k)
    keys_[k] = {morton_code(aabb_center(box_[leaf_body_[k]]), centres), leaf_body_[k]};
  std::sort(keys_.begin(), keys_.end());
  code_.resize(m);
  for (int k = 0; k < m; ++k) {
    code_[k] = keys_[k].first;
    leaf_body_[k] = keys_[k].second;
  }
  // Internal nodes, then the refit (serial: each node's second arrival is the later leaf).
  const std::size_t nodes = m > 0 ? std::size_t(2 * m - 1) : 0;
  nodes_.resize(nodes);
  parent_.resize(nodes);
  visits_.resize(m > 1 ? std::size_t(m - 1) : 0);
  tree_.leaf_count = m;
  tree_.code = code_.data();
  tree_.leaf_body = leaf_body_.data();
  tree_.node = nodes_.data();
  tree_.parent = parent_.data();
  tree_.visits = visits_.data();
  if (m == 1) tree_.parent[0] = -1;  // a lone leaf is the root
  for (int i = 0; i + 1 < m; ++i) lbvh_build_internal_node(tree_, i);
  for (int k = 0; k < m; ++k) lbvh_refit_from_leaf(tree_, box_.data(), nullptr, k);
}

}  // namespace pabd
