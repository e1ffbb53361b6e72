// Ray casts against one-sided triangles: a triangle, a height field and a
// triangle mesh, in the field's or mesh's own frame (conventions of
// ray_primitives.h: the ray o + t d, 0 <= t <= t_max, t in units of |d|).
//
// As for contacts (docs/collision.md), triangles are one-sided: a ray hits a
// triangle only from its front (counter-clockwise) side, and passes through
// from behind. So a ray starting below a height field or behind a mesh is not
// "inside" anything and never hits at t = 0 for that reason; it hits the next
// front face along it, if any.
//
// Ray-triangle is Moller and Trumbore (1997). Its barycentric coordinates are
// accepted within kRayTriangleSlack of the triangle, so that a ray through an
// edge or a vertex shared by triangles cannot slip between them when every
// one of them rounds it to just outside; it then hits several at the same t.
//
// A height field is walked cell by cell along the ray (a 2D DDA over the x, z
// grid, Amanatides and Woo 1987) inside the field's bounding box: a cell's
// triangles lie over the cell, so the first cell with a hit holds the nearest
// one. A mesh's BVH is traversed with a fixed stack, skipping nodes the ray
// enters beyond the nearest hit so far.
#pragma once

#include <cmath>

#include "collision/ray_primitives.h"
#include "pabd/config.h"
#include "pabd/math.h"
#include "shapes/heightfield_view.h"
#include "shapes/triangle_mesh_view.h"

namespace pabd {

/// How far outside a triangle (in barycentric units) a ray still hits it [-]:
/// tens of rounding errors of a ray that is not nearly parallel to the
/// triangle, and a negligible 1e-10 of the triangle's size otherwise.
inline constexpr Real kRayTriangleSlack = Real(1e-10);

/// Ray against the front side of triangle (v0, v1, v2), counter-clockwise seen
/// from the front: the ray parameter t in [0, t_max] of the hit, or false.
PABD_HD bool ray_triangle(Vec3 o, Vec3 d, Vec3 v0, Vec3 v1, Vec3 v2, Real t_max, Real& t) {
  const Vec3 e1 = v1 - v0, e2 = v2 - v0;
  const Vec3 p = cross(d, e2);
  // det = -d . (e1 x e2): > 0 exactly when the ray meets the front face.
  const Real det = dot(e1, p);
  if (!(det > 0)) return false;
  const Vec3 s = o - v0;
  const Real u = dot(s, p) / det;
  if (u < -kRayTriangleSlack || u > 1 + kRayTriangleSlack) return false;
  const Vec3 q = cross(s, e1);
  const Real v = dot(d, q) / det;
  if (v < -kRayTriangleSlack || u + v > 1 + kRayTriangleSlack) return false;
  const Real hit_t = dot(e2, q) / det;
  if (hit_t < 0 || hit_t > t_max) return false;
  t = hit_t;
  return true;
}

/// Ray against the upper (front) side of a height field's surface.
PABD_HD bool ray_height_field(const HeightFieldView& h, Vec3 o, Vec3 d, Real t_max,
                              LocalRayHit& hit) {
  // The part of the ray inside the field's bounding box.
  const Aabb bounds = height_field_bounds(h);
  Real t_in = 0, t_out = t_max;
  int axis = -1;
  if (!clip_ray_to_box(o, d, bounds.lo, bounds.hi, t_in, t_out, axis)) return false;
  // The cell where it enters, and the parameters of the next grid lines in x and z.
  const Vec3 start = o + t_in * d;
  const int last_c = h.columns - 2, last_r = h.rows - 2;
  int c = static_cast<int>(clamp_real(std::floor((start.x - h.x0) / h.spacing_x), 0, last_c));
  int r = static_cast<int>(clamp_real(std::floor((start.z - h.z0) / h.spacing_z), 0, last_r));
  const Real never = Real(1e300);
  const int step_c = d.x > 0 ? 1 : (d.x < 0 ? -1 : 0);
  const int step_r = d.z > 0 ? 1 : (d.z < 0 ? -1 : 0);
  Real next_x = never, next_z = never, every_x = never, every_z = never;
  if (step_c != 0) {
    next_x = (h.x0 + Real(c + (step_c > 0 ? 1 : 0)) * h.spacing_x - o.x) / d.x;
    every_x = h.spacing_x / std::fabs(d.x);
  }
  if (step_r != 0) {
    next_z = (h.z0 + Real(r + (step_r > 0 ? 1 : 0)) * h.spacing_z - o.z) / d.z;
    every_z = h.spacing_z / std::fabs(d.z);
  }
  for (;;) {
    // This cell's two triangles; the nearer hit of the first cell with one.
    bool found = false;
    Real best = t_max;
    const int cell = r * (h.columns - 1) + c;
    for (int k = 0; k < 2; ++k) {
      Vec3 v[3], normal;
      height_field_corners(h, 2 * cell + k, v, normal);
      Real t;
      if (ray_triangle(o, d, v[0], v[1], v[2], best, t) && (!found || t < best)) {
        hit = LocalRayHit{t, normal};
        best = t;
        found = true;
      }
    }
    if (found) return true;
    // On to the cell across the nearer grid line, while the ray is in the box.
    if (next_x < next_z) {
      if (next_x > t_out) return false;
      c += step_c;
      next_x += every_x;
    } else {
      if (next_z > t_out) return false;
      r += step_r;
      next_z += every_z;
    }
    if (c < 0 || c > last_c || r < 0 || r > last_r) return false;
  }
}

/// Ray against the front sides of a triangle mesh's triangles.
PABD_HD bool ray_triangle_mesh(const TriangleMeshView& m, Vec3 o, Vec3 d, Real t_max,
                               LocalRayHit& hit) {
  if (m.node_count == 0) return false;
  bool found = false;
  Real best = t_max;
  int stack[kMeshBvhStack];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const MeshBvhNode& n = m.node[stack[--top]];
    Real t0 = 0, t1 = best;
    int axis = -1;
    if (!clip_ray_to_box(o, d, n.box.lo, n.box.hi, t0, t1, axis)) continue;
    if (n.count == 0) {
      if (top + 2 <= kMeshBvhStack) {  // the depth bound (triangle_mesh_view.h) keeps it so
        stack[top++] = n.first + 1;
        stack[top++] = n.first;
      }
      continue;
    }
    for (int k = 0; k < n.count; ++k) {
      const int tri = m.node_triangle[n.first + k];
      const int* vi = m.triangle_vertex + 3 * tri;
      Real t;
      if (ray_triangle(o, d, m.vertex[vi[0]], m.vertex[vi[1]], m.vertex[vi[2]], best, t) &&
          (!found || t < best)) {
        hit = LocalRayHit{t, m.triangle_normal[tri]};
        best = t;
        found = true;
      }
    }
  }
  return found;
}

}  // namespace pabd
