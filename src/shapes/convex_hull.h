// Convex hull of a point list: built with qhull (reentrant API), stored as
// plain arrays for the kernels (ConvexHullView, src/shapes/convex_polytope.h),
// with exact mass properties from a tetrahedral decomposition.
//
// Body origin convention: bodies keep their centre of mass at the origin of
// their frame (BodyDef::position is the centre of mass), so the hull is
// shifted by minus its centroid; `origin_shift` records where the input
// points' origin went.
#pragma once

#include <vector>

#include "pabd/world.h"
#include "shapes/convex_polytope.h"

namespace pabd {

/// Volume integrals of a closed polyhedron over its interior.
struct PolyhedronIntegrals {
  Real volume = 0;  ///< integral of 1 dV [m^3]
  Vec3 first;       ///< integral of x dV [m^4]
  Mat3 second;      ///< integral of x x^T dV [m^5]
};

/// Exact integrals of the polyhedron bounded by counter-clockwise (seen from
/// outside) face loops: each face is fanned into triangles, each triangle
/// with the point `apex` forms a signed tetrahedron, and the tetrahedron
/// formulas (volume det/6, first moment V (sum of corners) / 4, second moment
/// V / 20 (sum p p^T + (sum p)(sum p)^T)) are summed.
PolyhedronIntegrals polyhedron_integrals(const std::vector<Vec3>& vertex,
                                         const std::vector<int>& face_first,
                                         const std::vector<int>& face_vertex, Vec3 apex);

/// A convex hull and its storage (the view points into the vectors: not copyable).
struct ConvexHullData {
  std::vector<Vec3> vertex;       ///< body frame, centre of mass at the origin [m]
  std::vector<Vec3> face_normal;  ///< outward unit normals
  std::vector<Real> face_offset;  ///< normal . x = offset on the face [m]
  std::vector<int> face_first;    ///< face_count + 1 loop starts
  std::vector<int> face_vertex;   ///< counter-clockwise loops seen from outside
  std::vector<int> face_edge;     ///< edge leaving each loop vertex
  std::vector<int> edge_vertex;   ///< two vertices per edge
  Real volume = 0;                ///< [m^3]
  Mat3 unit_affine_inertia;       ///< integral of x x^T dV about the centre of mass [m^5]
  Vec3 origin_shift;              ///< the input points' origin in the hull frame [m]
  ConvexHullView view;            ///< what the kernels read

  ConvexHullData() = default;
  ConvexHullData(const ConvexHullData&) = delete;
  ConvexHullData& operator=(const ConvexHullData&) = delete;
};

/// Builds the hull of `points` into `out` (empty on entry). Throws Error with a
/// one-line message for fewer than 4 points, non-finite points, points that lie
/// on one plane (or line), more than kMaxHullVertices hull vertices or a face of
/// more than kMaxHullFaceVertices vertices.
void build_convex_hull(const std::vector<Vec3>& points, ConvexHullData& out);

/// Points the view at the vectors (after they are filled or moved).
void refresh_hull_view(ConvexHullData& hull);

}  // namespace pabd
