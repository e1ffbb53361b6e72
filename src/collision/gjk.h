// GJK distance between two convex cores given by support functions.
//
// Works on the Minkowski difference M = A - B (support s_M(d) = s_A(d) -
// s_B(-d)): the distance between A and B is the distance from the origin to
// M. Each iteration keeps a simplex of at most 4 points of M, finds its point
// v closest to the origin (reducing the simplex to the smallest face holding
// v), and adds the support point w = s_M(-v). It stops when w brings v no
// closer (|v|^2 - v . w <= kGjkRelativeTolerance |v|^2), when v reaches the
// origin, or when the simplex is a tetrahedron around the origin (overlap;
// the simplex then seeds EPA, epa.h). For polytope cores (point, segment,
// box, later convex hulls) it ends after finitely many steps with the exact
// distance up to rounding.
//
// A core is any type with `Vec3 support(Vec3 d) const` (shape_geometry.h has
// PointCore, SegmentCore, BoxCore). Round shapes are a core plus a radius:
// their distance is the cores' distance minus both radii, which keeps GJK on
// polytopes (exact termination) instead of curved surfaces.
#pragma once

#include "shapes/shape_geometry.h"

namespace pabd {

/// Most support points GJK adds after the first.
inline constexpr int kGjkMaxIterations = 64;
/// Converged when |v|^2 - v . w <= this times |v|^2 [-].
inline constexpr Real kGjkRelativeTolerance = Real(1e-12);

/// A point of the Minkowski difference with the support points it came from.
struct SimplexVertex {
  Vec3 w;  ///< a - b
  Vec3 a;  ///< support point of A [m]
  Vec3 b;  ///< support point of B [m]
};

/// Up to four vertices and the barycentric weights of the closest point.
struct Simplex {
  SimplexVertex v[4];
  Real weight[4] = {0, 0, 0, 0};
  int count = 0;
};

/// What GJK found.
struct GjkResult {
  bool overlap = false;  ///< the cores intersect (or touch within rounding)
  Real distance = 0;     ///< distance between the cores [m] (0 on overlap)
  Vec3 point_a;          ///< closest point of A [m]
  Vec3 point_b;          ///< closest point of B [m]
  int iterations = 0;    ///< support calls after the first
  Simplex simplex;       ///< final simplex (seeds EPA on overlap)
};

/// Support vertex of M = A - B in direction d.
template <class CoreA, class CoreB>
PABD_HD SimplexVertex minkowski_support(const CoreA& a, const CoreB& b, Vec3 d) {
  SimplexVertex s;
  s.a = a.support(d);
  s.b = b.support(-d);
  s.w = s.a - s.b;
  return s;
}

/// Keeps vertices `keep` (indices into s.v) with the given weights.
PABD_HD void simplex_keep(Simplex& s, int n, const int* keep, const Real* weights) {
  SimplexVertex v[4];
  for (int i = 0; i < n; ++i) v[i] = s.v[keep[i]];
  for (int i = 0; i < n; ++i) {
    s.v[i] = v[i];
    s.weight[i] = weights[i];
  }
  s.count = n;
}

/// Closest point to the origin on triangle (i, j, k) of the simplex: weights
/// and the vertices of the smallest face holding it (Voronoi regions).
PABD_HD int closest_on_triangle(const Simplex& s, int i, int j, int k, int* keep, Real* weight) {
  const Vec3 a = s.v[i].w, b = s.v[j].w, c = s.v[k].w;
  const Vec3 ab = b - a, ac = c - a;
  // Vertex region of a.
  const Real d1 = -dot(ab, a), d2 = -dot(ac, a);
  if (d1 <= 0 && d2 <= 0) {
    keep[0] = i;
    weight[0] = 1;
    return 1;
  }
  // Vertex region of b.
  const Real d3 = -dot(ab, b), d4 = -dot(ac, b);
  if (d3 >= 0 && d4 <= d3) {
    keep[0] = j;
    weight[0] = 1;
    return 1;
  }
  // Edge region ab.
  const Real vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const Real t = d1 / (d1 - d3);
    keep[0] = i;
    keep[1] = j;
    weight[0] = 1 - t;
    weight[1] = t;
    return 2;
  }
  // Vertex region of c.
  const Real d5 = -dot(ab, c), d6 = -dot(ac, c);
  if (d6 >= 0 && d5 <= d6) {
    keep[0] = k;
    weight[0] = 1;
    return 1;
  }
  // Edge region ac.
  const Real vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const Real t = d2 / (d2 - d6);
    keep[0] = i;
    keep[1] = k;
    weight[0] = 1 - t;
    weight[1] = t;
    return 2;
  }
  // Edge region bc.
  const Real va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const Real t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    keep[0] = j;
    keep[1] = k;
    weight[0] = 1 - t;
    weight[1] = t;
    return 2;
  }
  // Face region.
  const Real inv = Real(1) / (va + vb + vc);
  keep[0] = i;
  keep[1] = j;
  keep[2] = k;
  weight[1] = vb * inv;
  weight[2] = vc * inv;
  weight[0] = 1 - weight[1] - weight[2];
  return 3;
}

/// Point of the simplex closest to the origin; reduces the simplex to the
/// face holding it. Returns false when the origin is inside a tetrahedron.
PABD_HD bool solve_simplex(Simplex& s, Vec3& closest) {
  int keep[4] = {0, 1, 2, 3};
  Real weight[4] = {1, 0, 0, 0};
  int n = 1;
  if (s.count == 1) {
    n = 1;
  } else if (s.count == 2) {
    const Vec3 a = s.v[0].w, ab = s.v[1].w - s.v[0].w;
    const Real len2 = dot(ab, ab);
    const Real t = len2 > 0 ? -dot(a, ab) / len2 : Real(0);
    if (t <= 0) {
      n = 1;
    } else if (t >= 1) {
      n = 1;
      keep[0] = 1;
    } else {
      n = 2;
      weight[0] = 1 - t;
      weight[1] = t;
    }
  } else if (s.count == 3) {
    n = closest_on_triangle(s, 0, 1, 2, keep, weight);
  } else {
    // Tetrahedron: the closest point lies on a face that separates the origin
    // from the opposite vertex; if no face does, the origin is inside.
    const int faces[4][4] = {{0, 1, 2, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {1, 3, 2, 0}};
    const Vec3 a = s.v[0].w;
    const Real volume = dot(cross(s.v[1].w - a, s.v[2].w - a), s.v[3].w - a);
    Real scale = 0;
    for (int i = 1; i < 4; ++i) scale = std::fmax(scale, length(s.v[i].w - a));
    const bool flat = std::fabs(volume) <= Real(1e-12) * scale * scale * scale;
    Real best = -1;
    bool any_outside = false;
    for (int f = 0; f < 4; ++f) {
      const Vec3 p = s.v[faces[f][0]].w, q = s.v[faces[f][1]].w, r = s.v[faces[f][2]].w;
      const Vec3 o = s.v[faces[f][3]].w;
      const Vec3 nrm = cross(q - p, r - p);
      const bool outside = flat || dot(nrm, -p) * dot(nrm, o - p) < 0;
      if (!outside) continue;
      any_outside = true;
      int fk[3];
      Real fw[3];
      const int fn = closest_on_triangle(s, faces[f][0], faces[f][1], faces[f][2], fk, fw);
      Vec3 c;
      for (int i = 0; i < fn; ++i) c += fw[i] * s.v[fk[i]].w;
      const Real d2 = dot(c, c);
      if (best < 0 || d2 < best) {
        best = d2;
        n = fn;
        for (int i = 0; i < fn; ++i) {
          keep[i] = fk[i];
          weight[i] = fw[i];
        }
      }
    }
    if (!any_outside) {
      for (int i = 0; i < 4; ++i) s.weight[i] = Real(0.25);  // any point inside will do
      closest = Vec3{};
      return false;
    }
  }
  simplex_keep(s, n, keep, weight);
  closest = Vec3{};
  for (int i = 0; i < s.count; ++i) closest += s.weight[i] * s.v[i].w;
  return true;
}

/// GJK distance between cores a and b, starting from direction `guess`
/// (e.g. the centre of B minus the centre of A; any non-zero vector works).
template <class CoreA, class CoreB>
PABD_HD GjkResult gjk_distance(const CoreA& a, const CoreB& b, Vec3 guess) {
  GjkResult r;
  Simplex& s = r.simplex;
  const Vec3 d0 = length_squared(guess) > 0 ? guess : Vec3{1, 0, 0};
  s.v[0] = minkowski_support(a, b, d0);  // M's side that faces the origin
  s.weight[0] = 1;
  s.count = 1;
  Vec3 v = s.v[0].w;
  Real scale = length(v);
  for (r.iterations = 1; r.iterations <= kGjkMaxIterations; ++r.iterations) {
    const Real vv = dot(v, v);
    // The closest point reached the origin (touching within rounding).
    if (vv <= Real(1e-24) * scale * scale) {
      r.overlap = true;
      break;
    }
    const SimplexVertex w = minkowski_support(a, b, -v);
    scale = std::fmax(scale, length(w.w));
    // No support point lies closer than v: v is the closest point of M.
    if (vv - dot(v, w.w) <= kGjkRelativeTolerance * vv) break;
    bool repeated = false;
    for (int i = 0; i < s.count; ++i)
      if (length_squared(s.v[i].w - w.w) == 0) repeated = true;
    if (repeated) break;
    const Simplex before = s;
    s.v[s.count++] = w;
    Vec3 next;
    if (!solve_simplex(s, next)) {
      r.overlap = true;
      break;
    }
    // Rounding can stall the descent: keep the better simplex and stop.
    if (dot(next, next) >= vv) {
      s = before;
      break;
    }
    v = next;
  }
  Vec3 pa, pb;
  for (int i = 0; i < s.count; ++i) {
    pa += s.weight[i] * s.v[i].a;
    pb += s.weight[i] * s.v[i].b;
  }
  r.point_a = pa;
  r.point_b = pb;
  r.distance = r.overlap ? Real(0) : length(v);
  return r;
}

}  // namespace pabd
