// Convex hull, compound, height field and triangle mesh shapes: construction,
// mass properties (against the box formula and numerical integrals), output
// meshes, bounds, the World API and the scene format (values and one-line
// errors). Their contacts are in test_shape_contacts.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "pabd/scene.h"
#include "pabd/world.h"
#include "shapes/body_aabb.h"
#include "shapes/mass_properties.h"
#include "shapes/shape_data.h"
#include "shapes/shape_mesh.h"

namespace pabd {
namespace {

/// The eight corners of a box of full edge lengths `size` centred at `centre`.
std::vector<Vec3> box_corners(Vec3 size, Vec3 centre) {
  std::vector<Vec3> p;
  for (int k = 0; k < 8; ++k)
    p.push_back(centre + Vec3{(k & 1 ? 0.5 : -0.5) * size.x, (k & 2 ? 0.5 : -0.5) * size.y,
                              (k & 4 ? 0.5 : -0.5) * size.z});
  return p;
}

/// Largest |a - b| over the matrix entries, relative to |b|'s trace.
double relative_difference(const Mat3& a, const Mat3& b) {
  double d = 0;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) d = std::max(d, std::fabs(a.m[r][c] - b.m[r][c]));
  return d / trace(b);
}

// Midpoint-rule integral of rho [1, x x^T] over a box region (as in
// test_mass_properties.cpp), for shapes given by a membership test.
MassProperties integrate(const std::function<bool(Vec3)>& inside, Vec3 lo, Vec3 hi, Real density,
                         int n) {
  MassProperties out;
  const Vec3 cell{(hi.x - lo.x) / n, (hi.y - lo.y) / n, (hi.z - lo.z) / n};
  const Real dv = cell.x * cell.y * cell.z;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        const Vec3 p{lo.x + (i + 0.5) * cell.x, lo.y + (j + 0.5) * cell.y,
                     lo.z + (k + 0.5) * cell.z};
        if (!inside(p)) continue;
        out.mass += density * dv;
        out.affine_inertia = out.affine_inertia + (density * dv) * outer(p, p);
      }
  return out;
}

// Inside a hull: below every face plane.
bool inside_hull(const ConvexHullView& h, Vec3 p) {
  for (int f = 0; f < h.face_count; ++f)
    if (dot(h.face_normal[f], p) > h.face_offset[f]) return false;
  return true;
}

// The message of the pabd::Error that `call` throws ("" if none).
std::string error_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// Convex hulls --------------------------------------------------------------------

TEST(ConvexHull, HullOfBoxCornersIsTheBox) {
  // Corners of a 1 x 2 x 3 box centred at (5, -2, 1): the hull is that box,
  // moved so that its centre of mass is the origin.
  const Vec3 size{1, 2, 3}, centre{5, -2, 1};
  const ShapeDef hull = convex_hull_shape(box_corners(size, centre));
  const ConvexHullView& h = hull_view(hull);
  EXPECT_EQ(h.vertex_count, 8);
  EXPECT_EQ(h.face_count, 6);  // coplanar facets merged into quadrilaterals
  EXPECT_EQ(h.edge_count, 12);
  for (int f = 0; f < h.face_count; ++f) EXPECT_EQ(hull_face_size(h, f), 4);
  // The shift is exact up to the rounding of centroid sums (values ~5, 1e-15 relative).
  const Vec3 shift = shape_origin_shift(hull);
  EXPECT_NEAR(shift.x, -centre.x, 1e-12);
  EXPECT_NEAR(shift.y, -centre.y, 1e-12);
  EXPECT_NEAR(shift.z, -centre.z, 1e-12);

  // Mass properties equal the box formula's: the tetrahedral sums are exact
  // up to rounding (1e-12 relative allows ~1e4 ulps).
  const MassProperties a = shape_mass_properties(hull, 700);
  const MassProperties b = shape_mass_properties(box_shape(size), 700);
  const double mass_error = std::fabs(a.mass - b.mass) / b.mass;
  const double inertia_error = relative_difference(a.affine_inertia, b.affine_inertia);
  std::printf("hull of box corners: mass %.15g vs box %.15g (rel %.2e), inertia rel %.2e\n", a.mass,
              b.mass, mass_error, inertia_error);
  EXPECT_LT(mass_error, 1e-12);
  EXPECT_LT(inertia_error, 1e-12);
  EXPECT_NEAR(shape_bounding_radius(hull), shape_bounding_radius(box_shape(size)), 1e-12);
}

TEST(ConvexHull, MassPropertiesMatchNumericalIntegral) {
  // 40 random points in an ellipsoidal shell, off-centre: the hull has ~30
  // vertices and triangular faces; its inertia has off-diagonal terms.
  std::mt19937_64 gen(7);
  std::normal_distribution<double> g;
  std::vector<Vec3> points;
  for (int i = 0; i < 40; ++i) {
    const Vec3 d{g(gen), g(gen), g(gen)};
    const Vec3 u = (1 / length(d)) * d;
    points.push_back(Vec3{0.9 * u.x + 0.3 * u.y, 0.5 * u.y, 0.4 * u.z - 0.2 * u.x} +
                     Vec3{0.3, -0.1, 0.2});
  }
  const ShapeDef hull = convex_hull_shape(points);
  const ConvexHullView& h = hull_view(hull);
  const MassProperties exact = shape_mass_properties(hull, 1000);
  // Grid over the hull's bounds (body frame, centre of mass at the origin).
  const Aabb box = hull_world_aabb(h, {}, identity3());
  constexpr int kGrid = 150;
  const MassProperties grid =
      integrate([&](Vec3 p) { return inside_hull(h, p); }, box.lo, box.hi, 1000, kGrid);
  const double mass_error = std::fabs(exact.mass - grid.mass) / grid.mass;
  const double inertia_error = relative_difference(exact.affine_inertia, grid.affine_inertia);
  std::printf(
      "random hull (%d vertices, %d faces): mass %.6g vs grid %.6g (rel %.2e), inertia "
      "rel %.2e, off-diagonal xy %.4g vs %.4g\n",
      h.vertex_count, h.face_count, exact.mass, grid.mass, mass_error, inertia_error,
      exact.affine_inertia.m[0][1], grid.affine_inertia.m[0][1]);
  // A 150^3 staircase resolves the boundary to a cell (1/150 of the size): the
  // volume error is O(1/n) and mostly cancels, well under 1% (as in
  // test_mass_properties.cpp); a wrong formula is off by far more.
  EXPECT_LT(mass_error, 0.01);
  EXPECT_LT(inertia_error, 0.01);
  // The centre of mass is the origin: the grid's first moment vanishes to O(1/n).
  Vec3 first;
  const Vec3 cell = (1.0 / kGrid) * (box.hi - box.lo);
  for (int i = 0; i < kGrid; ++i)
    for (int j = 0; j < kGrid; ++j)
      for (int k = 0; k < kGrid; ++k) {
        const Vec3 p{box.lo.x + (i + 0.5) * cell.x, box.lo.y + (j + 0.5) * cell.y,
                     box.lo.z + (k + 0.5) * cell.z};
        if (inside_hull(h, p)) first += p;
      }
  const double com_offset = length((1.0 / (grid.mass / 1000 / (cell.x * cell.y * cell.z))) * first);
  std::printf("random hull: grid centre of mass |c| = %.2e m (size ~1 m)\n", com_offset);
  EXPECT_LT(com_offset, 0.005);  // a few thousandths of the size: the grid's resolution
}

TEST(ConvexHull, FacesAreOutwardAndEveryVertexIsBelowEveryFace) {
  std::mt19937_64 gen(11);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<Vec3> points;
    for (int i = 0; i < 6 + trial; ++i) points.push_back({u(gen), u(gen), 0.5 * u(gen)});
    const ShapeDef hull = convex_hull_shape(points);
    const ConvexHullView& h = hull_view(hull);
    // Euler: V - E + F = 2 for a closed convex polyhedron.
    EXPECT_EQ(h.vertex_count - h.edge_count + h.face_count, 2);
    const Vec3 shift = shape_origin_shift(hull);
    for (int f = 0; f < h.face_count; ++f) {
      // The loop's own winding agrees with the stored outward normal.
      Vec3 area;
      const int first = h.face_first[f], n = hull_face_size(h, f);
      for (int k = 0; k < n; ++k)
        area +=
            cross(h.vertex[h.face_vertex[first + k]], h.vertex[h.face_vertex[first + (k + 1) % n]]);
      EXPECT_GT(dot(area, h.face_normal[f]), 0);
      // Every input point (moved like the hull) lies on or below the face plane.
      for (const Vec3& p : points)
        EXPECT_LE(dot(h.face_normal[f], p + shift) - h.face_offset[f], 1e-12);
    }
  }
}

TEST(ConvexHull, BadInputIsOneLineErrors) {
  EXPECT_EQ(error_of([] {
              convex_hull_shape({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
            }),
            "convex hull: expected at least 4 points, got 3");
  EXPECT_EQ(error_of([] {
              convex_hull_shape({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {2, 3, 0}});
            }),
            "convex hull: expected points not all on one plane (a hull needs volume)");
  EXPECT_EQ(error_of([] {
              convex_hull_shape({{0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {3, 3, 3}});
            }),
            "convex hull: expected points not all on one line (a hull needs volume)");
  EXPECT_EQ(error_of([] {
              convex_hull_shape({{1, 2, 3}, {1, 2, 3}, {1, 2, 3}, {1, 2, 3}});
            }),
            "convex hull: expected distinct points, got all equal");
  EXPECT_EQ(error_of([] {
              convex_hull_shape({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, NAN}});
            }),
            "convex hull: point 3: expected finite coordinates");
  // A ShapeDef of type ConvexHull without built data is rejected by add_body.
  World world;
  BodyDef body = default_body_def();
  body.shape.type = ShapeType::ConvexHull;
  body.name = "h";
  EXPECT_EQ(error_of([&] { world.add_body(body); }),
            "body 'h': shape: expected geometry made by convex_hull_shape()");
  // The kernels' plain pointer must be the owner's.
  body.shape = convex_hull_shape({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
  body.shape.geometry = nullptr;
  EXPECT_EQ(error_of([&] { world.add_body(body); }),
            "body 'h': shape: expected geometry made by convex_hull_shape()");
}

// Compounds -----------------------------------------------------------------------------

TEST(Compound, TwoBoxesSideBySideAreOneBox) {
  // Two 1 x 1 x 2 boxes at x = 3.5 and 4.5 (given off-centre) make the 2 x 1 x 2 box.
  const ShapeDef c = compound_shape({{box_shape({1, 1, 2}), {3.5, 0, 0}, {1, 0, 0, 0}},
                                     {box_shape({1, 1, 2}), {4.5, 0, 0}, {1, 0, 0, 0}}});
  const MassProperties a = shape_mass_properties(c, 500);
  const MassProperties b = shape_mass_properties(box_shape({2, 1, 2}), 500);
  const double inertia_error = relative_difference(a.affine_inertia, b.affine_inertia);
  std::printf("two boxes: mass %.15g vs %.15g, inertia rel %.2e\n", a.mass, b.mass, inertia_error);
  // Exact arithmetic on small numbers: 1e-14 allows a few roundings.
  EXPECT_NEAR(a.mass, b.mass, 1e-12 * b.mass);
  EXPECT_LT(inertia_error, 1e-14);
  EXPECT_NEAR(shape_origin_shift(c).x, -4, 1e-15);
  // The children now sit at -0.5 and +0.5.
  const CompoundView& v = compound_view(c);
  EXPECT_NEAR(v.child_pose[0].position.x, -0.5, 1e-15);
  EXPECT_NEAR(v.child_pose[1].position.x, 0.5, 1e-15);
}

TEST(Compound, RotatedChildrenMatchNumericalIntegral) {
  // A box turned 30 degrees about z, a capsule along x and a hull, none overlapping.
  const Quat turn{std::cos(0.2618), 0, 0, std::sin(0.2618)};
  const Quat capsule_along_x{std::cos(0.7854), 0, 0, std::sin(0.7854)};
  const std::vector<Vec3> tetra = {{0, 0, 0}, {0.6, 0, 0}, {0, 0.6, 0}, {0, 0, 0.6}};
  const ShapeDef c = compound_shape({{box_shape({0.6, 0.4, 0.5}), {-0.6, 0.1, 0}, turn},
                                     {capsule_shape(0.15, 0.3), {0.5, -0.4, 0.1}, capsule_along_x},
                                     {convex_hull_shape(tetra), {0.2, 0.3, -0.2}, {1, 0, 0, 0}}});
  const CompoundView& v = compound_view(c);
  const auto inside = [&](Vec3 p) {
    for (int i = 0; i < v.child_count; ++i) {
      const Vec3 q = transpose(v.child_pose[i].rotation) * (p - v.child_pose[i].position);
      const ShapeDef& s = v.child_shape[i];
      if (s.type == ShapeType::Box && std::fabs(q.x) <= 0.3 && std::fabs(q.y) <= 0.2 &&
          std::fabs(q.z) <= 0.25)
        return true;
      if (s.type == ShapeType::Capsule) {
        const double y = std::fmax(-0.3, std::fmin(0.3, q.y));
        if (q.x * q.x + (q.y - y) * (q.y - y) + q.z * q.z <= 0.15 * 0.15) return true;
      }
      if (s.type == ShapeType::ConvexHull && inside_hull(hull_view(s), q)) return true;
    }
    return false;
  };
  const MassProperties exact = shape_mass_properties(c, 1000);
  const MassProperties grid = integrate(inside, {-1.2, -1, -0.8}, {1.2, 1, 0.8}, 1000, 160);
  const double mass_error = std::fabs(exact.mass - grid.mass) / grid.mass;
  const double inertia_error = relative_difference(exact.affine_inertia, grid.affine_inertia);
  std::printf("compound of 3: mass %.6g vs grid %.6g (rel %.2e), inertia rel %.2e\n", exact.mass,
              grid.mass, mass_error, inertia_error);
  // Grid resolution 1.5 cm on pieces ~0.3-0.6 m: a boundary error of a few
  // tenths of a percent, with partial cancellation; 1.5% separates it from a
  // missing parallel-axis term (tens of percent here).
  EXPECT_LT(mass_error, 0.015);
  EXPECT_LT(inertia_error, 0.015);
}

TEST(Compound, BadChildrenAreOneLineErrors) {
  EXPECT_EQ(error_of([] { compound_shape({}); }), "compound: expected at least one child");
  EXPECT_EQ(error_of([] {
              compound_shape({{plane_shape({0, 1, 0}, 0), {}, {1, 0, 0, 0}}});
            }),
            "compound: child 0: expected a box, sphere, capsule or convex hull");
  EXPECT_EQ(error_of([] {
              compound_shape(
                  {{box_shape({1, 1, 1}), {}, {1, 0, 0, 0}}, {sphere_shape(-1), {}, {1, 0, 0, 0}}});
            }),
            "compound: child 1: radius: expected a finite number > 0");
}

// Height fields and meshes ---------------------------------------------------------------

TEST(HeightField, LayoutBoundsAndBadInput) {
  // 3 columns x 2 rows, spacing (2, 1): vertex (c, r) at x = 2c - 2, z = r - 0.5.
  const ShapeDef hf = height_field_shape(3, 2, 2, 1, {0, 1, 2, 3, 4, 5});
  const HeightFieldView& h = height_field_view(hf);
  const Vec3 v = height_field_vertex(h, 2, 1);
  EXPECT_EQ(v.x, 2);
  EXPECT_EQ(v.y, 5);
  EXPECT_EQ(v.z, 0.5);
  EXPECT_EQ(height_field_triangle_count(h), 4);
  // Every triangle faces +Y (counter-clockwise from above).
  for (int t = 0; t < 4; ++t) {
    Vec3 c[3], n;
    std::uint32_t active = 0;
    height_field_triangle(h, t, c, n, active);
    EXPECT_GT(n.y, 0);
  }
  // World box at a pose: exact for the grid's corners.
  const Aabb box = shape_aabb(hf, {10, 0, 0}, identity3());
  EXPECT_EQ(box.lo.x, 8);
  EXPECT_EQ(box.hi.x, 12);
  EXPECT_EQ(box.lo.y, 0);
  EXPECT_EQ(box.hi.y, 5);

  EXPECT_EQ(error_of([] {
              height_field_shape(3, 2, 1, 1, {0, 1, 2});
            }),
            "height field: heights: expected 6 numbers (2 rows x 3 columns), got 3");
  EXPECT_EQ(error_of([] {
              height_field_shape(1, 2, 1, 1, {0, 1});
            }),
            "height field: expected at least 2 columns and 2 rows, got 1 x 2");
  EXPECT_EQ(error_of([] {
              height_field_shape(2, 2, 0, 1, {0, 1, 2, 3});
            }),
            "height field: spacing: expected finite numbers > 0");
  // Static only.
  World world;
  BodyDef body = default_body_def();
  body.name = "field";
  body.shape = hf;
  EXPECT_EQ(error_of([&] { world.add_body(body); }),
            "body 'field': shape: expected a static body for a height field");
  body.is_static = true;
  EXPECT_NO_THROW(world.add_body(body));
}

TEST(TriangleMesh, ObjLoadsWithBvhAndActiveEdges) {
  const ShapeDef mesh =
      triangle_mesh_from_obj(std::string(PABD_SOURCE_DIR) + "/tests/data/floor_ramp.obj");
  const TriangleMeshView& m = mesh_view(mesh);
  EXPECT_EQ(m.vertex_count, 6);
  EXPECT_EQ(m.triangle_count, 4);  // the quad is triangulated
  // Floor normals +Y; the ramp's (-1, 2, 0) / sqrt(5).
  EXPECT_NEAR(m.triangle_normal[0].y, 1, 1e-15);
  EXPECT_NEAR(m.triangle_normal[2].x, -1 / std::sqrt(5.0), 1e-7);  // OBJ coordinates are floats
  // The floor's diagonal is shared by coplanar triangles (inactive); the
  // floor-ramp edge is concave (inactive); the outer border is active.
  int active = 0;
  for (int t = 0; t < m.triangle_count; ++t)
    for (int k = 0; k < 3; ++k) active += (m.triangle_active[t] >> k) & 1;
  EXPECT_EQ(active, 12 - 2 * 3);  // 12 edge sides, 3 interior edges seen from both sides
  // The BVH's root holds every triangle.
  const Aabb root = m.node[0].box;
  EXPECT_EQ(root.lo.x, -2);
  EXPECT_EQ(root.hi.x, 4);
  EXPECT_EQ(root.hi.y, 1);

  EXPECT_EQ(error_of([] { triangle_mesh_from_obj("/nonexistent/mesh.obj"); }),
            "/nonexistent/mesh.obj: cannot open the OBJ file");
  EXPECT_EQ(error_of([] {
              triangle_mesh_shape({{0, 0, 0}, {1, 0, 0}}, {0, 1, 2});
            }),
            "triangle mesh: index 2: expected a vertex index from 0 to 2 - 1, got 2");
  World world;
  BodyDef body = default_body_def();
  body.name = "m";
  body.shape = mesh;
  EXPECT_EQ(error_of([&] { world.add_body(body); }),
            "body 'm': shape: expected a static body for a triangle mesh");
}

TEST(TriangleMesh, BvhQueryFindsExactlyTheOverlappingTriangles) {
  // A 20 x 20 grid of quads (800 triangles) with bumps; random query boxes.
  std::vector<Vec3> v;
  std::vector<int> idx;
  for (int r = 0; r <= 20; ++r)
    for (int c = 0; c <= 20; ++c)
      v.push_back({c * 0.5, std::sin(c * 0.7) * std::cos(r * 0.4), r * 0.5});
  for (int r = 0; r < 20; ++r)
    for (int c = 0; c < 20; ++c) {
      const int a = r * 21 + c;
      idx.insert(idx.end(), {a, a + 21, a + 22, a, a + 22, a + 1});
    }
  const ShapeDef mesh = triangle_mesh_shape(v, idx);
  const TriangleMeshView& m = mesh_view(mesh);
  std::mt19937_64 gen(3);
  std::uniform_real_distribution<double> u(-1, 11);
  for (int trial = 0; trial < 200; ++trial) {
    const Vec3 c{u(gen), 0.2 * u(gen) - 1, u(gen)};
    const Aabb q{c - Vec3{0.7, 0.3, 0.4}, c + Vec3{0.7, 0.3, 0.4}};
    std::set<int> found;
    auto visit = [&found](int t) { found.insert(t); };
    mesh_query(m, q, visit);
    // Brute force: every triangle whose own box meets q must be found.
    for (int t = 0; t < m.triangle_count; ++t) {
      Aabb tb = empty_aabb();
      for (int k = 0; k < 3; ++k) {
        tb.lo = componentwise_min(tb.lo, m.vertex[m.triangle_vertex[3 * t + k]]);
        tb.hi = componentwise_max(tb.hi, m.vertex[m.triangle_vertex[3 * t + k]]);
      }
      if (aabb_overlap(tb, q)) {
        EXPECT_EQ(found.count(t), 1u) << "triangle " << t;
      }
    }
  }
}

// Output meshes and bounds -------------------------------------------------------------

// Divergence theorem: the signed volume of a closed, outward-wound mesh.
double enclosed_volume(const TriangleMesh& m) {
  double v = 0;
  for (size_t t = 0; t + 2 < m.indices.size(); t += 3)
    v += dot(m.positions[m.indices[t]],
             cross(m.positions[m.indices[t + 1]], m.positions[m.indices[t + 2]])) /
         6;
  return v;
}

TEST(ShapeOutput, MeshesAreClosedWithTheShapesVolume) {
  std::mt19937_64 gen(5);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<Vec3> points;
  for (int i = 0; i < 30; ++i) points.push_back({u(gen), u(gen), u(gen)});
  const ShapeDef hull = convex_hull_shape(points);
  const double hull_mesh_volume = enclosed_volume(shape_mesh(hull));
  std::printf("hull mesh volume %.15g vs hull %.15g\n", hull_mesh_volume, shape_volume(hull));
  // The same triangles as the fanned faces: equal up to rounding.
  EXPECT_NEAR(hull_mesh_volume, shape_volume(hull), 1e-12 * shape_volume(hull));
  // A compound of two boxes and the hull: the children's meshes at their poses.
  const ShapeDef c = compound_shape({{box_shape({1, 1, 1}), {3, 0, 0}, {1, 0, 0, 0}},
                                     {box_shape({1, 2, 1}), {-3, 0, 0}, {0.8, 0.6, 0, 0}},
                                     {hull, {0, 3, 0}, {1, 0, 0, 0}}});
  EXPECT_NEAR(enclosed_volume(shape_mesh(c)), 1 + 2 + shape_volume(hull), 1e-12 * 4);
  // A height field's surface: two triangles per cell.
  const ShapeDef hf = height_field_shape(4, 3, 1, 1, std::vector<Real>(12, 0.5));
  EXPECT_EQ(shape_mesh(hf).indices.size(), 3u * 2 * 3 * 2);
}

TEST(ShapeBounds, TightBoxesAndRotationRadii) {
  std::mt19937_64 gen(9);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<Vec3> points;
  for (int i = 0; i < 25; ++i) points.push_back({u(gen), 0.5 * u(gen), u(gen)});
  const ShapeDef hull = convex_hull_shape(points);
  const Quat q = normalized(Quat{0.3, -0.5, 0.7, 0.2});
  const Mat3 r = to_matrix(q);
  const Vec3 c{1, 2, 3};
  // Reference: the extreme input points, moved like the hull.
  Aabb ref = empty_aabb();
  const Vec3 shift = shape_origin_shift(hull);
  for (const Vec3& p : points) {
    const Vec3 w = r * (p + shift) + c;
    ref.lo = componentwise_min(ref.lo, w);
    ref.hi = componentwise_max(ref.hi, w);
  }
  const Aabb box = shape_aabb(hull, c, r);
  EXPECT_NEAR(box.lo.x, ref.lo.x, 1e-12);
  EXPECT_NEAR(box.hi.y, ref.hi.y, 1e-12);
  EXPECT_NEAR(box.hi.z, ref.hi.z, 1e-12);
  double far = 0;
  for (const Vec3& p : points) far = std::max(far, length(p + shift));
  EXPECT_NEAR(shape_rotation_radius(hull), far, 1e-12);

  // A compound's box: the union of its children's boxes (corners of two boxes).
  const ShapeDef comp = compound_shape(
      {{box_shape({1, 1, 1}), {2, 0, 0}, q}, {box_shape({2, 1, 1}), {-2, 0, 0}, {1, 0, 0, 0}}});
  const CompoundView& v = compound_view(comp);
  Aabb corners = empty_aabb();
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 8; ++k) {
      const Vec3 h = 0.5 * v.child_shape[i].size;
      const Vec3 local{k & 1 ? h.x : -h.x, k & 2 ? h.y : -h.y, k & 4 ? h.z : -h.z};
      const Vec3 w = r * (v.child_pose[i].rotation * local + v.child_pose[i].position) + c;
      corners.lo = componentwise_min(corners.lo, w);
      corners.hi = componentwise_max(corners.hi, w);
    }
  const Aabb cb = shape_aabb(comp, c, r);
  EXPECT_NEAR(cb.lo.x, corners.lo.x, 1e-12);
  EXPECT_NEAR(cb.hi.x, corners.hi.x, 1e-12);
  EXPECT_NEAR(cb.lo.z, corners.lo.z, 1e-12);
  // Every corner is within the rotation radius of the centre of mass.
  double comp_far = 0;
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 8; ++k) {
      const Vec3 h = 0.5 * v.child_shape[i].size;
      comp_far = std::max(
          comp_far, length(v.child_pose[i].rotation *
                               Vec3{k & 1 ? h.x : -h.x, k & 2 ? h.y : -h.y, k & 4 ? h.z : -h.z} +
                           v.child_pose[i].position));
    }
  EXPECT_GE(shape_rotation_radius(comp), comp_far - 1e-12);
}

// World and scene files -------------------------------------------------------------------

TEST(ShapeScene, NewShapesParseAndBuild) {
  const std::string dir = std::string(PABD_TEST_OUTPUT_DIR);
  const std::string obj = dir + "/shapes_scene_mesh.obj";
  {
    std::FILE* f = std::fopen(obj.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("v 0 0 0\nv 0 0 1\nv 1 0 1\nf 1 2 3\n", f);
    std::fclose(f);
  }
  const std::string text = R"({"bodies": [
    {"name": "hull", "shape": {"type": "convex_hull", "points": [[1,0,0],[3,0,0],[1,2,0],[1,0,2]]},
     "position": [0, 5, 0], "density": 600},
    {"name": "gear", "shape": {"type": "compound", "children": [
       {"shape": {"type": "box", "size": [1, 1, 1]}, "position": [-1, 0, 0]},
       {"shape": {"type": "capsule", "radius": 0.1, "half_height": 0.5}, "position": [1, 0, 0],
        "orientation": [0.7071067811865476, 0, 0, 0.7071067811865476]},
       {"shape": {"type": "convex_hull", "points": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]]}}]}},
    {"name": "field", "static": true, "shape": {"type": "heightfield", "columns": 3, "rows": 2,
     "spacing": [0.5, 2], "heights": [0, 0.1, 0.2, 0.3, 0.4, 0.5]}},
    {"name": "mesh", "static": true, "shape": {"type": "triangle_mesh", "file": "shapes_scene_mesh.obj"}}
  ]})";
  const Scene s = parse_scene(text, dir + "/shapes_scene.json");
  ASSERT_EQ(s.bodies.size(), 4u);
  EXPECT_EQ(s.bodies[0].shape.type, ShapeType::ConvexHull);
  // Tetrahedron (1,0,0) + legs 2, 2, 2: volume 8/6, centroid (1.5, 0.5, 0.5).
  EXPECT_NEAR(shape_volume(s.bodies[0].shape), 8.0 / 6, 1e-14);
  EXPECT_NEAR(shape_origin_shift(s.bodies[0].shape).x, -1.5, 1e-14);
  EXPECT_EQ(compound_view(s.bodies[1].shape).child_count, 3);
  EXPECT_EQ(height_field_view(s.bodies[2].shape).columns, 3);
  EXPECT_EQ(height_field_view(s.bodies[2].shape).spacing_z, 2);
  EXPECT_EQ(mesh_view(s.bodies[3].shape).triangle_count, 1);
  World world = build_world(s, s.settings);
  EXPECT_NEAR(world.body_mass(world.find_body("hull")), 600 * 8.0 / 6, 1e-10);
  EXPECT_EQ(world.body_mass(world.find_body("field")), 0);
}

TEST(ShapeScene, BadShapesAreOneLineErrorsWithTheirPointer) {
  const auto error = [](const std::string& shape, bool is_static = false) {
    try {
      parse_scene(std::string(R"({"bodies": [{"static": )") + (is_static ? "true" : "false") +
                      R"(, "shape": )" + shape + "}]}",
                  "t.json");
    } catch (const SceneError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error(R"({"type": "convex_hull", "points": [[0,0,0],[1,0,0],[0,1,0]]})"),
            "t.json: /bodies/0/shape/points: expected at least 4 points, got 3");
  EXPECT_EQ(error(R"({"type": "convex_hull", "points": [[0,0,0],[1,0,0],[0,1,0],[1,1,0]]})"),
            "t.json: /bodies/0/shape/points: expected points not all on one plane (a hull needs "
            "volume)");
  EXPECT_EQ(error(R"({"type": "convex_hull", "points": [[0,0,0],[1,0,0],[0,1,0],[1,1,1e999]]})"),
            "t.json: /bodies/0/shape/points/3/2: expected a finite number, got 1e999");
  EXPECT_EQ(error(R"({"type": "convex_hull", "points": [[0,0,0],[1,0,0],[0,1,0],[1,1,"x"]]})"),
            "t.json: /bodies/0/shape/points/3/2: expected a finite number, got \"x\"");
  EXPECT_EQ(
      error(
          R"({"type": "heightfield", "columns": 2, "rows": 2, "spacing": 1, "heights": [0,0,0,0]})"),
      "t.json: /bodies/0/shape/type: expected a height field only on a static body (add "
      "\"static\": true)");
  EXPECT_EQ(
      error(
          R"({"type": "heightfield", "columns": 3, "rows": 2, "spacing": 1, "heights": [0,0,0,0]})",
          true),
      "t.json: /bodies/0/shape/heights: expected rows x columns = 2 x 3 = 6 numbers "
      "(row-major), got an array of 4");
  EXPECT_EQ(
      error(
          R"({"type": "heightfield", "columns": 2, "rows": 2, "spacing": [1, 0], "heights": [0,0,0,0]})",
          true),
      "t.json: /bodies/0/shape/spacing/1: expected a positive finite number, got 0");
  EXPECT_EQ(error(R"({"type": "triangle_mesh", "file": "x.obj"})"),
            "t.json: /bodies/0/shape/type: expected a triangle mesh only on a static body (add "
            "\"static\": true)");
  EXPECT_EQ(error(R"({"type": "triangle_mesh", "file": "missing.obj"})", true),
            "t.json: /bodies/0/shape/file: expected a readable OBJ file of triangles, got "
            "\"missing.obj\" (cannot open the OBJ file)");
  EXPECT_EQ(error(R"({"type": "compound", "children": []})"),
            "t.json: /bodies/0/shape/children: expected a non-empty array of child objects, got "
            "an array of 0");
  EXPECT_EQ(error(R"({"type": "compound", "children": [{"shape": {"type": "plane"}}]})"),
            "t.json: /bodies/0/shape/children/0/shape/type: expected a convex child shape (box, "
            "sphere, capsule, convex_hull), got \"plane\"");
  EXPECT_EQ(
      error(R"({"type": "compound", "children": [{"shape": {"type": "box", "size": [1,1,0]}}]})"),
      "t.json: /bodies/0/shape/children/0/shape/size/2: expected a positive finite number, "
      "got 0");
  EXPECT_EQ(error(R"({"type": "cone"})"),
            "t.json: /bodies/0/shape/type: expected one of plane, box, sphere, capsule, "
            "convex_hull, compound, heightfield, triangle_mesh, got \"cone\"");
}

}  // namespace
}  // namespace pabd
