// World::raycast: each shape against the closed-form distance and normal of
// a hand-worked ray, the query's rules (miss, max_distance, mask, nearest of
// several, a ray from inside, bad input), the tree against a brute-force loop
// over every body on a random scene, the cached tree after the world changes,
// and concurrent calls.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "collision/ray_shape.h"
#include "pabd/world.h"

namespace pabd {
namespace {

// Closed-form checks: the scenes' numbers are of order 1-10 m, and each hit
// is a few arithmetic operations and at most one square root away from its
// inputs, so the answer is within a few ulps (~1e-15 m); 1e-12 leaves room
// for that while any error of the formulas shows.
constexpr Real kTol = 1e-12;

const Real kSqrt2 = std::sqrt(Real(2));
const Real kInf = std::numeric_limits<Real>::infinity();

/// Rotation by `angle` [rad] about the unit `axis`.
Quat axis_angle(Vec3 axis, Real angle) {
  const Real s = std::sin(angle / 2);
  return {std::cos(angle / 2), s * axis.x, s * axis.y, s * axis.z};
}

BodyDef body(const ShapeDef& shape, Vec3 position, Quat orientation = {}, bool fixed = false) {
  BodyDef d = default_body_def();
  d.shape = shape;
  d.position = position;
  d.orientation = orientation;
  d.is_static = fixed;
  return d;
}

World weightless_world() {
  WorldDef def = default_world_def();
  def.gravity = {0, 0, 0};
  return World(def);
}

/// Expects a hit on `id` at `distance` with `normal`; the point must be on the ray there.
void expect_hit(const std::optional<RayHit>& hit, BodyId id, Vec3 origin, Vec3 direction,
                Real distance, Vec3 normal) {
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->body.index, id.index);
  EXPECT_NEAR(hit->distance, distance, kTol);
  const Vec3 point = origin + (distance / length(direction)) * direction;
  EXPECT_NEAR(hit->point.x, point.x, kTol);
  EXPECT_NEAR(hit->point.y, point.y, kTol);
  EXPECT_NEAR(hit->point.z, point.z, kTol);
  EXPECT_NEAR(hit->normal.x, normal.x, kTol);
  EXPECT_NEAR(hit->normal.y, normal.y, kTol);
  EXPECT_NEAR(hit->normal.z, normal.z, kTol);
}

// Shapes against closed forms ----------------------------------------------------

TEST(Raycast, SphereCentreAndOffCentre) {
  World w = weightless_world();
  const BodyId s = w.add_body(body(sphere_shape(0.5), {1, 2, 3}));
  // Through the centre, with a direction of length 2: 8 m to the centre, less the radius.
  expect_hit(w.raycast({1, 2, -5}, {0, 0, 2}, 100), s, {1, 2, -5}, {0, 0, 2}, 7.5, {0, 0, -1});
  // 0.3 m off the centre: the chord's half length is sqrt(0.25 - 0.09) = 0.4.
  expect_hit(w.raycast({1.3, 2, -5}, {0, 0, 1}, 100), s, {1.3, 2, -5}, {0, 0, 1}, 7.6,
             {0.6, 0, -0.8});
  // 0.6 m off: past the sphere.
  EXPECT_FALSE(w.raycast({1.6, 2, -5}, {0, 0, 1}, 100).has_value());
}

TEST(Raycast, BoxFaceAndRotatedBox) {
  World w = weightless_world();
  const BodyId b = w.add_body(body(box_shape({2, 4, 6}), {0, 0, 0}));
  expect_hit(w.raycast({0.5, 10, 1}, {0, -1, 0}, 100), b, {0.5, 10, 1}, {0, -1, 0}, 8, {0, 1, 0});
  expect_hit(w.raycast({-9, 0.5, 2.9}, {1, 0, 0}, 100), b, {-9, 0.5, 2.9}, {1, 0, 0}, 8,
             {-1, 0, 0});
  // A cube of edge 2 turned 45 degrees about z is a diamond with corners (+-sqrt 2, 0),
  // (0, +-sqrt 2) in x, y: the line y = 0.5 meets its upper-left edge y = x + sqrt 2.
  World r = weightless_world();
  const BodyId d = r.add_body(
      body(box_shape({2, 2, 2}), {0, 0, 0}, axis_angle({0, 0, 1}, Real(0.25) * Real(M_PI))));
  expect_hit(r.raycast({-10, 0.5, 0}, {1, 0, 0}, 100), d, {-10, 0.5, 0}, {1, 0, 0}, 10.5 - kSqrt2,
             {-1 / kSqrt2, 1 / kSqrt2, 0});
}

TEST(Raycast, CapsuleSideAndCaps) {
  World w = weightless_world();
  const BodyId c = w.add_body(body(capsule_shape(0.5, 1), {0, 0, 0}));
  expect_hit(w.raycast({5, 0.3, 0}, {-1, 0, 0}, 100), c, {5, 0.3, 0}, {-1, 0, 0}, 4.5, {1, 0, 0});
  expect_hit(w.raycast({0, 10, 0}, {0, -1, 0}, 100), c, {0, 10, 0}, {0, -1, 0}, 8.5, {0, 1, 0});
  // 0.3 m off the axis the top ball is at y = 1 + sqrt(0.25 - 0.09) = 1.4.
  expect_hit(w.raycast({0.3, 10, 0}, {0, -1, 0}, 100), c, {0.3, 10, 0}, {0, -1, 0}, 8.6,
             {0.6, 0.8, 0});
  // Turned 90 degrees about z, its axis lies along x.
  World r = weightless_world();
  const BodyId t =
      r.add_body(body(capsule_shape(0.5, 1), {0, 0, 0}, axis_angle({0, 0, 1}, Real(0.5) * M_PI)));
  expect_hit(r.raycast({0.7, 5, 0}, {0, -1, 0}, 100), t, {0.7, 5, 0}, {0, -1, 0}, 4.5, {0, 1, 0});
  expect_hit(r.raycast({10, 0, 0}, {-1, 0, 0}, 100), t, {10, 0, 0}, {-1, 0, 0}, 8.5, {1, 0, 0});
}

TEST(Raycast, ConvexHullCubeAndTetrahedron) {
  World w = weightless_world();
  std::vector<Vec3> cube;
  for (int k = 0; k < 8; ++k)
    cube.push_back({k & 1 ? 1.0 : -1.0, k & 2 ? 1.0 : -1.0, k & 4 ? 1.0 : -1.0});
  const BodyId c = w.add_body(body(convex_hull_shape(cube), {2, 0, 0}));
  expect_hit(w.raycast({2.5, 5, 0.2}, {0, -1, 0}, 100), c, {2.5, 5, 0.2}, {0, -1, 0}, 4, {0, 1, 0});
  // The corner tetrahedron; its body frame is shifted to its centroid, so a
  // point x of the input lies at position + shape_origin_shift + x.
  const ShapeDef tet = convex_hull_shape({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
  const Vec3 at{-3, 0, 0};
  const BodyId t = w.add_body(body(tet, at));
  const Vec3 frame = at + shape_origin_shift(tet);
  // Down the diagonal onto the centre of the face x + y + z = 1.
  const Vec3 diagonal = Vec3{1, 1, 1} * (1 / std::sqrt(Real(3)));
  const Vec3 from = frame + Vec3{1, 1, 1} * (Real(1) / 3) + 5 * diagonal;
  expect_hit(w.raycast(from, -diagonal, 100), t, from, -diagonal, 5, diagonal);
  // Onto the face x = 0 from -x.
  const Vec3 side = frame + Vec3{-2, 0.2, 0.2};
  expect_hit(w.raycast(side, {1, 0, 0}, 100), t, side, {1, 0, 0}, 2, {-1, 0, 0});
}

TEST(Raycast, CompoundChildrenAtTheirPoses) {
  // A unit box at x = -1 and a ball of radius 0.5 at x = +1 of the children's frame.
  CompoundChild box{box_shape({1, 1, 1}), {-1, 0, 0}, {}};
  CompoundChild ball{sphere_shape(0.5), {1, 0, 0}, {}};
  const ShapeDef shape = compound_shape({box, ball});
  World w = weightless_world();
  const Vec3 at{0, 1, 0};
  const BodyId c = w.add_body(body(shape, at));
  const Vec3 frame = at + shape_origin_shift(shape);
  // From +x the ball is first; from above the box's top face.
  const Vec3 east = frame + Vec3{10, 0, 0};
  expect_hit(w.raycast(east, {-1, 0, 0}, 100), c, east, {-1, 0, 0}, 8.5, {1, 0, 0});
  const Vec3 above = frame + Vec3{-1.2, 10, 0.1};
  expect_hit(w.raycast(above, {0, -1, 0}, 100), c, above, {0, -1, 0}, 9.5, {0, 1, 0});
  // Turned 90 degrees about y (x goes to -z): the box is at z = +1, the ball at z = -1.
  World r = weightless_world();
  const Quat q = axis_angle({0, 1, 0}, Real(0.5) * M_PI);
  const BodyId t = r.add_body(body(shape, at, q));
  const Vec3 turned = at + rotate(q, shape_origin_shift(shape));
  const Vec3 south = turned + Vec3{0, 0, 10};
  expect_hit(r.raycast(south, {0, 0, -1}, 100), t, south, {0, 0, -1}, 8.5, {0, 0, 1});
  const Vec3 north = turned + Vec3{0, 0.2, -10};
  // The ball 0.2 m off its centre: sqrt(0.25 - 0.04) of chord half length.
  const Real half_chord = std::sqrt(Real(0.21));
  expect_hit(r.raycast(north, {0, 0, 1}, 100), t, north, {0, 0, 1}, 9 - half_chord,
             Vec3{0, 0.2, -half_chord} * 2);
}

TEST(Raycast, PlaneHalfSpace) {
  World w = weightless_world();
  // Ground y = 0 given as a body at y = 3 whose plane is 3 m below it (unnormalised normal).
  const BodyId g = w.add_body(body(plane_shape({0, 2, 0}, -6), {0, 3, 0}, {}, true));
  expect_hit(w.raycast({0, 5, 0}, {1, -1, 0}, 100), g, {0, 5, 0}, {1, -1, 0}, 5 * kSqrt2,
             {0, 1, 0});
  EXPECT_FALSE(w.raycast({0, 5, 0}, {1, 1, 0}, 100).has_value());  // away from it
  EXPECT_FALSE(w.raycast({0, 5, 0}, {1, 0, 0}, 100).has_value());  // parallel
  // A tilted plane, turned by its body: normal (0, 1, 0) turned 30 degrees about z.
  World t = weightless_world();
  const Quat q = axis_angle({0, 0, 1}, M_PI / 6);
  const BodyId p = t.add_body(body(plane_shape({0, 1, 0}, 0), {0, 0, 0}, q, true));
  const Vec3 n{-0.5, std::sqrt(Real(3)) / 2, 0};
  // Straight down from (1, 4, 0): n . (1, y, 0) = 0 at y = 0.5 / cos 30 = 1 / sqrt 3.
  expect_hit(t.raycast({1, 4, 0}, {0, -1, 0}, 100), p, {1, 4, 0}, {0, -1, 0},
             4 - 1 / std::sqrt(Real(3)), n);
}

TEST(Raycast, HeightFieldOnATiltedPlane) {
  // Every vertex on y = 0.2 x + 0.1 z + 1 (field frame), so every triangle lies in that
  // plane: its upward normal is (-0.2, 1, -0.1) normalised, whichever triangle is hit.
  const int columns = 9, rows = 7;
  const Real sx = 0.5, sz = 0.7;
  auto surface = [](Real x, Real z) { return 0.2 * x + 0.1 * z + 1; };
  std::vector<Real> heights;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < columns; ++c)
      heights.push_back(surface((c - (columns - 1) / 2.0) * sx, (r - (rows - 1) / 2.0) * sz));
  World w = weightless_world();
  const Vec3 at{1, 0, 2};
  const BodyId f =
      w.add_body(body(height_field_shape(columns, rows, sx, sz, heights), at, {}, true));
  const Vec3 n = Vec3{-0.2, 1, -0.1} * (1 / std::sqrt(Real(1.05)));
  // Straight down, inside a cell and exactly through grid vertex (1, -0.7) of the field.
  for (Vec3 local : {Vec3{0.3, 5, 0.45}, Vec3{1, 5, -0.7}}) {
    const Vec3 o = at + local;
    expect_hit(w.raycast(o, {0, -1, 0}, 100), f, o, {0, -1, 0}, 5 - surface(local.x, local.z), n);
  }
  // A shallow ray that crosses many cells above the surface before it meets it:
  // along o + s e, y - surface = 0 at s = (o.y - surface(o)) / (0.2 e.x + 0.1 e.z - e.y).
  const Vec3 local{-2, 2.5, -2};
  const Vec3 e{1, -0.3, 0.5};
  const Real s = (local.y - surface(local.x, local.z)) / (0.2 * e.x + 0.1 * e.z - e.y);
  expect_hit(w.raycast(at + local, e, 100), f, at + local, e, s * length(e), n);
  // One-sided: from below it is passed through; beside the field it is missed.
  EXPECT_FALSE(w.raycast(at + Vec3{0.3, -5, 0.4}, {0, 1, 0}, 100).has_value());
  EXPECT_FALSE(w.raycast(at + Vec3{3, 5, 0}, {0, -1, 0}, 100).has_value());
}

TEST(Raycast, TriangleMeshTurnedPlate) {
  // A 10 x 10 grid of quads (200 triangles, so the mesh BVH has levels) in the plane
  // y = 0 of the mesh, facing +y, on a body turned 30 degrees about x.
  std::vector<Vec3> vertices;
  std::vector<int> indices;
  const int n = 11;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) vertices.push_back({-2.5 + 0.5 * i, 0, -2.5 + 0.5 * j});
  for (int i = 0; i + 1 < n; ++i)
    for (int j = 0; j + 1 < n; ++j) {
      const int a = i * n + j, b = a + 1, c = a + n + 1, d = a + n;  // b: +z, d: +x
      indices.insert(indices.end(), {a, b, c, a, c, d});
    }
  World w = weightless_world();
  const Quat q = axis_angle({1, 0, 0}, M_PI / 6);
  const Vec3 at{0, 1, 0};
  const BodyId m = w.add_body(body(triangle_mesh_shape(vertices, indices), at, q, true));
  const Vec3 normal = rotate(q, {0, 1, 0});
  // Onto the plate plane n . (x - at) = 0 from o: t = n . (at - o) / n . d.
  for (Vec3 o : {Vec3{0.3, 4, 0.2}, Vec3{-1.7, 3, 1.1}, Vec3{0.5, 4, 0}}) {
    const Vec3 d{0.1, -1, 0.05};
    const Real t = dot(normal, at - o) / dot(normal, d) * length(d);
    expect_hit(w.raycast(o, d, 100), m, o, d, t, normal);
  }
  // From behind (below) the plate is passed through; beyond its edge it is missed.
  EXPECT_FALSE(w.raycast({0, -3, 0}, {0, 1, 0}, 100).has_value());
  EXPECT_FALSE(w.raycast({4, 5, 0}, {0, -1, 0}, 100).has_value());
}

TEST(Raycast, HeightFieldWalkAndMeshTreeFindTheNearestOfAllTriangles) {
  // Random bumpy fields and triangle soups against a loop over every triangle: the
  // cell walk and the BVH traversal must not skip the nearest one.
  std::mt19937 rng(3);
  std::uniform_real_distribution<Real> u(-1, 1);
  const int columns = 13, rows = 9;
  std::vector<Real> heights;
  for (int k = 0; k < columns * rows; ++k) heights.push_back(u(rng));
  const ShapeDef field = height_field_shape(columns, rows, 0.8, 1.1, heights);
  const HeightFieldView& h = height_field_view(field);
  std::vector<Vec3> vertices;
  std::vector<int> indices;
  for (int k = 0; k < 200; ++k) vertices.push_back({5 * u(rng), 5 * u(rng), 5 * u(rng)});
  for (int k = 0; k < 300 * 3; ++k) indices.push_back(static_cast<int>((u(rng) + 1) * 99.99));
  const ShapeDef mesh = triangle_mesh_shape(vertices, indices);
  const TriangleMeshView& m = mesh_view(mesh);
  int field_hits = 0, mesh_hits = 0;
  for (int k = 0; k < 2000; ++k) {
    const Vec3 o{7 * u(rng), 7 * u(rng), 7 * u(rng)};
    const Vec3 d{u(rng), u(rng), u(rng)};
    // Every triangle, the nearest hit kept.
    auto nearest = [&](int count, auto corners) {
      Real best = kInf;
      for (int t = 0; t < count; ++t) {
        Vec3 v[3];
        corners(t, v);
        Real hit_t;
        if (ray_triangle(o, d, v[0], v[1], v[2], best, hit_t) && hit_t < best) best = hit_t;
      }
      return best;
    };
    const Real field_all = nearest(height_field_triangle_count(h), [&](int t, Vec3* v) {
      Vec3 normal;
      height_field_corners(h, t, v, normal);
    });
    const Real mesh_all = nearest(m.triangle_count, [&](int t, Vec3* v) {
      for (int c = 0; c < 3; ++c) v[c] = m.vertex[m.triangle_vertex[3 * t + c]];
    });
    LocalRayHit hit;
    // The walk stops at the first cell with a hit; a hit on an edge shared with the
    // next cell can be rounded differently by its two triangles (an ulp of t, ~1e-15),
    // hence 1e-12 rather than equality.
    const bool field_hit = ray_shape(field, o, d, kInf, hit);
    ASSERT_EQ(field_hit, field_all < kInf) << "ray " << k;
    if (field_hit) {
      ++field_hits;
      EXPECT_NEAR(hit.t, field_all, 1e-12) << "ray " << k;
    }
    const bool mesh_hit = ray_shape(mesh, o, d, kInf, hit);
    ASSERT_EQ(mesh_hit, mesh_all < kInf) << "ray " << k;
    if (mesh_hit) {
      ++mesh_hits;
      EXPECT_EQ(hit.t, mesh_all) << "ray " << k;  // the same triangles' own tests
    }
  }
  EXPECT_GT(field_hits, 100);
  EXPECT_GT(mesh_hits, 200);
}

// The query's rules --------------------------------------------------------------

TEST(Raycast, MissAndMaxDistance) {
  World w = weightless_world();
  EXPECT_FALSE(w.raycast({0, 0, 0}, {1, 0, 0}, 100).has_value());  // an empty world
  const BodyId s = w.add_body(body(sphere_shape(0.5), {0, 0, 8}));
  EXPECT_FALSE(w.raycast({0, 0, 0}, {0, 0, -1}, 100).has_value());  // behind the origin
  EXPECT_FALSE(w.raycast({0, 0, 0}, {0, 1, 0}, kInf).has_value());  // beside it
  // The surface is 7.5 m away: the limit is inclusive.
  EXPECT_FALSE(w.raycast({0, 0, 0}, {0, 0, 1}, 7.4).has_value());
  expect_hit(w.raycast({0, 0, 0}, {0, 0, 1}, 7.5), s, {0, 0, 0}, {0, 0, 1}, 7.5, {0, 0, -1});
  expect_hit(w.raycast({0, 0, 0}, {0, 0, 1}, kInf), s, {0, 0, 0}, {0, 0, 1}, 7.5, {0, 0, -1});
  EXPECT_FALSE(w.raycast({0, 0, 0}, {0, 0, 1}, 0).has_value());
}

TEST(Raycast, MaskSkipsBodiesOutsideIt) {
  World w = weightless_world();
  BodyDef near = body(sphere_shape(0.5), {0, 0, 3});
  near.collision_group = 2;
  const BodyId a = w.add_body(near);
  const BodyId b = w.add_body(body(sphere_shape(0.5), {0, 0, 6}));          // group 1
  BodyDef ground = body(plane_shape({0, 0, -1}, -9), {0, 0, 0}, {}, true);  // z >= 9 solid
  ground.collision_group = 4;
  const BodyId g = w.add_body(ground);
  const Vec3 o{0, 0, 0}, d{0, 0, 1};
  expect_hit(w.raycast(o, d, 100), a, o, d, 2.5, {0, 0, -1});
  expect_hit(w.raycast(o, d, 100, 1), b, o, d, 5.5, {0, 0, -1});
  expect_hit(w.raycast(o, d, 100, 2 | 4), a, o, d, 2.5, {0, 0, -1});
  expect_hit(w.raycast(o, d, 100, 4), g, o, d, 9, {0, 0, -1});
  EXPECT_FALSE(w.raycast(o, d, 100, 8).has_value());
  EXPECT_FALSE(w.raycast(o, d, 100, 0).has_value());
  // The query reads the filter now: no step is needed after a change.
  w.set_collision_filter(a, 1, 0xffffffffu);
  expect_hit(w.raycast(o, d, 100, 1), a, o, d, 2.5, {0, 0, -1});
}

TEST(Raycast, NearestOfSeveralAndTies) {
  World w = weightless_world();
  // Along +x, added out of order, of several shapes.
  w.add_body(body(box_shape({1, 1, 1}), {9, 0, 0}));
  w.add_body(body(sphere_shape(0.5), {6, 0, 0}));
  const BodyId nearest = w.add_body(body(capsule_shape(0.25, 0.5), {3, 0, 0}));
  w.add_body(body(sphere_shape(0.5), {12, 0, 0}));
  expect_hit(w.raycast({0, 0, 0}, {1, 0, 0}, 100), nearest, {0, 0, 0}, {1, 0, 0}, 2.75, {-1, 0, 0});
  // Two bodies whose surfaces the ray meets at the same point: the lower index.
  World t = weightless_world();
  const BodyId first = t.add_body(body(box_shape({2, 2, 2}), {0, -1, 0}));
  t.add_body(body(box_shape({2, 2, 2}), {0, 1, 0}));
  const auto hit = t.raycast({-5, 0, 0}, {1, 0, 0}, 100);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->body.index, first.index);
  EXPECT_EQ(hit->distance, 4);
}

TEST(Raycast, FromInsideHitsAtDistanceZero) {
  World w = weightless_world();
  const BodyId b = w.add_body(body(box_shape({2, 2, 2}), {0, 0, 0}));
  const BodyId g = w.add_body(body(plane_shape({0, 1, 0}, -10), {0, 0, 0}, {}, true));
  const Vec3 d{3, 4, 0};  // unit: (0.6, 0.8, 0)
  expect_hit(w.raycast({0.2, 0.3, 0.4}, d, 100), b, {0.2, 0.3, 0.4}, d, 0, {-0.6, -0.8, 0});
  // On the surface counts as inside.
  expect_hit(w.raycast({1, 0, 0}, {1, 0, 0}, 100), b, {1, 0, 0}, {1, 0, 0}, 0, {-1, 0, 0});
  // Below the ground plane y = -10: inside its half-space.
  expect_hit(w.raycast({0, -11, 0}, {0, 1, 0}, 100), g, {0, -11, 0}, {0, 1, 0}, 0, {0, -1, 0});
  // Inside a sphere, a capsule, a hull and a compound's child.
  World s = weightless_world();
  const std::vector<ShapeDef> shapes = {
      sphere_shape(1), capsule_shape(0.5, 1),
      convex_hull_shape({{-1, -1, -1}, {1, -1, -1}, {0, 1, -1}, {0, 0, 1}}),
      compound_shape({CompoundChild{sphere_shape(1), {0, 0, 0}, {}}})};
  for (std::size_t k = 0; k < shapes.size(); ++k) {
    const Vec3 at{10.0 * k, 0, 0};
    const BodyId id = s.add_body(body(shapes[k], at));
    expect_hit(s.raycast(at + Vec3{0.05, 0.1, -0.05}, {0, 0, -2}, 100), id,
               at + Vec3{0.05, 0.1, -0.05}, {0, 0, -2}, 0, {0, 0, 1});
  }
}

TEST(Raycast, BadInputThrowsAOneLineError) {
  World w = weightless_world();
  w.add_body(body(sphere_shape(0.5), {0, 0, 8}));
  const Real nan = std::numeric_limits<Real>::quiet_NaN();
  auto expect_error = [&w](Vec3 o, Vec3 d, Real max_distance, const std::string& says) {
    try {
      w.raycast(o, d, max_distance);
      ADD_FAILURE() << "no error for " << says;
    } catch (const Error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(says), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  };
  expect_error({nan, 0, 0}, {0, 0, 1}, 10, "origin and direction: expected finite numbers");
  expect_error({0, 0, 0}, {0, kInf, 1}, 10, "origin and direction: expected finite numbers");
  expect_error({0, 0, 0}, {0, 0, 0}, 10, "direction: expected a non-zero vector");
  expect_error({0, 0, 0}, {0, 0, 1}, -1, "max_distance: expected a number >= 0");
  expect_error({0, 0, 0}, {0, 0, 1}, nan, "max_distance: expected a number >= 0");
  // Tiny and huge directions are fine: only the direction counts.
  EXPECT_NEAR(w.raycast({0, 0, 0}, {0, 0, 1e-300}, 10)->distance, 7.5, kTol);
  EXPECT_NEAR(w.raycast({0, 0, 0}, {1e-300, 0, 1e300}, 10)->distance, 7.5, kTol);
}

// The tree against brute force ----------------------------------------------------

/// A scene of 203 bodies of every shape at random poses (overlapping: some rays start
/// inside), in groups 1, 2 and 4 (`group`, per body), with a tilted ground plane, a
/// height field and a mesh.
World random_scene(std::mt19937& rng, std::vector<std::uint32_t>& group) {
  std::uniform_real_distribution<Real> u(-1, 1);
  auto unit_quat = [&] {
    Quat q{u(rng), u(rng), u(rng), u(rng)};
    return normalized(q);
  };
  World w = weightless_world();
  group.assign(3, 1);  // the plane, the field and the mesh: the default group
  w.add_body(body(plane_shape({0.1, 1, 0.05}, -12), {0, 0, 0}, {}, true));
  std::vector<Real> heights;
  for (int k = 0; k < 12 * 10; ++k) heights.push_back(u(rng));
  w.add_body(body(height_field_shape(12, 10, 1.5, 1.7, heights), {0, -9, 0}, {}, true));
  std::vector<Vec3> vertices;
  std::vector<int> indices;
  for (int k = 0; k < 40; ++k) vertices.push_back({3 * u(rng), 3 * u(rng), 3 * u(rng)});
  for (int k = 0; k < 60 * 3; ++k) indices.push_back(static_cast<int>((u(rng) + 1) * 19.99));
  w.add_body(body(triangle_mesh_shape(vertices, indices), {6, 6, -6}, unit_quat(), true));
  for (int i = 0; i < 200; ++i) {
    ShapeDef s;
    switch (i % 5) {
      case 0:
        s = box_shape({0.2 + std::fabs(u(rng)), 0.2 + std::fabs(u(rng)), 0.2 + std::fabs(u(rng))});
        break;
      case 1:
        s = sphere_shape(0.2 + 0.5 * std::fabs(u(rng)));
        break;
      case 2:
        s = capsule_shape(0.1 + 0.4 * std::fabs(u(rng)), 0.1 + std::fabs(u(rng)));
        break;
      case 3: {
        std::vector<Vec3> p;
        for (int k = 0; k < 12; ++k) p.push_back({u(rng), u(rng), u(rng)});
        s = convex_hull_shape(p);
        break;
      }
      default:
        s = compound_shape({CompoundChild{box_shape({0.5, 0.3, 0.4}), {-0.5, 0, 0}, unit_quat()},
                            CompoundChild{capsule_shape(0.2, 0.3), {0.5, 0.2, 0}, unit_quat()}});
    }
    BodyDef d = body(s, Vec3{6 * u(rng), 6 * u(rng), 6 * u(rng)}, unit_quat(), i % 7 == 0);
    d.collision_group = 1u << (i % 3);
    group.push_back(d.collision_group);
    w.add_body(d);
  }
  return w;
}

/// Every body tested in its own frame, the nearest kept (ties: the lower index).
std::optional<RayHit> brute_force(const World& w, const std::vector<std::uint32_t>& group,
                                  Vec3 origin, Vec3 direction, Real max_distance,
                                  std::uint32_t mask) {
  // The unit direction as World::raycast makes it (scaled by the largest component first).
  const Vec3 scaled = (1 / std::fmax(std::fabs(direction.x),
                                     std::fmax(std::fabs(direction.y), std::fabs(direction.z)))) *
                      direction;
  const Vec3 d = (1 / length(scaled)) * scaled;
  std::optional<RayHit> best;
  for (int i = 0; i < w.body_count(); ++i) {
    if ((group[i] & mask) == 0) continue;
    const BodyId id = w.body_at(i);
    const ShapeDef& shape = w.body_shape(id);
    const BodyState s = w.body_state(id);
    const Mat3 r = to_matrix(s.orientation);
    const ShapePose pose{s.position, r};
    LocalRayHit hit;
    const Real limit = best ? best->distance : max_distance;
    if (!ray_shape(shape, to_local(pose, origin), transpose_times(r, d), limit, hit)) continue;
    if (best && !(hit.t < best->distance)) continue;
    best = RayHit{id, origin + hit.t * d, r * hit.normal, hit.t};
  }
  return best;
}

TEST(Raycast, TreeMatchesBruteForceOnARandomScene) {
  std::mt19937 rng(7);
  std::vector<std::uint32_t> group;
  World w = random_scene(rng, group);
  ASSERT_EQ(w.body_count(), 203);
  std::uniform_real_distribution<Real> u(-1, 1);
  const std::uint32_t masks[4] = {0xffffffffu, 1, 2 | 4, 4};
  int hits = 0, inside = 0;
  for (int k = 0; k < 1000; ++k) {
    const Vec3 o{8 * u(rng), 8 * u(rng), 8 * u(rng)};
    const Vec3 d{u(rng), u(rng), u(rng)};
    const Real max_distance = k % 4 == 0 ? kInf : 5 + 40 * std::fabs(u(rng));
    const std::uint32_t mask = masks[(k / 4) % 4];
    const auto tree = w.raycast(o, d, max_distance, mask);
    const auto loop = brute_force(w, group, o, d, max_distance, mask);
    // The same exact test of each body in its frame: the results agree to the bit;
    // the tree only decides which bodies are tested.
    ASSERT_EQ(tree.has_value(), loop.has_value()) << "ray " << k;
    if (!tree) continue;
    ++hits;
    inside += tree->distance == 0 ? 1 : 0;
    EXPECT_EQ(tree->body.index, loop->body.index) << "ray " << k;
    EXPECT_EQ(tree->distance, loop->distance) << "ray " << k;
    EXPECT_EQ(tree->normal.x, loop->normal.x) << "ray " << k;
    EXPECT_EQ(tree->normal.y, loop->normal.y) << "ray " << k;
    EXPECT_EQ(tree->normal.z, loop->normal.z) << "ray " << k;
  }
  // Not a vacuous comparison: many hits, many misses, some rays from inside.
  EXPECT_GT(hits, 250);
  EXPECT_LT(hits, 950);
  EXPECT_GT(inside, 5);
  std::printf("random scene: %d of 1000 rays hit, %d from inside\n", hits, inside);
}

// The cached tree -------------------------------------------------------------------

TEST(Raycast, TreeFollowsStepsStatesSnapshotsAndNewBodies) {
  // Each change moves a body off the ray to a place on it, so a stale tree (its box
  // where the body was) would miss it.
  World w = weightless_world();
  BodyDef moving = body(sphere_shape(0.5), {-3, 0, 5});
  moving.velocity = {6, 0, 0};  // 0.1 m a step at 60 Hz: onto the z axis in 30 steps
  const BodyId s = w.add_body(moving);
  const Vec3 d{0, 0, 1};
  EXPECT_FALSE(w.raycast({0, 0, 0}, d, 100).has_value());  // builds the tree
  const std::vector<std::uint8_t> saved = w.save_state();
  for (int k = 0; k < 30; ++k) ASSERT_TRUE(w.step().ok);
  const Vec3 p = w.body_state(s).position;
  EXPECT_NEAR(p.x, 0, 1e-9);  // free flight: 30 h v; round-off of 30 steps ~1e-15
  expect_hit(w.raycast({p.x, p.y, 0}, d, 100), s, {p.x, p.y, 0}, d, p.z - 0.5, {0, 0, -1});
  // Moved by hand.
  BodyState state = w.body_state(s);
  state.position = {2, 0, 3};
  w.set_body_state(s, state);
  expect_hit(w.raycast({2, 0, 0}, d, 100), s, {2, 0, 0}, d, 2.5, {0, 0, -1});
  // Back to the snapshot.
  w.restore_state(saved);
  expect_hit(w.raycast({-3, 0, 0}, d, 100), s, {-3, 0, 0}, d, 4.5, {0, 0, -1});
  // A body added after the tree was built.
  const BodyId b = w.add_body(body(box_shape({1, 1, 1}), {-3, 0, 1.5}));
  expect_hit(w.raycast({-3, 0, 0}, d, 100), b, {-3, 0, 0}, d, 1, {0, 0, -1});
}

TEST(Raycast, ConcurrentCallsShareOneTree) {
  std::mt19937 rng(11);
  std::vector<std::uint32_t> group;
  World w = random_scene(rng, group);
  std::uniform_real_distribution<Real> u(-1, 1);
  std::vector<Vec3> origin, direction;
  for (int k = 0; k < 800; ++k) {
    origin.push_back({12 * u(rng), 12 * u(rng), 12 * u(rng)});
    direction.push_back({u(rng), u(rng), u(rng)});
  }
  // Four threads start on a stale tree at once; each ray's answer must be the serial one.
  std::vector<std::optional<RayHit>> parallel(origin.size());
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (std::size_t k = t; k < origin.size(); k += 4)
        parallel[k] = w.raycast(origin[k], direction[k], 40);
    });
  for (std::thread& t : threads) t.join();
  for (std::size_t k = 0; k < origin.size(); ++k) {
    const auto serial = w.raycast(origin[k], direction[k], 40);
    ASSERT_EQ(serial.has_value(), parallel[k].has_value()) << "ray " << k;
    if (serial) {
      EXPECT_EQ(serial->body.index, parallel[k]->body.index) << "ray " << k;
      EXPECT_EQ(serial->distance, parallel[k]->distance) << "ray " << k;
    }
  }
}

}  // namespace
}  // namespace pabd
