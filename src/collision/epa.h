// EPA (expanding polytope algorithm): penetration depth and direction of two
// overlapping convex cores, from the simplex GJK ends with (gjk.h).
//
// The Minkowski difference M = A - B contains the origin. EPA grows a polytope
// inside M, starting from a tetrahedron around the origin: it takes the face
// closest to the origin, adds M's support point along that face's outward
// normal, and replaces every face the new point sees by faces joining it to
// the horizon (the edges between seen and unseen faces). When the support
// point lies no farther out than the face itself (within kEpaTolerance times
// the polytope's size), that face is on M's boundary: its distance is the
// penetration depth, and its normal n the direction in which moving B by
// depth * n separates the cores (so n runs from A toward B).
//
// Fixed-size arrays, no allocation. Faces removed are compacted away each
// iteration. If GJK ended with fewer than four vertices (touching cores) the
// simplex is first completed to a tetrahedron with extra support points.
#pragma once

#include "collision/gjk.h"
#include "math/portable_trig.h"
#include "shapes/shape_geometry.h"

namespace pabd {

/// Most support points EPA adds.
inline constexpr int kEpaMaxIterations = 64;
/// Vertex capacity: the tetrahedron plus one per iteration.
inline constexpr int kEpaMaxVertices = kEpaMaxIterations + 4;
/// Face capacity: a closed triangle mesh of V vertices has 2 V - 4 faces.
inline constexpr int kEpaMaxFaces = 2 * kEpaMaxVertices;
/// Stop when the support point is this close (times the polytope size) to the face [-].
inline constexpr Real kEpaTolerance = Real(1e-12);

/// What EPA found.
struct EpaResult {
  bool valid = false;    ///< false when M is flat (no volume) or EPA ran out of room
  Real depth = 0;        ///< penetration depth of the cores [m]
  Vec3 normal{0, 1, 0};  ///< unit, from A toward B: moving B by depth * normal separates them
  Vec3 point_a;          ///< deepest point of A inside B [m]
  Vec3 point_b;          ///< deepest point of B inside A [m]; point_a - point_b = depth * normal
  int iterations = 0;    ///< support calls
};

/// A triangle of the polytope, wound counter-clockwise seen from outside.
struct EpaFace {
  int v[3];
  Vec3 normal;    ///< outward unit normal
  Real distance;  ///< normal . vertex: distance of the face plane from the origin
};

/// A face (i, j, k) with its plane; false if the triangle has no area.
PABD_HD bool make_epa_face(const SimplexVertex* verts, int i, int j, int k, EpaFace& f) {
  f.v[0] = i;
  f.v[1] = j;
  f.v[2] = k;
  const Vec3 n = cross(verts[j].w - verts[i].w, verts[k].w - verts[i].w);
  const Real len = length(n);
  if (!(len > 0)) return false;
  f.normal = (Real(1) / len) * n;
  f.distance = dot(f.normal, verts[i].w);
  return true;
}

/// Completes a GJK simplex (1 to 4 vertices around or touching the origin) to
/// a tetrahedron of non-zero volume; false if M is flat.
template <class CoreA, class CoreB>
PABD_HD bool complete_tetrahedron(const CoreA& a, const CoreB& b, Simplex& s, Real scale) {
  const Real eps = Real(1e-10) * scale;
  const Vec3 axes[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  // A second vertex: any support point away from the first.
  for (int k = 0; s.count == 1 && k < 6; ++k) {
    const SimplexVertex w = minkowski_support(a, b, axes[k]);
    if (length(w.w - s.v[0].w) > eps) s.v[s.count++] = w;
  }
  // A third: search around the line of the first two.
  if (s.count == 2) {
    const Vec3 e = normalized_or(s.v[1].w - s.v[0].w, Vec3{1, 0, 0});
    const Vec3 p = any_perpendicular(e), q = cross(e, p);
    for (int k = 0; k < 6 && s.count == 2; ++k) {
      const Real angle = Real(k) * Real(1.0471975511965976);  // 60 degrees
      Real sin_angle, cos_angle;  // pabd's own: the same bits on a device
      portable_sin_cos(angle, sin_angle, cos_angle);
      const Vec3 d = cos_angle * p + sin_angle * q;
      const SimplexVertex w = minkowski_support(a, b, d);
      if (length(cross(w.w - s.v[0].w, e)) > eps) s.v[s.count++] = w;
    }
  }
  // A fourth: off the plane of the first three.
  if (s.count == 3) {
    const Vec3 n = normalized_or(cross(s.v[1].w - s.v[0].w, s.v[2].w - s.v[0].w), Vec3{});
    SimplexVertex w = minkowski_support(a, b, n);
    if (std::fabs(dot(w.w - s.v[0].w, n)) <= eps) w = minkowski_support(a, b, -n);
    if (std::fabs(dot(w.w - s.v[0].w, n)) > eps) s.v[s.count++] = w;
  }
  if (s.count < 4) return false;
  const Vec3 o = s.v[0].w;
  return std::fabs(dot(cross(s.v[1].w - o, s.v[2].w - o), s.v[3].w - o)) > eps * scale * scale;
}

/// Penetration of overlapping cores a and b; `gjk` is gjk_distance's result
/// (with overlap == true).
template <class CoreA, class CoreB>
PABD_HD EpaResult epa_penetration(const CoreA& a, const CoreB& b, const GjkResult& gjk) {
  EpaResult r;
  Simplex s = gjk.simplex;
  Real scale = 0;
  for (int i = 0; i < s.count; ++i) scale = std::fmax(scale, length(s.v[i].w));
  for (int k = 0; k < 3; ++k) {
    const Vec3 e = set_component(Vec3{}, k, 1);
    scale = std::fmax(scale, length(minkowski_support(a, b, e).w - minkowski_support(a, b, -e).w));
  }
  if (!complete_tetrahedron(a, b, s, scale)) return r;

  SimplexVertex verts[kEpaMaxVertices];
  EpaFace faces[kEpaMaxFaces];
  int nv = 4, nf = 0;
  for (int i = 0; i < 4; ++i) verts[i] = s.v[i];
  // The tetrahedron's faces, each wound so that the opposite vertex is behind it.
  const int tet[4][4] = {{0, 1, 2, 3}, {0, 3, 1, 2}, {0, 2, 3, 1}, {1, 3, 2, 0}};
  for (int f = 0; f < 4; ++f) {
    int i = tet[f][0], j = tet[f][1], k = tet[f][2];
    const Vec3 n = cross(verts[j].w - verts[i].w, verts[k].w - verts[i].w);
    if (dot(n, verts[tet[f][3]].w - verts[i].w) > 0) {
      const int tmp = j;
      j = k;
      k = tmp;
    }
    if (!make_epa_face(verts, i, j, k, faces[nf])) return r;
    ++nf;
  }

  int best = 0;
  for (r.iterations = 0; r.iterations < kEpaMaxIterations; ++r.iterations) {
    // The face closest to the origin.
    best = 0;
    for (int f = 1; f < nf; ++f)
      if (faces[f].distance < faces[best].distance) best = f;
    const EpaFace closest = faces[best];
    const SimplexVertex w = minkowski_support(a, b, closest.normal);
    // The support point is no farther out than the face: it is on M's boundary.
    if (dot(w.w, closest.normal) - closest.distance <= kEpaTolerance * scale) break;
    if (nv == kEpaMaxVertices) break;
    const int wi = nv;
    verts[nv++] = w;

    // Remove every face the new point sees; collect the horizon edges (those
    // of removed faces whose twin edge belongs to a kept face).
    int edges[3 * kEpaMaxFaces][2];  // at most 3 per removed face
    int ne = 0;
    int kept = 0;
    for (int f = 0; f < nf; ++f) {
      const EpaFace& g = faces[f];
      if (dot(g.normal, w.w - verts[g.v[0]].w) <= 0) {
        faces[kept++] = g;
        continue;
      }
      for (int e = 0; e < 3; ++e) {
        const int p = g.v[e], q = g.v[(e + 1) % 3];
        int twin = -1;
        for (int t = 0; t < ne; ++t)
          if (edges[t][0] == q && edges[t][1] == p) twin = t;
        if (twin >= 0) {
          edges[twin][0] = edges[ne - 1][0];
          edges[twin][1] = edges[ne - 1][1];
          --ne;
        } else {
          edges[ne][0] = p;
          edges[ne][1] = q;
          ++ne;
        }
      }
    }
    nf = kept;
    // Join the horizon to the new point.
    bool full = false;
    for (int e = 0; e < ne; ++e) {
      if (nf == kEpaMaxFaces) {
        full = true;
        break;
      }
      if (make_epa_face(verts, edges[e][0], edges[e][1], wi, faces[nf])) ++nf;
    }
    if (full || nf == 0) return r;
  }
  best = 0;
  for (int f = 1; f < nf; ++f)
    if (faces[f].distance < faces[best].distance) best = f;
  const EpaFace& f = faces[best];
  // Barycentric weights of the origin's projection on the face.
  const Vec3 p = f.distance * f.normal;
  const Vec3 a0 = verts[f.v[0]].w, a1 = verts[f.v[1]].w, a2 = verts[f.v[2]].w;
  const Vec3 n = cross(a1 - a0, a2 - a0);
  const Real nn = dot(n, n);
  const Real w1 = dot(cross(p - a0, a2 - a0), n) / nn;
  const Real w2 = dot(cross(a1 - a0, p - a0), n) / nn;
  const Real w0 = 1 - w1 - w2;
  r.point_a = w0 * verts[f.v[0]].a + w1 * verts[f.v[1]].a + w2 * verts[f.v[2]].a;
  r.point_b = w0 * verts[f.v[0]].b + w1 * verts[f.v[1]].b + w2 * verts[f.v[2]].b;
  r.depth = f.distance;
  r.normal = f.normal;
  r.valid = true;
  return r;
}

}  // namespace pabd
