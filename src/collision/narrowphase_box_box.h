// Box-box narrowphase: separating-axis test over the 15 axes, then either a
// face contact (reference face / incident face clipping, up to 4 points) or
// an edge-edge contact (1 point).
//
// Axis choice. The separation along an axis L is |T . L| - r_A(L) - r_B(L)
// (T = c_B - c_A, r = projected half width); the pair is apart by more than
// `margin` if any axis says so. Otherwise the axis of largest separation
// (least penetration) gives the normal, with two biases for stability, so
// that a resting contact does not flip between axes from one step to the next:
// - a face of B replaces the best face of A only when it is better by
//   kBoxFaceSwitchTolerance x scale;
// - an edge axis replaces the chosen face only when it is better by
//   kBoxEdgeRelativeTolerance x |face separation| + kBoxEdgeAbsoluteTolerance x scale
//   (scale = mean of the two boxes' largest half extents).
// The reported depth may therefore exceed the least penetration by at most
// these tolerances. Edge axes of near-parallel edges (sine below
// kBoxParallelEdgeSine) are skipped: their direction is noise, and the face
// axes already separate such boxes.
//
// Face contact. The reference face is the chosen face (of A or B) and the
// incident face is the other box's face most anti-parallel to it. The incident
// quadrilateral is clipped (Sutherland-Hodgman) by the reference face's four
// side planes, each moved out by kBoxClipSlop x that half extent, so that
// incident corners lying on a side plane (equal boxes stacked exactly) stay
// corners under tiny rotations instead of turning into clip points. Each
// surviving point's separation is its height above the reference face; those
// within margin are kept (up to 4, see contact_manifold.h), the point on the
// reference box being the projection onto the reference face. When clipping
// removes the incident box's deepest vertex and the boxes are apart along the
// normal, that vertex is added, paired with the nearest point of the
// reference face, so that the reported gap is never more than the separation
// along the normal (a lower bound of the true distance) plus kBoxClipSlop x
// the reference box's largest half extent. When no clipped point is within
// margin and the boxes are apart along the normal, the closest points lie off
// the reference face (edge and corner neighbours), and the contact is one
// point at GJK's closest points, its normal the line between them, its
// separation the true distance. (An incident box wholly beyond a side plane
// of the reference face, as an edge or corner neighbour lies, is not clipped:
// its clip would end empty, box_beside_face.) When penetrating, that vertex
// is added as a last resort when no clipped point is within margin, and not
// otherwise (it lies beside the reference box, not in it), and the deepest
// point may be shallower than the SAT depth (as in Box2D's polygon clipping).
//
// Feature ids are topological: an incident vertex on the reference face is
// (Face, Vertex), an incident edge crossing a reference face edge is
// (Edge, Edge), a reference face corner inside the incident face is
// (Vertex, Face); A's feature always comes first.
#pragma once

#include "collision/contact_manifold.h"
#include "collision/gjk.h"
#include "shapes/shape_geometry.h"

namespace pabd {

/// A face of B must beat A's best face by this times the scale [-].
inline constexpr Real kBoxFaceSwitchTolerance = Real(1e-3);
/// An edge axis must beat the chosen face by this times |face separation| [-] ...
inline constexpr Real kBoxEdgeRelativeTolerance = Real(0.05);
/// ... plus this times the scale [-].
inline constexpr Real kBoxEdgeAbsoluteTolerance = Real(1e-3);
/// Edge pairs whose cross product is shorter than this (sine of their angle) are skipped.
inline constexpr Real kBoxParallelEdgeSine = Real(1e-6);
/// Side planes of the reference face are moved out by this times their half extent [-].
inline constexpr Real kBoxClipSlop = Real(1e-3);

/// A box in the world frame: centre, axes (unit columns of its rotation), half extents.
struct BoxFrame {
  Vec3 center;
  Vec3 axis[3];
  Real half[3];
};

PABD_HD BoxFrame box_frame(Vec3 half, const ShapePose& pose) {
  BoxFrame b;
  b.center = pose.position;
  for (int i = 0; i < 3; ++i) {
    b.axis[i] = column(pose.rotation, i);
    b.half[i] = get(half, i);
  }
  return b;
}
/// World position of vertex v of a box frame.
PABD_HD Vec3 box_frame_vertex(const BoxFrame& b, int v) {
  Vec3 p = b.center;
  for (int i = 0; i < 3; ++i) p += ((v >> i) & 1 ? b.half[i] : -b.half[i]) * b.axis[i];
  return p;
}

/// A polygon vertex during clipping, with its feature pair and the label of the
/// edge leaving it: an incident box edge (index >= 0) or a reference side plane.
struct ClipVertex {
  Vec3 point;
  FeatureKind ref_kind;
  int ref_index;
  FeatureKind inc_kind;
  int inc_index;
  int out_incident_edge;  ///< incident edge leaving this vertex, or -1
  int out_side_axis;      ///< else: reference side plane (axis, sign) it runs along
  Real out_side_sign;
};

/// A box frame as a GJK core (gjk.h): its support vertex, the + corner on ties.
struct BoxFrameCore {
  const BoxFrame* box;
  PABD_HD Vec3 support(Vec3 d) const {
    Vec3 p = box->center;
    for (int i = 0; i < 3; ++i)
      p += (dot(d, box->axis[i]) >= 0 ? box->half[i] : -box->half[i]) * box->axis[i];
    return p;
  }
};

/// The contact of separated boxes a and b at their closest points (GJK): one
/// point, the normal along the line between them, the separation their
/// distance. False when GJK finds them touching (rounding; the caller keeps
/// its face contact); true with an empty `out` when they are farther apart
/// than margin.
PABD_HD bool box_closest_contact(const BoxFrame& a, const BoxFrame& b, Real margin,
                                 std::uint32_t feature, ContactManifold& out) {
  const GjkResult g = gjk_distance(BoxFrameCore{&a}, BoxFrameCore{&b}, b.center - a.center);
  if (g.overlap || !(g.distance > 0)) return false;
  out = ContactManifold();
  if (g.distance > margin) return true;
  out.normal = (Real(1) / g.distance) * (g.point_b - g.point_a);
  add_contact_point(out, g.point_a, g.point_b, g.distance, feature);
  return true;
}

/// Relative rounding allowance of box_beside_face [-]. The separation it
/// computes and the clip's distances to a side plane are computed in different
/// ways, each off from the exact value by a few units in the last place
/// (about 1e-15) of the centres' coordinates and the boxes' sizes; a clipped
/// vertex, a chain of at most four interpolations of the corners, adds a few
/// more. 1e-9 of those magnitudes leaves six orders to spare, and costs the
/// shortcut only boxes within a nanometre per metre of a side plane.
inline constexpr Real kBesideFaceAllowance = Real(1e-9);

/// True when box `other` lies wholly beyond one side plane of `ref`'s face
/// (axis `axis`, either sign), moved out by the clip's slop, by more than
/// rounding can move a clipped vertex: its separation from ref along that
/// side's axis, as the separating-axis test measures it, is more than the
/// slop. Every vertex the clip makes of the incident face (part of
/// `other`) is a convex combination of its corners, so that plane removes
/// them all and the clip ends empty, as this tells without it being run. An
/// edge or corner neighbour lies so (most of a resting pile's box pairs).
PABD_HD_ALWAYS_INLINE bool box_beside_face(const BoxFrame& ref, const BoxFrame& other, int axis) {
  const Vec3 d = other.center - ref.center;
  for (int k = 1; k < 3; ++k) {
    const int s_axis = (axis + k) % 3;
    const Vec3 u = ref.axis[s_axis];
    // Other's centre between the two side planes: it reaches over the face
    // (a stacked pair's; told with one product, most face pairs' answer).
    const Real centre_beyond = std::fabs(dot(d, u)) - ref.half[s_axis] * (1 + kBoxClipSlop);
    if (!(centre_beyond > 0)) continue;
    const Real beyond = centre_beyond - (other.half[0] * std::fabs(dot(u, other.axis[0])) +
                                         other.half[1] * std::fabs(dot(u, other.axis[1])) +
                                         other.half[2] * std::fabs(dot(u, other.axis[2])));
    if (!(beyond > 0)) continue;
    Real size = 0;
    for (int i = 0; i < 3; ++i) {
      size += std::fabs(get(ref.center, i)) + std::fabs(get(other.center, i)) + ref.half[i] +
              other.half[i];
    }
    if (beyond > kBesideFaceAllowance * size) return true;
  }
  return false;
}

/// Whether box_face_contact may skip the clip when box_beside_face says it
/// would end empty (Off: the clip always runs; the tests compare the two).
enum class ClipShortcut { Allowed, Off };

/// Face contact with `ref` as the reference box (face axis `axis`) and `inc`
/// as the incident box. `ref_is_a` says which of them is shape A.
PABD_HD ContactManifold box_face_contact(const BoxFrame& ref, const BoxFrame& inc, int axis,
                                         bool ref_is_a, Real margin,
                                         ClipShortcut shortcut = ClipShortcut::Allowed) {
  // Told here, not by the caller: inlined into collide_box_box, the test
  // cost every pair 100 instructions more (callgrind, ball_into_stack).
  const bool beside = shortcut == ClipShortcut::Allowed && box_beside_face(ref, inc, axis);
  ContactManifold m;
  // Reference face: its outward normal points toward the incident box.
  const Real ref_sign = sign_nonneg(dot(inc.center - ref.center, ref.axis[axis]));
  const Vec3 n_ref = ref_sign * ref.axis[axis];
  const int ref_face = box_face_index(axis, ref_sign);
  m.normal = ref_is_a ? n_ref : -n_ref;

  // Incident face: the face of `inc` most anti-parallel to n_ref.
  int inc_axis = 0;
  Real best = -1;
  for (int k = 0; k < 3; ++k) {
    const Real c = std::fabs(dot(inc.axis[k], n_ref));
    if (c > best) {
      best = c;
      inc_axis = k;
    }
  }
  const Real inc_sign = dot(inc.axis[inc_axis], n_ref) > 0 ? Real(-1) : Real(1);
  const int inc_face = box_face_index(inc_axis, inc_sign);

  // Incident quadrilateral in cyclic order.
  constexpr int kMaxPoly = 8;  // a quadrilateral gains at most one vertex per clip plane
  ClipVertex poly[kMaxPoly], next[kMaxPoly];
  int count = 4;
  int inc_vertex[4];
  Vec3 inc_corner[4];  // the quadrilateral's corners, kept for the deepest vertex below
  {
    const int p = (inc_axis + 1) % 3, q = (inc_axis + 2) % 3;
    const int base = inc_sign > 0 ? (1 << inc_axis) : 0;
    const int bits_p[4] = {0, 1, 1, 0}, bits_q[4] = {0, 0, 1, 1};
    for (int k = 0; k < 4; ++k) inc_vertex[k] = base | (bits_p[k] << p) | (bits_q[k] << q);
    const int* v = inc_vertex;
    for (int k = 0; k < 4; ++k) {
      ClipVertex& cv = poly[k];
      inc_corner[k] = box_frame_vertex(inc, v[k]);
      cv.point = inc_corner[k];
      cv.ref_kind = FeatureKind::Face;
      cv.ref_index = ref_face;
      cv.inc_kind = FeatureKind::Vertex;
      cv.inc_index = v[k];
      cv.out_incident_edge = box_edge_between(v[k], v[(k + 1) % 4]);
      cv.out_side_axis = -1;
      cv.out_side_sign = 0;
    }
  }

  // An edge or corner neighbour's clip would end empty: it is not run. (Its
  // corners were still copied into poly above: building poly only when
  // clipping made every face pair of ball_into_stack dearer than the copies
  // it saved, callgrind.)
  if (beside) count = 0;
  // Clip by the four side planes of the reference face, from one buffer into
  // the other and back (swapped, not copied).
  ClipVertex* in = poly;
  ClipVertex* clipped = next;
  const int ref_face_vertex_bits = ref_sign > 0 ? (1 << axis) : 0;
  for (int side = 0; side < 4 && count > 0; ++side) {
    const int s_axis = (axis + 1 + side / 2) % 3;
    const Real s_sign = side % 2 ? Real(1) : Real(-1);
    const int other = 3 - axis - s_axis;  // the remaining axis
    const Vec3 plane_n = s_sign * ref.axis[s_axis];
    const Real limit = ref.half[s_axis] * (1 + kBoxClipSlop) + dot(plane_n, ref.center);
    // The reference box edge where the reference face meets this side face.
    const int side_bits = ref_face_vertex_bits | (s_sign > 0 ? (1 << s_axis) : 0);
    const int side_edge = box_edge_through(other, side_bits);
    int out = 0;
    for (int k = 0; k < count; ++k) {
      const ClipVertex& a = in[k];
      const ClipVertex& b = in[(k + 1) % count];
      const Real da = dot(plane_n, a.point) - limit, db = dot(plane_n, b.point) - limit;
      const bool a_in = da <= 0, b_in = db <= 0;
      if (a_in != b_in && out < kMaxPoly) {
        // The crossing point of edge a -> b with the plane.
        ClipVertex x;
        x.point = lerp(a.point, b.point, da / (da - db));
        if (a.out_incident_edge >= 0) {
          x.ref_kind = FeatureKind::Edge;
          x.ref_index = side_edge;
          x.inc_kind = FeatureKind::Edge;
          x.inc_index = a.out_incident_edge;
        } else {
          // Two side planes meet at a corner of the reference face.
          const int corner = side_bits | (a.out_side_sign > 0 ? (1 << a.out_side_axis) : 0);
          x.ref_kind = FeatureKind::Vertex;
          x.ref_index = corner;
          x.inc_kind = FeatureKind::Face;
          x.inc_index = inc_face;
        }
        if (a_in) {
          // Leaving: the next edge runs along this side plane.
          x.out_incident_edge = -1;
          x.out_side_axis = s_axis;
          x.out_side_sign = s_sign;
        } else {
          // Entering: the rest of edge a -> b follows.
          x.out_incident_edge = a.out_incident_edge;
          x.out_side_axis = a.out_side_axis;
          x.out_side_sign = a.out_side_sign;
        }
        clipped[out++] = x;
      }
      if (b_in && out < kMaxPoly) clipped[out++] = b;
    }
    count = out;
    ClipVertex* const done = clipped;
    clipped = in;
    in = done;
  }

  // Heights above the reference face; keep those within margin.
  ContactCandidate cand[kMaxPoly + 1];
  int n = 0;
  const Real face_offset = dot(n_ref, ref.center) + ref.half[axis];
  Real lowest_clipped = 1e300;
  for (int k = 0; k < count; ++k) {
    const Vec3 p = in[k].point;
    const Real sep = dot(n_ref, p) - face_offset;
    lowest_clipped = sep < lowest_clipped ? sep : lowest_clipped;
    if (sep > margin) continue;
    const Vec3 on_ref = p - sep * n_ref;
    ContactCandidate& c = cand[n++];
    c.separation = sep;
    if (ref_is_a) {
      c.world_a = on_ref;
      c.world_b = p;
      c.feature = make_feature_id(in[k].ref_kind, in[k].ref_index, in[k].inc_kind, in[k].inc_index);
    } else {
      c.world_a = p;
      c.world_b = on_ref;
      c.feature = make_feature_id(in[k].inc_kind, in[k].inc_index, in[k].ref_kind, in[k].ref_index);
    }
  }

  // The incident box's deepest vertex, paired with the nearest point of the
  // reference face, when clipping removed it and it lies deeper than every
  // clipped point (beyond the slop), if the boxes are apart along the normal
  // (then the whole incident box lies beyond the reference face's plane, a
  // separating plane, and the point keeps the reported gap no larger than the
  // separation along the normal), or as a last resort when no clipped point
  // is within margin. Not when penetrating otherwise: that vertex lies beside
  // the reference box, not in it.
  int deepest = 0;
  Real lowest = 1e300;
  for (int k = 0; k < 4; ++k) {
    const Real sep = dot(n_ref, inc_corner[k]) - face_offset;
    if (sep < lowest) {
      lowest = sep;
      deepest = k;
    }
  }
  // Apart along the normal with nothing of the incident face over the
  // reference face within margin: the boxes' closest points lie off that
  // face (a pile's edge and corner neighbours), so the face normal is not the
  // direction between them, and a contact along it pushes when the gap along
  // it closes while the boxes pass beside each other (pile_20's first step:
  // 23,246 of its 32,205 pushing pairs were such diagonal neighbours).
  // (Written into m, which box_closest_contact leaves as it was when it
  // returns false: one manifold per call, returned without a copy.)
  if (n == 0 && lowest > 0) {
    const std::uint32_t feature =
        ref_is_a
            ? make_feature_id(FeatureKind::Face, ref_face, FeatureKind::Vertex, inc_vertex[deepest])
            : make_feature_id(FeatureKind::Vertex, inc_vertex[deepest], FeatureKind::Face,
                              ref_face);
    if (box_closest_contact(ref_is_a ? ref : inc, ref_is_a ? inc : ref, margin, feature, m))
      return m;
  }
  const Real ref_scale = std::fmax(ref.half[0], std::fmax(ref.half[1], ref.half[2]));
  if (lowest <= margin &&
      (n == 0 || (lowest > 0 && lowest < lowest_clipped - kBoxClipSlop * ref_scale))) {
    const Vec3 p = inc_corner[deepest];
    Vec3 on_ref = ref.center + ref.half[axis] * n_ref;
    for (int k = 1; k < 3; ++k) {
      const int s_axis = (axis + k) % 3;
      const Real h = ref.half[s_axis];
      on_ref += clamp_real(dot(p - ref.center, ref.axis[s_axis]), -h, h) * ref.axis[s_axis];
    }
    ContactCandidate& c = cand[n++];
    c.separation = lowest;
    c.world_a = ref_is_a ? on_ref : p;
    c.world_b = ref_is_a ? p : on_ref;
    c.feature = ref_is_a ? make_feature_id(FeatureKind::Face, ref_face, FeatureKind::Vertex,
                                           inc_vertex[deepest])
                         : make_feature_id(FeatureKind::Vertex, inc_vertex[deepest],
                                           FeatureKind::Face, ref_face);
  }
  select_contact_points(m, cand, n);
  return m;
}

/// Edge-edge contact along unit axis l (from A to B), edges parallel to A's
/// axis i and B's axis j.
PABD_HD ContactManifold box_edge_contact(const BoxFrame& a, const BoxFrame& b, int i, int j, Vec3 l,
                                         Real margin) {
  ContactManifold m;
  m.normal = l;
  // A's edge farthest along +l, B's edge farthest along -l.
  int va = 0, vb = 0;
  for (int k = 0; k < 3; ++k) {
    if (k != i && dot(a.axis[k], l) > 0) va |= 1 << k;
    if (k != j && dot(b.axis[k], l) < 0) vb |= 1 << k;
  }
  const Vec3 a0 = box_frame_vertex(a, va), a1 = box_frame_vertex(a, va | (1 << i));
  const Vec3 b0 = box_frame_vertex(b, vb), b1 = box_frame_vertex(b, vb | (1 << j));
  Real s, t;
  closest_segment_segment(a0, a1, b0, b1, s, t);
  const Vec3 pa = lerp(a0, a1, s), pb = lerp(b0, b1, t);
  const Real sep = dot(pb - pa, l);
  if (sep > margin) return m;
  add_contact_point(m, pa, pb, sep,
                    make_feature_id(FeatureKind::Edge, box_edge_through(i, va), FeatureKind::Edge,
                                    box_edge_through(j, vb)));
  return m;
}

/// Box (A, half extents half_a) against box (B).
PABD_HD ContactManifold collide_box_box(Vec3 half_a, const ShapePose& pose_a, Vec3 half_b,
                                        const ShapePose& pose_b, Real margin) {
  const BoxFrame a = box_frame(half_a, pose_a), b = box_frame(half_b, pose_b);
  // Rejections return a fresh empty manifold: a named one built up front was
  // zeroed (480 bytes) for every pair, separated or not (perf: 11% of this function).
  // All 15 separations from B's axes in A's frame, r[i][j] = a_i . b_j, and
  // the centres' offset in both frames (Gottschalk's OBB test): 15 dot
  // products in all, instead of 7 per axis projected in the world frame.
  const Vec3 d = b.center - a.center;
  Real r[3][3], abs_r[3][3], ta[3], tb[3];
  for (int i = 0; i < 3; ++i) {
    ta[i] = dot(d, a.axis[i]);
    tb[i] = dot(d, b.axis[i]);
    for (int j = 0; j < 3; ++j) {
      r[i][j] = dot(a.axis[i], b.axis[j]);
      abs_r[i][j] = std::fabs(r[i][j]);
    }
  }
  // Face axes of A, then of B.
  Real best_a = -1e300, best_b = -1e300;
  int face_a = 0, face_b = 0;
  for (int k = 0; k < 3; ++k) {
    const Real sa = std::fabs(ta[k]) - a.half[k] -
                    (b.half[0] * abs_r[k][0] + b.half[1] * abs_r[k][1] + b.half[2] * abs_r[k][2]);
    if (sa > margin) return ContactManifold();
    if (sa > best_a) {
      best_a = sa;
      face_a = k;
    }
    const Real sb = std::fabs(tb[k]) -
                    (a.half[0] * abs_r[0][k] + a.half[1] * abs_r[1][k] + a.half[2] * abs_r[2][k]) -
                    b.half[k];
    if (sb > margin) return ContactManifold();
    if (sb > best_b) {
      best_b = sb;
      face_b = k;
    }
  }
  // Edge axes a_i x b_j, of length sqrt(r[i+1][j]^2 + r[i+2][j]^2) (b_j's
  // part across a_i); T . (a_i x b_j) and the projected half widths in the
  // same terms, then divided by that length.
  Real best_e = -1e300;
  int edge_i = -1, edge_j = -1;
  for (int i = 0; i < 3; ++i) {
    const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
    for (int j = 0; j < 3; ++j) {
      const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      const Real len = std::sqrt(r[i1][j] * r[i1][j] + r[i2][j] * r[i2][j]);
      if (len < kBoxParallelEdgeSine) continue;
      const Real t = std::fabs(ta[i2] * r[i1][j] - ta[i1] * r[i2][j]);
      const Real ra = a.half[i1] * abs_r[i2][j] + a.half[i2] * abs_r[i1][j];
      const Real rb = b.half[j1] * abs_r[i][j2] + b.half[j2] * abs_r[i][j1];
      const Real se = (t - ra - rb) / len;
      if (se > margin) return ContactManifold();
      if (se > best_e) {
        best_e = se;
        edge_i = i;
        edge_j = j;
      }
    }
  }

  // Choose with the biases described at the top of the file.
  const Real scale = Real(0.5) * (std::fmax(a.half[0], std::fmax(a.half[1], a.half[2])) +
                                  std::fmax(b.half[0], std::fmax(b.half[1], b.half[2])));
  const bool use_b = best_b > best_a + kBoxFaceSwitchTolerance * scale;
  const Real face_sep = use_b ? best_b : best_a;
  const bool use_edge =
      edge_i >= 0 && best_e > face_sep + kBoxEdgeRelativeTolerance * std::fabs(face_sep) +
                                  kBoxEdgeAbsoluteTolerance * scale;
  if (!use_edge) {
    return use_b ? box_face_contact(b, a, face_b, false, margin)
                 : box_face_contact(a, b, face_a, true, margin);
  }
  Vec3 edge_l = cross(a.axis[edge_i], b.axis[edge_j]);
  edge_l = (Real(1) / length(edge_l)) * edge_l;
  return box_edge_contact(a, b, edge_i, edge_j, dot(d, edge_l) < 0 ? -edge_l : edge_l, margin);
}

}  // namespace pabd
