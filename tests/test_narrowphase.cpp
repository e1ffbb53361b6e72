// Narrowphase contact manifolds (src/collision/): closed-form cases for every
// pair type, randomised box-box poses against an independent separating-axis
// reference written with Eigen and against GJK/EPA, GJK/EPA as a second
// opinion for the round shapes, A/B symmetry, and feature-id stability of a
// resting box under tiny rotations.
//
// Tolerances used throughout (coordinates are O(1) m):
// - kExact = 1e-12 m: a handful of double operations on O(1) numbers round to
//   ~1e-15 m each; 1e-12 leaves three orders of headroom and is still far
//   below any geometric mistake (which shows at 1e-6 m or more).
// - kGeom = 1e-9 m: for values that go through a longer chain (clipping,
//   segment-segment closest points with divisions by squared lengths, GJK and
//   EPA whose termination tests are relative 1e-12 of squared distances).
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>
#include <vector>

#include "collision/epa.h"
#include "collision/gjk.h"
#include "collision/narrowphase_dispatch.h"
#include "narrowphase_reference.h"

namespace pabd {
namespace {

using namespace narrowphase_test;

constexpr Real kExact = 1e-12;
constexpr Real kGeom = 1e-9;
constexpr Real kPi = std::numbers::pi_v<Real>;
Real min_separation(const ContactManifold& m) {
  Real s = 1e300;
  for (int i = 0; i < m.count; ++i) s = std::min(s, m.points[i].separation);
  return s;
}

void expect_vec_near(Vec3 a, Vec3 b, Real tol) {
  EXPECT_NEAR(a.x, b.x, tol);
  EXPECT_NEAR(a.y, b.y, tol);
  EXPECT_NEAR(a.z, b.z, tol);
}

// Every point: separation = (b - a) . n, and the body-frame points map back.
void expect_consistent(const ContactManifold& m, const ShapePose& pa, const ShapePose& pb) {
  EXPECT_NEAR(length(m.normal), 1, kExact);
  for (int i = 0; i < m.count; ++i) {
    const ContactPoint& c = m.points[i];
    EXPECT_NEAR(dot(c.world_b - c.world_a, m.normal), c.separation, kExact);
    expect_vec_near(to_world(pa, c.local_a), c.world_a, kExact);
    expect_vec_near(to_world(pb, c.local_b), c.world_b, kExact);
  }
}

std::vector<std::uint32_t> sorted_ids(const ContactManifold& m) {
  std::vector<std::uint32_t> ids;
  for (int i = 0; i < m.count; ++i) ids.push_back(m.points[i].feature);
  std::sort(ids.begin(), ids.end());
  return ids;
}

// Closed forms ----------------------------------------------------------------

TEST(Narrowphase, SphereSphereClosedForm) {
  const ShapeDef a = sphere_shape(0.5), b = sphere_shape(0.25);
  const Vec3 n{0.6, 0.8, 0};
  const ShapePose pa = pose_at({1, 2, 3}), pb = pose_at(Vec3{1, 2, 3} + 0.7 * n);
  const ContactManifold m = collide_shapes(a, pa, b, pb, 0.01);
  ASSERT_EQ(m.count, 1);
  expect_vec_near(m.normal, n, kExact);
  EXPECT_NEAR(m.points[0].separation, 0.7 - 0.75, kExact);
  expect_vec_near(m.points[0].world_a, Vec3{1, 2, 3} + 0.5 * n, kExact);
  expect_vec_near(m.points[0].world_b, Vec3{1, 2, 3} + 0.45 * n, kExact);
  expect_consistent(m, pa, pb);
  // Apart by 0.02 m: reported with a 0.03 m margin, not with a 0.01 m one.
  const ShapePose far = pose_at(Vec3{1, 2, 3} + 0.77 * n);
  const ContactManifold s = collide_shapes(a, pa, b, far, 0.03);
  ASSERT_EQ(s.count, 1);
  EXPECT_NEAR(s.points[0].separation, 0.02, kExact);
  EXPECT_EQ(collide_shapes(a, pa, b, far, 0.01).count, 0);
}

TEST(Narrowphase, SpherePlaneClosedForm) {
  // The plane z = 0.5 in its body's frame, carried by a body turned so that
  // body +z is world +y and moved up by 1: the world plane y = 1.5.
  ShapeDef plane = plane_shape({0, 0, 1}, 0.5);
  const ShapePose pp = pose_at({3, 1, -2}, rotation_about({1, 0, 0}, -kPi / 2));
  const ShapeDef ball = sphere_shape(0.3);
  const ShapePose pb = pose_at({0.25, 1.7, 4});
  const ContactManifold m = collide_shapes(plane, pp, ball, pb, 0);
  ASSERT_EQ(m.count, 1);
  expect_vec_near(m.normal, {0, 1, 0}, kExact);
  EXPECT_NEAR(m.points[0].separation, 1.7 - 1.5 - 0.3, kExact);
  expect_vec_near(m.points[0].world_a, {0.25, 1.5, 4}, kExact);
  expect_vec_near(m.points[0].world_b, {0.25, 1.4, 4}, kExact);
  expect_consistent(m, pp, pb);
  // Seen from the ball: the normal points down, into the plane.
  const ContactManifold f = collide_shapes(ball, pb, plane, pp, 0);
  ASSERT_EQ(f.count, 1);
  expect_vec_near(f.normal, {0, -1, 0}, kExact);
  EXPECT_EQ(f.points[0].separation, m.points[0].separation);
}

TEST(Narrowphase, BoxRestingFlatOnPlane) {
  // Dyadic numbers: every corner height is exact in binary, so the
  // separations are exactly -depth.
  const ShapeDef plane = plane_shape({0, 1, 0}, 0);
  const ShapeDef box = box_shape({2, 1, 0.5});
  const Real depth = 0.125;
  const ShapePose pp = pose_at({0, 0, 0}), pb = pose_at({0.25, 0.5 - depth, -1});
  const ContactManifold m = collide_shapes(plane, pp, box, pb, 0.01);
  ASSERT_EQ(m.count, 4);
  EXPECT_EQ(m.normal.y, 1);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(m.points[i].separation, -depth);
    EXPECT_EQ(m.points[i].world_a.y, 0);
    EXPECT_EQ(m.points[i].world_b.y, -depth);
  }
  // The four bottom corners (vertex bit 1 clear: y = -h).
  EXPECT_EQ(sorted_ids(m), (std::vector<std::uint32_t>{
                               make_feature_id(FeatureKind::Face, 0, FeatureKind::Vertex, 0),
                               make_feature_id(FeatureKind::Face, 0, FeatureKind::Vertex, 1),
                               make_feature_id(FeatureKind::Face, 0, FeatureKind::Vertex, 4),
                               make_feature_id(FeatureKind::Face, 0, FeatureKind::Vertex, 5)}));
  expect_consistent(m, pp, pb);

  // The same scene turned as a whole (plane and box by one rotation about a
  // point): same separations up to rounding, normal the turned +y.
  const Mat3 r = rotation_about({1, 2, 3}, 0.7);
  const ShapePose rp = pose_at(r * pp.position, r), rb = pose_at(r * pb.position, r);
  const ContactManifold t = collide_shapes(plane, rp, box, rb, 0.01);
  ASSERT_EQ(t.count, 4);
  expect_vec_near(t.normal, r * Vec3{0, 1, 0}, kExact);
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(t.points[i].separation, -depth, kExact);
  EXPECT_EQ(sorted_ids(t), sorted_ids(m));

  // Tilted by 30 degrees about z: one corner down, the next 1 * sin 30 higher.
  const Mat3 tilt = rotation_about({0, 0, 1}, kPi / 6);
  const ShapePose pt = pose_at({0, 0.9, 0}, tilt);
  const Real low = 0.9 - (1.0 * std::sin(kPi / 6) + 0.5 * std::cos(kPi / 6));
  const ContactManifold c = collide_shapes(plane, pp, box, pt, 0.01);
  ASSERT_EQ(c.count, 2);  // the bottom edge: two corners at the same height
  for (int i = 0; i < 2; ++i) EXPECT_NEAR(c.points[i].separation, low, kExact);
}

TEST(Narrowphase, PlaneCapsuleLyingFlatGivesTwoPoints) {
  const ShapeDef plane = plane_shape({0, 1, 0}, 0);
  const ShapeDef cap = capsule_shape(0.2, 0.5);
  // Axis (local Y) turned onto world x, centre 0.15 up: both ends 0.05 deep.
  const ShapePose pc = pose_at({0, 0.15, 0}, rotation_about({0, 0, 1}, kPi / 2));
  const ContactManifold m = collide_shapes(plane, pose_at({}), cap, pc, 0);
  ASSERT_EQ(m.count, 2);
  for (int i = 0; i < 2; ++i) {
    EXPECT_NEAR(m.points[i].separation, -0.05, kExact);
    EXPECT_NEAR(std::abs(m.points[i].world_b.x), 0.5, kExact);
  }
  expect_consistent(m, pose_at({}), pc);
}

TEST(Narrowphase, BoxOnBoxFaceToFace) {
  // A 2 x 1 x 2 slab at the origin, a unit cube on it sunk 0.01 m, turned 30
  // degrees about the vertical: four points, the cube's bottom corners.
  const ShapeDef slab = box_shape({2, 1, 2}), cube = box_shape({1, 1, 1});
  const ShapePose pa = pose_at({0, 0, 0});
  const Mat3 yaw = rotation_about({0, 1, 0}, kPi / 6);
  const ShapePose pb = pose_at({0.1, 0.99, -0.2}, yaw);
  const ContactManifold m = collide_shapes(slab, pa, cube, pb, 0.02);
  ASSERT_EQ(m.count, 4);
  EXPECT_EQ(m.normal.x, 0);  // the slab's +y face normal, exactly
  EXPECT_EQ(m.normal.y, 1);
  EXPECT_EQ(m.normal.z, 0);
  std::vector<std::uint32_t> want;
  for (int v : {0, 1, 4, 5}) {
    want.push_back(make_feature_id(FeatureKind::Face, 3, FeatureKind::Vertex, v));
  }
  EXPECT_EQ(sorted_ids(m), want);
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(m.points[i].separation, -0.01, kExact);
    EXPECT_NEAR(m.points[i].world_a.y, 0.5, kExact);
    EXPECT_NEAR(ref_box_distance(ref_box({0.5, 0.5, 0.5}, pb), m.points[i].world_b), 0, kExact);
  }
  expect_consistent(m, pa, pb);

  // Two equal cubes stacked exactly: corners on the side planes stay corners.
  const ShapePose p1 = pose_at({0, 0, 0}), p2 = pose_at({0, 0.995, 0});
  const ContactManifold e = collide_shapes(cube, p1, cube, p2, 0.02);
  ASSERT_EQ(e.count, 4);
  std::vector<std::uint32_t> corners;
  for (int v : {0, 1, 4, 5})
    corners.push_back(make_feature_id(FeatureKind::Face, 3, FeatureKind::Vertex, v));
  EXPECT_EQ(sorted_ids(e), corners);
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(e.points[i].separation, -0.005, kExact);

  // A small cube hanging over the slab's edge: clipped by the side plane x = 1
  // (moved out by the clip slop, 1e-3 of the slab's half width 1), two corners
  // and two edge crossings (ids Edge/Edge), all 0.01 deep.
  const ShapePose over = pose_at({1.0, 0.99, 0});
  const ContactManifold o = collide_shapes(slab, pa, cube, over, 0.02);
  ASSERT_EQ(o.count, 4);
  int crossings = 0;
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(o.points[i].separation, -0.01, kExact);
    if ((o.points[i].feature >> 24) == static_cast<std::uint32_t>(FeatureKind::Edge)) {
      ++crossings;
      EXPECT_NEAR(o.points[i].world_b.x, 1.0 + kBoxClipSlop, kExact);
    } else {
      EXPECT_NEAR(o.points[i].world_b.x, 0.5, kExact);
    }
  }
  EXPECT_EQ(crossings, 2);
}

TEST(Narrowphase, EdgeEdgeCrossingBoxes) {
  // Two unit cubes, the lower turned 45 degrees about x (a ridge along x on
  // top, at height sqrt(2)/2), the upper turned 45 degrees about z (a ridge
  // along z below). The ridges cross; depth = sqrt(2) - distance of centres.
  const ShapeDef cube = box_shape({1, 1, 1});
  const Real d = 1.3;
  const ShapePose pa = pose_at({0, 0, 0}, rotation_about({1, 0, 0}, kPi / 4));
  const ShapePose pb = pose_at({0, d, 0}, rotation_about({0, 0, 1}, kPi / 4));
  const ContactManifold m = collide_shapes(cube, pa, cube, pb, 0.01);
  ASSERT_EQ(m.count, 1);
  const Real depth = std::sqrt(2.0) - d;
  EXPECT_NEAR(m.points[0].separation, -depth, kExact);
  expect_vec_near(m.normal, {0, 1, 0}, kExact);
  expect_vec_near(m.points[0].world_a, {0, std::sqrt(0.5), 0}, kExact);
  expect_vec_near(m.points[0].world_b, {0, d - std::sqrt(0.5), 0}, kExact);
  EXPECT_EQ((m.points[0].feature >> 24), static_cast<std::uint32_t>(FeatureKind::Edge));
  EXPECT_EQ((m.points[0].feature >> 8) & 0xff, static_cast<std::uint32_t>(FeatureKind::Edge));
  std::printf("edge-edge: separation %.15f, closed form %.15f\n", m.points[0].separation, -depth);
  expect_consistent(m, pa, pb);
}

TEST(Narrowphase, CapsulesParallelGiveTwoPoints) {
  // Two capsules along x (local Y turned onto x), one on the other, offset
  // 0.4 m along x: points at the two ends of the 0.6 m axial overlap.
  const ShapeDef a = capsule_shape(0.2, 0.5), b = capsule_shape(0.1, 0.5);
  const Mat3 along_x = rotation_about({0, 0, 1}, -kPi / 2);
  const ShapePose pa = pose_at({0, 0, 0}, along_x), pb = pose_at({0.4, 0.28, 0}, along_x);
  const ContactManifold m = collide_shapes(a, pa, b, pb, 0);
  ASSERT_EQ(m.count, 2);
  expect_vec_near(m.normal, {0, 1, 0}, kExact);
  std::vector<Real> xs;
  for (int i = 0; i < 2; ++i) {
    EXPECT_NEAR(m.points[i].separation, 0.28 - 0.3, kExact);
    xs.push_back(m.points[i].world_a.x);
  }
  std::sort(xs.begin(), xs.end());
  EXPECT_NEAR(xs[0], -0.1, kExact);
  EXPECT_NEAR(xs[1], 0.5, kExact);
  expect_consistent(m, pa, pb);

  // Crossing at 90 degrees: one point, at the crossing.
  const ShapePose pc = pose_at({0, 0.28, 0}, rotation_about({1, 0, 0}, kPi / 2));
  const ContactManifold c = collide_shapes(a, pa, b, pc, 0);
  ASSERT_EQ(c.count, 1);
  EXPECT_NEAR(c.points[0].separation, -0.02, kExact);
  expect_vec_near(c.points[0].world_a, {0, 0.2, 0}, kExact);
}

TEST(Narrowphase, CapsuleLyingOnBoxGivesTwoPoints) {
  const ShapeDef cap = capsule_shape(0.1, 0.3), box = box_shape({2, 1, 2});
  const Mat3 along_z = rotation_about({1, 0, 0}, kPi / 2);
  // Shallow (core above the face) and deep (core 0.05 inside the box).
  for (Real height : {0.58, 0.45}) {
    const ShapePose pc = pose_at({0.2, height, 0.1}, along_z), pb = pose_at({});
    const ContactManifold m = collide_shapes(cap, pc, box, pb, 0);
    ASSERT_EQ(m.count, 2) << height;
    expect_vec_near(m.normal, {0, -1, 0}, kExact);
    for (int i = 0; i < 2; ++i) {
      EXPECT_NEAR(m.points[i].separation, height - 0.5 - 0.1, kExact);
      EXPECT_NEAR(m.points[i].world_b.y, 0.5, kExact);
      EXPECT_NEAR(std::abs(m.points[i].world_b.z - 0.1), 0.3, kExact);
    }
    expect_consistent(m, pc, pb);
  }
}

TEST(Narrowphase, SphereBoxInsideAndOutside) {
  const ShapeDef ball = sphere_shape(0.25), box = box_shape({2, 1, 1});
  const Mat3 r = rotation_about({0, 1, 0}, 0.3);
  const ShapePose pb = pose_at({1, 1, 1}, r);
  // Beyond the +x face's edge with +y: closest box point is on the edge.
  const Vec3 local{1.1, 0.6, 0.2};
  const ContactManifold m = collide_shapes(ball, pose_at(to_world(pb, local)), box, pb, 0);
  ASSERT_EQ(m.count, 1);
  EXPECT_NEAR(m.points[0].separation, std::sqrt(0.01 + 0.01) - 0.25, kExact);
  expect_vec_near(m.points[0].world_b, to_world(pb, {1, 0.5, 0.2}), kExact);
  expect_vec_near(m.normal, r * Vec3{-std::sqrt(0.5), -std::sqrt(0.5), 0}, kExact);
  // Centre inside, 0.1 below the +y face: out through that face.
  const Vec3 inside{0.3, 0.4, -0.1};
  const ContactManifold n = collide_shapes(ball, pose_at(to_world(pb, inside)), box, pb, 0);
  ASSERT_EQ(n.count, 1);
  EXPECT_NEAR(n.points[0].separation, -0.1 - 0.25, kExact);
  expect_vec_near(n.normal, r * Vec3{0, -1, 0}, kExact);
}

// Randomised box-box poses ----------------------------------------------------

// A random box pair near contact: half extents in [0.1, 1] m, random
// orientations, B's centre at a random direction and distance from A's.
struct BoxPair {
  Vec3 half_a, half_b;
  ShapePose pa, pb;
};
BoxPair random_box_pair(Rng& rng) {
  BoxPair p;
  p.half_a = {rng.uniform(0.1, 1), rng.uniform(0.1, 1), rng.uniform(0.1, 1)};
  p.half_b = {rng.uniform(0.1, 1), rng.uniform(0.1, 1), rng.uniform(0.1, 1)};
  p.pa = pose_at({rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)}, rng.rotation());
  const Real reach = length(p.half_a) + length(p.half_b);
  p.pb = pose_at(p.pa.position + rng.uniform(0, reach) * rng.direction(), rng.rotation());
  return p;
}

// Edge and corner neighbours in a pile (boxes 1 mm apart): the closest
// points are on their edges or corners, so the contact is one point there,
// along the diagonal, at the true distance (sqrt 2 or sqrt 3 mm), not a face
// contact along an axis at 1 mm that pushes when they slide past each other.
TEST(Narrowphase, EdgeAndCornerNeighboursTouchAtTheirClosestPoints) {
  const Vec3 half{0.5, 0.5, 0.5};
  const ShapePose a{{0, 0.5005, 0}, identity3()};
  struct Case {
    Vec3 offset;  // of B's centre from A's
    Vec3 normal;  // expected, from A to B
    double distance;
  };
  const double r2 = 1 / std::sqrt(2.0), r3 = 1 / std::sqrt(3.0);
  const Case cases[] = {
      {{1.001, 1.001, 0}, {r2, r2, 0}, 0.001 * std::sqrt(2.0)},
      {{0, 1.001, -1.001}, {0, r2, -r2}, 0.001 * std::sqrt(2.0)},
      {{-1.001, 0, 1.001}, {-r2, 0, r2}, 0.001 * std::sqrt(2.0)},
      {{1.001, 1.001, 1.001}, {r3, r3, r3}, 0.001 * std::sqrt(3.0)},
  };
  for (const Case& c : cases) {
    const ShapePose b{a.position + c.offset, identity3()};
    const ContactManifold m = collide_shapes(box_shape(2 * half), a, box_shape(2 * half), b, 0.01);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(length(m.normal - c.normal), 0, kGeom);
    EXPECT_NEAR(m.points[0].separation, c.distance, kGeom);
    EXPECT_NEAR(length(m.points[0].world_b - m.points[0].world_a), c.distance, kGeom);
    // Farther apart than the margin along the diagonal (13.5 or 13.9 mm),
    // though within it along each axis (9.6 or 8 mm): no contact.
    const ShapePose far{a.position + c.offset + 0.007 * c.normal * std::sqrt(3.0), identity3()};
    EXPECT_EQ(collide_shapes(box_shape(2 * half), a, box_shape(2 * half), far, 0.01).count, 0);
  }
}

/// True when unit n is parallel to one of the 15 separating axes of boxes a
/// and b (their face normals and the cross products of their edges).
bool on_sat_axis(const Eigen::Vector3d& n, const RefBox& a, const RefBox& b) {
  auto parallel = [&](const Eigen::Vector3d& l) {
    return l.norm() > 1e-6 && n.cross(l.normalized()).norm() <= 1e-9;
  };
  for (int i = 0; i < 3; ++i) {
    if (parallel(a.r.col(i)) || parallel(b.r.col(i))) return true;
    for (int j = 0; j < 3; ++j)
      if (parallel(a.r.col(i).cross(b.r.col(j)))) return true;
  }
  return false;
}

TEST(Narrowphase, RandomBoxPairsAgreeWithSatAndGjkEpa) {
  Rng rng(20261127);
  const Real margin = 0.05;
  constexpr int kWanted = 4000;
  int accepted = 0, overlapping = 0, apart_beyond_margin = 0, tries = 0;
  int unique_axis = 0, face_contacts = 0, edge_contacts = 0, exact_depth = 0;
  int deep_points = 0, deep_points_exact = 0, apart_points = 0, apart_off_normal = 0;
  double worst_axis_bias = 0, worst_epa = 0, worst_normal = 0, worst_surface = 0;
  double worst_shallower = 0, worst_incident = 0, worst_gap_excess = -1;
  int closest_contacts = 0, beyond_margin_by_distance = 0;
  double worst_closest = 0;
  while (accepted < kWanted) {
    ++tries;
    const BoxPair p = random_box_pair(rng);
    const RefBox ra = ref_box(p.half_a, p.pa), rb = ref_box(p.half_b, p.pb);
    const RefSat ref = ref_sat(ra, rb);
    const ContactManifold m =
        collide_shapes(box_shape(2 * p.half_a), p.pa, box_shape(2 * p.half_b), p.pb, margin);
    if (ref.sep > margin) {
      // Some axis separates them by more than the margin: nothing to report.
      EXPECT_EQ(m.count, 0);
      ++apart_beyond_margin;
      continue;
    }
    // Keep contact-like depths, up to 0.15 m (less than the thinnest box, 0.2 m).
    if (ref.sep < -0.15) continue;
    ++accepted;
    if (ref.sep < 0) ++overlapping;
    const Real scale = 0.5 * (std::max({p.half_a.x, p.half_a.y, p.half_a.z}) +
                              std::max({p.half_b.x, p.half_b.y, p.half_b.z}));
    // The axis-choice bias allowed by narrowphase_box_box.h (faces favoured).
    const Real bias = kBoxEdgeRelativeTolerance * std::abs(ref.sep) +
                      (kBoxEdgeAbsoluteTolerance + kBoxFaceSwitchTolerance) * scale;

    // GJK/EPA on the same boxes: the SAT minimum is the exact penetration of
    // two boxes (their Minkowski difference has exactly these 15 face normals)
    // and a lower bound on their distance when apart.
    const BoxCore ca{p.half_a, p.pa}, cb{p.half_b, p.pb};
    const ConvexSeparation g = gjk_epa_separation(ca, 0, cb, 0, p.pb.position - p.pa.position);
    if (ref.sep < 0) {
      EXPECT_NEAR(g.sep, ref.sep, kGeom);
      worst_epa = std::max(worst_epa, std::abs(g.sep - ref.sep));
    } else {
      EXPECT_GE(g.sep, ref.sep - kGeom);
    }

    // Within margin along every axis but farther apart than the margin (the
    // axes only bound the distance from below): a closest-point contact is
    // not reported (an edge contact, along its axis, still may be).
    if (g.sep > margin + kGeom && m.count == 0) {
      ++beyond_margin_by_distance;
      continue;
    }
    // Within margin: at least one point.
    ASSERT_GE(m.count, 1);
    expect_consistent(m, p.pa, p.pb);
    const Eigen::Vector3d n = to_eigen(m.normal);
    // Apart with nothing of the incident face over the reference face, the
    // contact is one point at the boxes' closest points (narrowphase_box_box.h):
    // its normal none of the 15 axes, its separation the true distance (GJK,
    // computed independently above), both points on their boxes' surfaces
    // and the normal the line between them.
    if (!on_sat_axis(n, ra, rb)) {
      ++closest_contacts;
      EXPECT_GT(ref.sep, 0);
      ASSERT_EQ(m.count, 1);
      const ContactPoint& c = m.points[0];
      EXPECT_NEAR(c.separation, g.sep, kGeom);
      EXPECT_NEAR(ref_box_distance(ra, c.world_a), 0, kGeom);
      EXPECT_NEAR(ref_box_distance(rb, c.world_b), 0, kGeom);
      EXPECT_NEAR((to_eigen(c.world_b - c.world_a) - c.separation * n).norm(), 0, kGeom);
      worst_closest = std::max(worst_closest, std::abs(c.separation - g.sep));
      continue;
    }
    // The normal is one of the 15 axes, oriented from A to B, and its
    // separation is within the bias of the best.
    const double sep_n = ref_axis_separation(ra, rb, n);
    EXPECT_LE(sep_n, ref.sep + kGeom);
    EXPECT_GE(sep_n, ref.sep - bias - kGeom);
    EXPECT_GE(n.dot(rb.c - ra.c), -kGeom);
    worst_axis_bias = std::max(worst_axis_bias, ref.sep - sep_n);
    if (ref.runner_up < ref.sep - bias) {
      // A unique best axis (beyond the bias): the normal must be it.
      ++unique_axis;
      EXPECT_NEAR((n - ref.axis).norm(), 0, kSameAxis);
      worst_normal = std::max(worst_normal, (n - ref.axis).norm());
      if (ref.sep < 0 && g.normal_defined) {
        EXPECT_NEAR((to_eigen(g.normal) - ref.axis).norm(), 0, 1e-6);
      }
    }
    // No point is deeper than the separation along the normal; points[0] is
    // the deepest. Apart, the deepest point reaches that separation within
    // the clip slop (narrowphase_box_box.h adds the clipped-away deepest
    // vertex), so the reported gap never exceeds the true distance (GJK) by
    // more. Penetrating, clipping may drop that vertex (it lies beside the
    // reference face) and the deepest point is shallower (counted), but an
    // overlap is always reported as one.
    const Real deepest = min_separation(m);
    EXPECT_GE(deepest, sep_n - kGeom);
    EXPECT_EQ(m.points[0].separation, deepest);
    const Real clip_tol = kBoxClipSlop * std::max(std::max({p.half_a.x, p.half_a.y, p.half_a.z}),
                                                  std::max({p.half_b.x, p.half_b.y, p.half_b.z}));
    if (ref.sep > 0) {
      EXPECT_LE(deepest, sep_n + clip_tol + kGeom);
      EXPECT_LE(deepest, g.sep + clip_tol + kGeom);
      worst_gap_excess = std::max(worst_gap_excess, deepest - g.sep);
    } else if (ref.sep < -kGeom) {
      EXPECT_LT(deepest, 0);
    }
    if (deepest <= sep_n + kGeom) ++exact_depth;
    worst_shallower = std::max(worst_shallower, deepest - sep_n);

    // A face contact has a face normal of its reference box as the normal
    // (if both boxes have it, either serves); an edge contact neither.
    bool face_a = false, face_b = false;
    for (int k = 0; k < 3; ++k) {
      if (std::abs(std::abs(n.dot(ra.r.col(k))) - 1) <= kExact) face_a = true;
      if (std::abs(std::abs(n.dot(rb.r.col(k))) - 1) <= kExact) face_b = true;
    }
    const bool edge = !face_a && !face_b;
    const bool a_is_ref = face_a || edge;
    edge ? ++edge_contacts : ++face_contacts;

    for (int i = 0; i < m.count; ++i) {
      const ContactPoint& c = m.points[i];
      // Each point lies on its own box's surface: exactly for points on the
      // incident box; within the clip slop (1e-3 of the face half extent) for
      // projections onto the reference face, which may overhang its sides
      // (beyond two side planes at a corner: sqrt(2) times that).
      const Real slop = std::sqrt(2.0) * kBoxClipSlop *
                        std::max(std::max({p.half_a.x, p.half_a.y, p.half_a.z}),
                                 std::max({p.half_b.x, p.half_b.y, p.half_b.z}));
      const double sa = ref_box_distance(ra, c.world_a), sb = ref_box_distance(rb, c.world_b);
      EXPECT_NEAR(sa, 0, slop + kGeom);
      EXPECT_NEAR(sb, 0, slop + kGeom);
      worst_surface = std::max({worst_surface, std::abs(sa), std::abs(sb)});
      // Independent separation: signed distance from the point on one box to
      // the other box (from the incident point to the reference box for a
      // face contact). When the pair of points lies along the normal (clipped
      // face points, crossing edges) and the boxes are apart, it is the
      // separation (up to the slop overhang). Penetrating, it lies between the
      // separation (the reference face may not be the nearest face to that
      // point) and 0.
      const Vec3 inc = a_is_ref ? c.world_b : c.world_a;
      const double sd = a_is_ref ? ref_box_distance(ra, inc) : ref_box_distance(rb, inc);
      const bool along_normal = length(c.world_b - c.world_a) <= std::abs(c.separation) + kGeom;
      if (c.separation >= 0) {
        EXPECT_GE(sd, c.separation - kGeom)
            << "trial " << tries << " point " << i << " edge " << edge;
        if (along_normal) {
          ++apart_points;
          EXPECT_NEAR(sd, c.separation, slop + kGeom);
          if (edge) {
            EXPECT_NEAR(ref_box_distance(rb, c.world_a), c.separation, kGeom);
          }
          worst_incident = std::max(worst_incident, std::abs(sd - c.separation));
        } else {
          ++apart_off_normal;
        }
      } else if (along_normal) {
        EXPECT_GE(sd, c.separation - slop - kGeom);
        EXPECT_LE(sd, slop + kGeom);
        ++deep_points;
        if (std::abs(sd - c.separation) <= kGeom) ++deep_points_exact;
      }
    }
  }
  std::printf(
      "box-box: %d pairs within margin (%d overlapping) of %d tries, %d apart beyond margin\n"
      "  face contacts %d, edge contacts %d; unique best axis in %d, normal error <= %.2g\n"
      "  EPA depth vs SAT reference <= %.2g m; chosen axis below the best by <= %.3g m\n"
      "  deepest point = separation along the normal in %d of %d (else shallower by <= %.3g m)\n"
      "  apart: deepest point's separation minus the true distance (GJK) <= %.3g m\n"
      "  points off their surfaces <= %.2g m\n"
      "  apart, points along the normal: %d, distance vs separation <= %.2g m; off the normal: %d\n"
      "  penetrating points whose distance to the reference box equals the separation: %d of %d\n"
      "  closest-point contacts %d, separation vs GJK distance <= %.2g m; none where the "
      "distance exceeds the margin: %d\n",
      accepted, overlapping, tries, apart_beyond_margin, face_contacts, edge_contacts, unique_axis,
      worst_normal, worst_epa, worst_axis_bias, exact_depth, accepted, worst_shallower,
      worst_gap_excess, worst_surface, apart_points, worst_incident, apart_off_normal,
      deep_points_exact, deep_points, closest_contacts, worst_closest, beyond_margin_by_distance);
  // Random boxes apart within margin often have no face over another's face.
  EXPECT_GT(closest_contacts, 0);
}

// Symmetry ----------------------------------------------------------------------

// Swapping A and B negates the normal and keeps the separations; for box-box
// the manifold is the same point set with A and B exchanged, except where the
// best faces of A and B tie within kBoxFaceSwitchTolerance (then each call
// keeps its own first box's face, by design).
TEST(Narrowphase, SwappingShapesFlipsNormalAndKeepsDepths) {
  Rng rng(7);
  const Real margin = 0.05;
  int compared = 0, ties = 0;
  double worst = 0;
  for (int trial = 0; compared < 2000; ++trial) {
    const BoxPair p = random_box_pair(rng);
    const ShapeDef a = box_shape(2 * p.half_a), b = box_shape(2 * p.half_b);
    const ContactManifold ab = collide_shapes(a, p.pa, b, p.pb, margin);
    const ContactManifold ba = collide_shapes(b, p.pb, a, p.pa, margin);
    ASSERT_EQ(ab.count > 0, ba.count > 0);
    if (ab.count == 0) continue;
    ++compared;
    const RefBox ra = ref_box(p.half_a, p.pa), rb = ref_box(p.half_b, p.pb);
    double face_a = -1e300, face_b = -1e300;
    for (int k = 0; k < 3; ++k) {
      face_a = std::max(face_a, ref_axis_separation(ra, rb, ra.r.col(k)));
      face_b = std::max(face_b, ref_axis_separation(ra, rb, rb.r.col(k)));
    }
    const Real scale = 0.5 * (std::max({p.half_a.x, p.half_a.y, p.half_a.z}) +
                              std::max({p.half_b.x, p.half_b.y, p.half_b.z}));
    if (std::abs(face_a - face_b) <= kBoxFaceSwitchTolerance * scale + kGeom) {
      ++ties;
      continue;
    }
    ASSERT_EQ(ab.count, ba.count);
    expect_vec_near(ba.normal, -ab.normal, kExact);
    for (int i = 0; i < ab.count; ++i) {
      // The same point, found by its swapped feature id.
      int j = 0;
      while (j < ba.count && ba.points[j].feature != swapped_feature_id(ab.points[i].feature)) ++j;
      ASSERT_LT(j, ba.count) << "feature " << ab.points[i].feature << " missing after the swap";
      EXPECT_NEAR(ba.points[j].separation, ab.points[i].separation, kExact);
      expect_vec_near(ba.points[j].world_a, ab.points[i].world_b, kExact);
      expect_vec_near(ba.points[j].world_b, ab.points[i].world_a, kExact);
      worst = std::max(worst, std::abs(ba.points[j].separation - ab.points[i].separation));
    }
  }
  std::printf(
      "swap symmetry: %d box pairs compared, %d face ties skipped, separations differ <= %.2g m\n",
      compared, ties, worst);
  EXPECT_LT(ties, compared / 10);  // ties are rare in random poses; they must not hide every case

  // Every other type pair through the dispatcher (box-box is above): the
  // normal flips and the deepest separation stays; pairs of different types
  // go through one pair function, flipped, so their manifolds match exactly.
  const ShapeDef shapes[4] = {plane_shape({0, 1, 0}, 0), sphere_shape(0.3), capsule_shape(0.2, 0.4),
                              box_shape({0.6, 0.4, 0.8})};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      if (i == j && (i == 0 || i == 3)) continue;
      int hits = 0;
      for (int trial = 0; trial < 400; ++trial) {
        const ShapePose pa =
            pose_at(Vec3{0, 0.2, 0} + rng.uniform(0, 0.6) * rng.direction(), rng.rotation());
        const ShapePose pb =
            pose_at(Vec3{0, 0.2, 0} + rng.uniform(0, 0.6) * rng.direction(), rng.rotation());
        const ContactManifold ab = collide_shapes(shapes[i], pa, shapes[j], pb, margin);
        const ContactManifold ba = collide_shapes(shapes[j], pb, shapes[i], pa, margin);
        ASSERT_EQ(ab.count > 0, ba.count > 0) << i << " " << j;
        if (ab.count == 0) continue;
        ++hits;
        expect_vec_near(ba.normal, -ab.normal, kGeom);
        EXPECT_NEAR(min_separation(ba), min_separation(ab), kGeom) << i << " " << j;
        expect_consistent(ab, pa, pb);
        expect_consistent(ba, pb, pa);
        if (i != j) {
          ASSERT_EQ(ab.count, ba.count);
          for (int k = 0; k < ab.count; ++k) {
            EXPECT_EQ(ba.points[k].feature, swapped_feature_id(ab.points[k].feature));
            EXPECT_EQ(ba.points[k].separation, ab.points[k].separation);
          }
        }
      }
      EXPECT_GT(hits, 20) << "pair " << i << " " << j << " barely tested";
    }
}

// Stability -----------------------------------------------------------------------

// A box resting on a box keeps its point count and feature ids when turned by
// random 1e-6 rad rotations (friction anchors and warm starts persist).
// The same manifold, bit for bit (the clip shortcut must change nothing).
void expect_same_bits(const ContactManifold& m, const ContactManifold& ref) {
  ASSERT_EQ(m.count, ref.count);
  EXPECT_EQ(m.normal.x, ref.normal.x);
  EXPECT_EQ(m.normal.y, ref.normal.y);
  EXPECT_EQ(m.normal.z, ref.normal.z);
  for (int i = 0; i < m.count; ++i) {
    const ContactPoint &p = m.points[i], &q = ref.points[i];
    EXPECT_EQ(p.feature, q.feature);
    EXPECT_EQ(p.separation, q.separation);
    for (const auto& [u, v] : {std::pair{p.world_a, q.world_a}, std::pair{p.world_b, q.world_b}}) {
      EXPECT_EQ(u.x, v.x);
      EXPECT_EQ(u.y, v.y);
      EXPECT_EQ(u.z, v.z);
    }
  }
}

// box_face_contact skips the clip of a box that box_beside_face finds beside
// the reference face (a pile's edge and corner neighbours). Boxes of random
// sizes and turns are put beside a box's edges and corners, some of them
// within 1e-12 to 1e-6 m of the clip's side planes, where a wrong rounding
// allowance would skip a clip that keeps a point: every face contact with the
// shortcut must equal the one clipped in full, to the bit.
TEST(Narrowphase, ClipShortcutOfBoxesBesideAFaceKeepsTheSameManifold) {
  Rng rng(20261129);
  const Real margin = 0.02;
  int beside = 0, beside_with_points = 0, faces = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const Vec3 half_a{rng.uniform(0.1, 1), rng.uniform(0.1, 1), rng.uniform(0.1, 1)};
    const Vec3 half_b{rng.uniform(0.1, 1), rng.uniform(0.1, 1), rng.uniform(0.1, 1)};
    // Far from the origin now and then: the allowance scales with the coordinates.
    const Vec3 centre_a = (trial % 4 == 0 ? 1000.0 : 1.0) * rng.direction();
    const Mat3 turn_a = rng.rotation();
    // B turned a little (a pile) or anyhow.
    const Mat3 turn_b = trial % 2 ? turn_a : rng.rotation();
    const BoxFrame a = box_frame(half_a, pose_at(centre_a, turn_a));
    // B's centre beyond A's faces along two or three of A's axes (an edge or
    // corner neighbour) or one (a face neighbour), by its projected extent
    // plus a gap: random, or the side planes' slop and a hair more or less.
    Vec3 offset{0, 0, 0};
    const int along = 1 + trial % 3;
    for (int k = 0; k < along; ++k) {
      const int axis = (trial / 3 + k) % 3;
      Real extent = 0;
      for (int j = 0; j < 3; ++j)
        extent += get(half_b, j) * std::fabs(dot(a.axis[axis], column(turn_b, j)));
      const Real hairs[] = {1e-12, -1e-12, 1e-9, -1e-9, 1e-6, -1e-6};
      const Real gap = trial % 5 == 0 ? kBoxClipSlop * get(half_a, axis) + hairs[trial / 5 % 6]
                                      : rng.uniform(-0.01, 0.03);
      offset +=
          (rng.uniform(0, 1) < 0.5 ? -1 : 1) * (get(half_a, axis) + extent + gap) * a.axis[axis];
    }
    const BoxFrame b = box_frame(half_b, pose_at(centre_a + offset, turn_b));
    for (int axis = 0; axis < 3; ++axis) {
      for (const bool ref_is_a : {true, false}) {
        const BoxFrame& ref = ref_is_a ? a : b;
        const BoxFrame& inc = ref_is_a ? b : a;
        const ContactManifold clipped =
            box_face_contact(ref, inc, axis, ref_is_a, margin, ClipShortcut::Off);
        const ContactManifold shortcut =
            box_face_contact(ref, inc, axis, ref_is_a, margin, ClipShortcut::Allowed);
        expect_same_bits(shortcut, clipped);
        ++faces;
        if (box_beside_face(ref, inc, axis)) {
          ++beside;
          beside_with_points += clipped.count > 0;
        }
      }
    }
  }
  // Not vacuous: a good share of the faces took the shortcut, and some of
  // those kept a point (GJK's closest points, or the deepest vertex).
  EXPECT_GT(beside, faces / 10);
  EXPECT_GT(beside_with_points, 100);
  std::printf("faces %d, beside %d, of them with points %d\n", faces, beside, beside_with_points);
}

TEST(Narrowphase, RestingBoxKeepsFeatureIdsUnderTinyRotations) {
  struct Stack {
    const char* name;
    Vec3 size_a, size_b;
    Mat3 turn_b;
    Real gap;  // top box's bottom above the lower box's top [m] (< 0: sunk)
  };
  const Stack stacks[] = {
      {"cube on slab", {2, 1, 2}, {1, 1, 1}, identity3(), -1e-3},
      {"equal cubes, flush", {1, 1, 1}, {1, 1, 1}, identity3(), -1e-3},
      {"cube turned 30 deg", {2, 1, 2}, {1, 1, 1}, rotation_about({0, 1, 0}, kPi / 6), -1e-3},
      {"slab on cube", {1, 1, 1}, {2, 1, 2}, identity3(), -1e-3},
      {"cube on slab, speculative", {2, 1, 2}, {1, 1, 1}, identity3(), 1e-3},
      {"equal cubes, speculative", {1, 1, 1}, {1, 1, 1}, identity3(), 1e-3},
  };
  Rng rng(99);
  for (const Stack& st : stacks) {
    const ShapeDef a = box_shape(st.size_a), b = box_shape(st.size_b);
    const ShapePose pa = pose_at({0.1, -0.2, 0.3});
    const Vec3 top{0.1, -0.2 + 0.5 * (st.size_a.y + st.size_b.y) + st.gap, 0.3};
    const ContactManifold base = collide_shapes(a, pa, b, pose_at(top, st.turn_b), 0.01);
    ASSERT_EQ(base.count, 4) << st.name;
    const std::vector<std::uint32_t> ids = sorted_ids(base);
    int same = 0;
    for (int trial = 0; trial < 1000; ++trial) {
      const Mat3 wobble = rotation_about(rng.direction(), 1e-6);
      const ContactManifold m = collide_shapes(a, pa, b, pose_at(top, wobble * st.turn_b), 0.01);
      EXPECT_EQ(m.count, 4) << st.name;
      EXPECT_EQ(sorted_ids(m), ids) << st.name;
      for (int i = 0; i < m.count; ++i) {
        // A 1e-6 rad turn moves points of a 1 m box by ~1e-6 m.
        EXPECT_NEAR(m.points[i].separation, st.gap, 2e-6) << st.name;
      }
      if (m.count == 4 && sorted_ids(m) == ids) ++same;
    }
    std::printf("%-26s: same 4 feature ids in %d of 1000 perturbed poses\n", st.name, same);
  }
}

// GJK/EPA second opinion for round shapes ------------------------------------------

TEST(Narrowphase, RoundShapesAgreeWithGjkEpa) {
  enum Kind { kSphere, kCapsule, kBox };
  struct Shape {
    ShapeDef def;
    ShapePose pose;
  };
  Rng rng(31);
  auto random_shape = [&](Kind k, Vec3 center) {
    Shape s;
    if (k == kSphere) s.def = sphere_shape(rng.uniform(0.1, 0.8));
    if (k == kCapsule) s.def = capsule_shape(rng.uniform(0.1, 0.6), rng.uniform(0.1, 1.0));
    if (k == kBox)
      s.def = box_shape({rng.uniform(0.2, 2), rng.uniform(0.2, 2), rng.uniform(0.2, 2)});
    s.pose = pose_at(center, rng.rotation());
    return s;
  };
  auto separation = [](const Shape& a, const Shape& b) {
    const Vec3 guess = b.pose.position - a.pose.position;
    auto with_b = [&](const auto& core_a, Real ra) {
      if (b.def.type == ShapeType::Sphere)
        return gjk_epa_separation(core_a, ra, PointCore{b.pose.position}, b.def.radius, guess);
      if (b.def.type == ShapeType::Capsule) {
        SegmentCore s;
        capsule_segment(b.def.half_height, b.pose, s.a, s.b);
        return gjk_epa_separation(core_a, ra, s, b.def.radius, guess);
      }
      return gjk_epa_separation(core_a, ra, BoxCore{0.5 * b.def.size, b.pose}, 0, guess);
    };
    if (a.def.type == ShapeType::Sphere) return with_b(PointCore{a.pose.position}, a.def.radius);
    SegmentCore s;
    capsule_segment(a.def.half_height, a.pose, s.a, s.b);
    return with_b(s, a.def.radius);
  };
  const Kind pairs[5][2] = {{kSphere, kSphere},
                            {kSphere, kCapsule},
                            {kSphere, kBox},
                            {kCapsule, kCapsule},
                            {kCapsule, kBox}};
  const char* names[5] = {"sphere-sphere", "sphere-capsule", "sphere-box", "capsule-capsule",
                          "capsule-box"};
  const Real margin = 0.05;
  for (int k = 0; k < 5; ++k) {
    int accepted = 0, deep = 0, exact = 0;
    double worst = 0, worst_normal = 0, worst_deep_bias = 0;
    while (accepted < 1000) {
      const Shape a = random_shape(pairs[k][0], {0, 0, 0});
      const Shape b = random_shape(pairs[k][1], rng.uniform(0, 2.5) * rng.direction());
      const ConvexSeparation g = separation(a, b);
      // Contact-like depths: the cores at most 0.15 m into each other.
      const Real radii = (pairs[k][0] == kSphere || pairs[k][0] == kCapsule ? a.def.radius : 0) +
                         (pairs[k][1] == kBox ? 0 : b.def.radius);
      if (g.sep > margin || g.sep < -0.15 - radii) continue;
      ++accepted;
      const ContactManifold m = collide_shapes(a.def, a.pose, b.def, b.pose, margin);
      ASSERT_GE(m.count, 1) << names[k];
      expect_consistent(m, a.pose, b.pose);
      const Real got = min_separation(m);
      const bool cores_overlap = g.sep < -radii;
      if (pairs[k][0] == kCapsule && pairs[k][1] == kBox && cores_overlap) {
        // A capsule core inside the box: narrowphase_box.h picks a face
        // normal unless an edge axis is better by the box-box edge bias, so
        // the reported depth may exceed the true one (EPA) by that bias; the
        // clipped segment may also stop short of the deepest end (shallower).
        // The overlap is always reported as a penetration.
        ++deep;
        const Real scale = std::max({b.def.size.x, b.def.size.y, b.def.size.z}) / 2;
        const Real bias =
            kBoxEdgeRelativeTolerance * std::abs(g.sep) + kBoxEdgeAbsoluteTolerance * scale;
        EXPECT_GE(got, g.sep - bias - kGeom) << names[k];
        EXPECT_LT(got, 0) << names[k];
        worst_deep_bias = std::max(worst_deep_bias, g.sep - got);
      } else {
        // Cores apart, or round cores: closest points of the cores are exact.
        EXPECT_NEAR(got, g.sep, kGeom) << names[k];
        if (g.normal_defined && !cores_overlap) {
          EXPECT_NEAR(length(m.normal - g.normal), 0, 1e-6) << names[k];
          worst_normal = std::max(worst_normal, static_cast<double>(length(m.normal - g.normal)));
        }
      }
      if (std::abs(got - g.sep) <= kGeom) ++exact;
      worst = std::max(worst, std::abs(got - g.sep));
    }
    std::printf("%-15s: %d poses, separation = GJK/EPA in %d, worst difference %.3g m, normal %.2g",
                names[k], accepted, exact, worst, worst_normal);
    if (deep > 0)
      std::printf("; core inside the box in %d, deeper than EPA by <= %.3g m", deep,
                  worst_deep_bias);
    std::printf("\n");
  }
}

// Nearly parallel capsules (two points) against GJK: the deepest of the two
// points is the true separation, and both lie on their capsules' surfaces.
TEST(Narrowphase, NearlyParallelCapsulesAgreeWithGjk) {
  Rng rng(5);
  int two = 0, one = 0;
  double worst = 0, worst_surface = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const ShapeDef a = capsule_shape(rng.uniform(0.1, 0.4), rng.uniform(0.2, 1.0));
    const ShapeDef b = capsule_shape(rng.uniform(0.1, 0.4), rng.uniform(0.2, 1.0));
    const Mat3 ra = rng.rotation();
    // Within 0.045 rad (sine below kCapsuleParallelSine = 0.05) of parallel.
    const Mat3 rb = rotation_about(rng.direction(), rng.uniform(0, 0.045)) * ra;
    const Vec3 across = normalized_or(cross(column(ra, 1), rng.direction()), Vec3{1, 0, 0});
    const Vec3 offset = rng.uniform(-1.5, 1.5) * column(ra, 1) +
                        (a.radius + b.radius + rng.uniform(-0.1, 0.04)) * across;
    const ShapePose pa = pose_at({0.3, -0.1, 0.2}, ra),
                    pb = pose_at(Vec3{0.3, -0.1, 0.2} + offset, rb);
    SegmentCore ca, cb;
    capsule_segment(a.half_height, pa, ca.a, ca.b);
    capsule_segment(b.half_height, pb, cb.a, cb.b);
    const ConvexSeparation g = gjk_epa_separation(ca, a.radius, cb, b.radius, offset);
    const ContactManifold m = collide_shapes(a, pa, b, pb, 0.05);
    if (g.sep > 0.05) {
      EXPECT_EQ(m.count, 0);
      continue;
    }
    ASSERT_GE(m.count, 1);
    m.count == 2 ? ++two : ++one;
    expect_consistent(m, pa, pb);
    EXPECT_NEAR(min_separation(m), g.sep, kGeom);
    worst = std::max(worst, std::abs(min_separation(m) - g.sep));
    for (int i = 0; i < m.count; ++i) {
      // On the surfaces: each point is its core point moved by the radius
      // along the one manifold normal n. n is perpendicular to at least one
      // axis, so |n . u| <= |u_a - u_b| <= s = kCapsuleParallelSine for both
      // axes u, and the point's distance from its core is r sqrt(1 - (n.u)^2),
      // short of r by at most r s^2.
      const ContactPoint& c = m.points[i];
      const Real s2 = kCapsuleParallelSine * kCapsuleParallelSine;
      const Real da =
          length(c.world_a - lerp(ca.a, ca.b, closest_on_segment(c.world_a, ca.a, ca.b)));
      const Real db =
          length(c.world_b - lerp(cb.a, cb.b, closest_on_segment(c.world_b, cb.a, cb.b)));
      EXPECT_NEAR(da, a.radius, a.radius * s2 + kGeom);
      EXPECT_NEAR(db, b.radius, b.radius * s2 + kGeom);
      worst_surface = std::max(
          {worst_surface, std::abs(da - a.radius) / a.radius, std::abs(db - b.radius) / b.radius});
    }
  }
  std::printf(
      "nearly parallel capsules: %d two-point and %d one-point manifolds, deepest vs GJK <= %.3g "
      "m, "
      "points off the surface <= %.2g radii\n",
      two, one, worst, worst_surface);
  EXPECT_GT(two, 100);  // the two-point branch is exercised
}

}  // namespace
}  // namespace pabd
