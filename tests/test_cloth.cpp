// Cloth (src/world/world_cloth.cpp): particles and springs in the same solver
// as the bodies. A sheet pinned along its top edge hangs without stretching
// more than 10% and without a triangle turning over; wind across it makes it
// billow downwind; the wind's push is the dynamic pressure across each face.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "pabd/world.h"

namespace pabd {
namespace {

/// A square sheet of n x n vertices, `size` wide, in the x-y plane (its normal
/// +z), its top row at height `top`.
ClothDef sheet(int n, Real size, Real top) {
  ClothDef c;
  c.name = "sheet";
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      c.vertices.push_back(
          {size * Real(j) / Real(n - 1) - size / 2, top - size * Real(i) / Real(n - 1), 0});
  for (int i = 0; i + 1 < n; ++i)
    for (int j = 0; j + 1 < n; ++j) {
      const int a = i * n + j, b = a + 1, d = a + n, e = d + 1;
      c.triangles.insert(c.triangles.end(), {a, d, e, a, e, b});
    }
  return c;
}

struct ClothCheck {
  Real max_strain = 0;     ///< largest |length / rest - 1| of an edge
  Real min_alignment = 1;  ///< smallest cos between a triangle's normal now and at rest
};

ClothCheck check_cloth(const World& world, const ClothDef& def) {
  const ClothInfo info = world.cloth(0);
  auto pos = [&](int k) {
    return world.body_state(world.body_at(info.particles[std::size_t(k)])).position;
  };
  ClothCheck c;
  for (std::size_t t = 0; t < def.triangles.size(); t += 3) {
    const int v[3] = {def.triangles[t], def.triangles[t + 1], def.triangles[t + 2]};
    for (int e = 0; e < 3; ++e) {
      const int a = v[e], b = v[(e + 1) % 3];
      const Real rest = length(def.vertices[std::size_t(b)] - def.vertices[std::size_t(a)]);
      c.max_strain = std::max(c.max_strain, std::abs(length(pos(b) - pos(a)) / rest - 1));
    }
    const Vec3 n0 = cross(def.vertices[std::size_t(v[1])] - def.vertices[std::size_t(v[0])],
                          def.vertices[std::size_t(v[2])] - def.vertices[std::size_t(v[0])]);
    const Vec3 n1 = cross(pos(v[1]) - pos(v[0]), pos(v[2]) - pos(v[0]));
    c.min_alignment = std::min(c.min_alignment, dot(n0, n1) / (length(n0) * length(n1)));
  }
  return c;
}

/// The sheet in a world, its top row held by stiff springs to fixed points.
World hanging_sheet(const ClothDef& def, int n) {
  World world;
  const int first = world.add_cloth(def);
  for (int j = 0; j < n; ++j) {
    SpringDef s;
    s.body_b = world.body_at(first + j);
    s.anchor_a = s.anchor_b = def.vertices[std::size_t(j)];
    s.rest_length = 0;
    s.stiffness = 2e4;
    world.add_spring(s);
  }
  return world;
}

TEST(Cloth, HangsWithoutStretchingOrTurningOver) {
  const int n = 9;
  const ClothDef def = sheet(n, 1.0, 2.0);
  World world = hanging_sheet(def, n);
  ASSERT_EQ(world.body_count(), n * n);
  for (int i = 0; i < 300; ++i) ASSERT_TRUE(world.step().ok);
  const ClothCheck c = check_cloth(world, def);
  // The bounds: edge strain under 10%, no triangle inverted (its
  // normal stays within 90 degrees of where it started).
  EXPECT_LT(c.max_strain, 0.10);
  EXPECT_GT(c.min_alignment, 0);
}

TEST(Cloth, BillowsDownwindWithoutTearing) {
  const int n = 9;
  const ClothDef def = sheet(n, 1.0, 2.0);
  World world = hanging_sheet(def, n);
  // The bottom row held too: a sail held at its head and foot.
  for (int j = 0; j < n; ++j) {
    SpringDef s;
    const int k = (n - 1) * n + j;
    s.body_b = world.body_at(k);
    s.anchor_a = s.anchor_b = def.vertices[std::size_t(k)];
    s.rest_length = 0;
    s.stiffness = 2e4;
    world.add_spring(s);
  }
  WindDef wind;
  wind.velocity = {0, 0, 10};  // across the sheet, toward +z
  world.set_wind(wind);
  for (int i = 0; i < 300; ++i) ASSERT_TRUE(world.step().ok);
  const ClothInfo info = world.cloth(0);
  const Real middle =
      world.body_state(world.body_at(info.particles[std::size_t((n / 2) * n + n / 2)])).position.z;
  // 0.5 rho C_D v^2 = 73.5 Pa on 1 m^2 against the weight of 0.3 kg: the
  // middle bows downwind by centimetres at least, not up the wind.
  EXPECT_GT(middle, 0.03);
  const ClothCheck c = check_cloth(world, def);
  EXPECT_LT(c.max_strain, 0.10);
  EXPECT_GT(c.min_alignment, 0);
}

TEST(Cloth, TheWindPushesWithTheDynamicPressure) {
  // One free triangle at rest, wind straight across it, no gravity: after one
  // step each particle moved as the pressure's third of the push says.
  WorldDef w = default_world_def();
  w.gravity = {0, 0, 0};
  World world(w);
  ClothDef c;
  c.name = "t";
  c.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  c.triangles = {0, 1, 2};
  c.damping = 0;
  const int first = world.add_cloth(c);
  WindDef wind;
  wind.velocity = {0, 0, -4};
  world.set_wind(wind);
  ASSERT_TRUE(world.step().ok);
  // F = 0.5 rho C_D |u_n| u_n A along the normal (+z; the wind toward -z
  // pushes -z), a third to each particle, taken implicitly in the particle's
  // velocity (world_cloth.cpp): m (v' - 0) / h = K (w - v') with K = c / 3,
  // c = 0.5 rho C_D A |u_n|, so v' = K w / (m / h + K). The explicit kick
  // K w h / m would be 0.65 m/s, this one 0.56.
  const Real area = 0.5, m = 0.3 * area / 3, h = w.dt;
  const Real k = 0.5 * 1.225 * 1.2 * area * 4 / 3;
  const Real expected = k * -4 / (m / h + k);
  const Real v = world.body_state(world.body_at(first)).velocity.z;
  EXPECT_NEAR(v, expected, 1e-9);
  // The three particles moved alike: no spring was stretched.
  EXPECT_NEAR(world.body_state(world.body_at(first + 2)).velocity.z, expected, 1e-9);
}

TEST(Cloth, BadInputIsRefused) {
  World world;
  ClothDef c = sheet(3, 1.0, 1.0);
  c.triangles.push_back(0);  // not a multiple of three
  EXPECT_THROW(world.add_cloth(c), Error);
  c = sheet(3, 1.0, 1.0);
  c.triangles[0] = 99;
  EXPECT_THROW(world.add_cloth(c), Error);
  c = sheet(3, 1.0, 1.0);
  c.vertices.push_back({5, 5, 5});  // in no triangle
  EXPECT_THROW(world.add_cloth(c), Error);
  c = sheet(3, 1.0, 1.0);
  c.triangles = {0, 1, 2};  // three vertices on a line
  EXPECT_THROW(world.add_cloth(c), Error);
  WindDef wind;
  wind.velocity = {std::nan(""), 0, 0};
  EXPECT_THROW(world.set_wind(wind), Error);
  EXPECT_EQ(world.body_count(), 0);  // nothing was added by the refused calls
}

}  // namespace
}  // namespace pabd
