// Nearest-hit ray traversal of a linear BVH (lbvh_build.h): the bodies whose
// boxes the ray o + t d, 0 <= t <= limit, passes through, nearest box first,
// each handed to a caller's test that may lower the limit (its nearest hit so
// far). A node the ray enters beyond the limit is skipped, so once a hit is
// found only the boxes that could hold a nearer one are opened.
//
// Depth first with a fixed stack: at an internal node both children's boxes
// are clipped, the nearer one is entered and the farther one pushed with its
// entry parameter (skipped on pop when the limit has dropped below it). One
// entry is pushed per internal level of the current path, which has at most
// 95 internal nodes (lbvh_build.h), so kLbvhStackSize entries never overflow.
//
// A box entered exactly at the limit is still opened: the caller keeps the
// lower body index on equal distances, and the tree must not hide it.
#pragma once

#include "collision/lbvh_build.h"
#include "collision/lbvh_traverse.h"
#include "collision/ray_primitives.h"

namespace pabd {

/// Entry parameter of the ray into node `id`'s box within [0, limit], or false.
PABD_HD bool lbvh_ray_enters(const Lbvh& t, int id, Vec3 o, Vec3 d, Real limit, Real& enter) {
  const Aabb& box = t.node[id].box;
  Real t0 = 0, t1 = limit;
  int axis = -1;
  if (!clip_ray_to_box(o, d, box.lo, box.hi, t0, t1, axis)) return false;
  enter = t0;
  return true;
}

/// Calls test(body, limit) for every body whose box the ray meets within
/// [0, limit], nearest box first; test may lower `limit` (a Real&) to the
/// distance of a hit it keeps.
template <class Test>
PABD_HD void lbvh_raycast(const Lbvh& t, Vec3 o, Vec3 d, Real& limit, Test& test) {
  const int n = t.leaf_count;
  if (n == 0) return;
  Real enter = 0;
  if (!lbvh_ray_enters(t, 0, o, d, limit, enter)) return;
  if (n == 1) {  // node 0 is the lone leaf
    test(t.node[0].max_body, limit);
    return;
  }
  int stack[kLbvhStackSize];
  Real stack_enter[kLbvhStackSize];
  int top = 0;
  int id = 0;
  for (;;) {
    // At an internal node: clip both children, test leaves, descend.
    int next[2];
    Real next_enter[2];
    int count = 0;
    for (int k = 0; k < 2; ++k) {
      const int child = t.node[id].child[k];
      Real e;
      if (!lbvh_ray_enters(t, child, o, d, limit, e)) continue;
      if (child >= n - 1) {  // a leaf: its max_body is its body
        test(t.node[child].max_body, limit);
        continue;
      }
      next[count] = child;
      next_enter[count++] = e;
    }
    if (count == 2) {
      const int near = next_enter[1] < next_enter[0] ? 1 : 0;
      stack[top] = next[1 - near];
      stack_enter[top++] = next_enter[1 - near];
      id = next[near];
      continue;
    }
    if (count == 1) {
      id = next[0];
      continue;
    }
    // Nothing to descend into: the next pushed node the ray may still reach first.
    for (;;) {
      if (top == 0) return;
      --top;
      if (stack_enter[top] <= limit) break;
    }
    id = stack[top];
  }
}

}  // namespace pabd
