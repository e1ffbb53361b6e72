// The sand bed (src/fields/sand_bed.*, src/world/world_fields.cpp): its grid
// operations keep the volume and end at the angle of repose; a box resting on
// it sinks to the depth of Bekker's pressure-sinkage law and stays; snapshots
// and thread counts give the same bits.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "fields/sand_bed.h"
#include "pabd/world.h"

namespace pabd {
namespace {

/// The steepest slope between neighbouring vertices.
Real steepest(const SandBed& bed) {
  Real s = 0;
  for (int r = 0; r < bed.rows; ++r)
    for (int c = 0; c < bed.columns; ++c) {
      const int v = r * bed.columns + c;
      if (c + 1 < bed.columns) s = std::max(s, std::abs(bed.height[v] - bed.height[v + 1]));
      if (r + 1 < bed.rows) s = std::max(s, std::abs(bed.height[v] - bed.height[v + bed.columns]));
    }
  return s / bed.spacing;
}

TEST(SandBed, SlideKeepsTheVolumeAndEndsAtTheAngleOfRepose) {
  const int n = 41;
  std::vector<Real> h(std::size_t(n * n), Real(0.1));
  h[std::size_t(20 * n + 20)] = Real(0.6);  // a column 0.5 m above the rest
  SandBed bed;
  const Real tan_repose = std::tan(Real(0.5236));
  sand_bed_init(bed, n, n, Real(0.05), h.data(), tan_repose);
  const double before = sand_bed_volume(bed);
  sand_bed_slide(bed, 4000, Real(0.25));
  // Every move takes from one vertex what it gives to another: only rounding
  // changes the sum (a few ulps per round over 1681 vertices).
  EXPECT_NEAR(sand_bed_volume(bed), before, 1e-12 * before);
  // Each round removes a quarter of every edge's excess at least, so after
  // thousands of rounds what is left over the limit is far below 0.1%.
  EXPECT_LE(steepest(bed), tan_repose * 1.001);
  // The column spread into a heap: its top is well below where it began.
  EXPECT_LT(h[std::size_t(20 * n + 20)], Real(0.4));
  for (const Real x : h) EXPECT_GE(x, 0);
}

TEST(SandBed, PressPushesTheSandAsideAndRutsStay) {
  const int n = 9;
  std::vector<Real> h(std::size_t(n * n), Real(0.2));
  SandBed bed;
  sand_bed_init(bed, n, n, Real(0.1), h.data(), Real(0.577));
  std::vector<int> footprint;
  for (int r = 3; r <= 5; ++r)
    for (int c = 3; c <= 5; ++c) footprint.push_back(r * n + c);
  for (const int v : footprint) sand_bed_set_covered(bed, v, true);
  const double before = sand_bed_volume(bed);
  sand_bed_press(bed, footprint.data(), int(footprint.size()), Real(0.03), Real(1));
  for (const int v : footprint) EXPECT_DOUBLE_EQ(h[std::size_t(v)], 0.17);
  // Nine vertices gave 3 cm each to the twelve free vertices around them.
  EXPECT_DOUBLE_EQ(h[std::size_t(2 * n + 4)], 0.2 + 9 * 0.03 / 12);
  EXPECT_DOUBLE_EQ(h[std::size_t(4 * n + 2)], 0.2 + 9 * 0.03 / 12);
  EXPECT_DOUBLE_EQ(h[std::size_t(2 * n + 2)], 0.2);  // a corner is not a neighbour
  EXPECT_NEAR(sand_bed_volume(bed), before, 1e-15 * before);
  // The same load again presses no further: the rut was made.
  sand_bed_press(bed, footprint.data(), int(footprint.size()), Real(0.03), Real(1));
  EXPECT_DOUBLE_EQ(h[std::size_t(4 * n + 4)], 0.17);
  // The give limits one press: 5 cm more is asked, 1 cm given.
  sand_bed_press(bed, footprint.data(), int(footprint.size()), Real(0.08), Real(0.01));
  EXPECT_NEAR(h[std::size_t(4 * n + 4)], 0.16, 1e-15);
}

TEST(SandBed, BekkerSinkage) {
  // p = (k_c / b + k_phi) z^n solved for z, and 0 without pressure.
  const Real z = bekker_sinkage(1e4, 0.5, 1.1, 990, 1528430);
  EXPECT_NEAR((990 / 0.5 + 1528430) * std::pow(z, 1.1), 1e4, 1e-8);
  EXPECT_EQ(bekker_sinkage(0, 0.5, 1.1, 990, 1528430), 0);
}

/// A 0.45 m square box of `mass` on a flat sand bed 0.3 m deep (0.05 m grid),
/// its underside at the surface (rest) or `drop` above it.
struct BoxOnSand {
  World world;
  BodyId box;
  SandDef sand;
  Real size = Real(0.45), mass;

  BoxOnSand(Real mass_in, Real drop, int threads = 1) : mass(mass_in) {
    WorldDef w = default_world_def();
    w.threads = threads;
    world = World(w);
    sand.columns = sand.rows = 61;
    sand.spacing = Real(0.05);
    sand.depth = Real(0.3);
    world.add_sand(sand);
    BodyDef b = default_body_def();
    b.name = "box";
    b.shape = box_shape({size, Real(0.2), size});
    b.mass = mass;
    b.position = {0, Real(0.3) + Real(0.1) + drop, 0};
    box = world.add_body(b);
  }
  Real sinkage() const { return Real(0.3) - (world.body_state(box).position.y - Real(0.1)); }
  /// Bekker's sinkage under the weight on the box's footprint.
  Real bekker() const {
    const Real p = mass * 9.81 / (size * size);
    return bekker_sinkage(p, size, sand.sinkage_exponent, sand.cohesive_modulus,
                          sand.frictional_modulus);
  }
};

TEST(Sand, ABoxSinksToBekkersDepthAndRests) {
  BoxOnSand s(400, 0);
  const double volume = s.world.sand_volume();
  for (int i = 0; i < 180; ++i) ASSERT_TRUE(s.world.step().ok);
  const Real expected = s.bekker();  // 19 mm for 400 kg on 0.2 m^2 of dry sand
  // The box covers 9 x 9 vertices, whose cells are its own area exactly, so
  // the pressure is the weight over the footprint; what is left is the
  // contact's own give (under a millimetre).
  EXPECT_NEAR(s.sinkage(), expected, 0.1 * expected + 1e-3);
  EXPECT_LT(length(s.world.body_state(s.box).velocity), 0.01);
  // Resting: another second presses no deeper.
  const Real rested = s.sinkage();
  for (int i = 0; i < 60; ++i) ASSERT_TRUE(s.world.step().ok);
  EXPECT_NEAR(s.sinkage(), rested, 1e-4);
  // The sand pressed out went around the box: none was made or lost (the
  // relative rounding of the sums is ~1e-15 a step).
  EXPECT_NEAR(s.world.sand_volume(), volume, 1e-9 * volume);
}

TEST(Sand, ADroppedBoxRestsAtTheSameDepth) {
  // The sand takes the weight resting on a body, not the contacts' impulses
  // (docs/fields.md: quasi-static): dropped from 0.2 m, the box presses the
  // same rut as one set down, once it rests.
  BoxOnSand s(400, 0.2);
  for (int i = 0; i < 240; ++i) ASSERT_TRUE(s.world.step().ok);
  const Real expected = s.bekker();
  EXPECT_NEAR(s.sinkage(), expected, 0.1 * expected + 1e-3);
  EXPECT_LT(length(s.world.body_state(s.box).velocity), 0.01);
}

TEST(Sand, ALighterBoxSinksLess) {
  // Bekker's law is monotone in the pressure: a quarter of the weight
  // presses (1/4)^(1/n) as deep.
  BoxOnSand heavy(400, 0), light(100, 0);
  for (int i = 0; i < 180; ++i) {
    ASSERT_TRUE(heavy.world.step().ok);
    ASSERT_TRUE(light.world.step().ok);
  }
  EXPECT_NEAR(light.sinkage() / heavy.sinkage(), std::pow(0.25, 1 / 1.1), 0.05);
}

TEST(Sand, TheRutStaysWhenTheBoxIsGone) {
  BoxOnSand s(400, 0);
  for (int i = 0; i < 180; ++i) ASSERT_TRUE(s.world.step().ok);
  const Real depth = s.sinkage();
  s.world.remove_body(s.box);
  for (int i = 0; i < 120; ++i) ASSERT_TRUE(s.world.step().ok);
  // The centre vertex (30, 30) of the 61 x 61 bed is still as deep as the box
  // pressed it: the rut's walls (19 mm over a 5 cm cell, a slope of 0.38) are
  // below the angle of repose (tan 30 degrees = 0.58), so nothing slides in.
  const SurfaceInfo sand = s.world.surface(0);
  EXPECT_NEAR(sand.height[std::size_t(30 * 61 + 30)], 0.3 - depth, 1e-3);
}

TEST(Sand, SnapshotsAndThreadCountsGiveTheSameBits) {
  BoxOnSand a(400, 0.1, 1), b(400, 0.1, 2);
  for (int i = 0; i < 30; ++i) {
    ASSERT_TRUE(a.world.step().ok);
    ASSERT_TRUE(b.world.step().ok);
  }
  const std::vector<std::uint8_t> snap = a.world.save_state();
  BoxOnSand c(400, 0.1, 1);
  c.world.restore_state(snap);
  for (int i = 0; i < 30; ++i) {
    ASSERT_TRUE(a.world.step().ok);
    ASSERT_TRUE(b.world.step().ok);
    ASSERT_TRUE(c.world.step().ok);
  }
  EXPECT_EQ(a.world.state_hash(), b.world.state_hash());
  EXPECT_EQ(a.world.state_hash(), c.world.state_hash());
  const SurfaceInfo sa = a.world.surface(0), sb = b.world.surface(0), sc = c.world.surface(0);
  EXPECT_EQ(sa.height, sb.height);
  EXPECT_EQ(sa.height, sc.height);
}

TEST(Sand, BadInputIsRefused) {
  World world;
  SandDef bad;
  bad.spacing = 0;
  EXPECT_THROW(world.add_sand(bad), Error);
  bad = SandDef{};
  bad.heights = {1, 2, 3};
  EXPECT_THROW(world.add_sand(bad), Error);
  bad = SandDef{};
  bad.repose_angle = 2;
  EXPECT_THROW(world.add_sand(bad), Error);
  world.add_sand(SandDef{});
  SandDef second;
  second.name = "more";
  EXPECT_THROW(world.add_sand(second), Error);
}

}  // namespace
}  // namespace pabd
