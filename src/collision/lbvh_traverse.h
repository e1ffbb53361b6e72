// Per-body queries of the LBVH: the bodies j > i whose boxes overlap body i's.
//
// Each body traverses the tree on its own (one thread per leaf, in leaf order:
// neighbouring queries walk the same nodes: 2.2x faster than body order on a
// uniform scene with random body indices), depth first with a fixed-size
// stack: at an internal node it tests both children, reports
// overlapping leaves, descends into one overlapping internal child and pushes
// the other. The stack then holds at most one node per internal level of the
// current path, and a path has at most 95 internal nodes (lbvh_build.h), so
// 96 entries never overflow.
//
// Only pairs i < j are wanted, and no static-static pair: every node keeps the
// largest body index below it, and the largest dynamic body index below it. A
// subtree is skipped when that bound (the dynamic one for a static query) is
// <= i. For a leaf the same test is exactly "j > i and not both static".
//
// The output is written in two passes: the first counts each body's pairs and
// keeps the first few in a small per-body cache; after an exclusive prefix sum
// of the counts, the second copies the cache into the body's slice of the
// output, or traverses again when the cache was too small. A slice is then
// sorted by j, so the output is sorted by (i, j) whatever the thread count.
#pragma once

#include "collision/broadphase_pairs.h"
#include "collision/lbvh_build.h"
#include "shapes/aabb.h"
#include "shapes/body_aabb.h"

namespace pabd {

/// Stack entries of the traversal (see the depth bound above).
inline constexpr int kLbvhStackSize = 96;

/// Pairs per body kept from the counting pass (most bodies have fewer).
inline constexpr int kPairCache = 8;

/// Bodies j > body overlapping `query` (skipping static-static pairs): returns
/// how many, and writes the first `capacity` of them as {body, j} to out.
PABD_HD int lbvh_find_overlaps(const Lbvh& t, int body, bool body_static, const Aabb& query,
                               BodyPair* out, int capacity) {
  const int n = t.leaf_count;
  if (n < 2) return 0;
  // The subtree bound that must exceed `body` for a pair to be below.
  auto bound = [body_static](const LbvhNode& x) {
    return body_static ? x.max_dynamic_body : x.max_body;
  };
  int stack[kLbvhStackSize];
  int top = 0;
  int found = 0;
  int id = 0;  // the root; n >= 2, so it is internal
  if (bound(t.node[id]) <= body || !aabb_overlap(query, t.node[id].box)) return 0;
  for (;;) {
    const int a = t.node[id].child[0], b = t.node[id].child[1];
    const LbvhNode& na = t.node[a];
    const LbvhNode& nb = t.node[b];
    const bool hit_a = bound(na) > body && aabb_overlap(query, na.box);
    const bool hit_b = bound(nb) > body && aabb_overlap(query, nb.box);
    const bool leaf_a = a >= n - 1, leaf_b = b >= n - 1;
    // Report overlapping leaves (a leaf's max_body is its body).
    if (hit_a && leaf_a) {
      if (found < capacity) out[found] = BodyPair{body, na.max_body};
      ++found;
    }
    if (hit_b && leaf_b) {
      if (found < capacity) out[found] = BodyPair{body, nb.max_body};
      ++found;
    }
    // Descend into overlapping internal children; pop when there is none.
    const bool go_a = hit_a && !leaf_a, go_b = hit_b && !leaf_b;
    if (go_a && go_b) {
      stack[top++] = b;
      id = a;
    } else if (go_a) {
      id = a;
    } else if (go_b) {
      id = b;
    } else {
      if (top == 0) break;
      id = stack[--top];
    }
  }
  return found;
}

/// Sifts p[root] down within the max-heap p[0 .. end), ordered by second body.
PABD_HD void sift_down_by_second(BodyPair* p, int root, int end) {
  for (;;) {
    int child = 2 * root + 1;
    if (child >= end) return;
    if (child + 1 < end && p[child].b < p[child + 1].b) ++child;
    if (!(p[root].b < p[child].b)) return;
    const BodyPair tmp = p[root];
    p[root] = p[child];
    p[child] = tmp;
    root = child;
  }
}

/// Sorts pairs[0 .. count) by their second body (heap sort: no allocation,
/// O(count log count) even for a body that overlaps everything).
PABD_HD void sort_pairs_by_second(BodyPair* p, int count) {
  for (int start = count / 2 - 1; start >= 0; --start) sift_down_by_second(p, start, count);
  for (int end = count - 1; end > 0; --end) {
    const BodyPair tmp = p[0];
    p[0] = p[end];
    p[end] = tmp;
    sift_down_by_second(p, 0, end);
  }
}

/// Planes whose solid side body's box reaches (skipping static bodies: planes
/// are static): counts them, and when out is not null writes {body, plane}.
PABD_HD int planes_reached(const Aabb& box, int body, bool body_static, const int* plane_body,
                           const WorldPlane* plane, int plane_count, PlanePair* out) {
  if (body_static) return 0;
  int found = 0;
  for (int p = 0; p < plane_count; ++p) {
    if (!aabb_reaches_plane(box, plane[p])) continue;
    if (out) out[found] = PlanePair{body, plane_body[p]};
    ++found;
  }
  return found;
}

}  // namespace pabd
