// Narrowphase of convex hulls against planes, spheres, capsules, boxes and
// other hulls (a box enters as a polytope, BoxPolytope in convex_polytope.h).
//
// Normal and depth. GJK (gjk.h) on the two polytopes gives the distance and
// the closest points when they are apart; when they overlap (or are closer
// than kHullTouchDistance x their size, where the direction between the
// closest points is noise) EPA (epa.h) gives the penetration depth and
// direction. If EPA fails (it never should for solids) the best face axis of
// a separating-axis test over both hulls' face normals stands in.
//
// Manifold, chosen as box-box chooses (narrowphase_box_box.h), with EPA's or
// GJK's exact value standing in for the best edge axis: each polytope's face
// of largest separation from the other (a separating-axis test over the face
// normals) is a candidate reference face, B's replacing A's only when better
// by kBoxFaceSwitchTolerance x scale; the contact is an edge contact only
// when the exact separation beats that face's by kBoxEdgeRelativeTolerance x
// |face separation| + kBoxEdgeAbsoluteTolerance x scale (scale: the mean of
// the polytopes' largest coordinates, a box's largest half extent). A face
// contact clips the incident face (the other polytope's face most
// anti-parallel to the reference normal) by the reference face's side planes,
// each moved out by kBoxClipSlop x the face's half width across it; every
// clipped point within margin of the reference plane is a candidate (its
// separation is its height above that plane, measured along the reference
// normal, which becomes the manifold normal; the deepest
// kHullContactCandidates are kept) and select_contact_points keeps four. As
// in box-box, the incident face's deepest vertex is added when clipping
// removed it and the polytopes are apart (or, penetrating, when no clipped
// point is within margin); apart with no clipped point within margin, the
// contact is the closest points (as an edge contact). A box therefore gets
// the same contact as a box: a hull of a box's corners matches box-box to
// rounding. An edge contact is the single pair of
// closest (or deepest) points along the exact normal.
//
// Cost: the face test is O(F_A V_B + F_B V_A) and each support call O(V); a
// hull has at most kMaxHullVertices vertices.
//
// Spheres and capsules are a point or a segment core plus a radius, as in
// narrowphase_sphere_capsule.h. A sphere's centre inside the hull is pushed
// out through the face of least penetration (exact for a point). A capsule
// whose normal is within kHullFaceContactCos of a hull face normal has its
// core clipped by that face's side planes and gets both clipped ends, so it
// lies on a face with two points, as on a box.
//
// Feature ids use the hull's own numbering (vertex, edge, face indices, 8
// bits each: a hull has at most 256 vertices; face and edge indices above 255
// alias); a box keeps its box numbering.
#pragma once

#include <cmath>
#include <cstdint>

#include "collision/contact_manifold.h"
#include "collision/epa.h"
#include "collision/gjk.h"
#include "collision/narrowphase_box_box.h"
#include "shapes/convex_polytope.h"
#include "shapes/shape_geometry.h"

namespace pabd {

/// Capsules and triangles: a normal within this cosine of a face normal makes a
/// face contact [-] (about 1.1 degrees).
inline constexpr Real kHullFaceContactCos = Real(0.9998);
/// Closer than this times the hulls' size counts as touching (EPA decides) [-].
inline constexpr Real kHullTouchDistance = Real(1e-9);
/// Most vertices of a hull kept against a plane before selecting four.
inline constexpr int kHullPlaneCandidates = 32;
/// Clipping buffer: an incident face gains at most one vertex per side plane.
inline constexpr int kHullClipVertices = 2 * kMaxHullFaceVertices;
/// Most clipped points kept (the deepest) before selecting four.
inline constexpr int kHullContactCandidates = 32;

/// A polytope at a pose: the view (body frame) and where it is.
struct PlacedPolytope {
  const ConvexHullView* hull = nullptr;  ///< the polytope, body frame
  ShapePose pose;                        ///< where it is
};

/// World corner k of face f.
PABD_HD Vec3 face_corner(const PlacedPolytope& p, int f, int k) {
  return to_world(p.pose, p.hull->vertex[p.hull->face_vertex[p.hull->face_first[f] + k]]);
}
/// World unit normal of face f.
PABD_HD Vec3 face_normal_world(const PlacedPolytope& p, int f) {
  return p.pose.rotation * p.hull->face_normal[f];
}
/// World offset of face f's plane (normal . x = offset).
PABD_HD Real face_offset_world(const PlacedPolytope& p, int f) {
  return p.hull->face_offset[f] + dot(face_normal_world(p, f), p.pose.position);
}

/// Feature of a polytope at world surface point x (see hull_feature_at).
PABD_HD void polytope_feature(const PlacedPolytope& p, Vec3 x, FeatureKind& kind, int& index) {
  hull_feature_at(*p.hull, to_local(p.pose, x), Real(1e-7) * p.hull->radius, kind, index);
}

/// A polygon vertex during clipping (see ClipVertex in narrowphase_box_box.h):
/// its feature pair and the edge leaving it, an incident edge or a side plane.
/// Plain data (no member initializers): the clipping buffers are not zeroed.
struct HullClipVertex {
  Real p[3];  ///< the point [m]
  FeatureKind ref_kind;
  int ref_index;
  FeatureKind inc_kind;
  int inc_index;
  int out_incident_edge;  ///< incident edge leaving this vertex, or -1
  int out_side;           ///< else: the reference side plane (face loop edge k) it runs along
  int cut_side[2];        ///< the side planes that made this point (-1: none)
};

PABD_HD Vec3 clip_point(const HullClipVertex& v) { return {v.p[0], v.p[1], v.p[2]}; }
PABD_HD void set_clip_point(HullClipVertex& v, Vec3 x) {
  v.p[0] = x.x;
  v.p[1] = x.y;
  v.p[2] = x.z;
}

/// Adds a candidate to a buffer of at most kHullContactCandidates, dropping the
/// shallowest (the later one on ties) when it is full.
PABD_HD void add_candidate(ContactCandidate* cand, int& n, const ContactCandidate& c) {
  if (n < kHullContactCandidates) {
    cand[n++] = c;
    return;
  }
  int shallowest = 0;
  for (int k = 1; k < n; ++k)
    if (cand[k].separation >= cand[shallowest].separation) shallowest = k;
  if (c.separation < cand[shallowest].separation) cand[shallowest] = c;
}

/// Closest point of a convex face polygon (corners counter-clockwise about
/// unit normal n) to a point x: its projection if inside, else the closest
/// point of the boundary.
PABD_HD_NOINLINE Vec3 closest_on_face(const PlacedPolytope& p, int f, Vec3 n, Vec3 x) {
  const int count = hull_face_size(*p.hull, f);
  const Vec3 on_plane = x - (dot(n, x) - face_offset_world(p, f)) * n;
  bool inside = true;
  for (int k = 0; k < count; ++k) {
    const Vec3 a = face_corner(p, f, k), b = face_corner(p, f, (k + 1) % count);
    if (dot(cross(b - a, n), on_plane - a) > 0) inside = false;
  }
  if (inside) return on_plane;
  Vec3 best = face_corner(p, f, 0);
  Real best_d2 = 1e300;
  for (int k = 0; k < count; ++k) {
    const Vec3 a = face_corner(p, f, k), b = face_corner(p, f, (k + 1) % count);
    const Vec3 q = lerp(a, b, closest_on_segment(x, a, b));
    if (length_squared(q - x) < best_d2) {
      best_d2 = length_squared(q - x);
      best = q;
    }
  }
  return best;
}

/// A polytope's size: its largest coordinate about its vertex mean (a box:
/// its largest half extent, the scale box-box uses).
PABD_HD Real polytope_scale(const ConvexHullView& h) {
  Vec3 mean;
  for (int v = 0; v < h.vertex_count; ++v) mean += h.vertex[v];
  mean = (Real(1) / Real(h.vertex_count)) * mean;
  Real scale = 0;
  for (int v = 0; v < h.vertex_count; ++v) {
    const Vec3 d = h.vertex[v] - mean;
    scale = std::fmax(scale, std::fmax(std::fabs(d.x), std::fmax(std::fabs(d.y), std::fabs(d.z))));
  }
  return scale;
}

/// Face contact: face `ref_face` of `ref` as the reference face, the most
/// anti-parallel face of `inc` as the incident face. `ref_is_a` says which is
/// shape A. See the top of this file. `side_active` (triangles of a height
/// field or mesh): bit k clear means side plane k (face loop edge k) is an
/// inactive edge, whose neighbour continues the surface: points cut only by
/// inactive side planes are dropped, and the deepest incident vertex is added
/// only above the face.
/// `off_face` (if given) is set when the polytopes are apart along the
/// reference normal and no clipped point is within margin: the closest
/// points lie off the reference face, and the caller takes them instead.
PABD_HD_NOINLINE ContactManifold polytope_face_contact(const PlacedPolytope& ref, int ref_face,
                                                       const PlacedPolytope& inc, bool ref_is_a,
                                                       Real margin, std::uint32_t side_active = ~0u,
                                                       bool* off_face = nullptr) {
  ContactManifold m;
  const ConvexHullView& rh = *ref.hull;
  const ConvexHullView& ih = *inc.hull;
  const Vec3 n_ref = face_normal_world(ref, ref_face);
  const Real ref_offset = face_offset_world(ref, ref_face);
  m.normal = ref_is_a ? n_ref : -n_ref;
  const int inc_face = hull_face_most_aligned(ih, transpose_times(inc.pose.rotation, -n_ref));

  // Incident polygon in its loop order.
  HullClipVertex poly[kHullClipVertices], next[kHullClipVertices];
  const int inc_first = ih.face_first[inc_face];
  int count = hull_face_size(ih, inc_face);
  for (int k = 0; k < count; ++k) {
    HullClipVertex& cv = poly[k];
    set_clip_point(cv, face_corner(inc, inc_face, k));
    cv.ref_kind = FeatureKind::Face;
    cv.ref_index = ref_face;
    cv.inc_kind = FeatureKind::Vertex;
    cv.inc_index = ih.face_vertex[inc_first + k];
    cv.out_incident_edge = ih.face_edge[inc_first + k];
    cv.out_side = -1;
    cv.cut_side[0] = cv.cut_side[1] = -1;
  }

  // Clip by the side planes of the reference face (loop edge k: outward side
  // normal (r_k+1 - r_k) x n_ref), each moved out by kBoxClipSlop times the
  // face's half width across it (for a box: its half extent, as in box-box).
  const int ref_first = rh.face_first[ref_face];
  const int ref_count = hull_face_size(rh, ref_face);
  Vec3 ref_centre;
  for (int k = 0; k < ref_count; ++k) ref_centre += face_corner(ref, ref_face, k);
  ref_centre = (Real(1) / Real(ref_count)) * ref_centre;
  for (int side = 0; side < ref_count && count > 0; ++side) {
    const Vec3 r0 = face_corner(ref, ref_face, side);
    const Vec3 r1 = face_corner(ref, ref_face, (side + 1) % ref_count);
    const Vec3 plane_n = normalized_or(cross(r1 - r0, n_ref), Vec3{});
    const Real limit = dot(plane_n, r0) + kBoxClipSlop * dot(plane_n, r0 - ref_centre);
    int out = 0;
    for (int k = 0; k < count; ++k) {
      const HullClipVertex& a = poly[k];
      const HullClipVertex& b = poly[(k + 1) % count];
      const Real da = dot(plane_n, clip_point(a)) - limit;
      const Real db = dot(plane_n, clip_point(b)) - limit;
      const bool a_in = da <= 0, b_in = db <= 0;
      if (a_in != b_in && out < kHullClipVertices) {
        HullClipVertex x;
        set_clip_point(x, lerp(clip_point(a), clip_point(b), da / (da - db)));
        x.cut_side[0] = side;
        x.cut_side[1] = a.out_incident_edge >= 0 ? -1 : a.out_side;
        if (a.out_incident_edge >= 0) {
          x.ref_kind = FeatureKind::Edge;
          x.ref_index = rh.face_edge[ref_first + side];
          x.inc_kind = FeatureKind::Edge;
          x.inc_index = a.out_incident_edge;
        } else {
          // Two side planes meet at a corner of the reference face.
          const int j = a.out_side;
          const int corner =
              (j + 1) % ref_count == side ? side : ((side + 1) % ref_count == j ? j : side);
          x.ref_kind = FeatureKind::Vertex;
          x.ref_index = rh.face_vertex[ref_first + corner];
          x.inc_kind = FeatureKind::Face;
          x.inc_index = inc_face;
        }
        if (a_in) {  // leaving: the next edge runs along this side plane
          x.out_incident_edge = -1;
          x.out_side = side;
        } else {  // entering: the rest of edge a -> b follows
          x.out_incident_edge = a.out_incident_edge;
          x.out_side = a.out_side;
        }
        next[out++] = x;
      }
      if (b_in && out < kHullClipVertices) next[out++] = b;
    }
    count = out;
    for (int k = 0; k < count; ++k) poly[k] = next[k];
  }

  // Heights above the reference face; keep those within margin.
  ContactCandidate cand[kHullContactCandidates];
  int n = 0, within = 0;
  Real lowest_clipped = 1e300;
  for (int k = 0; k < count; ++k) {
    const Vec3 p = clip_point(poly[k]);
    const Real sep = dot(n_ref, p) - ref_offset;
    lowest_clipped = sep < lowest_clipped ? sep : lowest_clipped;
    if (sep > margin) continue;
    ++within;
    // Cut only by inactive side planes: the neighbouring triangle's point.
    const int s0 = poly[k].cut_side[0], s1 = poly[k].cut_side[1];
    const bool real =
        s0 < 0 || ((side_active >> s0) & 1u) || (s1 >= 0 && ((side_active >> s1) & 1u));
    if (!real) continue;
    const Vec3 on_ref = p - sep * n_ref;
    ContactCandidate c;
    c.separation = sep;
    c.world_a = ref_is_a ? on_ref : p;
    c.world_b = ref_is_a ? p : on_ref;
    c.feature = ref_is_a ? make_feature_id(poly[k].ref_kind, poly[k].ref_index, poly[k].inc_kind,
                                           poly[k].inc_index)
                         : make_feature_id(poly[k].inc_kind, poly[k].inc_index, poly[k].ref_kind,
                                           poly[k].ref_index);
    add_candidate(cand, n, c);
  }

  // The incident face's deepest vertex (see the top of the file).
  const int inc_count = hull_face_size(ih, inc_face);
  int deepest = 0;
  Real lowest = 1e300;
  for (int k = 0; k < inc_count; ++k) {
    const Real sep = dot(n_ref, face_corner(inc, inc_face, k)) - ref_offset;
    if (sep < lowest) {
      lowest = sep;
      deepest = k;
    }
  }
  if (off_face) *off_face = within == 0 && lowest > 0;
  if (lowest <= margin &&
      (within == 0 ||
       (lowest > 0 && lowest < lowest_clipped - kBoxClipSlop * polytope_scale(rh)))) {
    const Vec3 p = face_corner(inc, inc_face, deepest);
    const Vec3 on_ref = closest_on_face(ref, ref_face, n_ref, p);
    // With inactive sides (a triangle), only straight above the face.
    const bool above_face = length_squared(p - (dot(n_ref, p) - ref_offset) * n_ref - on_ref) == 0;
    if (side_active == ~0u || above_face) {
      const int v = ih.face_vertex[inc_first + deepest];
      ContactCandidate c;
      c.separation = lowest;
      c.world_a = ref_is_a ? on_ref : p;
      c.world_b = ref_is_a ? p : on_ref;
      c.feature = ref_is_a ? make_feature_id(FeatureKind::Face, ref_face, FeatureKind::Vertex, v)
                           : make_feature_id(FeatureKind::Vertex, v, FeatureKind::Face, ref_face);
      add_candidate(cand, n, c);
    }
  }
  select_contact_points(m, cand, n);
  return m;
}

/// Separation of q from face f of p: q's lowest point along the face normal,
/// above the face plane (negative = overlap).
PABD_HD Real face_separation(const PlacedPolytope& p, int f, const PlacedPolytope& q) {
  const Vec3 n = face_normal_world(p, f);
  const Vec3 low = to_world(
      q.pose, q.hull->vertex[hull_support_index(*q.hull, transpose_times(q.pose.rotation, -n))]);
  return dot(n, low) - face_offset_world(p, f);
}

/// p's face of largest separation from q (the face axes of a separating-axis
/// test); its separation goes to `best`.
PABD_HD_NOINLINE int best_face(const PlacedPolytope& p, const PlacedPolytope& q, Real& best) {
  int face = 0;
  best = -1e300;
  for (int f = 0; f < p.hull->face_count; ++f) {
    const Real s = face_separation(p, f, q);
    if (s > best) {
      best = s;
      face = f;
    }
  }
  return face;
}

/// Separation of two cores from their GJK result: the closest points when
/// they are apart by more than `touch` [m], else EPA's deepest points.
/// valid = false when EPA finds the Minkowski difference flat (the caller's
/// face axis stands in); apart = true for the GJK case.
struct CoreSeparation {
  bool valid = false;
  bool apart = false;
  Vec3 normal;            ///< from A to B
  Vec3 point_a, point_b;  ///< world [m]
  Real separation = 0;    ///< signed [m]
};

template <typename CoreA, typename CoreB>
PABD_HD CoreSeparation core_separation(const CoreA& core_a, const CoreB& core_b, const GjkResult& g,
                                       Real touch, Vec3 a_to_b) {
  CoreSeparation s;
  if (!g.overlap && g.distance > touch) {
    s.valid = s.apart = true;
    s.normal = normalized_or(g.point_b - g.point_a, a_to_b);
    s.point_a = g.point_a;
    s.point_b = g.point_b;
    s.separation = g.distance;
    return s;
  }
  const EpaResult e = epa_penetration(core_a, core_b, g);
  if (!e.valid) return s;
  s.valid = true;
  s.normal = e.normal;
  s.point_a = e.point_a;
  s.point_b = e.point_b;
  s.separation = -e.depth;
  return s;
}

/// Polytope (A) against polytope (B).
PABD_HD_NOINLINE ContactManifold collide_polytopes(const PlacedPolytope& a, const PlacedPolytope& b,
                                                   Real margin) {
  const Real size = a.hull->radius + b.hull->radius;
  // Rejections return a fresh empty manifold, not a named one zeroed for every pair.
  if (length(b.pose.position - a.pose.position) - size > margin) return ContactManifold();
  const HullCore core_a{a.hull, a.pose}, core_b{b.hull, b.pose};
  const GjkResult g = gjk_distance(core_a, core_b, b.pose.position - a.pose.position);
  const CoreSeparation cs = core_separation(core_a, core_b, g, kHullTouchDistance * size,
                                            b.pose.position - a.pose.position);
  if (cs.apart && cs.separation > margin) return ContactManifold();
  Vec3 n = cs.normal, point_a = cs.point_a, point_b = cs.point_b;
  Real sep = cs.separation;
  if (!cs.valid) {
    // Flat Minkowski difference (not for solids): the best face axis stands in.
    Real sa = 0, sb = 0;
    const int fa = best_face(a, b, sa), fb = best_face(b, a, sb);
    sep = sa >= sb ? sa : sb;
    n = sa >= sb ? face_normal_world(a, fa) : -face_normal_world(b, fb);
    point_a = point_b = Real(0.5) * (a.pose.position + b.pose.position);
  }

  // Face or edge contact, chosen as box-box chooses (see the top of the file).
  Real sa = 0, sb = 0;
  const int fa = best_face(a, b, sa), fb = best_face(b, a, sb);
  const Real scale = Real(0.5) * (polytope_scale(*a.hull) + polytope_scale(*b.hull));
  const bool use_b = sb > sa + kBoxFaceSwitchTolerance * scale;
  const Real face_sep = use_b ? sb : sa;
  const bool use_edge = sep > face_sep + kBoxEdgeRelativeTolerance * std::fabs(face_sep) +
                                  kBoxEdgeAbsoluteTolerance * scale;
  if (!use_edge) {
    bool off_face = false;
    const ContactManifold face =
        use_b ? polytope_face_contact(b, fb, a, false, margin, ~0u, &off_face)
              : polytope_face_contact(a, fa, b, true, margin, ~0u, &off_face);
    // Apart with the closest points off the reference face (edge and corner
    // neighbours): the closest points, as box-box (narrowphase_box_box.h).
    if (!(off_face && cs.apart && cs.valid)) return face;
  }

  // Edge contact, or apart off the face: the single closest (or deepest) pair.
  ContactManifold m;
  m.normal = n;
  FeatureKind ka, kb;
  int ia = 0, ib = 0;
  polytope_feature(a, point_a, ka, ia);
  polytope_feature(b, point_b, kb, ib);
  add_contact_point(m, point_a, point_b, sep, make_feature_id(ka, ia, kb, ib));
  return m;
}

/// Box (A, half extents) against hull (B).
PABD_HD ContactManifold collide_box_hull(Vec3 half_a, const ShapePose& pose_a,
                                         const ConvexHullView& hull_b, const ShapePose& pose_b,
                                         Real margin) {
  BoxPolytope box;
  const ConvexHullView view_a = make_box_polytope(half_a, box);
  return collide_polytopes(PlacedPolytope{&view_a, pose_a}, PlacedPolytope{&hull_b, pose_b},
                           margin);
}

/// Hull (A) against box (B, half extents).
PABD_HD ContactManifold collide_hull_box(const ConvexHullView& hull_a, const ShapePose& pose_a,
                                         Vec3 half_b, const ShapePose& pose_b, Real margin) {
  BoxPolytope box;
  const ConvexHullView view_b = make_box_polytope(half_b, box);
  return collide_polytopes(PlacedPolytope{&hull_a, pose_a}, PlacedPolytope{&view_b, pose_b},
                           margin);
}

/// Hull (A) against hull (B).
PABD_HD ContactManifold collide_hull_hull(const ConvexHullView& hull_a, const ShapePose& pose_a,
                                          const ConvexHullView& hull_b, const ShapePose& pose_b,
                                          Real margin) {
  return collide_polytopes(PlacedPolytope{&hull_a, pose_a}, PlacedPolytope{&hull_b, pose_b},
                           margin);
}

/// Plane (A: world unit normal, offset) against hull (B): the vertices within
/// margin (the deepest kHullPlaneCandidates), reduced to four.
PABD_HD_NOINLINE ContactManifold collide_plane_hull(Vec3 normal, Real offset,
                                                    const ConvexHullView& hull,
                                                    const ShapePose& pose, Real margin) {
  ContactManifold m;
  m.normal = normal;
  ContactCandidate cand[kHullPlaneCandidates];
  int n = 0;
  for (int v = 0; v < hull.vertex_count; ++v) {
    const Vec3 p = to_world(pose, hull.vertex[v]);
    const Real sep = dot(normal, p) - offset;
    if (sep > margin) continue;
    // Keep the deepest: a full buffer drops its shallowest (later index on ties).
    int slot = n;
    if (n == kHullPlaneCandidates) {
      slot = 0;
      for (int k = 1; k < n; ++k)
        if (cand[k].separation >= cand[slot].separation) slot = k;
      if (sep >= cand[slot].separation) continue;
    } else {
      ++n;
    }
    cand[slot].world_a = p - sep * normal;
    cand[slot].world_b = p;
    cand[slot].separation = sep;
    cand[slot].feature = make_feature_id(FeatureKind::Face, 0, FeatureKind::Vertex, v);
  }
  select_contact_points(m, cand, n);
  return m;
}

/// Sphere (A) against hull (B).
PABD_HD_NOINLINE ContactManifold collide_sphere_hull(Vec3 center, Real radius,
                                                     const ConvexHullView& hull,
                                                     const ShapePose& pose, Real margin) {
  ContactManifold m;
  const PlacedPolytope b{&hull, pose};
  const Vec3 p = to_local(pose, center);
  int face = 0;
  const Real outside = hull_face_distance(hull, p, face);
  if (outside - radius > margin) return m;  // the distance is at least the face distance
  if (outside <= 0) {
    // Centre inside: out through the face of least penetration.
    const Vec3 n_face = face_normal_world(b, face);
    m.normal = -n_face;
    const Vec3 on_hull = center - outside * n_face;
    add_contact_point(m, center + radius * m.normal, on_hull, outside - radius,
                      make_feature_id(FeatureKind::None, 0, FeatureKind::Face, face));
    return m;
  }
  const GjkResult g =
      gjk_distance(PointCore{center}, HullCore{&hull, pose}, pose.position - center);
  if (g.distance - radius > margin) return m;
  // The closest point: GJK's, or on the nearest face when GJK calls it touching.
  const Vec3 q = g.distance > 0 ? g.point_b : center;
  m.normal = g.distance > 0 ? normalized_or(q - center, -face_normal_world(b, face))
                            : -face_normal_world(b, face);
  FeatureKind kind;
  int index = 0;
  polytope_feature(b, q, kind, index);
  add_contact_point(m, center + radius * m.normal, q, g.distance - radius,
                    make_feature_id(FeatureKind::None, 0, kind, index));
  return m;
}

/// Capsule core [s0, s1] (world) against face f of a hull whose outward normal
/// n_face is within kHullFaceContactCos of the contact normal: the core
/// clipped by the face's side planes, both ends within margin. False when the
/// clipped core is empty.
PABD_HD_NOINLINE bool capsule_hull_face(Vec3 s0, Vec3 s1, Real radius, const PlacedPolytope& b,
                                        int f, Real margin, ContactManifold& m) {
  const Vec3 n_face = face_normal_world(b, f);
  const int count = hull_face_size(*b.hull, f);
  Real size = 0;
  for (int k = 1; k < count; ++k)
    size = std::fmax(size, length(face_corner(b, f, k) - face_corner(b, f, 0)));
  Real t0 = 0, t1 = 1;
  for (int k = 0; k < count; ++k) {
    const Vec3 r0 = face_corner(b, f, k), r1 = face_corner(b, f, (k + 1) % count);
    const Vec3 side = normalized_or(cross(r1 - r0, n_face), Vec3{});
    const Real limit = dot(side, r0) + kBoxClipSlop * size;
    const Real a = dot(side, s0) - limit, d = dot(side, s1 - s0);
    if (d == 0) {
      if (a > 0) return false;
      continue;
    }
    const Real t = -a / d;
    if (d > 0)
      t1 = t < t1 ? t : t1;
    else
      t0 = t > t0 ? t : t0;
    if (t0 > t1) return false;
  }
  m.count = 0;
  m.normal = -n_face;
  const Real offset = face_offset_world(b, f);
  const Real ts[2] = {t0, t1};
  for (int k = 0; k < (t1 > t0 ? 2 : 1); ++k) {
    const Vec3 p = lerp(s0, s1, ts[k]);
    const Real height = dot(n_face, p) - offset;
    if (height - radius > margin) continue;
    add_contact_point(m, p - radius * n_face, p - height * n_face, height - radius,
                      make_feature_id(FeatureKind::Vertex, k, FeatureKind::Face, f));
  }
  deepest_point_first(m);
  return true;
}

/// Capsule (A) against hull (B).
PABD_HD_NOINLINE ContactManifold collide_capsule_hull(Real radius, Real half_height,
                                                      const ShapePose& pose_a,
                                                      const ConvexHullView& hull,
                                                      const ShapePose& pose_b, Real margin) {
  ContactManifold m;
  const PlacedPolytope b{&hull, pose_b};
  if (length(pose_b.position - pose_a.position) - hull.radius - half_height - radius > margin)
    return m;
  Vec3 s0, s1;
  capsule_segment(half_height, pose_a, s0, s1);
  const SegmentCore core_a{s0, s1};
  const HullCore core_b{&hull, pose_b};
  const GjkResult g = gjk_distance(core_a, core_b, pose_b.position - pose_a.position);
  const Real scale = hull.radius + half_height;
  const CoreSeparation cs = core_separation(core_a, core_b, g, kHullTouchDistance * scale,
                                            pose_b.position - pose_a.position);
  if (cs.apart && cs.separation - radius > margin) return m;
  Vec3 n = cs.normal, qa = cs.point_a, qb = cs.point_b;
  Real core_sep = cs.separation;
  if (!cs.valid) {
    // Flat Minkowski difference (cannot happen for a solid hull): the face axis.
    int face = 0;
    core_sep = hull_face_distance(hull, to_local(pose_b, pose_a.position), face);
    n = -face_normal_world(b, face);
    qa = pose_a.position;
    qb = qa + core_sep * n;
  }
  // A face contact when n is close to a face normal of the hull.
  const int f = hull_face_most_aligned(hull, transpose_times(pose_b.rotation, -n));
  if (dot(face_normal_world(b, f), -n) >= kHullFaceContactCos &&
      capsule_hull_face(s0, s1, radius, b, f, margin, m))
    return m;
  m.count = 0;
  m.normal = n;
  if (core_sep - radius > margin) return m;
  FeatureKind kind;
  int index = 0;
  polytope_feature(b, qb, kind, index);
  add_contact_point(m, qa + radius * n, qb, core_sep - radius,
                    make_feature_id(FeatureKind::Edge, 0, kind, index));
  return m;
}

}  // namespace pabd
