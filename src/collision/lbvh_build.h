// Linear BVH construction after Karras 2012, "Maximizing parallelism in the
// construction of BVHs, octrees, and k-d trees" (HPG 2012), Section 4.
//
// The leaves are the bodies sorted by Morton code. With n leaves there are
// n - 1 internal nodes, and internal node i covers a range of leaves that
// starts or ends at leaf i. Each internal node finds its range and its split
// on its own, from the codes only, so all nodes are built in parallel:
//   - direction d: towards the neighbour sharing the longer common prefix;
//   - the other end j: exponential then binary search for the farthest leaf
//     whose common prefix with i is longer than that with leaf i - d;
//   - the split: binary search for the last leaf sharing more than the
//     range's common prefix delta(i, j) with i.
// delta(i, j) is the length of the common prefix of the keys (code, index):
// equal codes (bodies at one point) fall back to the prefix of the indices,
// so every key is distinct and the tree is well formed.
//
// Node ids: internal nodes are 0 .. n-2 (node 0 is the root), leaf k is node
// n - 1 + k. With one leaf, node 0 is that leaf.
//
// Depth bound: an internal node's prefix delta is strictly longer than its
// parent's (the parent split its range at bit delta, so each child's keys
// share that bit too). Codes use 63 of 64 bits, so delta of distinct codes is
// in [1, 63]; of equal codes, 64 + clz32(i ^ j) is in [65, 95] for indices
// below 2^31. A root-to-leaf path therefore passes at most 95 internal nodes.
//
// Refit is bottom up: each leaf walks towards the root; at each internal node
// the first child to arrive stops (atomic visit counter) and the second one
// computes the union of both children. min/max is exact, so the boxes do not
// depend on which child arrives last.
#pragma once

#include <cstdint>

#include "shapes/aabb.h"

#if !defined(__CUDA_ARCH__)
#include <atomic>
#endif

namespace pabd {

/// One tree node, one 64-byte cache line: what a traversal reads when it
/// tests the node and descends into it.
struct alignas(64) LbvhNode {
  Aabb box;                   ///< union of the boxes below [m]
  int max_body = -1;          ///< largest body index below (a leaf: its body)
  int max_dynamic_body = -1;  ///< largest dynamic body index below, or -1
  int child[2] = {-1, -1};    ///< internal node: left and right child node ids
};

/// The tree as plain arrays (the Broadphase owns the storage).
struct Lbvh {
  int leaf_count = 0;                   ///< n (bodies in the tree)
  const std::uint64_t* code = nullptr;  ///< sorted Morton codes, one per leaf
  const int* leaf_body = nullptr;       ///< body index of leaf k
  LbvhNode* node = nullptr;             ///< node id -> node (2n - 1)
  int* parent = nullptr;                ///< node id -> parent id, -1 for the root (2n - 1)
  int* visits = nullptr;                ///< internal node -> refit arrivals (n - 1)
};

/// Number of leading zero bits of a non-zero 64-bit integer.
PABD_HD int count_leading_zeros64(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __clzll(static_cast<long long>(x));
#else
  return __builtin_clzll(x);
#endif
}

/// Number of leading zero bits of a non-zero 32-bit integer.
PABD_HD int count_leading_zeros32(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __clz(static_cast<int>(x));
#else
  return __builtin_clz(x);
#endif
}

/// Common prefix length of the keys (code, index) of leaves i and j; -1 when
/// j is outside [0, n).
PABD_HD int lbvh_delta(const std::uint64_t* code, int n, int i, int j) {
  if (j < 0 || j >= n) return -1;
  const std::uint64_t a = code[i], b = code[j];
  if (a != b) return count_leading_zeros64(a ^ b);
  return 64 + count_leading_zeros32(static_cast<std::uint32_t>(i) ^ static_cast<std::uint32_t>(j));
}

/// Builds internal node i (0 <= i < n - 1): its children and their parent
/// links; resets the node's refit counter.
PABD_HD void lbvh_build_internal_node(const Lbvh& t, int i) {
  const int n = t.leaf_count;
  const std::uint64_t* code = t.code;
  // Direction of the range: towards the neighbour with the longer prefix.
  const int d = lbvh_delta(code, n, i, i + 1) > lbvh_delta(code, n, i, i - 1) ? 1 : -1;
  // Upper bound for the range length, then the other end j by binary search.
  const int delta_min = lbvh_delta(code, n, i, i - d);
  int l_max = 2;
  while (lbvh_delta(code, n, i, i + l_max * d) > delta_min) l_max *= 2;
  int l = 0;
  for (int step = l_max / 2; step >= 1; step /= 2)
    if (lbvh_delta(code, n, i, i + (l + step) * d) > delta_min) l += step;
  const int j = i + l * d;
  // Split: the last leaf (from i towards j) sharing more than delta(i, j) with i.
  const int delta_node = lbvh_delta(code, n, i, j);
  int s = 0;
  for (int div = 2;; div *= 2) {
    const int step = (l + div - 1) / div;
    if (lbvh_delta(code, n, i, i + (s + step) * d) > delta_node) s += step;
    if (step <= 1) break;
  }
  const int split = i + s * d + (d < 0 ? -1 : 0);
  // Children: a leaf when the child's range is a single leaf.
  const int lo = i < j ? i : j, hi = i < j ? j : i;
  const int left = lo == split ? n - 1 + split : split;
  const int right = hi == split + 1 ? n - 1 + split + 1 : split + 1;
  t.node[i].child[0] = left;
  t.node[i].child[1] = right;
  t.parent[left] = i;
  t.parent[right] = i;
  t.visits[i] = 0;
  if (i == 0) t.parent[0] = -1;
}

/// Atomically adds one to *counter and returns its previous value; orders the
/// caller's earlier writes before, and the other arrival's writes after, it.
PABD_HD int lbvh_arrive(int* counter) {
#if defined(__CUDA_ARCH__)
  __threadfence();
  const int previous = atomicAdd(counter, 1);
  __threadfence();
  return previous;
#else
  return std::atomic_ref<int>(*counter).fetch_add(1, std::memory_order_acq_rel);
#endif
}

/// Refit from leaf k (0 <= k < n): stores the leaf's box and walks up while
/// this is the second child to arrive. body_box and is_static (null = none
/// static) are indexed by body.
PABD_HD void lbvh_refit_from_leaf(const Lbvh& t, const Aabb* body_box,
                                  const std::uint8_t* is_static, int k) {
  int id = t.leaf_count - 1 + k;
  const int body = t.leaf_body[k];
  LbvhNode& leaf = t.node[id];
  leaf.box = body_box[body];
  leaf.max_body = body;
  leaf.max_dynamic_body = is_static && is_static[body] ? -1 : body;
  leaf.child[0] = leaf.child[1] = -1;
  int p = t.parent[id];
  while (p >= 0) {
    if (lbvh_arrive(&t.visits[p]) == 0) return;  // the sibling's walk finishes p
    LbvhNode& n = t.node[p];
    const LbvhNode& a = t.node[n.child[0]];
    const LbvhNode& b = t.node[n.child[1]];
    n.box = aabb_union(a.box, b.box);
    n.max_body = a.max_body > b.max_body ? a.max_body : b.max_body;
    n.max_dynamic_body =
        a.max_dynamic_body > b.max_dynamic_body ? a.max_dynamic_body : b.max_dynamic_body;
    p = t.parent[p];
  }
}

}  // namespace pabd
