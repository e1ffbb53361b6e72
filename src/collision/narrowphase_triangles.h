// Narrowphase of static triangles (height fields and triangle meshes) against
// convex shapes (sphere, capsule, box, convex hull).
//
// One-sided triangles. A triangle's solid lies behind its front face (below a
// height field's surface): a convex shape in front of the triangle's plane is
// pushed along the closest-point direction, one that reaches behind the plane
// within the triangle's prism is pushed out along the face normal. A shape
// whose core is behind the plane outside the prism is left to the neighbouring
// triangles.
//
// Per triangle (A) and convex shape (B):
// - sphere: the closest point of the triangle to the centre: in the face
//   region the normal is the face normal, in an edge or vertex region the
//   direction from that point to the centre;
// - capsule: the part of its core over the triangle (clipped to its prism)
//   gives up to two face points, its ends; a core beside the prism, in front
//   of the plane, one point along the closest-point direction;
// - box, hull: a face contact (the triangle is the reference face, clipping the
//   polytope's incident face, polytope_face_contact of narrowphase_hull.h)
//   wherever that face reaches over the triangle within margin; else, for a
//   polytope in front of the plane, GJK's closest points give one edge or
//   vertex point.
// An edge or vertex contact on an inactive edge (heightfield_view.h) is
// dropped: the neighbouring triangle's face contact holds that shape.
//
// Manifolds of the triangles a shape touches are merged by normal (cosine at
// least kTriangleMergeCos): a box on a flat field gets one manifold of four
// points however many triangles it covers; a box across a ridge gets one per
// side. Points within kTriangleDuplicate of one already kept (the same corner
// seen from two triangles that share an edge) are dropped. At most
// kMaxTriangleGroups manifolds per convex shape: a further normal replaces the
// group with the shallowest deepest point if it is deeper. The triangle's
// index goes into A's half of each feature id: 8 bits in the index byte, 6
// more in the kind byte's upper bits (triangle_feature_id).
#pragma once

#include <cmath>
#include <cstdint>

#include "collision/contact_manifold.h"
#include "collision/gjk.h"
#include "collision/narrowphase_hull.h"
#include "shapes/body_aabb.h"
#include "shapes/convex_polytope.h"
#include "shapes/heightfield_view.h"
#include "shapes/shape_data.h"
#include "shapes/shape_geometry.h"
#include "shapes/triangle_mesh_view.h"

namespace pabd {

/// Manifolds of two triangles merge when their normals' cosine is at least this [-].
inline constexpr Real kTriangleMergeCos = Real(0.9999);
/// Most manifolds (distinct normals) per convex shape against one triangle shape.
inline constexpr int kMaxTriangleGroups = 4;
/// Candidate points a group holds before it is reduced to four.
inline constexpr int kTriangleGroupCandidates = 16;
/// Points closer than this times (1 + |point|) are one point [-].
inline constexpr Real kTriangleDuplicate = Real(1e-9);

/// A triangle in the world frame, with what the narrowphase needs of it.
struct WorldTriangle {
  Vec3 v[3];                 ///< corners, counter-clockwise seen from the front [m]
  Vec3 normal;               ///< unit front normal
  std::uint32_t active = 7;  ///< bit k: edge from corner k to k + 1 is active
  int index = 0;             ///< triangle index in its shape (for feature ids)
};

/// Region of a triangle: the face, vertex k or edge k (corner k to k + 1).
enum class TriangleRegion { Face, Vertex, Edge };

/// Closest point of triangle (a, b, c) to p, with its region and the
/// vertex or edge index (Ericson, Real-Time Collision Detection, 5.1.5).
PABD_HD Vec3 closest_point_on_triangle(Vec3 p, Vec3 a, Vec3 b, Vec3 c, TriangleRegion& region,
                                       int& feature) {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const Real d1 = dot(ab, ap), d2 = dot(ac, ap);
  region = TriangleRegion::Vertex;
  if (d1 <= 0 && d2 <= 0) {
    feature = 0;
    return a;
  }
  const Vec3 bp = p - b;
  const Real d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) {
    feature = 1;
    return b;
  }
  const Real vc = d1 * d4 - d3 * d2;
  region = TriangleRegion::Edge;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    feature = 0;
    return a + (d1 / (d1 - d3)) * ab;
  }
  const Vec3 cp = p - c;
  const Real d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) {
    region = TriangleRegion::Vertex;
    feature = 2;
    return c;
  }
  const Real vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    feature = 2;  // edge c -> a
    return a + (d2 / (d2 - d6)) * ac;
  }
  const Real va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    feature = 1;  // edge b -> c
    return b + ((d4 - d3) / ((d4 - d3) + (d5 - d6))) * (c - b);
  }
  region = TriangleRegion::Face;
  feature = 0;
  const Real denom = Real(1) / (va + vb + vc);
  return a + (vb * denom) * ab + (vc * denom) * ac;
}

/// Outward normal (not unit) of the side plane through edge k of a triangle.
PABD_HD Vec3 triangle_side(const WorldTriangle& t, int k) {
  return cross(t.v[(k + 1) % 3] - t.v[k], t.normal);
}

/// Whether a contact in this region may keep its own normal n: a face always;
/// an edge when it is active; a vertex when one of its two edges is active
/// and n does not lean out across an inactive one (that side is the
/// neighbouring triangle's).
PABD_HD bool feature_contact_allowed(const WorldTriangle& t, TriangleRegion region, int feature,
                                     Vec3 n) {
  if (region == TriangleRegion::Edge) return (t.active >> feature) & 1u;
  if (region == TriangleRegion::Vertex) {
    const int e1 = feature, e0 = (feature + 2) % 3;  // the edges leaving and reaching it
    const bool a1 = (t.active >> e1) & 1u, a0 = (t.active >> e0) & 1u;
    if (!a0 && !a1) return false;
    if (!a1 && dot(n, triangle_side(t, e1)) > 0) return false;
    if (!a0 && dot(n, triangle_side(t, e0)) > 0) return false;
  }
  return true;
}

/// Feature kind of a region.
PABD_HD FeatureKind region_kind(TriangleRegion region) {
  return region == TriangleRegion::Face
             ? FeatureKind::Face
             : (region == TriangleRegion::Edge ? FeatureKind::Edge : FeatureKind::Vertex);
}

/// A's half of a feature id made to name triangle `tri`: its kind keeps bits
/// 24-25, the triangle index goes to bits 16-23 (low 8) and 26-31 (next 6).
PABD_HD std::uint32_t triangle_feature_id(std::uint32_t id, int tri) {
  const std::uint32_t kind = (id >> 24) & 3u;
  const std::uint32_t t = static_cast<std::uint32_t>(tri);
  return (id & 0xffffu) | ((kind | (((t >> 8) & 63u) << 2)) << 24) | ((t & 0xffu) << 16);
}

/// True when p lies in the triangle's prism (inside its three side planes).
PABD_HD bool in_triangle_prism(const WorldTriangle& t, Vec3 p) {
  for (int k = 0; k < 3; ++k)
    if (dot(cross(t.v[(k + 1) % 3] - t.v[k], t.normal), p - t.v[k]) > 0) return false;
  return true;
}

/// Storage for a triangle's polytope view (one face, the front).
struct TrianglePolytope {
  Vec3 vertex[3];
  Vec3 normal[1];
  Real offset[1];
  int face_first[2];
  int face_vertex[3];
  int face_edge[3];
  int edge_vertex[6];
};

/// Fills `p` with triangle t (world frame) and returns its view.
PABD_HD ConvexHullView make_triangle_polytope(const WorldTriangle& t, TrianglePolytope& p) {
  const Vec3 centre = (Real(1) / 3) * (t.v[0] + t.v[1] + t.v[2]);
  ConvexHullView h;
  h.radius = 0;
  for (int k = 0; k < 3; ++k) {
    p.vertex[k] = t.v[k];
    p.face_vertex[k] = k;
    p.face_edge[k] = k;
    p.edge_vertex[2 * k] = k;
    p.edge_vertex[2 * k + 1] = (k + 1) % 3;
    h.radius = std::fmax(h.radius, length(t.v[k] - centre) + length(centre));
  }
  p.normal[0] = t.normal;
  p.offset[0] = dot(t.normal, t.v[0]);
  p.face_first[0] = 0;
  p.face_first[1] = 3;
  h.vertex_count = 3;
  h.vertex = p.vertex;
  h.face_count = 1;
  h.face_normal = p.normal;
  h.face_offset = p.offset;
  h.face_first = p.face_first;
  h.face_vertex = p.face_vertex;
  h.face_edge = p.face_edge;
  h.edge_count = 3;
  h.edge_vertex = p.edge_vertex;
  return h;
}

/// Triangle (A) against a sphere (B).
PABD_HD_NOINLINE ContactManifold collide_triangle_sphere(const WorldTriangle& t, Vec3 center,
                                                         Real radius, Real margin) {
  ContactManifold m;
  m.normal = t.normal;
  TriangleRegion region;
  int feature = 0;
  const Vec3 q = closest_point_on_triangle(center, t.v[0], t.v[1], t.v[2], region, feature);
  const Real height = dot(t.normal, center - t.v[0]);
  // Straight above an edge or vertex (within kHullFaceContactCos): a face
  // contact, so that the neighbour's identical point merges with it.
  const Real d = length(center - q);
  if (region == TriangleRegion::Face || (height > 0 && height >= kHullFaceContactCos * d)) {
    if (height - radius > margin) return m;
    add_contact_point(m, center - height * t.normal, center - radius * t.normal, height - radius,
                      make_feature_id(FeatureKind::Face, 0, FeatureKind::None, 0));
    return m;
  }
  // Edge or vertex region: only in front of the plane, only on an allowed feature.
  if (height <= 0 || d - radius > margin || !(d > 0)) return m;
  const Vec3 n = (Real(1) / d) * (center - q);
  if (dot(n, t.normal) < kHullFaceContactCos && !feature_contact_allowed(t, region, feature, n))
    return m;
  m.normal = n;
  add_contact_point(m, q, center - radius * n, d - radius,
                    make_feature_id(region_kind(region), feature, FeatureKind::None, 0));
  return m;
}

/// Triangle (A) against a capsule (B).
PABD_HD_NOINLINE ContactManifold collide_triangle_capsule(const WorldTriangle& t, Real radius,
                                                          Real half_height, const ShapePose& pose,
                                                          Real margin) {
  ContactManifold m;
  m.normal = t.normal;
  Vec3 s0, s1;
  capsule_segment(half_height, pose, s0, s1);
  const Real h0 = dot(t.normal, s0 - t.v[0]), h1 = dot(t.normal, s1 - t.v[0]);
  if ((h0 < h1 ? h0 : h1) - radius > margin) return m;

  // Face: the part of the core over the triangle (clipped to its prism), both
  // ends; an end cut by an inactive edge is the neighbouring triangle's.
  Real t0 = 0, t1 = 1;
  int cut0 = -1, cut1 = -1;  // the side planes that cut each end (-1: the core's own end)
  bool empty = false;
  for (int k = 0; k < 3 && !empty; ++k) {
    const Vec3 side = triangle_side(t, k);
    const Real a = dot(side, s0 - t.v[k]), d = dot(side, s1 - s0);
    if (d == 0) {
      empty = a > 0;
      continue;
    }
    const Real x = -a / d;
    if (d > 0 && x < t1) {
      t1 = x;
      cut1 = k;
    } else if (d < 0 && x > t0) {
      t0 = x;
      cut0 = k;
    }
    empty = t0 > t1;
  }
  if (!empty) {
    const Real ts[2] = {t0, t1};
    const int cuts[2] = {cut0, cut1};
    for (int k = 0; k < (t1 > t0 ? 2 : 1); ++k) {
      if (cuts[k] >= 0 && !((t.active >> cuts[k]) & 1u)) continue;
      const Vec3 p = lerp(s0, s1, ts[k]);
      const Real height = dot(t.normal, p - t.v[0]);
      if (height - radius > margin) continue;
      add_contact_point(m, p - height * t.normal, p - radius * t.normal, height - radius,
                        make_feature_id(FeatureKind::Face, 0, FeatureKind::Vertex, k));
    }
    deepest_point_first(m);
    return m;
  }
  // The core is beside the prism: behind the plane it is the neighbours'.
  if ((h0 < h1 ? h0 : h1) <= 0) return m;

  // Edge or vertex: the closest points of core and triangle (an end against
  // the triangle, or the core against an edge: exact when they do not meet),
  // one point along their direction, in front only, on an allowed feature.
  TriangleRegion region;
  int feature = 0;
  Vec3 on_core = s0;
  Vec3 on_tri = closest_point_on_triangle(s0, t.v[0], t.v[1], t.v[2], region, feature);
  Real best = length_squared(on_tri - s0);
  {
    TriangleRegion r1;
    int f1 = 0;
    const Vec3 q1 = closest_point_on_triangle(s1, t.v[0], t.v[1], t.v[2], r1, f1);
    if (length_squared(q1 - s1) < best) {
      best = length_squared(q1 - s1);
      on_core = s1;
      on_tri = q1;
      region = r1;
      feature = f1;
    }
  }
  for (int k = 0; k < 3; ++k) {
    Real s, u;
    closest_segment_segment(s0, s1, t.v[k], t.v[(k + 1) % 3], s, u);
    const Vec3 ps = lerp(s0, s1, s), pe = lerp(t.v[k], t.v[(k + 1) % 3], u);
    if (length_squared(ps - pe) < best) {
      best = length_squared(ps - pe);
      on_core = ps;
      on_tri = pe;
      region = TriangleRegion::Edge;
      feature = k;
    }
  }
  const Real dist = std::sqrt(best);
  if (dist - radius > margin || !(dist > 0)) return m;
  const Vec3 n = (Real(1) / dist) * (on_core - on_tri);
  if (dot(n, t.normal) <= 0 || !feature_contact_allowed(t, region, feature, n)) return m;
  m.normal = n;
  add_contact_point(m, on_tri, on_core - radius * n, dist - radius,
                    make_feature_id(region_kind(region), feature, FeatureKind::Edge, 0));
  return m;
}

/// Triangle (A) against a polytope (B: a box or hull at its pose).
PABD_HD_NOINLINE ContactManifold collide_triangle_polytope(const WorldTriangle& t,
                                                           const PlacedPolytope& b, Real margin) {
  ContactManifold m;
  m.normal = t.normal;
  // The polytope's lowest point must come within margin of the plane.
  const Vec3 low = to_world(
      b.pose,
      b.hull->vertex[hull_support_index(*b.hull, transpose_times(b.pose.rotation, -t.normal))]);
  const Real lowest = dot(t.normal, low - t.v[0]);
  if (lowest > margin) return m;
  // Behind the plane, it is this triangle's only within its prism.
  if (dot(t.normal, b.pose.position - t.v[0]) < 0 && !in_triangle_prism(t, b.pose.position))
    return m;
  // A face contact wherever the incident face reaches over the triangle within
  // margin (no GJK needed: a resting shape ends here).
  TrianglePolytope storage;
  const ConvexHullView tri = make_triangle_polytope(t, storage);
  const PlacedPolytope a{&tri, ShapePose{}};
  m = polytope_face_contact(a, 0, b, true, margin, t.active);
  if (m.count > 0 || lowest <= 0) return m;
  // In front of the plane and beside the triangle: GJK for an edge or vertex contact.
  const TriangleCore core_a{{t.v[0], t.v[1], t.v[2]}};
  const GjkResult g = gjk_distance(core_a, HullCore{b.hull, b.pose}, b.pose.position - t.v[0]);
  if (g.overlap || g.distance > margin || !(g.distance > 0)) return m;
  const Vec3 n = normalized_or(g.point_b - g.point_a, t.normal);
  if (dot(n, t.normal) <= 0 || dot(n, t.normal) >= kHullFaceContactCos) return m;
  TriangleRegion region;
  int feature = 0;
  closest_point_on_triangle(g.point_b, t.v[0], t.v[1], t.v[2], region, feature);
  if (region == TriangleRegion::Face || !feature_contact_allowed(t, region, feature, n)) return m;
  FeatureKind kind;
  int index = 0;
  polytope_feature(b, g.point_b, kind, index);
  m.normal = n;
  add_contact_point(m, g.point_a, g.point_b, g.distance,
                    make_feature_id(region_kind(region), feature, kind, index));
  return m;
}

/// Triangle (A) against a convex shape (B: sphere, capsule, box or hull).
PABD_HD_NOINLINE ContactManifold collide_triangle_convex(const WorldTriangle& t, const ShapeDef& s,
                                                         const ShapePose& pose, Real margin) {
  switch (s.type) {
    case ShapeType::Sphere:
      return collide_triangle_sphere(t, pose.position, s.radius, margin);
    case ShapeType::Capsule:
      return collide_triangle_capsule(t, s.radius, s.half_height, pose, margin);
    case ShapeType::Box: {
      BoxPolytope box;
      const ConvexHullView view = make_box_polytope(Real(0.5) * s.size, box);
      return collide_triangle_polytope(t, PlacedPolytope{&view, pose}, margin);
    }
    case ShapeType::ConvexHull:
      return collide_triangle_polytope(t, PlacedPolytope{&hull_view(s), pose}, margin);
    case ShapeType::Plane:  // not convex parts: never handed to a triangle
    case ShapeType::Compound:
    case ShapeType::HeightField:
    case ShapeType::TriangleMesh:
      return ContactManifold{};
  }
  return ContactManifold{};
}

// Merging the triangles' manifolds -------------------------------------------------

/// Points gathered for one normal.
struct TriangleGroup {
  Vec3 normal;                                      ///< of the deepest manifold merged in
  Real deepest = 1e300;                             ///< lowest separation so far [m]
  int count = 0;                                    ///< candidates held
  ContactCandidate cand[kTriangleGroupCandidates];  ///< world points, separations, ids
};

/// The groups of one convex shape against one triangle shape.
struct TriangleGroups {
  int count = 0;
  TriangleGroup group[kMaxTriangleGroups];
};

/// Adds one point to a group, dropping duplicates; a full group is reduced to four.
PABD_HD_NOINLINE void group_add(TriangleGroup& g, const ContactPoint& p) {
  const Vec3 mid = Real(0.5) * (p.world_a + p.world_b);
  for (int k = 0; k < g.count; ++k) {
    const Real tol = kTriangleDuplicate * (1 + length(mid));
    if (length_squared(candidate_middle(g.cand[k]) - mid) <= tol * tol) {
      if (p.separation < g.cand[k].separation) {  // keep the deeper reading
        g.cand[k].world_a = p.world_a;
        g.cand[k].world_b = p.world_b;
        g.cand[k].separation = p.separation;
        g.cand[k].feature = p.feature;
      }
      return;
    }
  }
  if (g.count == kTriangleGroupCandidates) {
    ContactManifold reduced;
    reduced.normal = g.normal;
    select_contact_points(reduced, g.cand, g.count);
    g.count = 0;
    for (int k = 0; k < reduced.count; ++k) {
      const ContactPoint& q = reduced.points[k];
      g.cand[g.count++] = ContactCandidate{q.world_a, q.world_b, q.separation, q.feature};
    }
  }
  g.cand[g.count++] = ContactCandidate{p.world_a, p.world_b, p.separation, p.feature};
}

/// Adds a triangle's manifold (feature ids already tagged) to the group of its normal.
PABD_HD_NOINLINE void groups_add(TriangleGroups& gs, const ContactManifold& m) {
  if (m.count == 0) return;
  const Real deepest = m.points[0].separation;  // manifolds keep the deepest point first
  int target = -1;
  for (int k = 0; k < gs.count && target < 0; ++k)
    if (dot(gs.group[k].normal, m.normal) >= kTriangleMergeCos) target = k;
  if (target < 0) {
    if (gs.count < kMaxTriangleGroups) {
      target = gs.count++;
    } else {
      // Replace the group whose deepest point is shallowest, if this one is deeper.
      target = 0;
      for (int k = 1; k < gs.count; ++k)
        if (gs.group[k].deepest > gs.group[target].deepest) target = k;
      if (!(deepest < gs.group[target].deepest)) return;
    }
    gs.group[target].count = 0;
    gs.group[target].deepest = 1e300;
    gs.group[target].normal = m.normal;
  }
  TriangleGroup& g = gs.group[target];
  if (deepest < g.deepest) {
    g.deepest = deepest;
    g.normal = m.normal;
  }
  for (int k = 0; k < m.count; ++k) group_add(g, m.points[k]);
}

/// Triangle t of a height field at pose `field`, in the world frame.
PABD_HD WorldTriangle height_field_world_triangle(const HeightFieldView& h, const ShapePose& field,
                                                  int t) {
  WorldTriangle w;
  Vec3 v[3], n;
  height_field_triangle(h, t, v, n, w.active);
  for (int k = 0; k < 3; ++k) w.v[k] = to_world(field, v[k]);
  w.normal = field.rotation * n;
  w.index = t;
  return w;
}

/// Triangle t of a mesh at pose `mesh`, in the world frame.
PABD_HD WorldTriangle mesh_world_triangle(const TriangleMeshView& m, const ShapePose& mesh, int t) {
  WorldTriangle w;
  for (int k = 0; k < 3; ++k) w.v[k] = to_world(mesh, m.vertex[m.triangle_vertex[3 * t + k]]);
  w.normal = mesh.rotation * m.triangle_normal[t];
  w.active = m.triangle_active[t];
  w.index = t;
  return w;
}

/// One triangle against the convex shape, into the groups.
PABD_HD void collide_triangle_into(const WorldTriangle& t, const ShapeDef& s, const ShapePose& pose,
                                   Real margin, TriangleGroups& groups) {
  ContactManifold m = collide_triangle_convex(t, s, pose, margin);
  for (int k = 0; k < m.count; ++k)
    m.points[k].feature = triangle_feature_id(m.points[k].feature, t.index);
  groups_add(groups, m);
}

/// Body-frame box of a convex shape at world pose `pose`, seen from a static
/// shape at `frame`, grown by margin.
PABD_HD Aabb convex_box_in_frame(const ShapeDef& s, const ShapePose& pose, const ShapePose& frame,
                                 Real margin) {
  const Mat3 rt = transpose(frame.rotation);
  return aabb_fatten(
      convex_shape_aabb(s, rt * (pose.position - frame.position), rt * pose.rotation), margin);
}

/// Height field (A, at pose `field`) against a convex shape (B) into groups:
/// the triangles of the cells under the shape's box.
PABD_HD_NOINLINE void collide_height_field_convex(const HeightFieldView& h, const ShapePose& field,
                                                  const ShapeDef& s, const ShapePose& pose,
                                                  Real margin, TriangleGroups& groups) {
  int c0 = 0, c1 = -1, r0 = 0, r1 = -1;
  if (!height_field_cells(h, convex_box_in_frame(s, pose, field, margin), c0, c1, r0, r1)) return;
  for (int r = r0; r <= r1; ++r)
    for (int c = c0; c <= c1; ++c)
      for (int k = 0; k < 2; ++k)
        collide_triangle_into(
            height_field_world_triangle(h, field, 2 * (r * (h.columns - 1) + c) + k), s, pose,
            margin, groups);
}

/// Visits mesh triangles for mesh_query.
struct MeshTriangleVisitor {
  const TriangleMeshView* mesh;
  ShapePose frame;
  const ShapeDef* shape;
  ShapePose pose;
  Real margin;
  TriangleGroups* groups;
  PABD_HD void operator()(int t) const {
    collide_triangle_into(mesh_world_triangle(*mesh, frame, t), *shape, pose, margin, *groups);
  }
};

/// Triangle mesh (A, at pose `frame`) against a convex shape (B) into groups:
/// the triangles in BVH leaves that meet the shape's box.
PABD_HD_NOINLINE void collide_mesh_convex(const TriangleMeshView& m, const ShapePose& frame,
                                          const ShapeDef& s, const ShapePose& pose, Real margin,
                                          TriangleGroups& groups) {
  MeshTriangleVisitor visit{&m, frame, &s, pose, margin, &groups};
  mesh_query(m, convex_box_in_frame(s, pose, frame, margin), visit);
}

/// The manifold of group k (up to four points, deepest first).
PABD_HD_NOINLINE ContactManifold group_manifold(const TriangleGroup& g) {
  ContactManifold m;
  m.normal = g.normal;
  select_contact_points(m, g.cand, g.count);
  return m;
}

}  // namespace pabd
