// Convex polytopes as the narrowphase sees them: a ConvexHullView is a few
// raw-pointer arrays (vertices; faces as counter-clockwise vertex loops with
// their edges; edges as vertex pairs), so the same kernels read a hull built
// on the host (src/shapes/convex_hull.*) or a copy in device memory. A box is a
// polytope too (BoxPolytope, built on the stack with the box numbering of
// shape_geometry.h), so box-hull reuses the hull-hull code.
//
// Also here: the GJK cores of a hull (support over its vertices) and of a
// triangle, the feature of a hull surface point (for contact feature ids) and
// the hull's exact world AABB.
#pragma once

#include <cmath>

#include "pabd/config.h"
#include "pabd/math.h"
#include "shapes/aabb.h"
#include "shapes/shape_feature.h"
#include "shapes/shape_geometry.h"

// The large narrowphase functions stay out of line in device code: inlined
// into one kernel, every pair function of the dispatcher kept nvcc busy for
// many minutes. On the host they are ordinary inline functions.
#if defined(__CUDACC__)
#define PABD_HD_NOINLINE __host__ __device__ __noinline__ inline
#else
#define PABD_HD_NOINLINE inline
#endif

namespace pabd {

/// A convex polytope in its body frame: what the kernels read (no ownership).
struct ConvexHullView {
  int vertex_count = 0;               ///< number of vertices
  const Vec3* vertex = nullptr;       ///< body frame [m]
  int face_count = 0;                 ///< number of faces
  const Vec3* face_normal = nullptr;  ///< outward unit normal per face
  const Real* face_offset = nullptr;  ///< face plane: normal . x = offset [m]
  const int* face_first = nullptr;    ///< face f's loop is [face_first[f], face_first[f + 1])
  const int* face_vertex = nullptr;   ///< vertex indices, counter-clockwise seen from outside
  const int* face_edge = nullptr;     ///< edge from face_vertex[k] to the loop's next vertex
  int edge_count = 0;                 ///< number of edges
  const int* edge_vertex = nullptr;   ///< two vertex indices per edge
  Real radius = 0;                    ///< largest |vertex| [m]
};

/// Most vertices a hull may have (feature ids hold 8-bit indices).
inline constexpr int kMaxHullVertices = 256;
/// Most vertices of one hull face (the clipping buffers are sized for it).
inline constexpr int kMaxHullFaceVertices = 64;

/// Number of vertices of face f.
PABD_HD int hull_face_size(const ConvexHullView& h, int f) {
  return h.face_first[f + 1] - h.face_first[f];
}

/// Index of the vertex farthest along body-frame direction d (lowest index on ties).
PABD_HD int hull_support_index(const ConvexHullView& h, Vec3 d) {
  int best = 0;
  Real best_dot = dot(h.vertex[0], d);
  for (int i = 1; i < h.vertex_count; ++i) {
    const Real x = dot(h.vertex[i], d);
    if (x > best_dot) {
      best_dot = x;
      best = i;
    }
  }
  return best;
}

/// Face whose outward normal is most aligned with body-frame direction d.
PABD_HD int hull_face_most_aligned(const ConvexHullView& h, Vec3 d) {
  int best = 0;
  Real best_dot = dot(h.face_normal[0], d);
  for (int f = 1; f < h.face_count; ++f) {
    const Real x = dot(h.face_normal[f], d);
    if (x > best_dot) {
      best_dot = x;
      best = f;
    }
  }
  return best;
}

/// Signed distance of a body-frame point to the hull's face planes: the largest
/// normal . p - offset (> 0 outside; inside it is minus the distance to the
/// nearest face). `face` receives the face that gives it.
PABD_HD Real hull_face_distance(const ConvexHullView& h, Vec3 p, int& face) {
  face = 0;
  Real best = dot(h.face_normal[0], p) - h.face_offset[0];
  for (int f = 1; f < h.face_count; ++f) {
    const Real s = dot(h.face_normal[f], p) - h.face_offset[f];
    if (s > best) {
      best = s;
      face = f;
    }
  }
  return best;
}

/// Feature of the hull at body-frame surface point p: a vertex within `tol` of
/// p, else an edge within `tol`, else the face whose plane is nearest.
PABD_HD_NOINLINE void hull_feature_at(const ConvexHullView& h, Vec3 p, Real tol, FeatureKind& kind,
                                      int& index) {
  const Real tol2 = tol * tol;
  for (int v = 0; v < h.vertex_count; ++v)
    if (length_squared(h.vertex[v] - p) <= tol2) {
      kind = FeatureKind::Vertex;
      index = v;
      return;
    }
  for (int e = 0; e < h.edge_count; ++e) {
    const Vec3 a = h.vertex[h.edge_vertex[2 * e]], b = h.vertex[h.edge_vertex[2 * e + 1]];
    if (length_squared(lerp(a, b, closest_on_segment(p, a, b)) - p) <= tol2) {
      kind = FeatureKind::Edge;
      index = e;
      return;
    }
  }
  int face = 0;
  Real best = 1e300;
  for (int f = 0; f < h.face_count; ++f) {
    const Real s = std::fabs(dot(h.face_normal[f], p) - h.face_offset[f]);
    if (s < best) {
      best = s;
      face = f;
    }
  }
  kind = FeatureKind::Face;
  index = face;
}

/// Exact world AABB of a hull at pose (c, R): per world axis, the extreme vertices.
PABD_HD Aabb hull_world_aabb(const ConvexHullView& h, Vec3 c, const Mat3& r) {
  Aabb box = empty_aabb();
  for (int v = 0; v < h.vertex_count; ++v) {
    const Vec3 p = r * h.vertex[v] + c;
    box.lo = componentwise_min(box.lo, p);
    box.hi = componentwise_max(box.hi, p);
  }
  return box;
}

// GJK cores ---------------------------------------------------------------------

/// A hull at a pose, for GJK/EPA (support over the vertices, world frame).
struct HullCore {
  const ConvexHullView* hull = nullptr;  ///< the polytope, body frame
  ShapePose pose;                        ///< where it is
  PABD_HD Vec3 support(Vec3 d) const {
    return to_world(pose,
                    hull->vertex[hull_support_index(*hull, transpose_times(pose.rotation, d))]);
  }
};

/// A triangle (world frame), for GJK.
struct TriangleCore {
  Vec3 v[3];  ///< corners [m]
  PABD_HD Vec3 support(Vec3 d) const {
    const Real a = dot(v[0], d), b = dot(v[1], d), c = dot(v[2], d);
    return a >= b ? (a >= c ? v[0] : v[2]) : (b >= c ? v[1] : v[2]);
  }
};

// A box as a polytope -------------------------------------------------------------

/// Storage for a box's polytope view (vertex v, edge e and face f numbered as
/// in shape_geometry.h). Build with make_box_polytope; the view points into it.
struct BoxPolytope {
  Vec3 vertex[8];
  Vec3 normal[6];
  Real offset[6];
  int face_first[7];
  int face_vertex[24];
  int face_edge[24];
  int edge_vertex[24];
};

/// Fills `b` with the box of half extents `half` and returns its view.
PABD_HD ConvexHullView make_box_polytope(Vec3 half, BoxPolytope& b) {
  for (int v = 0; v < 8; ++v) b.vertex[v] = box_vertex(half, v);
  for (int e = 0; e < 12; ++e) {
    const int axis = e / 4, j = (axis + 1) % 3, k = (axis + 2) % 3;
    const int v = (((e % 4) & 1) << j) | ((((e % 4) >> 1) & 1) << k);
    b.edge_vertex[2 * e] = v;
    b.edge_vertex[2 * e + 1] = v | (1 << axis);
  }
  // Face loops counter-clockwise about the outward normal: with p = axis + 1 and
  // q = axis + 2, e_p x e_q = e_axis, so (p, q) bits run 00, 10, 11, 01 on the + face.
  const int loop_p[4] = {0, 1, 1, 0}, loop_q[4] = {0, 0, 1, 1};
  for (int f = 0; f < 6; ++f) {
    const int axis = f / 2, p = (axis + 1) % 3, q = (axis + 2) % 3;
    const bool plus = f % 2 == 1;
    b.normal[f] = set_component(Vec3{}, axis, plus ? Real(1) : Real(-1));
    b.offset[f] = get(half, axis);
    b.face_first[f] = 4 * f;
    for (int k = 0; k < 4; ++k) {
      const int kk = plus ? k : (4 - k) % 4;  // the - face runs the other way
      b.face_vertex[4 * f + k] = (plus ? (1 << axis) : 0) | (loop_p[kk] << p) | (loop_q[kk] << q);
    }
    for (int k = 0; k < 4; ++k)
      b.face_edge[4 * f + k] =
          box_edge_between(b.face_vertex[4 * f + k], b.face_vertex[4 * f + (k + 1) % 4]);
  }
  b.face_first[6] = 24;
  ConvexHullView h;
  h.vertex_count = 8;
  h.vertex = b.vertex;
  h.face_count = 6;
  h.face_normal = b.normal;
  h.face_offset = b.offset;
  h.face_first = b.face_first;
  h.face_vertex = b.face_vertex;
  h.face_edge = b.face_edge;
  h.edge_count = 12;
  h.edge_vertex = b.edge_vertex;
  h.radius = length(half);
  return h;
}

}  // namespace pabd
