// The colouring in parallel rounds (solver/colouring_rounds.h): the host's
// greedy colouring (colour_bodies over bonds and contacts) exactly, whatever
// order a round's bodies run in, in few rounds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "contacts/contact_detect.h"
#include "pabd/scene.h"
#include "pabd/world.h"
#include "solver/colouring.h"
#include "solver/colouring_rounds.h"
#include "world/world_impl.h"

namespace pabd {
namespace {

const std::string kScenes = PABD_SOURCE_DIR "/scenes/";

/// A serial executor: each loop's indices first to last (as the host's
/// loops and the device stand-in's run them), or last to first: another
/// schedule of the same rounds.
template <bool kBackward>
struct SerialLoops {
  template <typename Fn>
  void each(int n, const Fn& f) const {
    for (int k = 0; k < n; ++k) f(kBackward ? n - 1 - k : k);
  }
  template <typename Fn>
  void each_block(int n, const Fn& f) const {
    const int blocks = loop_block_count(n);
    for (int k = 0; k < blocks; ++k) {
      const int b = kBackward ? blocks - 1 - k : k, begin = b * kLoopBlock;
      f(b, begin, begin + kLoopBlock < n ? begin + kLoopBlock : n);
    }
  }
  template <typename Fn>
  void serial(const Fn& f) const {
    f();
  }
  template <typename T>
  T read(const T* p) const {
    return *p;
  }
};

/// HostContactBackend's arrays with either schedule.
template <bool kBackward>
struct TestBackend {
  template <typename T>
  using Array = ScratchArray<T>;
  SerialLoops<kBackward> loops() const { return {}; }
  template <typename T>
  T* room(ScratchArray<T>& v, long long n) const {
    return v.reserve_for(static_cast<std::size_t>(n));
  }
};

using Forward = TestBackend<false>;
using Backward = TestBackend<true>;

/// A graph as both colourings read it: bodies with bond ends, contact pairs.
struct Graph {
  std::vector<std::uint8_t> is_static;
  std::vector<Vec3> position;  ///< for the bodies' classes (colouring_class)
  std::vector<Real> mass;
  std::vector<Mat3> affine_inertia;
  std::vector<int> bond_end_body, bond_end_begin, bond_end_index;
  std::vector<int> pair_body, pair_end_begin, pair_end_index;

  BodyArrays bodies() const {
    BodyArrays b;
    b.count = static_cast<int>(is_static.size());
    b.is_static = is_static.data();
    b.position = const_cast<Vec3*>(position.data());
    b.mass = mass.data();
    b.affine_inertia = affine_inertia.data();
    b.end_begin = bond_end_begin.data();
    b.end_index = bond_end_index.data();
    return b;
  }
  ContactGraph contacts() const {
    ContactGraph g;
    g.pair_count = static_cast<int>(pair_body.size() / 2);
    g.pair_body = pair_body.data();
    g.end_begin = pair_end_begin.data();
    g.end_index = pair_end_index.data();
    return g;
  }
};

/// Per body the ends (of `end_body`) on it, as a CSR list; statics' too for
/// bonds (as BodyArrays lists them), none for contacts (as ContactEnds).
void list_ends(const std::vector<int>& end_body, const std::vector<std::uint8_t>& is_static,
               bool skip_static, std::vector<int>& begin, std::vector<int>& index) {
  const int n = static_cast<int>(is_static.size());
  const auto listed = [&](int body) { return body >= 0 && !(skip_static && is_static[body]); };
  begin.assign(n + 1, 0);
  for (int body : end_body)
    if (listed(body)) ++begin[body + 1];
  for (int i = 0; i < n; ++i) begin[i + 1] += begin[i];
  index.resize(begin[n]);
  std::vector<int> fill(begin.begin(), begin.end() - 1);
  for (std::size_t e = 0; e < end_body.size(); ++e)
    if (listed(end_body[e])) index[fill[end_body[e]]++] = static_cast<int>(e);
}

/// A random graph: n bodies (a tenth static), bonds (some to the world),
/// contact pairs (some repeated, as a pair's bodies may meet twice).
Graph random_graph(std::mt19937& rng, int n, int bonds, int pairs) {
  Graph g;
  std::uniform_int_distribution<int> body(0, n - 1), tenth(0, 9);
  std::uniform_real_distribution<Real> place(-5, 5), size(0.2, 2);
  for (int i = 0; i < n; ++i) {
    g.is_static.push_back(tenth(rng) == 0 ? 1 : 0);
    // Bodies of mixed sizes scattered over a few cells of their size (every
    // class), a tenth of them particles without inertia (class 0).
    g.position.push_back({place(rng), place(rng), place(rng)});
    g.mass.push_back(size(rng));
    Mat3 pi;
    if (tenth(rng) != 0)
      for (int k = 0; k < 3; ++k) pi.m[k][k] = g.mass.back() * size(rng) * size(rng) / 12;
    g.affine_inertia.push_back(pi);
  }
  for (int b = 0; b < bonds; ++b) {
    g.bond_end_body.push_back(body(rng));
    g.bond_end_body.push_back(tenth(rng) == 0 ? -1 : body(rng));
  }
  for (int p = 0; p < pairs; ++p) {
    int a = body(rng), c = body(rng);
    if (a == c) c = (c + 1) % n;
    g.pair_body.push_back(a);
    g.pair_body.push_back(c);
  }
  list_ends(g.bond_end_body, g.is_static, false, g.bond_end_begin, g.bond_end_index);
  list_ends(g.pair_body, g.is_static, true, g.pair_end_begin, g.pair_end_index);
  return g;
}

ColouringGraph rounds_graph(const BodyArrays& b, const int* bond_end_body, int bond_count,
                            const ContactGraph& c) {
  return colouring_graph_of(b, bond_end_body, bond_count, c.pair_body, c.end_begin, c.end_index);
}

std::vector<int> copy(const int* p, int n) { return std::vector<int>(p, p + (n > 0 ? n : 0)); }

/// The rounds' colouring of the graph on `be` equals colour_bodies'; returns
/// the rounds run, counting the bodies left every `check_every` rounds.
template <typename Backend>
int expect_same_colouring(Backend& be, const BodyArrays& bodies, const int* bond_end_body,
                          int bond_count, const ContactGraph& contacts, const std::string& what,
                          int check_every = kColouringRoundsPerCount) {
  Colouring greedy;
  colour_bodies(bodies, bond_end_body, bond_count, contacts, VisitOrder::Priority, greedy);
  ColouringRoundsArrays<Backend> arrays;
  const ColouringRoundsResult r = colour_in_rounds(
      be, arrays, rounds_graph(bodies, bond_end_body, bond_count, contacts), check_every);
  EXPECT_EQ(r.colours, greedy.colour_count()) << what;
  if (r.colours != greedy.colour_count()) return r.rounds;
  EXPECT_EQ(copy(r.colour, bodies.count), greedy.colour) << what;
  EXPECT_EQ(copy(r.colour_begin, r.colours + 1), greedy.colour_begin) << what;
  EXPECT_EQ(copy(r.order, greedy.colour_begin.back()), greedy.order) << what;
  EXPECT_EQ(copy(r.bond_colour_begin, r.colours + 1), greedy.bond_colour_begin) << what;
  EXPECT_EQ(copy(r.bond_order, greedy.bond_colour_begin.back()), greedy.bond_order) << what;
  return r.rounds;
}

/// No bond or contact joins two dynamic bodies of one colour.
void expect_proper(const Graph& g, const std::vector<int>& colour) {
  const auto clash = [&](int a, int b) {
    return a >= 0 && b >= 0 && a != b && !g.is_static[a] && !g.is_static[b] &&
           colour[a] == colour[b];
  };
  for (std::size_t e = 0; e < g.bond_end_body.size(); e += 2)
    EXPECT_FALSE(clash(g.bond_end_body[e], g.bond_end_body[e + 1])) << "bond " << e / 2;
  for (std::size_t e = 0; e < g.pair_body.size(); e += 2)
    EXPECT_FALSE(clash(g.pair_body[e], g.pair_body[e + 1])) << "pair " << e / 2;
}

TEST(ColouringRounds, RandomGraphsGetTheGreedyColouringInEitherSchedule) {
  std::mt19937 rng(20261129);
  Forward forward;
  Backward backward;
  std::uniform_int_distribution<int> size(1, 600);
  for (int trial = 0; trial < 60; ++trial) {
    const int n = size(rng);
    // Degrees from sparse to dense (up to ~100 neighbours: the colours pass 64).
    const int bonds = trial % 3 == 0 ? 0 : n / 2;
    const int pairs = trial % 5 == 0 ? 0 : (trial % 4 + 1) * n * (trial % 7 == 0 ? 12 : 1);
    const Graph g = random_graph(rng, n, bonds, pairs);
    const std::string what = "graph " + std::to_string(trial) + " (" + std::to_string(n) +
                             " bodies, " + std::to_string(bonds) + " bonds, " +
                             std::to_string(pairs) + " pairs)";
    expect_same_colouring(forward, g.bodies(), g.bond_end_body.data(), bonds, g.contacts(), what);
    expect_same_colouring(backward, g.bodies(), g.bond_end_body.data(), bonds, g.contacts(),
                          what + ", backward");
    Colouring greedy;
    colour_bodies(g.bodies(), g.bond_end_body.data(), bonds, g.contacts(), VisitOrder::Priority,
                  greedy);
    expect_proper(g, greedy.colour);
  }
}

TEST(ColouringRounds, ColoursBeyondSixtyFourAreFound) {
  // A clique of 80 dynamic bodies through contacts needs 80 colours: the
  // smallest free colour is searched past the first 64.
  Graph g;
  const int n = 80;
  g.is_static.assign(n, 0);
  g.position.assign(n, Vec3{});
  g.mass.assign(n, 1);
  g.affine_inertia.assign(n, Mat3{});
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) {
      g.pair_body.push_back(a);
      g.pair_body.push_back(b);
    }
  list_ends(g.bond_end_body, g.is_static, false, g.bond_end_begin, g.bond_end_index);
  list_ends(g.pair_body, g.is_static, true, g.pair_end_begin, g.pair_end_index);
  Forward forward;
  expect_same_colouring(forward, g.bodies(), nullptr, 0, g.contacts(), "clique");
  Colouring greedy;
  colour_bodies(g.bodies(), nullptr, 0, g.contacts(), VisitOrder::Priority, greedy);
  EXPECT_EQ(greedy.colour_count(), n);
}

/// The colourings of a scene's bodies over its bonds and its contacts after `steps` steps.
int expect_scene_colouring(const std::string& name, int steps) {
  const Scene s = load_scene(kScenes + name);
  World world = build_world(s, s.settings);
  for (int n = 0; n < steps; ++n) world.step();
  WorldImpl& impl = world_impl(world);
  const StepContext ctx = impl.step_context();
  EXPECT_GT(impl.contact_graph.pair_count, 0) << name << " has contacts";
  Backward backward;
  expect_same_colouring(backward, ctx.bodies, ctx.bonds.end_body, ctx.bonds.count,
                        impl.contact_graph, name + ", backward");
  Forward forward;
  return expect_same_colouring(forward, ctx.bodies, ctx.bonds.end_body, ctx.bonds.count,
                               impl.contact_graph, name);
}

TEST(ColouringRounds, ScenesGetTheGreedyColouring) {
  expect_scene_colouring("ball_into_stack.json", 10);
  expect_scene_colouring("windmill_piles.json", 5);  // welds and a motor among contacts
  expect_scene_colouring("robot_dog.json", 5);       // an articulation on the ground
}

/// The longest chain of neighbours of increasing rank (rank[i]: body i's
/// place in the visiting order): the rounds a schedule that sees no colour
/// given in its own round takes, the most any schedule takes.
int longest_chain(const BodyArrays& b, const int* bond_end_body, const ContactGraph& c,
                  const std::vector<long long>& rank) {
  std::vector<int> order;
  for (int i = 0; i < b.count; ++i) order.push_back(i);
  std::sort(order.begin(), order.end(), [&](int x, int y) { return rank[x] < rank[y]; });
  std::vector<int> chain(b.count, 0);
  int longest = 0;
  for (int i : order) {
    if (b.is_static[i]) continue;
    int below = 0;
    const auto visit = [&](int j) {
      if (j >= 0 && !b.is_static[j] && rank[j] < rank[i]) below = std::max(below, chain[j]);
    };
    for (int at = b.end_begin[i]; at < b.end_begin[i + 1]; ++at)
      visit(bond_end_body[b.end_index[at] ^ 1]);
    for (int at = c.end_begin[i]; at < c.end_begin[i + 1]; ++at)
      visit(c.pair_body[c.end_index[at] ^ 1]);
    chain[i] = below + 1;
    longest = std::max(longest, chain[i]);
  }
  return longest;
}

TEST(ColouringRounds, APileTakesFewRoundsAndKeepsItsLatticeColours) {
  // pile_20's 8000 boxes, ~30 contact pairs each, at rest in a lattice.
  // After round r every body at the end of a chain of lower-priority
  // neighbours r long has its colour, so the rounds are at most the longest
  // chain. The index order's chains follow the pile's rows (measured: 134),
  // the hash alone's are shorter (50); the classes must cut them more
  // (measured: 10) and keep the lattice's 8 colours (the hash alone: 17).
  const Scene s = load_scene(kScenes + "pile_20.json");
  World world = build_world(s, s.settings);
  world.step();
  WorldImpl& impl = world_impl(world);
  const StepContext ctx = impl.step_context();
  const BodyArrays& b = ctx.bodies;
  const ContactGraph& c = impl.contact_graph;
  const int n = b.count;
  std::vector<long long> by_index(n), by_hash(n), by_key(n);
  for (int i = 0; i < n; ++i) {
    by_index[i] = i;
    by_hash[i] = colouring_priority(i);
    by_key[i] = static_cast<long long>(
        colouring_key(colouring_class(b.position[i], b.mass[i], b.affine_inertia[i]), i));
  }
  const int index_chain = longest_chain(b, ctx.bonds.end_body, c, by_index);
  const int hash_chain = longest_chain(b, ctx.bonds.end_body, c, by_hash);
  const int chain = longest_chain(b, ctx.bonds.end_body, c, by_key);
  // Counted after every round: the rounds it took, not a multiple of 4.
  Backward backward;
  const int rounds =
      expect_same_colouring(backward, b, ctx.bonds.end_body, ctx.bonds.count, c, "pile_20", 1);
  Forward forward;
  const int forward_rounds =
      expect_same_colouring(forward, b, ctx.bonds.end_body, ctx.bonds.count, c, "pile_20", 1);
  EXPECT_LE(rounds, chain);
  EXPECT_LE(forward_rounds, chain);
  EXPECT_LT(4 * chain, index_chain) << "the classes' chains against the index order's";
  EXPECT_LT(2 * chain, hash_chain) << "the classes' chains against the hash alone's";
  Colouring greedy;
  colour_bodies(b, ctx.bonds.end_body, ctx.bonds.count, c, VisitOrder::Priority, greedy);
  EXPECT_LE(greedy.colour_count(), 8) << "a lattice's 2 x 2 x 2 pattern";
  std::printf(
      "pile_20: %d colours; longest chain %d (index order %d, hash alone %d); rounds backward "
      "%d, forward %d\n",
      greedy.colour_count(), chain, index_chain, hash_chain, rounds, forward_rounds);
}

}  // namespace
}  // namespace pabd
