// Mass and affine inertia of each shape against a direct numerical integral.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "shapes/mass_properties.h"

namespace pabd {
namespace {

// Midpoint-rule integral of rho [1, x x^T] over the shape's bounding box.
MassProperties integrate(const std::function<bool(Vec3)>& inside, Vec3 half, Real density, int n) {
  MassProperties out;
  const Vec3 cell{2 * half.x / n, 2 * half.y / n, 2 * half.z / n};
  const Real dv = cell.x * cell.y * cell.z;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        const Vec3 p{-half.x + (i + 0.5) * cell.x, -half.y + (j + 0.5) * cell.y,
                     -half.z + (k + 0.5) * cell.z};
        if (!inside(p)) continue;
        out.mass += density * dv;
        out.affine_inertia = out.affine_inertia + (density * dv) * outer(p, p);
      }
  return out;
}

void expect_close(const MassProperties& a, const MassProperties& b, Real rel) {
  EXPECT_NEAR(a.mass, b.mass, rel * b.mass);
  const Real scale = trace(b.affine_inertia);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      EXPECT_NEAR(a.affine_inertia.m[r][c], b.affine_inertia.m[r][c], rel * scale) << r << "," << c;
}

// A 120^3 grid resolves curved boundaries to ~1 cell; the volume error of the
// staircase is O(cells on the surface / cells inside) ~ 1/n, and mostly cancels,
// so 1% bounds it with margin (a wrong formula is off by 10% or more).
constexpr int kGrid = 120;
constexpr Real kRel = 0.01;

TEST(MassProperties, BoxMatchesIntegral) {
  const ShapeDef box = box_shape({1, 2, 3});
  const auto exact = shape_mass_properties(box, 700);
  // For a box the midpoint rule is exact up to the O(h^2) second-moment term.
  expect_close(exact, integrate([](Vec3) { return true; }, {0.5, 1, 1.5}, 700, kGrid), 1e-3);
  EXPECT_NEAR(exact.mass, 700 * 6, 1e-9);
}

TEST(MassProperties, SphereMatchesIntegral) {
  const ShapeDef s = sphere_shape(0.7);
  auto inside = [](Vec3 p) { return dot(p, p) <= 0.49; };
  expect_close(shape_mass_properties(s, 1000), integrate(inside, {0.7, 0.7, 0.7}, 1000, kGrid),
               kRel);
}

TEST(MassProperties, CapsuleMatchesIntegral) {
  const ShapeDef s = capsule_shape(0.3, 0.6);
  auto inside = [](Vec3 p) {
    const Real y = std::fmax(0.0, std::fabs(p.y) - 0.6);  // distance past the core segment
    return p.x * p.x + p.z * p.z + y * y <= 0.09;
  };
  expect_close(shape_mass_properties(s, 1000), integrate(inside, {0.3, 0.9, 0.3}, 1000, kGrid),
               kRel);
}

TEST(MassProperties, InertiaTensorRelation) {
  // A solid box's inertia about x is m (sy^2 + sz^2) / 12.
  const auto mp = shape_mass_properties(box_shape({1, 2, 3}), 1);
  const Mat3 inertia = inertia_tensor_from_affine(mp.affine_inertia);
  EXPECT_NEAR(inertia.m[0][0], mp.mass * (4 + 9) / 12.0, 1e-12);
  EXPECT_NEAR(inertia.m[1][1], mp.mass * (1 + 9) / 12.0, 1e-12);
  EXPECT_NEAR(inertia.m[2][2], mp.mass * (1 + 4) / 12.0, 1e-12);
}

}  // namespace
}  // namespace pabd
