// The block order of large contact scenes' sweeps (solver/block_order.h):
// a valid Gauss-Seidel order whose blocks of one colour are independent, the
// same bits on any number of threads, and a pile that still stands on it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <thread>
#include <vector>

#include "pabd/world.h"
#include "solver/block_order.h"

namespace pabd {
namespace {

/// Contact pairs over bodies as BlockOrder reads them: pair_body and the
/// per-body CSR list of pair ends.
struct PairGraph {
  std::vector<int> pair_body;
  std::vector<int> begin, index;

  void add(int a, int b) {
    pair_body.push_back(a);
    pair_body.push_back(b);
  }
  /// Builds the lists; returns the views.
  void finish(int bodies, const std::vector<std::uint8_t>& is_static, ContactArrays& c,
              ContactEnds& e) {
    begin.assign(bodies + 1, 0);
    for (std::size_t end = 0; end < pair_body.size(); ++end)
      if (!is_static[pair_body[end]]) ++begin[pair_body[end] + 1];
    for (int i = 0; i < bodies; ++i) begin[i + 1] += begin[i];
    index.resize(begin[bodies]);
    std::vector<int> fill(begin.begin(), begin.end() - 1);
    for (std::size_t end = 0; end < pair_body.size(); ++end)
      if (!is_static[pair_body[end]]) index[fill[pair_body[end]]++] = static_cast<int>(end);
    c.count = c.pair_count = static_cast<int>(pair_body.size() / 2);
    c.pair_body = pair_body.data();
    e.begin = begin.data();
    e.index = index.data();
  }
};

/// The bodies as BlockOrder reads them: which are static, and their centres.
BodyArrays centres(int count, const std::vector<std::uint8_t>& is_static,
                   std::vector<Vec3>& position) {
  BodyArrays b;
  b.count = count;
  b.is_static = is_static.data();
  b.position = position.data();
  return b;
}

// A lattice of 18 x 16 x 15 bodies (4320) with face and edge neighbours in
// contact, a static ground under its bottom layer, a few bodies thrown far
// out (they stretch no cell: the grid spans the 1st to 99th percentiles) and
// a long body touching bodies across the lattice (its blocks must still
// differ in colour from all of theirs).
TEST(BlockOrder, EveryBodyOnceAndNoPairInsideAColour) {
  const int nx = 18, ny = 16, nz = 15, lattice = nx * ny * nz;
  const int ground = lattice, rod = lattice + 1, bodies = lattice + 2;
  std::vector<Vec3> position(bodies);
  std::vector<std::uint8_t> is_static(bodies, 0);
  is_static[ground] = 1;
  const auto id = [&](int x, int y, int z) { return (y * nz + z) * nx + x; };
  PairGraph g;
  for (int y = 0; y < ny; ++y)
    for (int z = 0; z < nz; ++z)
      for (int x = 0; x < nx; ++x) {
        position[id(x, y, z)] = {1.001 * x, 0.5 + 1.001 * y, 1.001 * z};
        if (x + 1 < nx) g.add(id(x, y, z), id(x + 1, y, z));
        if (y + 1 < ny) g.add(id(x, y, z), id(x, y + 1, z));
        if (z + 1 < nz) g.add(id(x, y, z), id(x, y, z + 1));
        if (x + 1 < nx && y + 1 < ny) g.add(id(x + 1, y + 1, z), id(x, y, z));
        if (y == 0) g.add(ground, id(x, y, z));
      }
  for (int k = 0; k < 5; ++k) position[id(k, ny - 1, 0)] = {1e3 * (k + 1), 50.0 * k, -2e3};
  position[rod] = {9, 20, 7};
  for (int x = 0; x < nx; x += 4) g.add(rod, id(x, ny - 1, nz / 2));
  const BodyArrays b = centres(bodies, is_static, position);
  ContactArrays contacts;
  ContactEnds ends;
  g.finish(bodies, is_static, contacts, ends);
  ASSERT_TRUE(
      use_block_order(bodies, 0, contacts.count, default_world_def().block_order_min_bodies));

  Colouring order;
  order_in_blocks(b, contacts, ends, order);
  const int n = bodies - 1;  // the ground is static
  ASSERT_EQ(static_cast<int>(order.order.size()), n);
  EXPECT_EQ(order.colour[ground], -1);
  std::vector<int> seen(bodies, 0), block_of(bodies, -1);
  const int blocks = static_cast<int>(order.block_begin.size()) - 1;
  ASSERT_EQ(order.block_begin.front(), 0);
  ASSERT_EQ(order.block_begin.back(), n);
  for (int bl = 0; bl < blocks; ++bl) {
    ASSERT_LT(order.block_begin[bl], order.block_begin[bl + 1]) << "an empty block";
    for (int r = order.block_begin[bl]; r < order.block_begin[bl + 1]; ++r) {
      const int i = order.order[r];
      ++seen[i];
      block_of[i] = bl;
      EXPECT_EQ(order.colour[i], r);  // the sweep key is the place in the order
      if (r > order.block_begin[bl]) {
        EXPECT_LT(order.order[r - 1], i) << "index order in a block";
      }
    }
  }
  for (int i = 0; i < bodies; ++i) EXPECT_EQ(seen[i], i == ground ? 0 : 1) << "body " << i;
  // Colours partition the blocks, and the bodies by the same cuts.
  const int colours = order.colour_count();
  ASSERT_EQ(static_cast<int>(order.colour_block_begin.size()), colours + 1);
  EXPECT_EQ(order.colour_block_begin.back(), blocks);
  std::vector<int> block_colour(blocks);
  for (int c = 0; c < colours; ++c) {
    EXPECT_EQ(order.colour_begin[c], order.block_begin[order.colour_block_begin[c]]);
    for (int bl = order.colour_block_begin[c]; bl < order.colour_block_begin[c + 1]; ++bl)
      block_colour[bl] = c;
  }
  // The independence the threads rely on: a pair between two blocks joins
  // blocks of two colours.
  int across = 0;
  for (int m = 0; m < contacts.pair_count; ++m) {
    const int p = g.pair_body[2 * m], q = g.pair_body[2 * m + 1];
    if (is_static[p] || is_static[q] || block_of[p] == block_of[q]) continue;
    ++across;
    EXPECT_NE(block_colour[block_of[p]], block_colour[block_of[q]]) << "pair " << m;
  }
  // Work to share: about 64 blocks (n / block_bodies(n)), spread over the
  // colours (this lattice, built row by row, is cut into blocks of whole
  // rows, BlocksFollowTheIndexAxis, which take the colours of a 2 x 2
  // pattern at most; cubic cells the 8 of a 2 x 2 x 2 one; the rod's blocks a
  // few more).
  int fewest = blocks;
  for (int c = 0; c < colours; ++c)
    fewest = std::min(fewest, order.colour_block_begin[c + 1] - order.colour_block_begin[c]);
  std::printf(
      "block order: %d bodies, %d blocks, %d colours (fewest blocks in one: %d), "
      "%d of %d pairs across blocks\n",
      n, blocks, colours, fewest, across, contacts.pair_count);
  EXPECT_GE(blocks, 32);
  EXPECT_LE(blocks, 64);
  EXPECT_LE(colours, 16);
  EXPECT_GT(across, 0);
  EXPECT_LT(across, contacts.pair_count / 2);  // most pairs stay inside a block
}

// A lattice built row by row has an index axis (index_axis): its rows'. The
// blocks are then longer along it, so a block holds whole rows of
// consecutive bodies (their state and pairs stream from memory in runs);
// the same centres in no spatial order have none.
TEST(BlockOrder, BlocksFollowTheIndexAxis) {
  const int nx = 18, ny = 16, nz = 15, lattice = nx * ny * nz;
  const int ground = lattice, bodies = lattice + 1;
  std::vector<Vec3> row_by_row(lattice);
  for (int y = 0; y < ny; ++y)
    for (int z = 0; z < nz; ++z)
      for (int x = 0; x < nx; ++x)
        row_by_row[(y * nz + z) * nx + x] = {1.001 * x, 0.5 + 1.001 * y, 1.001 * z};
  std::vector<std::uint8_t> is_static(bodies, 0);
  is_static[ground] = 1;
  std::vector<int> dynamic(lattice);
  for (int i = 0; i < lattice; ++i) dynamic[i] = i;
  std::vector<Real> scratch;
  const auto axis_of = [&](std::vector<Vec3> at) {
    at.push_back({});  // the ground
    return index_axis(centres(bodies, is_static, at), dynamic, scratch);
  };
  EXPECT_EQ(axis_of(row_by_row), 0);
  // Columns along z instead: the same lattice indexed z fastest.
  std::vector<Vec3> by_z(lattice);
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < nx; ++x)
      for (int z = 0; z < nz; ++z) by_z[(y * nx + x) * nz + z] = row_by_row[(y * nz + z) * nx + x];
  EXPECT_EQ(axis_of(by_z), 2);
  // Shuffled: consecutive bodies step along every axis alike.
  std::vector<Vec3> shuffled = row_by_row;
  std::mt19937 rng(5);
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  EXPECT_EQ(axis_of(shuffled), -1);

  // The block order of the row-by-row lattice: a body's successor in its
  // block is the next index for 17 of each row's 18 bodies when blocks hold
  // whole rows; cubic cells of about 67 bodies (4 x 4 x 4) held rows of 4
  // or 5, about 0.78 of them.
  std::vector<Vec3> position = row_by_row;
  position.push_back({});
  PairGraph g;
  const auto id = [&](int x, int y, int z) { return (y * nz + z) * nx + x; };
  for (int y = 0; y < ny; ++y)
    for (int z = 0; z < nz; ++z)
      for (int x = 0; x < nx; ++x) {
        if (x + 1 < nx) g.add(id(x, y, z), id(x + 1, y, z));
        if (y + 1 < ny) g.add(id(x, y, z), id(x, y + 1, z));
        if (z + 1 < nz) g.add(id(x, y, z), id(x, y, z + 1));
        if (y == 0) g.add(ground, id(x, y, z));
      }
  const BodyArrays b = centres(bodies, is_static, position);
  ContactArrays contacts;
  ContactEnds ends;
  g.finish(bodies, is_static, contacts, ends);
  Colouring order;
  order_in_blocks(b, contacts, ends, order);
  int runs = 0, steps = 0;
  const int blocks = static_cast<int>(order.block_begin.size()) - 1;
  for (int bl = 0; bl < blocks; ++bl)
    for (int r = order.block_begin[bl] + 1; r < order.block_begin[bl + 1]; ++r) {
      ++steps;
      runs += order.order[r] == order.order[r - 1] + 1 ? 1 : 0;
    }
  const double share = double(runs) / steps;
  std::printf("%d blocks, %d colours; next index next in its block: %.3f\n", blocks,
              order.colour_count(), share);
  EXPECT_GE(share, 0.9);
  EXPECT_GE(blocks, 32);  // still work to share between threads
}

WorldDef pile_def(int threads, ParallelFor custom = {}) {
  WorldDef wd = default_world_def();
  wd.threads = threads;
  wd.parallel_for = std::move(custom);
  return wd;
}

/// A side x side x side pile of 1 m boxes 1 mm apart on the ground, with a
/// ball of 0.1 times its mass, 0.075 side in radius, a step away from its
/// face at 20 m/s when `ball` (scripts/make_scenes.py's pile).
std::vector<BodyId> add_pile(World& w, int side, bool ball) {
  BodyDef g = default_body_def();
  g.is_static = true;
  g.shape = plane_shape({0, 1, 0}, 0);
  w.add_body(g);
  std::vector<BodyId> boxes;
  const double pitch = 1.001;
  for (int y = 0; y < side; ++y)
    for (int z = 0; z < side; ++z)
      for (int x = 0; x < side; ++x) {
        BodyDef b = default_body_def();
        b.shape = box_shape({1, 1, 1});
        b.position = {pitch * x, 0.5005 + pitch * y, pitch * z};
        boxes.push_back(w.add_body(b));
      }
  if (ball) {
    BodyDef b = default_body_def();
    const double radius = 0.075 * side;
    b.shape = sphere_shape(radius);
    b.mass = 0.1 * side * side * side;
    b.position = {-0.5 - 0.3 - radius, pitch * side / 2, pitch * (side - 1) / 2};
    b.velocity = {20, 0, 0};
    w.add_body(b);
  }
  return boxes;
}

std::uint64_t pile_hash(WorldDef wd) {
  World w(wd);
  add_pile(w, 16, true);  // 4098 bodies: a block order at the defaults
  for (int s = 0; s < 4; ++s) EXPECT_TRUE(w.step().ok);
  return w.state_hash();
}

// The ball hits in the first step, so blocks gain and lose contacts and
// bodies move between cells from step to step.
TEST(BlockOrder, BallIntoPileKeepsItsBitsOnAnyThreads) {
  ASSERT_TRUE(use_block_order(16 * 16 * 16 + 2, 0, 1, default_world_def().block_order_min_bodies));
  const std::uint64_t one = pile_hash(pile_def(1));
  EXPECT_EQ(one, pile_hash(pile_def(2)));
  EXPECT_EQ(one, pile_hash(pile_def(3)));
  // A user task system that cuts the blocks unevenly over real threads.
  ParallelFor chunks = [](int count, const std::function<void(int, int)>& body) {
    std::vector<std::thread> pool;
    const int cuts[] = {0, count / 7, count / 2, count};
    for (int c = 0; c < 3; ++c) pool.emplace_back(body, cuts[c], cuts[c + 1]);
    for (auto& t : pool) t.join();
  };
  EXPECT_EQ(one, pile_hash(pile_def(1, chunks)));
}

/// How an 8 x 8 x 8 pile settles in 30 steps under one sweep order.
struct Settling {
  int face_pushes = 0, other_pushes = 0;  ///< pushing contacts over the steps
  double settled = 0;                     ///< how far the top box sank [m]
  double drift = 0;                       ///< farthest any box moved across [m]
};

Settling settle_pile(int block_order_min_bodies) {
  WorldDef wd = pile_def(2);
  wd.block_order_min_bodies = block_order_min_bodies;
  World w(wd);
  const std::vector<BodyId> boxes = add_pile(w, 8, false);
  std::vector<Vec3> start;
  for (BodyId b : boxes) start.push_back(w.body_state(b).position);
  Settling out;
  for (int s = 0; s < 30; ++s) {
    EXPECT_TRUE(w.step().ok);
    for (int k = 0; k < w.contact_count(); ++k) {
      const ContactInfo c = w.contact(k);
      if (!(c.normal_force > 0) || w.is_static(c.body_a)) continue;
      const Vec3 d = w.body_state(c.body_b).position - w.body_state(c.body_a).position;
      const int axes = (std::fabs(d.x) > 0.5) + (std::fabs(d.y) > 0.5) + (std::fabs(d.z) > 0.5);
      axes == 1 ? ++out.face_pushes : ++out.other_pushes;
    }
  }
  for (std::size_t j = 0; j < boxes.size(); ++j) {
    const Vec3 d = w.body_state(boxes[j]).position - start[j];
    out.drift = std::fmax(out.drift, std::hypot(d.x, d.z));
  }
  out.settled = start.back().y - w.body_state(boxes.back()).position.y;
  return out;
}

// The order changes how fast a sweep carries the load down a column, not
// what the step converges to: a 512-box pile (8 blocks of 64) settles under
// the block order as under the body colouring, as Contact.PileBoxesPushOnlyThroughSharedFaces
// asks of a 4 x 4 x 4 one: only face neighbours push, nothing slides, and
// the top box sinks by the column's gaps plus a compression, the same for both.
TEST(BlockOrder, PileSettlesAsUnderTheBodyColouring) {
  const Settling blocks = settle_pile(1), colours = settle_pile(1 << 30);
  for (const auto& [name, s] : {std::pair{"blocks", blocks}, std::pair{"colours", colours}})
    std::printf("8^3 pile by %s: %d face pushes, %d others; top settled %.6f m; drift %.3g m\n",
                name, s.face_pushes, s.other_pushes, s.settled, s.drift);
  for (const Settling& s : {blocks, colours}) {
    EXPECT_GT(s.face_pushes, 0);
    EXPECT_EQ(s.other_pushes, 0);
    // The column's gaps, 0.5 mm to the ground and 7 of 1 mm between boxes,
    // plus its compression: under 0.5 mm a box (the 4-box column's 0.6 mm is
    // 0.15 mm a box; here the bottom box carries twice the load).
    EXPECT_GT(s.settled, 0.0075);
    EXPECT_LT(s.settled, 0.0075 + 8 * 0.0005);
    EXPECT_LT(s.drift, 1e-4);  // stands: nothing slides a tenth of a millimetre
  }
  // The same compression within 10%: both orders approach the same step
  // solution, and 20 iterations leave them short of it by about as much.
  EXPECT_NEAR(blocks.settled, colours.settled, 0.1 * (colours.settled - 0.0075));
}

}  // namespace
}  // namespace pabd
