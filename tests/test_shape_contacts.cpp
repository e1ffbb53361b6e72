// Contacts of convex hulls, compounds, height fields and triangle meshes,
// against independent references: the box-box narrowphase (a hull of a cube's
// corners must behave as the box), brute force over the input points (hull
// against plane and sphere), the plane narrowphase (flat or planar height
// fields and meshes), and normals computed here from the vertices.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "collision/narrowphase_dispatch.h"
#include "narrowphase_reference.h"

namespace pabd {
namespace {

using narrowphase_test::pose_at;
using narrowphase_test::ref_box;
using narrowphase_test::ref_sat;
using narrowphase_test::Rng;
using narrowphase_test::rotation_about;

constexpr Real kPi = 3.14159265358979323846;

std::vector<Vec3> box_corners(Vec3 half) {
  std::vector<Vec3> p;
  for (int k = 0; k < 8; ++k) p.push_back(box_vertex(half, k));
  return p;
}

/// True when every point of `a` has a point of `b` within tol (world_a and world_b).
bool same_points(const ContactManifold& a, const ContactManifold& b, Real tol) {
  if (a.count != b.count) return false;
  for (int i = 0; i < a.count; ++i) {
    bool found = false;
    for (int j = 0; j < b.count && !found; ++j)
      found = length(a.points[i].world_a - b.points[j].world_a) <= tol &&
              length(a.points[i].world_b - b.points[j].world_b) <= tol &&
              std::fabs(a.points[i].separation - b.points[j].separation) <= tol;
    if (!found) return false;
  }
  return true;
}

/// Area of the convex polygon of a manifold's points (world_b), seen along its normal.
double contact_area(const ContactManifold& m) {
  if (m.count < 3) return 0;
  Vec3 c;
  for (int i = 0; i < m.count; ++i) c += m.points[i].world_b;
  c = (1.0 / m.count) * c;
  const Vec3 u = any_perpendicular(m.normal), w = cross(m.normal, u);
  std::vector<std::pair<double, Vec3>> around;
  for (int i = 0; i < m.count; ++i) {
    const Vec3 d = m.points[i].world_b - c;
    around.push_back({std::atan2(dot(d, w), dot(d, u)), d});
  }
  std::sort(around.begin(), around.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  double area = 0;
  for (std::size_t i = 0; i < around.size(); ++i)
    area += 0.5 * dot(cross(around[i].second, around[(i + 1) % around.size()].second), m.normal);
  return std::fabs(area);
}

/// The same contact as `want`: the same points; or, where clip points tie in
/// select_contact_points (it keeps the first of equal candidates, and the two
/// narrowphases list the clipped polygon from different corners; a box's
/// parallel side planes make such ties common), the same number of points,
/// normal and deepest separation, spanning a similar area.
bool same_contact(const ContactManifold& got, const ContactManifold& want, Real tol,
                  int* reselected) {
  if (same_points(got, want, tol)) return true;
  if (got.count != want.count || length(got.normal - want.normal) > tol) return false;
  Real deep_got = 1e300, deep_want = 1e300;
  for (int i = 0; i < got.count; ++i) {
    deep_got = std::min(deep_got, got.points[i].separation);
    deep_want = std::min(deep_want, want.points[i].separation);
  }
  if (std::fabs(deep_got - deep_want) > tol) return false;
  const double area_got = contact_area(got), area_want = contact_area(want);
  if (std::fabs(area_got - area_want) > 0.25 * area_want) return false;
  ++*reselected;
  return true;
}

Real deepest(const ContactManifold& m) {
  Real d = 1e300;
  for (int i = 0; i < m.count; ++i) d = std::min(d, m.points[i].separation);
  return d;
}

/// Every point's body-frame coordinates agree with its world ones, and its
/// separation is measured along the manifold normal.
void expect_consistent(const ContactManifold& m, const ShapePose& pa, const ShapePose& pb) {
  for (int i = 0; i < m.count; ++i) {
    const ContactPoint& p = m.points[i];
    EXPECT_LT(length(to_world(pa, p.local_a) - p.world_a), 1e-12);
    EXPECT_LT(length(to_world(pb, p.local_b) - p.world_b), 1e-12);
  }
  EXPECT_NEAR(length(m.normal), 1, 1e-12);
}

// Convex hull against box: a hull of a cube's corners is that box --------------------

// A pile's edge and corner neighbours as hulls of a box's corners get
// box-box's contact: one point at their closest points, along the diagonal
// (narrowphase_box_box.h, narrowphase_hull.h), not a face contact along an
// axis that pushes while they are apart.
TEST(HullContacts, EdgeAndCornerNeighboursTouchAtTheirClosestPointsAsBoxes) {
  const Vec3 half{0.5, 0.5, 0.5};
  const ShapeDef hull = convex_hull_shape(box_corners(half)), cube = box_shape(2 * half);
  const ShapePose a{{0, 0.5005, 0}, identity3()};
  const Vec3 offsets[] = {{1.001, 1.001, 0}, {0, 1.001, -1.001}, {1.001, 1.001, 1.001}};
  for (const Vec3& d : offsets) {
    const ShapePose b{a.position + d, identity3()};
    const ContactManifold want = collide_shapes(cube, a, cube, b, 0.01);
    const ContactManifold got = collide_shapes(hull, a, hull, b, 0.01);
    ASSERT_EQ(want.count, 1);
    ASSERT_EQ(got.count, 1);
    // The closest points of parallel edges are a segment: GJK may end at
    // another point of it, so compare the normal and the distance.
    EXPECT_NEAR(length(got.normal - want.normal), 0, 1e-9);
    EXPECT_NEAR(got.points[0].separation, want.points[0].separation, 1e-12);
    EXPECT_NEAR(length(got.points[0].world_b - got.points[0].world_a), got.points[0].separation,
                1e-12);
  }
}

TEST(HullContacts, HullOfBoxMatchesBoxBoxWhenResting) {
  // A cube (as a hull, and as a box) resting on a slab, sunk 0.01 m, turned
  // about the vertical, shifted, slightly tilted; and the slab on top of it.
  const Vec3 half{0.5, 0.5, 0.5};
  const ShapeDef hull = convex_hull_shape(box_corners(half));
  const ShapeDef cube = box_shape(2 * half), slab = box_shape({2, 1, 2});
  int cases = 0, reselected = 0;
  for (Real yaw : {0.0, 0.3, kPi / 4, 1.2})
    for (Real tilt : {0.0, 0.002, 0.01})
      for (Real dx : {0.0, 0.4, 0.95}) {
        const Mat3 r = rotation_about({0, 1, 0}, yaw) * rotation_about({1, 0.3, 0}, tilt);
        const ShapePose ps = pose_at({0, 0, 0}), pc = pose_at({dx, 0.99, -0.1}, r);
        for (int order = 0; order < 2; ++order) {
          const ContactManifold want = order == 0 ? collide_shapes(slab, ps, cube, pc, 0.02)
                                                  : collide_shapes(cube, pc, slab, ps, 0.02);
          const ContactManifold got = order == 0 ? collide_shapes(slab, ps, hull, pc, 0.02)
                                                 : collide_shapes(hull, pc, slab, ps, 0.02);
          ASSERT_GT(want.count, 0);
          // The same clipping with the same slop: equal up to rounding (1e-12 m).
          EXPECT_TRUE(same_contact(got, want, 1e-12, &reselected))
              << "yaw " << yaw << " tilt " << tilt << " dx " << dx << " order " << order
              << ": count " << got.count << " vs " << want.count;
          EXPECT_LT(length(got.normal - want.normal), 1e-12);
          // Feature ids: the hull's numbering is its own, but each id is distinct.
          std::set<std::uint32_t> ids;
          for (int i = 0; i < got.count; ++i) ids.insert(got.points[i].feature);
          EXPECT_EQ(ids.size(), std::size_t(got.count));
          expect_consistent(got, order == 0 ? ps : pc, order == 0 ? pc : ps);
          ++cases;
        }
      }
  std::printf(
      "hull-of-cube vs box-box, resting: %d cases equal to 1e-12 (%d with another choice "
      "among tied clip points)\n",
      cases, reselected);
}

TEST(HullContacts, HullOfBoxAgreesWithBoxBoxInRandomPoses) {
  // Random overlapping or nearby pairs of a box (A) and a box (B); B also as a
  // hull of its corners. Where the separating-axis minimum is unique (its
  // runner-up axis is 0.05 m worse), box-box's biases cannot pick another
  // axis, so both narrowphases must report the same contact.
  Rng rng(17);
  int compared = 0, face = 0, edge = 0, apart = 0, reselected = 0;
  double worst_normal = 0, worst_sep = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const Vec3 ha{rng.uniform(0.2, 1), rng.uniform(0.2, 1), rng.uniform(0.2, 1)};
    const Vec3 hb{rng.uniform(0.2, 1), rng.uniform(0.2, 1), rng.uniform(0.2, 1)};
    const ShapePose pa = pose_at({0, 0, 0}, rng.rotation());
    const Real reach = length(ha) + length(hb);
    const ShapePose pb = pose_at(rng.uniform(0.3, 1.05) * reach * rng.direction(), rng.rotation());
    const auto sat = ref_sat(ref_box(ha, pa), ref_box(hb, pb));
    const Real margin = 0.05;
    // Skip near-ties of axes and separations near the margin (either side is right).
    if (sat.runner_up > sat.sep - 0.05 || std::fabs(sat.sep - margin) < 1e-6) continue;
    const ShapeDef box_b = box_shape(2 * hb), hull_b = convex_hull_shape(box_corners(hb));
    const ContactManifold want = collide_shapes(box_shape(2 * ha), pa, box_b, pb, margin);
    const ContactManifold got = collide_shapes(box_shape(2 * ha), pa, hull_b, pb, margin);
    ++compared;
    if (sat.sep > margin) {
      ++apart;
      EXPECT_EQ(got.count, 0);
      EXPECT_EQ(want.count, 0);
      continue;
    }
    ASSERT_GT(got.count, 0) << "trial " << trial;
    ASSERT_GT(want.count, 0) << "trial " << trial;
    const double dn = length(got.normal - want.normal);
    worst_normal = std::max(worst_normal, dn);
    EXPECT_LT(dn, 1e-6) << "trial " << trial;
    if (want.count > 1) {
      ++face;
      EXPECT_TRUE(same_contact(got, want, 1e-9, &reselected))
          << "trial " << trial << ": " << got.count << " vs " << want.count << " points";
    } else {
      ++edge;
      // One point (edge-edge, or a face contact with one point within margin).
      const double ds = std::fabs(deepest(got) - deepest(want));
      worst_sep = std::max(worst_sep, ds);
      EXPECT_LT(ds, 1e-9) << "trial " << trial;
    }
    expect_consistent(got, pa, pb);
  }
  std::printf(
      "hull-of-cube vs box-box, random: %d compared (%d face, %d of them another choice "
      "among tied clip points; %d one-point; %d apart), worst normal diff %.2e, worst "
      "one-point separation diff %.2e\n",
      compared, face, reselected, edge, apart, worst_normal, worst_sep);
  EXPECT_GT(face, 100);
  EXPECT_GT(edge, 100);
}

// Random hulls against planes and spheres: brute force over the input points ----------

/// Random point cloud in a squashed, shifted ball.
std::vector<Vec3> random_cloud(Rng& rng, int n) {
  std::vector<Vec3> p;
  for (int i = 0; i < n; ++i) {
    const Vec3 d = rng.direction();
    const Real r = std::cbrt(rng.uniform(0.2, 1));
    p.push_back(Vec3{0.8 * r * d.x, 0.5 * r * d.y, 0.6 * r * d.z} + Vec3{0.1, 0.2, -0.1});
  }
  return p;
}

TEST(HullContacts, RandomHullsAgainstPlanesMatchBruteForce) {
  Rng rng(23);
  double worst = 0;
  int touching = 0;
  for (int trial = 0; trial < 500; ++trial) {
    const std::vector<Vec3> cloud = random_cloud(rng, 6 + trial % 30);
    const ShapeDef hull = convex_hull_shape(cloud);
    const Vec3 shift = shape_origin_shift(hull);
    const ShapePose pose = pose_at(rng.uniform(-1, 1) * rng.direction(), rng.rotation());
    const Vec3 n = rng.direction();
    const Real offset = rng.uniform(-1, 1);
    const ShapeDef plane = plane_shape(n, offset);
    const Real margin = 0.05;
    // Brute force: the heights of every input point (moved like the hull).
    std::vector<Real> height;
    for (const Vec3& p : cloud) height.push_back(dot(n, to_world(pose, p + shift)) - offset);
    const Real lowest = *std::min_element(height.begin(), height.end());
    const int within = static_cast<int>(
        std::count_if(height.begin(), height.end(), [&](Real h) { return h <= margin; }));
    const ContactManifold m = collide_shapes(plane, pose_at({}), hull, pose, margin);
    if (within == 0) {
      EXPECT_EQ(m.count, 0);
      continue;
    }
    ++touching;
    ASSERT_GT(m.count, 0);
    EXPECT_LE(m.count, std::min(4, within));
    // The deepest point is the lowest input point, exactly (the same arithmetic).
    const double err = std::fabs(m.points[0].separation - lowest);
    worst = std::max(worst, err);
    EXPECT_LT(err, 1e-12);
    // Every point is an input point within margin, paired with its projection.
    for (int i = 0; i < m.count; ++i) {
      const ContactPoint& c = m.points[i];
      bool is_input = false;
      for (const Vec3& p : cloud)
        is_input = is_input || length(to_world(pose, p + shift) - c.world_b) < 1e-12;
      EXPECT_TRUE(is_input);
      EXPECT_NEAR(dot(n, c.world_a) - offset, 0, 1e-12);
      EXPECT_NEAR(c.separation, dot(n, c.world_b) - offset, 1e-12);
      EXPECT_LE(c.separation, margin);
    }
    expect_consistent(m, pose_at({}), pose);
  }
  std::printf("random hulls vs planes: %d touching of 500, worst deepest-point error %.2e\n",
              touching, worst);
}

/// Brute-force signed distance from c to the hull of `cloud`: outside, the
/// least distance to any triangle of three input points (every such triangle
/// lies in the hull and the boundary is made of them); inside, minus the least
/// distance to a supporting plane through three input points.
double brute_signed_distance(const std::vector<Vec3>& cloud, Vec3 c) {
  const int n = static_cast<int>(cloud.size());
  double inside_depth = 1e300;
  bool outside = false;
  double dist = 1e300;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      for (int k = j + 1; k < n; ++k) {
        const Vec3 a = cloud[std::size_t(i)], b = cloud[std::size_t(j)], q = cloud[std::size_t(k)];
        TriangleRegion region;
        int feature = 0;
        dist = std::min(dist, length(closest_point_on_triangle(c, a, b, q, region, feature) - c));
        Vec3 nrm = cross(b - a, q - a);
        if (length(nrm) < 1e-12) continue;
        nrm = (1 / length(nrm)) * nrm;
        // A supporting plane: every point on one side.
        double lo = 0, hi = 0;
        for (const Vec3& p : cloud) {
          lo = std::min(lo, dot(nrm, p - a));
          hi = std::max(hi, dot(nrm, p - a));
        }
        if (lo < -1e-12 && hi > 1e-12) continue;
        const Vec3 out = hi > 1e-12 ? -nrm : nrm;  // points away from the hull
        const double h = dot(out, c - a);
        if (h > 0) outside = true;
        inside_depth = std::min(inside_depth, -h);
      }
  return outside ? dist : -inside_depth;
}

TEST(HullContacts, RandomHullsAgainstSpheresMatchBruteForce) {
  Rng rng(29);
  double worst = 0, worst_normal = 0;
  int touching = 0, inside = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const std::vector<Vec3> cloud = random_cloud(rng, 5 + trial % 10);
    const ShapeDef hull = convex_hull_shape(cloud);
    const Vec3 shift = shape_origin_shift(hull);
    const ShapePose pose = pose_at(rng.uniform(-0.5, 0.5) * rng.direction(), rng.rotation());
    const Real radius = rng.uniform(0.05, 0.5);
    const Vec3 centre = rng.uniform(0, 1.5) * rng.direction();
    // The cloud in the world.
    std::vector<Vec3> world;
    for (const Vec3& p : cloud) world.push_back(to_world(pose, p + shift));
    const double ref = brute_signed_distance(world, centre) - radius;
    const Real margin = 0.05;
    if (std::fabs(ref - margin) < 1e-9) continue;
    for (int order = 0; order < 2; ++order) {
      const ShapePose ps = pose_at(centre);
      const ContactManifold m =
          order == 0 ? collide_shapes(sphere_shape(radius), ps, hull, pose, margin)
                     : flipped(collide_shapes(hull, pose, sphere_shape(radius), ps, margin));
      if (ref > margin) {
        EXPECT_EQ(m.count, 0);
        continue;
      }
      ASSERT_EQ(m.count, 1) << "trial " << trial;
      const double err = std::fabs(m.points[0].separation - ref);
      worst = std::max(worst, err);
      // GJK on a polytope is exact up to rounding; 1e-9 m allows its tolerance.
      EXPECT_LT(err, 1e-9) << "trial " << trial;
      // The sphere's point is its surface point along the normal; moving the
      // sphere by -separation along the normal makes it just touch.
      EXPECT_LT(length(m.points[0].world_a - (centre + radius * m.normal)), 1e-12);
      const double moved =
          brute_signed_distance(world, centre + m.points[0].separation * m.normal) - radius;
      worst_normal = std::max(worst_normal, std::fabs(moved));
      EXPECT_LT(std::fabs(moved), 1e-7) << "trial " << trial;
      if (order == 0) {
        ++touching;
        inside += ref + radius < 0;
      }
    }
  }
  std::printf(
      "random hulls vs spheres: %d touching (%d centres inside), worst separation error "
      "%.2e, worst residual after moving along the normal %.2e\n",
      touching, inside, worst, worst_normal);
  EXPECT_GT(inside, 10);
}

TEST(HullContacts, CapsuleOnHullFaceGivesTwoPointsLikeTheBox) {
  // A capsule lying on a cube (hull and box), and random capsule poses: the
  // same contact as capsule-box where the box's face normal is the answer.
  const Vec3 half{0.5, 0.5, 0.5};
  const ShapeDef hull = convex_hull_shape(box_corners(half)), cube = box_shape(2 * half);
  const ShapeDef capsule = capsule_shape(0.1, 0.3);
  const ShapePose pc = pose_at({0.1, 0.59, 0.05}, rotation_about({0, 0, 1}, kPi / 2 + 0.001));
  const ContactManifold want = collide_shapes(capsule, pc, cube, pose_at({}), 0.02);
  const ContactManifold got = collide_shapes(capsule, pc, hull, pose_at({}), 0.02);
  ASSERT_EQ(want.count, 2);
  EXPECT_TRUE(same_points(got, want, 1e-12));
  EXPECT_LT(length(got.normal - want.normal), 1e-12);

  Rng rng(31);
  int compared = 0;
  double worst = 0;
  for (int trial = 0; trial < 1000; ++trial) {
    const ShapePose p = pose_at(rng.uniform(0, 1.2) * rng.direction(), rng.rotation());
    const ContactManifold a = collide_shapes(capsule, p, cube, pose_at({}), 0.05);
    const ContactManifold b = collide_shapes(capsule, p, hull, pose_at({}), 0.05);
    if (a.count == 0 && b.count == 0) continue;
    // The deepest separations agree: both are exact distances or depths of
    // the core, except where capsule-box's separating-axis biases pick a face
    // over a slightly better edge (by at most 5% of the separation + 1e-3 x size).
    ASSERT_GT(a.count, 0);
    ASSERT_GT(b.count, 0);
    const double diff = std::fabs(deepest(a) - deepest(b));
    worst = std::max(worst, diff);
    EXPECT_LT(diff, 0.05 * std::fabs(deepest(a)) + 1e-3 + 1e-9) << "trial " << trial;
    ++compared;
  }
  std::printf("capsule vs hull-of-cube / box: %d compared, worst deepest-separation diff %.2e\n",
              compared, worst);
}

TEST(HullContacts, HullOnHullSwapsConsistently) {
  Rng rng(37);
  int touching = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const ShapeDef a = convex_hull_shape(random_cloud(rng, 12));
    const ShapeDef b = convex_hull_shape(random_cloud(rng, 9));
    const ShapePose pa = pose_at({0, 0, 0}, rng.rotation());
    const ShapePose pb = pose_at(rng.uniform(0.2, 1.6) * rng.direction(), rng.rotation());
    const ContactManifold ab = collide_shapes(a, pa, b, pb, 0.05);
    const ContactManifold ba = collide_shapes(b, pb, a, pa, 0.05);
    ASSERT_EQ(ab.count > 0, ba.count > 0);
    if (ab.count == 0) continue;
    ++touching;
    // The deepest separation does not depend on the order (GJK/EPA on M and
    // -M), to EPA's tolerance.
    EXPECT_NEAR(deepest(ab), deepest(ba), 1e-9) << "trial " << trial;
    expect_consistent(ab, pa, pb);
  }
  std::printf("hull vs hull: %d of 300 touching, order-independent\n", touching);
}

// Compounds -------------------------------------------------------------------------

TEST(CompoundContacts, RestingOnPlaneGetsContactsFromEachChild) {
  // Three unit boxes in a row along x, sunk 0.002 m into the ground.
  const ShapeDef row = compound_shape({{box_shape({1, 1, 1}), {-1.2, 0, 0}, {1, 0, 0, 0}},
                                       {box_shape({1, 1, 1}), {0, 0, 0}, {1, 0, 0, 0}},
                                       {box_shape({1, 1, 1}), {1.2, 0, 0}, {1, 0, 0, 0}}});
  const ShapeDef ground = plane_shape({0, 1, 0}, 0);
  const ShapePose pr = pose_at({0.3, 0.498, 0}), pg = pose_at({});
  ContactManifold all[kMaxPairManifolds];
  const int n = collide_shape_pairs(ground, pg, row, pr, 0.01, all, kMaxPairManifolds);
  ASSERT_EQ(n, 3);
  std::set<std::uint32_t> ids;
  std::set<int> children;
  for (int k = 0; k < n; ++k) {
    ASSERT_EQ(all[k].count, 4);
    EXPECT_EQ(all[k].normal.y, 1);
    for (int i = 0; i < 4; ++i) {
      EXPECT_NEAR(all[k].points[i].separation, -0.002, 1e-12);
      ids.insert(all[k].points[i].feature);
      children.insert(static_cast<int>((all[k].points[i].feature >> 10) & 63u));  // B's child
    }
    expect_consistent(all[k], pg, pr);
  }
  EXPECT_EQ(ids.size(), 12u);  // distinct across children
  EXPECT_EQ(children, (std::set<int>{0, 1, 2}));
  // The other order: flipped normals, the child index on A's side.
  const int m = collide_shape_pairs(row, pr, ground, pg, 0.01, all, kMaxPairManifolds);
  ASSERT_EQ(m, 3);
  for (int k = 0; k < m; ++k) {
    EXPECT_EQ(all[k].normal.y, -1);
    EXPECT_EQ((all[k].points[0].feature >> 26) & 63u, static_cast<std::uint32_t>(k));
  }
  // collide_shapes gives one of them (the deepest; here all are equally deep).
  EXPECT_EQ(collide_shapes(ground, pg, row, pr, 0.01).count, 4);
}

TEST(CompoundContacts, GearTeethTouchOnlyWhereTheyMeet) {
  // Two "gears": a hub sphere with 8 capsule teeth each, meshing. The pairs of
  // children that touch, and their manifolds, must be exactly those of the
  // children collided one pair at a time (brute force over all 81 pairs).
  auto gear = [](Real phase) {
    std::vector<CompoundChild> parts = {{sphere_shape(0.3), {0, 0, 0}, {1, 0, 0, 0}}};
    for (int k = 0; k < 8; ++k) {
      const Real a = phase + k * kPi / 4;
      // Capsule along local Y turned to point radially (rotation about z by a - pi/2).
      const Real h = 0.5 * (a - kPi / 2);
      parts.push_back({capsule_shape(0.08, 0.2),
                       {0.5 * std::cos(a), 0.5 * std::sin(a), 0},
                       {std::cos(h), 0, 0, std::sin(h)}});
    }
    return compound_shape(parts);
  };
  const ShapeDef g1 = gear(0), g2 = gear(kPi / 8);
  const CompoundView& v1 = compound_view(g1);
  const CompoundView& v2 = compound_view(g2);
  for (Real turn : {0.0, 0.1, 0.2, 0.3}) {
    const ShapePose p1 = pose_at({0, 0, 0}, rotation_about({0, 0, 1}, turn));
    const ShapePose p2 = pose_at({1.38, 0.12, 0}, rotation_about({0, 0, 1}, -turn));
    ContactManifold all[kMaxPairManifolds];
    const int n = collide_shape_pairs(g1, p1, g2, p2, 0.005, all, kMaxPairManifolds);
    int expected = 0;
    for (int i = 0; i < v1.child_count; ++i)
      for (int j = 0; j < v2.child_count; ++j) {
        const ShapePose c1 = compound_child_pose(p1, v1.child_pose[i]);
        const ShapePose c2 = compound_child_pose(p2, v2.child_pose[j]);
        const ContactManifold ref =
            collide_shapes(v1.child_shape[i], c1, v2.child_shape[j], c2, 0.005);
        if (ref.count == 0) continue;
        ++expected;
        // Its manifold is in the list, tagged with both child indices.
        bool found = false;
        for (int k = 0; k < n && !found; ++k) {
          const std::uint32_t id = all[k].points[0].feature;
          if (static_cast<int>((id >> 26) & 63u) != i || static_cast<int>((id >> 10) & 63u) != j)
            continue;
          found = same_points(all[k], ref, 1e-12);
        }
        EXPECT_TRUE(found) << "turn " << turn << " children " << i << ", " << j;
      }
    std::printf("gears turned %.1f: %d touching tooth pairs (brute force %d)\n", turn, n, expected);
    EXPECT_EQ(n, expected);
    EXPECT_GE(n, 1);
    for (int k = 0; k < n; ++k) expect_consistent(all[k], p1, p2);
  }
}

// Height fields ----------------------------------------------------------------------

/// A flat field of 7 x 5 vertices at height `h`, spacing 0.5.
ShapeDef flat_field(Real h) { return height_field_shape(7, 5, 0.5, 0.5, std::vector<Real>(35, h)); }

TEST(HeightFieldContacts, SphereOnFlatFieldEqualsSphereOnPlane) {
  const ShapeDef field = flat_field(0.3), plane = plane_shape({0, 1, 0}, 0.3);
  const ShapePose pf = pose_at({});
  Rng rng(41);
  int touching = 0;
  double worst = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    // Anywhere over the interior, including exactly over grid lines and vertices.
    Real x = rng.uniform(-1.2, 1.2), z = rng.uniform(-0.8, 0.8);
    if (trial % 4 == 1) x = 0.5 * std::round(2 * x);
    if (trial % 4 == 2) z = 0.5 * std::round(2 * z);
    const Real r = rng.uniform(0.05, 0.3);
    const ShapePose ps = pose_at({x, 0.3 + r + rng.uniform(-0.04, 0.06), z});
    ContactManifold all[kMaxPairManifolds];
    const int n = collide_shape_pairs(field, pf, sphere_shape(r), ps, 0.01, all, kMaxPairManifolds);
    const ContactManifold want = collide_shapes(plane, pf, sphere_shape(r), ps, 0.01);
    if (want.count == 0) {
      EXPECT_EQ(n, 0);
      continue;
    }
    ++touching;
    ASSERT_EQ(n, 1) << "trial " << trial;
    ASSERT_EQ(all[0].count, 1) << "trial " << trial;  // one point, however many triangles
    EXPECT_EQ(all[0].normal.y, 1);
    const double err = std::max(length(all[0].points[0].world_a - want.points[0].world_a),
                                std::fabs(all[0].points[0].separation - want.points[0].separation));
    worst = std::max(worst, err);
    EXPECT_LT(err, 1e-12) << "trial " << trial;
  }
  std::printf("sphere on flat height field vs plane: %d touching of 2000, worst difference %.2e\n",
              touching, worst);
}

TEST(HeightFieldContacts, BoxAndCapsuleOnPlanarFieldEqualThePlane) {
  // Heights of the plane y = 0.2 x - 0.1 z + 1: every triangle lies in it.
  std::vector<Real> h;
  for (int r = 0; r < 5; ++r)
    for (int c = 0; c < 7; ++c) h.push_back(0.2 * (-1.5 + 0.5 * c) - 0.1 * (-1.0 + 0.5 * r) + 1);
  const ShapeDef field = height_field_shape(7, 5, 0.5, 0.5, h);
  const Vec3 n_raw{-0.2, 1, 0.1};
  const ShapeDef plane = plane_shape(n_raw, 1);
  ShapeDef unit_plane = plane;
  unit_plane.normal = (1 / length(n_raw)) * n_raw;  // add_body would normalise it
  unit_plane.offset = 1 / length(n_raw);
  const Vec3 n = unit_plane.normal;
  Rng rng(43);
  int cases = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const bool box = trial % 2 == 0;
    const ShapeDef s = box ? box_shape({0.6, 0.3, 0.4}) : capsule_shape(0.1, 0.25);
    // Resting nearly flat on the plane, a little sunk, turned about n.
    const Vec3 on_plane{rng.uniform(-0.8, 0.8), 0, rng.uniform(-0.4, 0.4)};
    const Vec3 base = on_plane + (unit_plane.offset - dot(n, on_plane)) * n;
    const Mat3 align = rotation_about(cross(Vec3{0, 1, 0}, n), std::acos(n.y));
    const Mat3 lay = box ? identity3() : rotation_about({1, 0, 0}, kPi / 2);
    const Mat3 r = rotation_about(n, rng.uniform(0, 2 * kPi)) * align * lay *
                   rotation_about({1, 0, 0}, rng.uniform(-0.004, 0.004));
    const Real lift = (box ? 0.15 : 0.1) - rng.uniform(0, 0.005);
    const ShapePose ps = pose_at(base + lift * n, r);
    ContactManifold all[kMaxPairManifolds];
    const int got = collide_shape_pairs(field, pose_at({}), s, ps, 0.01, all, kMaxPairManifolds);
    const ContactManifold want = collide_shapes(unit_plane, pose_at({}), s, ps, 0.01);
    ASSERT_EQ(got, 1) << "trial " << trial;  // one normal: one manifold
    EXPECT_LT(length(all[0].normal - want.normal), 1e-12);
    // The same corners (box) or core ends (capsule), to rounding of the
    // triangle planes (heights ~1 m, 1e-12 m).
    EXPECT_TRUE(same_points(all[0], want, 1e-12))
        << "trial " << trial << ": " << all[0].count << " vs " << want.count;
    ++cases;
  }
  std::printf("box and capsule on a planar height field vs the plane: %d cases equal\n", cases);
}

TEST(HeightFieldContacts, SphereOverSlopedCellGetsTheTriangleNormal) {
  // A 3 x 3 field, spacing 1, flat at 0 except vertex (2, 2) raised to 0.8:
  // triangle 2 cell + 0 of cell (1, 1), corners (1,1), (1,2), (2,2), slopes up.
  std::vector<Real> h(9, 0.0);
  h[2 * 3 + 2] = 0.8;
  const ShapeDef field = height_field_shape(3, 3, 1, 1, h);
  // Corners of that triangle, in the body frame (x0 = z0 = -1).
  const Vec3 a{0, 0, 0}, b{0, 0, 1}, c{1, 0.8, 1};
  const Vec3 n = (1 / length(cross(b - a, c - a))) * cross(b - a, c - a);
  // A sphere above a point inside that triangle, 0.01 m into it.
  const Vec3 inside = (1.0 / 3) * (a + b + c);
  const Real r = 0.2;
  const ShapePose field_pose = pose_at({5, -1, 2});  // anywhere: the result moves with it
  const Vec3 centre = to_world(field_pose, inside + (r - 0.01) * n);
  ContactManifold all[kMaxPairManifolds];
  const int count = collide_shape_pairs(field, field_pose, sphere_shape(r), pose_at(centre), 0.005,
                                        all, kMaxPairManifolds);
  ASSERT_EQ(count, 1);
  ASSERT_EQ(all[0].count, 1);
  std::printf(
      "sloped cell: normal (%.12f, %.12f, %.12f), expected (%.12f, %.12f, %.12f); "
      "separation %.12f\n",
      all[0].normal.x, all[0].normal.y, all[0].normal.z, n.x, n.y, n.z,
      all[0].points[0].separation);
  EXPECT_LT(length(all[0].normal - n), 1e-12);
  EXPECT_NEAR(all[0].points[0].separation, -0.01, 1e-12);
  EXPECT_LT(length(all[0].points[0].world_a - to_world(field_pose, inside)), 1e-12);
}

TEST(HeightFieldContacts, HullAndCompoundOnAField) {
  // A hull of a cube's corners on a flat field equals the box on the plane;
  // a compound of two spheres gets one manifold per sphere.
  const ShapeDef field = flat_field(0), plane = plane_shape({0, 1, 0}, 0);
  const ShapeDef hull = convex_hull_shape(box_corners({0.3, 0.2, 0.25}));
  const ShapePose ph = pose_at({0.1, 0.199, -0.2}, rotation_about({0, 1, 0}, 0.4));
  ContactManifold all[kMaxPairManifolds];
  ASSERT_EQ(collide_shape_pairs(field, pose_at({}), hull, ph, 0.01, all, kMaxPairManifolds), 1);
  EXPECT_TRUE(same_points(
      all[0], collide_shapes(plane, pose_at({}), box_shape({0.6, 0.4, 0.5}), ph, 0.01), 1e-12));
  const ShapeDef pair = compound_shape({{sphere_shape(0.2), {-0.5, 0, 0}, {1, 0, 0, 0}},
                                        {sphere_shape(0.2), {0.5, 0, 0}, {1, 0, 0, 0}}});
  const int n = collide_shape_pairs(pair, pose_at({0.2, 0.195, 0.1}), field, pose_at({}), 0.01, all,
                                    kMaxPairManifolds);
  ASSERT_EQ(n, 2);
  for (int k = 0; k < n; ++k) {
    EXPECT_EQ(all[k].normal.y, -1);  // from the compound (A) into the field (B)
    EXPECT_NEAR(all[k].points[0].separation, -0.005, 1e-12);
    EXPECT_EQ((all[k].points[0].feature >> 26) & 63u, static_cast<std::uint32_t>(k));
  }
}

// Triangle meshes ---------------------------------------------------------------------

TEST(MeshContacts, SphereOnObjFloorAndRamp) {
  const ShapeDef mesh =
      triangle_mesh_from_obj(std::string(PABD_SOURCE_DIR) + "/tests/data/floor_ramp.obj");
  const ShapeDef floor = plane_shape({0, 1, 0}, 0);
  const ShapePose pm = pose_at({});
  ContactManifold all[kMaxPairManifolds];
  // On the floor, anywhere (also over its diagonal): the plane's contact.
  Rng rng(47);
  for (int trial = 0; trial < 300; ++trial) {
    const ShapePose ps =
        pose_at({rng.uniform(-1.7, 1.6), 0.25 + rng.uniform(-0.02, 0.005), rng.uniform(-1.7, 1.7)});
    const int n =
        collide_shape_pairs(sphere_shape(0.25), ps, mesh, pm, 0.01, all, kMaxPairManifolds);
    const ContactManifold want = collide_shapes(sphere_shape(0.25), ps, floor, pm, 0.01);
    ASSERT_EQ(n, 1) << "trial " << trial;
    ASSERT_EQ(all[0].count, 1);
    EXPECT_TRUE(same_points(all[0], want, 1e-12)) << "trial " << trial;
    EXPECT_EQ(all[0].normal.y, -1);
  }
  // On the ramp: its normal (-1, 2, 0) / sqrt(5), to float precision of the OBJ.
  const Vec3 n{-1 / std::sqrt(5.0), 2 / std::sqrt(5.0), 0};
  const Vec3 on_ramp{3, 0.5, 0.3};
  const int count = collide_shape_pairs(mesh, pm, sphere_shape(0.25), pose_at(on_ramp + 0.24 * n),
                                        0.01, all, kMaxPairManifolds);
  ASSERT_EQ(count, 1);
  EXPECT_LT(length(all[0].normal - n), 1e-7);
  EXPECT_NEAR(all[0].points[0].separation, -0.01, 1e-7);
  // In the valley where floor and ramp meet: a sphere touching both faces gets
  // both normals (two manifolds), each with its face's separation.
  // Centre 0.299 m from both planes: floor y = 0.299; ramp (2 - x + 2 y) / sqrt(5) = 0.299.
  const Vec3 valley{2 + 0.598 - 0.299 * std::sqrt(5.0), 0.299, 0};
  const int v = collide_shape_pairs(mesh, pm, sphere_shape(0.3), pose_at(valley), 0.01, all,
                                    kMaxPairManifolds);
  std::printf("sphere in the floor-ramp valley: %d manifolds\n", v);
  EXPECT_EQ(v, 2);
}

}  // namespace
}  // namespace pabd
