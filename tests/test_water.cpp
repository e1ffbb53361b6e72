// The water's kernels on their own: the pressure and drag on a body's wetted
// triangles (src/fields/hydro_force.h) against Archimedes, an exact
// quadrature and the drag formulas; and the shallow-water wake grid
// (src/fields/wake_grid.h): conservation, wave speed, the absorbing border,
// interpolation, bad input, sub-steps and bit-identical reruns.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "fields/hydro_force.h"
#include "fields/wake_grid.h"
#include "pabd/world.h"

namespace pabd {
namespace {

using Triangle = std::array<Vec3, 3>;

constexpr Real kRho = 1000, kG = 9.81;

Quat axis_angle(Vec3 axis, Real angle) {
  const Vec3 a = (1 / length(axis)) * axis;
  const Real s = std::sin(angle / 2);
  return {std::cos(angle / 2), s * a.x, s * a.y, s * a.z};
}

/// A box of full edges `size`, rotated by q about its centre at `centre`:
/// 12 triangles, counter-clockwise seen from outside.
std::vector<Triangle> box_mesh(Vec3 size, Quat q, Vec3 centre) {
  std::vector<Triangle> tris;
  const Vec3 e[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int k = 0; k < 3; ++k)
    for (const Real sign : {Real(1), Real(-1)}) {
      const Vec3 u = e[(k + 1) % 3], v = e[(k + 2) % 3];  // u x v = e[k]
      const Vec3 mid = (sign * get(size, k) / 2) * e[k];
      const Vec3 hu = (get(size, (k + 1) % 3) / 2) * u, hv = (get(size, (k + 2) % 3) / 2) * v;
      Vec3 quad[4] = {mid - hu - hv, mid + hu - hv, mid + hu + hv, mid - hu + hv};
      if (sign < 0) std::swap(quad[1], quad[3]);  // counter-clockwise about -e[k]
      for (Vec3& p : quad) p = centre + rotate(q, p);
      tris.push_back({quad[0], quad[1], quad[2]});
      tris.push_back({quad[0], quad[2], quad[3]});
    }
  return tris;
}

/// The water's force on a mesh moving at `velocity` below a flat `level`.
HydroSum mesh_hydro(const std::vector<Triangle>& tris, Real level, Vec3 velocity, Vec3 centre,
                    const HydroParams& hp) {
  HydroSum sum;
  for (const Triangle& t : tris)
    add_triangle_hydro_force(t[0], t[1], t[2], level - t[0].y, level - t[1].y, level - t[2].y,
                             velocity, velocity, velocity, centre, hp, sum);
  return sum;
}

HydroParams still_params() { return HydroParams{kRho, kG, 0.5, 0.01}; }

TEST(HydroForce, BoxMeshIsClosedAndOutward) {
  const auto tris = box_mesh({1, 2, 3}, axis_angle({1, 1, 0}, 0.3), {1, 2, 3});
  Real volume = 0;
  Vec3 area{0, 0, 0};
  for (const Triangle& t : tris) {
    volume += dot(t[0] - Vec3{1, 2, 3}, cross(t[1] - t[0], t[2] - t[0])) / 6;
    area += cross(t[1] - t[0], t[2] - t[0]);
  }
  // Rounding of 12 terms of order 1: 1e-12 absolute.
  EXPECT_NEAR(volume, 6, 1e-12);  // +abc: the normals point out
  EXPECT_NEAR(length(area), 0, 1e-12);
}

// Exact integration against exact geometry: only rounding of a few dozen terms
// of order rho g V ~ 1e4 N is left, so 1e-9 relative is loose and still far
// below any wrong clip, sign or factor.
constexpr Real kRel = 1e-9;

TEST(HydroForce, ArchimedesOnAnUprightBoxPartlyAndFullySubmerged) {
  const Vec3 size{2, 1, 0.5}, c{0.3, 0.1, -0.4};  // y from -0.4 to 0.6: 0.4 m under
  const auto tris = box_mesh(size, Quat{}, c);
  const Real v_sub = 2 * 0.4 * 0.5, f = kRho * kG * v_sub;
  const Vec3 buoyancy_centre{c.x, -0.2, c.z};
  const HydroSum s = mesh_hydro(tris, 0, {0, 0, 0}, buoyancy_centre, still_params());
  EXPECT_NEAR(s.force.y, f, kRel * f);
  EXPECT_NEAR(s.force.x, 0, kRel * f);
  EXPECT_NEAR(s.force.z, 0, kRel * f);
  EXPECT_NEAR(length(s.torque), 0, kRel * f);  // arm ~1 m
  EXPECT_NEAR(s.displaced_volume, v_sub, kRel);
  EXPECT_NEAR(s.wetted_area, 2 * 0.5 + 2 * 0.4 * (2 + 0.5), kRel);

  const HydroSum full = mesh_hydro(tris, 5, {0, 0, 0}, c, still_params());
  const Real f_full = kRho * kG * 1;  // V = 2 x 1 x 0.5
  EXPECT_NEAR(full.force.y, f_full, kRel * f_full);
  EXPECT_NEAR(std::hypot(full.force.x, full.force.z), 0, kRel * f_full);
  EXPECT_NEAR(length(full.torque), 0, kRel * f_full);  // about the centre of buoyancy
  EXPECT_NEAR(full.wetted_area, 2 * (2 * 1 + 2 * 0.5 + 1 * 0.5), kRel);
}

TEST(HydroForce, TiltedBoxHasArchimedesForceThroughTheCentreOfBuoyancy) {
  // Turned 20 degrees about x, the box's wet part is a prism along x: its
  // cross-section is the rectangle (y, z) cut by the line
  // cos(t) y - sin(t) z < level - c.y (body frame), clipped here as a 2D
  // polygon, an independent route to the volume and centroid.
  const Vec3 size{1.0, 0.6, 0.8}, c{0.3, 0.1, -0.2};
  const Real t = 20 * 3.141592653589793 / 180, level = 0;
  const Quat q = axis_angle({1, 0, 0}, t);
  const Real ny = std::cos(t), nz = -std::sin(t), cut = level - c.y;
  const Real hy = size.y / 2, hz = size.z / 2;
  const Real rect[4][2] = {{-hy, -hz}, {hy, -hz}, {hy, hz}, {-hy, hz}};
  std::vector<std::array<Real, 2>> poly;  // Sutherland-Hodgman against ny y + nz z < cut
  for (int i = 0; i < 4; ++i) {
    const Real* a = rect[i];
    const Real* b = rect[(i + 1) % 4];
    const Real da = cut - (ny * a[0] + nz * a[1]), db = cut - (ny * b[0] + nz * b[1]);
    if (da > 0) poly.push_back({a[0], a[1]});
    if ((da > 0) != (db > 0)) {
      const Real s = da / (da - db);
      poly.push_back({a[0] + s * (b[0] - a[0]), a[1] + s * (b[1] - a[1])});
    }
  }
  Real area = 0, my = 0, mz = 0;  // shoelace area and first moments
  for (std::size_t i = 0; i < poly.size(); ++i) {
    const auto& a = poly[i];
    const auto& b = poly[(i + 1) % poly.size()];
    const Real x = a[0] * b[1] - b[0] * a[1];
    area += x / 2;
    my += (a[0] + b[0]) * x / 6;
    mz += (a[1] + b[1]) * x / 6;
  }
  const Real v_sub = size.x * area, f = kRho * kG * v_sub;
  ASSERT_GT(v_sub, 0.1);  // partly submerged, well away from either end
  ASSERT_LT(v_sub, 0.9 * size.x * size.y * size.z);
  const Vec3 r_cb = rotate(q, {0, my / area, mz / area});  // from the body centre
  const HydroSum s = mesh_hydro(box_mesh(size, q, c), level, {0, 0, 0}, c, still_params());
  EXPECT_NEAR(s.force.y, f, kRel * f);
  EXPECT_NEAR(std::hypot(s.force.x, s.force.z), 0, kRel * f);
  const Vec3 expected = cross(r_cb, {0, f, 0});
  EXPECT_NEAR(length(s.torque - expected), 0, kRel * f);  // arm < 1 m
  EXPECT_NEAR(s.displaced_volume, v_sub, kRel);
}

TEST(HydroForce, SkewBoxMatchesAVolumeSumWithItsErrorBound) {
  // An arbitrary orientation, against a sum over N^3 cells of the box (body
  // frame) of "cell centre under water". Only cells the water plane crosses
  // can be wrong, each by at most its volume (and its volume times its
  // farthest point's distance in the first moment): that sum is the bound.
  const Vec3 size{1.0, 0.7, 0.5}, c{0, 0.05, 0};
  const Quat q = axis_angle({1, 2, 0.5}, 0.6);
  const Vec3 up = rotate(conjugate(q), {0, 1, 0});  // world +y in the body frame
  const int n = 100;
  const Vec3 cell{size.x / n, size.y / n, size.z / n};
  const Real cell_v = cell.x * cell.y * cell.z;
  const Real half_reach =
      (std::abs(up.x) * cell.x + std::abs(up.y) * cell.y + std::abs(up.z) * cell.z) / 2;
  const Real half_diag = length(cell) / 2;
  Real v = 0, v_bound = 0, m_bound = 0;
  Vec3 m{0, 0, 0};
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        const Vec3 b{(i + 0.5) * cell.x - size.x / 2, (j + 0.5) * cell.y - size.y / 2,
                     (k + 0.5) * cell.z - size.z / 2};
        const Real depth = -(c.y + dot(up, b));  // level 0
        if (depth > 0) {
          v += cell_v;
          m += cell_v * rotate(q, b);
        }
        if (std::abs(depth) < half_reach) {
          v_bound += cell_v;
          m_bound += cell_v * (length(b) + half_diag);
        }
      }
  const HydroSum s = mesh_hydro(box_mesh(size, q, c), 0, {0, 0, 0}, c, still_params());
  const Real rg = kRho * kG;
  EXPECT_NEAR(s.force.y, rg * v, rg * v_bound);
  EXPECT_NEAR(s.torque.x, -rg * m.z, rg * m_bound);  // tau = m x (0, rho g, 0)
  EXPECT_NEAR(s.torque.z, rg * m.x, rg * m_bound);
  EXPECT_NEAR(s.torque.y, 0, kRel * rg * v);
  EXPECT_LT(v_bound, 0.05 * v);  // the bound is tight enough to mean something
}

TEST(HydroForce, PressureOnOneTriangleMatchesAnExactQuadrature) {
  // p (x - centre) is quadratic over the triangle; the edge-midpoint rule
  // integrates quadratics exactly, so only rounding (1e-12 relative) is left.
  const Vec3 p[3] = {{0.2, -1.0, 0.1}, {1.3, -0.4, 0.5}, {0.1, -0.3, 1.2}};
  const Real d[3] = {1.0, 0.4, 0.3};
  const Vec3 centre{0.5, 0.3, -0.2}, zero{0, 0, 0};
  HydroSum s;
  add_triangle_hydro_force(p[0], p[1], p[2], d[0], d[1], d[2], zero, zero, zero, centre,
                           still_params(), s);
  const Vec3 e = cross(p[1] - p[0], p[2] - p[0]);
  const Vec3 nrm = (1 / length(e)) * e;
  const Real area = length(e) / 2;
  Vec3 f{0, 0, 0}, tau{0, 0, 0};
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3;
    const Vec3 x = 0.5 * (p[i] + p[j]);
    const Real pressure = kRho * kG * 0.5 * (d[i] + d[j]);
    f += (-area / 3 * pressure) * nrm;
    tau += cross(x - centre, (-area / 3 * pressure) * nrm);
  }
  EXPECT_NEAR(length(s.force - f), 0, 1e-12 * length(f));
  EXPECT_NEAR(length(s.torque - tau), 0, 1e-12 * length(f));
}

TEST(HydroForce, RelabellingATriangleCyclicallyChangesNothing) {
  // Every wet pattern (0 to 3 wet, each odd vertex): the clip must not depend
  // on which corner comes first. Rounding only: 1e-12 relative.
  const Vec3 p[3] = {{0, -0.5, 0}, {1, 0.3, 0.2}, {0.2, 0.6, 1}};
  const Vec3 v[3] = {{1, 0, 0}, {0.5, -1, 0.3}, {0, 0.2, 2}};
  for (int pattern = 0; pattern < 8; ++pattern) {
    Real d[3];
    for (int i = 0; i < 3; ++i) d[i] = (pattern >> i & 1) ? 0.3 + 0.2 * i : -0.4 + 0.1 * i;
    HydroSum ref;
    add_triangle_hydro_force(p[0], p[1], p[2], d[0], d[1], d[2], v[0], v[1], v[2], {},
                             still_params(), ref);
    for (int k = 1; k < 3; ++k) {
      const int a = k, b = (k + 1) % 3, c = (k + 2) % 3;
      HydroSum s;
      add_triangle_hydro_force(p[a], p[b], p[c], d[a], d[b], d[c], v[a], v[b], v[c], {},
                               still_params(), s);
      const Real scale = 1e-12 * (length(ref.force) + 1);
      EXPECT_NEAR(length(s.force - ref.force), 0, scale) << pattern;
      EXPECT_NEAR(length(s.torque - ref.torque), 0, scale) << pattern;
      EXPECT_NEAR(s.wetted_area, ref.wetted_area, 1e-12) << pattern;
    }
  }
}

TEST(HydroForce, DragOfABoxMovingThroughStillWater) {
  // gravity 0: no pressure, the drag alone. The +x face moves into the water
  // (pressure drag on a = 0.5 x 0.8); the -x face moves away (none); the four
  // side faces (2 a_y + 2 a_z) feel skin friction. Closed forms: rounding only.
  const Vec3 size{1.2, 0.5, 0.8}, c{0, -3, 0}, vel{2, 0, 0};
  const HydroParams hp{kRho, 0, 0.5, 0.01};
  const auto tris = box_mesh(size, Quat{}, c);
  const HydroSum s = mesh_hydro(tris, 0, vel, c, hp);
  const Real v2 = 4, front = 0.5 * 0.8, sides = 2 * 1.2 * 0.8 + 2 * 1.2 * 0.5;
  const Real fx = -0.5 * kRho * (0.5 * front + 0.01 * sides) * v2;
  EXPECT_NEAR(s.force.x, fx, kRel * std::abs(fx));
  EXPECT_NEAR(std::hypot(s.force.y, s.force.z), 0, kRel * std::abs(fx));
  EXPECT_NEAR(length(s.torque), 0, kRel * std::abs(fx));  // symmetric about the centre
  // The back face (triangles 2 and 3: -x) alone: no drag at all.
  HydroSum back;
  for (int i = 2; i < 4; ++i)
    add_triangle_hydro_force(tris[i][0], tris[i][1], tris[i][2], 3, 3, 3, vel, vel, vel, c, hp,
                             back);
  EXPECT_EQ(back.force.x, 0);
  EXPECT_NEAR(back.wetted_area, front, kRel);
}

// ---- The wake grid ----

void add_bump(WakeGrid& g, Real xc, Real zc, Real amplitude, Real sigma) {
  for (int r = 0; r < g.rows(); ++r)
    for (int c = 0; c < g.columns(); ++c) {
      const Real x = g.x0() + c * g.spacing() - xc, z = g.z0() + r * g.spacing() - zc;
      g.add_height(c, r, amplitude * std::exp(-(x * x + z * z) / (2 * sigma * sigma)));
    }
}

/// Wave energy per unit density, rho/2 (g eta^2 + H |u|^2) dA, over the vertices
/// at least `margin` from the edge and the faces between them [J / (kg/m^3)].
Real energy(const WakeGrid& g, int margin) {
  const int nc = g.columns(), nr = g.rows();
  Real e = 0;
  for (int r = margin; r < nr - margin; ++r)
    for (int c = margin; c < nc - margin; ++c) {
      e += kG * std::pow(g.eta()[r * nc + c], 2);
      if (c + 1 < nc - margin) e += g.depth() * std::pow(g.u()[r * (nc - 1) + c], 2);
      if (r + 1 < nr - margin) e += g.depth() * std::pow(g.w()[r * nc + c], 2);
    }
  return 0.5 * e * g.spacing() * g.spacing();
}

TEST(WakeGrid, VolumeIsConservedWithAClosedWall) {
  // Every face moves water between two cells, so only rounding changes the
  // volume: ~1e-16 of |eta| per vertex and step, a random walk over 4096
  // vertices and 500 steps stays below 1e-13 of V; 1e-12 relative is safe.
  for (const Real damping : {0.0, 0.02}) {  // the uniform damping is of velocities only
    WakeGrid g;
    g.reset(64, 64, 0.2, -6.3, -6.3, 2, 0);
    g.set_damping(damping);
    add_bump(g, 1.1, -0.7, 0.05, 0.6);
    const double v0 = g.volume();
    for (int i = 0; i < 500; ++i) g.step(0.02, kG);  // Courant 0.44: one sub-step
    EXPECT_NEAR(g.volume(), v0, 1e-12 * v0) << damping;
    EXPECT_GT(energy(g, 0), 0);
  }
}

TEST(WakeGrid, AddHeightRaisesTheVolumeAndIgnoresOutsideVertices) {
  WakeGrid g;
  g.reset(5, 4, 0.5, 0, 0, 1, 0);
  g.add_height(2, 1, 0.3);
  g.add_height(-1, 0, 1);
  g.add_height(5, 0, 1);
  g.add_height(0, 4, 1);
  EXPECT_NEAR(g.volume(), 0.3 * 0.25, 1e-15);
  EXPECT_EQ(g.height(1.0, 0.5), 0.3);
}

TEST(WakeGrid, ARingTravelsAtTheShallowWaterSpeed) {
  // The ring's peak passes radius R at t(R) = (R + offset) / c; timing it at
  // two radii cancels the offset. Numerical dispersion at k spacing ~ 0.2 is
  // below 1%, the 5 ms sampling 1%: 10% is a wide margin that still fails a
  // wrong g, H or factor of 2.
  const Real depth = 1, dt = 0.005, s = 0.1;
  WakeGrid g;
  g.reset(161, 161, s, -8, -8, depth, 0);
  g.set_damping(0);
  add_bump(g, 0, 0, 0.01, 0.5);
  const int centre = 80, r1 = 30, r2 = 60;  // 3 m and 6 m out along +x
  Real best1 = -1, best2 = -1, t1 = 0, t2 = 0;
  for (int i = 1; i <= 600; ++i) {
    g.step(dt, kG);
    const Real e1 = g.eta()[centre * 161 + centre + r1], e2 = g.eta()[centre * 161 + centre + r2];
    if (e1 > best1) {
      best1 = e1;
      t1 = i * dt;
    }
    if (e2 > best2) {
      best2 = e2;
      t2 = i * dt;
    }
  }
  const Real speed = (r2 - r1) * s / (t2 - t1);
  EXPECT_NEAR(speed, std::sqrt(kG * depth), 0.1 * std::sqrt(kG * depth));
}

TEST(WakeGrid, TheAbsorbingBorderKeepsTheWakeFromComingBack) {
  // A bump at the centre of an 8 m pool: its ring reaches the walls in ~1.3 s
  // and, reflected, is back across the middle by 3 s. With the ring 8 vertices
  // wide the interior then holds a small part of the energy it holds with a
  // closed wall (required: < 20%). Before the ring reaches it (0.5 s) the
  // border must leave the interior as it is: the bump's tail there is ~1e-14.
  Real early[2], interior[2], peak[2];
  for (const int border : {0, 8}) {
    WakeGrid g;
    g.reset(81, 81, 0.1, -4, -4, 1, border);
    g.set_damping(0);
    add_bump(g, 0, 0, 0.01, 0.4);
    const int k = border ? 1 : 0;
    for (int i = 0; i < 300; ++i) {
      g.step(0.01, kG);
      if (i == 49) early[k] = energy(g, 8);
    }
    interior[k] = energy(g, 8);
    peak[k] = 0;
    for (int r = 8; r < 73; ++r)
      for (int c = 8; c < 73; ++c) peak[k] = std::max(peak[k], std::abs(g.eta()[r * 81 + c]));
  }
  EXPECT_NEAR(early[1], early[0], 1e-9 * early[0]);
  EXPECT_LT(interior[1], 0.2 * interior[0]);
  EXPECT_LT(peak[1], 0.2 * peak[0]);
}

TEST(WakeGrid, DampingTakesTheWakeAwayAndTheBorderDrainsIt) {
  // Velocity damping at rate k drains the energy at k times its kinetic part,
  // about half of it over time: E ~ E0 exp(-k t). The level the bump raises
  // spreads out and keeps some potential energy, so within 20%.
  WakeGrid g;
  g.reset(101, 101, 0.2, -10, -10, 2, 0);
  g.set_damping(0.2);
  add_bump(g, 0, 0, 0.05, 0.6);
  const Real e0 = energy(g, 0);
  for (int i = 0; i < 500; ++i) g.step(0.02, kG);
  EXPECT_NEAR(energy(g, 0) / e0, std::exp(-2.0), 0.2 * std::exp(-2.0));
  // The ring pulls the level back to 0 as the open sea would: a bump's water
  // leaves the grid (wake_grid.h), here all but < 0.1% in 10 s.
  g.reset(64, 64, 0.2, -6.3, -6.3, 2, 5);
  add_bump(g, 1.1, -0.7, 0.05, 0.6);
  const double v0 = g.volume();
  for (int i = 0; i < 500; ++i) g.step(0.02, kG);
  EXPECT_LT(std::abs(g.volume()), 1e-3 * v0);
}

TEST(WakeGrid, InterpolationHitsVerticesAndIsZeroOutside) {
  WakeGrid g;
  g.reset(6, 5, 0.5, -2, 1, 1, 0);  // x in [-2, 0.5], z in [1, 3]: all exact in binary
  for (std::size_t i = 0; i < g.eta().size(); ++i) g.eta()[i] = std::sin(1.0 + i);
  for (std::size_t i = 0; i < g.u().size(); ++i) g.u()[i] = std::cos(2.0 + i);
  for (std::size_t i = 0; i < g.w().size(); ++i) g.w()[i] = std::sin(3.0 + 2 * i);
  auto u = [&](int i, int r) { return i < 0 || i > 4 ? 0.0 : g.u()[r * 5 + i]; };
  auto w = [&](int c, int j) { return j < 0 || j > 3 ? 0.0 : g.w()[j * 6 + c]; };
  for (int r = 0; r < 5; ++r)
    for (int c = 0; c < 6; ++c) {
      const Real x = -2 + 0.5 * c, z = 1 + 0.5 * r;
      EXPECT_EQ(g.height(x, z), g.eta()[r * 6 + c]);
      const Vec3 v = g.velocity(x, z);  // the mean of the faces either side
      EXPECT_DOUBLE_EQ(v.x, 0.5 * u(c - 1, r) + 0.5 * u(c, r));
      EXPECT_DOUBLE_EQ(v.z, 0.5 * w(c, r - 1) + 0.5 * w(c, r));
      EXPECT_EQ(v.y, 0);
    }
  // Between vertices: bilinear (rounding only).
  const Real mid = 0.25 * (g.eta()[6 + 1] + g.eta()[6 + 2] + g.eta()[12 + 1] + g.eta()[12 + 2]);
  EXPECT_NEAR(g.height(-1.25, 1.75), mid, 1e-15);
  EXPECT_EQ(g.velocity(-1.25, 1.5).x, g.u()[5 + 1]);  // on a face centre: that face
  const Real nan = std::numeric_limits<Real>::quiet_NaN();
  for (const auto& [x, z] : std::vector<std::array<Real, 2>>{
           {-2.01, 2}, {0.51, 2}, {-1, 0.99}, {-1, 3.01}, {nan, 2}, {-1, nan}}) {
    EXPECT_EQ(g.height(x, z), 0);
    EXPECT_EQ(length(g.velocity(x, z)), 0);
  }
}

TEST(WakeGrid, BadInputThrows) {
  WakeGrid g;
  const Real nan = std::numeric_limits<Real>::quiet_NaN(), inf = 1 / 0.0;
  EXPECT_THROW(g.reset(1, 8, 0.5, 0, 0, 1, 0), Error);
  EXPECT_THROW(g.reset(8, 1, 0.5, 0, 0, 1, 0), Error);
  for (const Real bad : {0.0, -0.5, nan, inf}) {
    EXPECT_THROW(g.reset(8, 8, bad, 0, 0, 1, 0), Error);
    EXPECT_THROW(g.reset(8, 8, 0.5, 0, 0, bad, 0), Error);
  }
  EXPECT_THROW(g.reset(8, 8, 0.5, nan, 0, 1, 0), Error);
  EXPECT_THROW(g.reset(8, 8, 0.5, 0, 0, 1, -1), Error);
  EXPECT_THROW(g.reset(8, 8, 0.5, 0, 0, 1, 4), Error);  // at most (8 - 1) / 2 = 3
  EXPECT_NO_THROW(g.reset(8, 8, 0.5, 0, 0, 1, 3));
  EXPECT_THROW(g.set_damping(-1), Error);
  EXPECT_THROW(g.step(-0.01, kG), Error);
  EXPECT_THROW(g.step(nan, kG), Error);
  EXPECT_THROW(g.step(0.01, 0), Error);
  EXPECT_THROW(g.step(1e9, kG), Error);  // over 10^6 sub-steps
  EXPECT_EQ(WakeGrid::default_border(128, 128), 10);
  EXPECT_EQ(WakeGrid::default_border(20, 30), 3);
  EXPECT_EQ(WakeGrid::default_border(4, 4), 1);
  EXPECT_EQ(WakeGrid::default_border(2, 9), 0);
}

TEST(WakeGrid, ALongStepIsEqualSubSteps) {
  // Courant 5.2 per step: step() takes 11 sub-steps of Courant 0.47, bit for
  // bit the same as 11 short steps.
  WakeGrid a, b;
  for (WakeGrid* g : {&a, &b}) {
    g->reset(40, 30, 0.2, 0, 0, 1.5, 4);
    add_bump(*g, 4, 3, 0.02, 0.5);
  }
  const Real dt = 5.2 * 0.2 / std::sqrt(kG * 1.5);
  const int n = a.substeps(dt, kG);
  ASSERT_EQ(n, 11);
  const Real e0 = energy(a, 0);
  for (int i = 0; i < 10; ++i) {
    a.step(dt, kG);
    for (int k = 0; k < n; ++k) b.step(dt / n, kG);
  }
  EXPECT_EQ(std::memcmp(a.eta().data(), b.eta().data(), a.eta().size() * sizeof(Real)), 0);
  EXPECT_LT(energy(a, 0), e0);  // stable: the border only takes energy out
}

TEST(WakeGrid, RerunsAndRestoredSnapshotsAreBitIdentical) {
  auto run = [](WakeGrid& g, int from, int to) {
    for (int i = from; i < to; ++i) {
      g.add_height(10 + i % 7, 12, 1e-3 * std::sin(0.1 * i));  // a body's wake
      g.step(1.0 / 60, kG);
    }
  };
  WakeGrid a, b;
  for (WakeGrid* g : {&a, &b}) g->reset(48, 40, 0.25, -6, -5, 2, WakeGrid::default_border(48, 40));
  run(a, 0, 100);
  run(b, 0, 50);
  const WakeGrid saved = b;  // the arrays are the whole state
  run(b, 50, 100);
  auto bits = [](const std::vector<Real>& x, const std::vector<Real>& y) {
    return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(Real)) == 0;
  };
  auto same = [&](const WakeGrid& x, const WakeGrid& y) {
    return bits(x.eta(), y.eta()) && bits(x.u(), y.u()) && bits(x.w(), y.w());
  };
  EXPECT_TRUE(same(a, b));
  WakeGrid c;
  c.reset(48, 40, 0.25, -6, -5, 2, WakeGrid::default_border(48, 40));
  c.eta() = saved.eta();
  c.u() = saved.u();
  c.w() = saved.w();
  run(c, 50, 100);
  EXPECT_TRUE(same(a, c));
}

}  // namespace
}  // namespace pabd
