#include "solver/island_momentum.h"

#include <vector>

#include "core/stage_clock.h"
#include "solver/step_loops.h"

namespace pabd {

namespace {

int find_root(std::vector<int>& parent, int i) {
  while (parent[std::size_t(i)] != i) {
    parent[std::size_t(i)] = parent[std::size_t(parent[std::size_t(i)])];  // path halving
    i = parent[std::size_t(i)];
  }
  return i;
}

/// Body i is a body (not the world, -1) and not static.
bool moving_body(const BodyArrays& b, int i) { return i >= 0 && !b.is_static[i]; }

/// Whether island momentum can change anything: some bond joins two moving
/// bodies (an island of more than one body). A pass over the bonds.
bool island_momentum_applies(const StepContext& ctx) {
  const BodyArrays& b = ctx.bodies;
  const BondArrays& bonds = ctx.bonds;
  for (int k = 0; k < bonds.count; ++k)
    if (moving_body(b, bonds.end_body[2 * k]) && moving_body(b, bonds.end_body[2 * k + 1]))
      return true;
  return false;
}

}  // namespace

IslandLists build_island_lists(const StepContext& ctx) {
  const BodyArrays& b = ctx.bodies;
  const BondArrays& bonds = ctx.bonds;
  StepBuffers& buf = *ctx.buffers;
  const std::size_t n = std::size_t(b.count);
  std::vector<int>& parent = buf.island_parent;
  std::vector<std::uint8_t>& bond_held = buf.island_bond_held;
  parent.resize(n);
  bond_held.assign(n, 0);
  for (int i = 0; i < b.count; ++i) parent[std::size_t(i)] = i;
  auto moving = [&](int i) { return moving_body(b, i); };
  // Islands over the bonds between moving bodies; a bond to the world or a
  // static body holds its island.
  for (int k = 0; k < bonds.count; ++k) {
    const int a = bonds.end_body[2 * k], c = bonds.end_body[2 * k + 1];
    if (moving(a) && moving(c)) {
      const int ra = find_root(parent, a), rc = find_root(parent, c);
      if (ra != rc) parent[std::size_t(ra > rc ? ra : rc)] = ra > rc ? rc : ra;
    } else {
      if (moving(a)) bond_held[std::size_t(a)] = 1;
      if (moving(c)) bond_held[std::size_t(c)] = 1;
    }
  }
  // Each moving body's root (the island's smallest body), and the roots'
  // sizes; islands of two or more, numbered by root, list their bodies in
  // ascending order (a counting sort).
  std::vector<int>& island_of = buf.island_of;
  std::vector<int>& size = buf.island_size;
  island_of.assign(n, -1);
  size.assign(n, 0);
  for (int i = 0; i < b.count; ++i)
    if (moving(i)) ++size[std::size_t(island_of[std::size_t(i)] = find_root(parent, i))];
  std::vector<int>& begin = buf.island_begin;
  std::vector<int>& root_island = buf.island_of_root;  // -1: a lone body's root, or no root
  begin.assign(1, 0);
  root_island.assign(n, -1);
  int islands = 0;
  for (int r = 0; r < b.count; ++r) {
    if (size[std::size_t(r)] < 2) continue;
    begin.push_back(begin.back() + size[std::size_t(r)]);
    root_island[std::size_t(r)] = islands++;
  }
  std::vector<int>& body = buf.island_body;
  body.resize(std::size_t(begin.back()));
  std::vector<int>& next = buf.island_next;
  next.assign(begin.begin(), begin.end() - 1);
  for (int i = 0; i < b.count; ++i) {
    int& of = island_of[std::size_t(i)];
    if (of < 0) continue;
    of = root_island[std::size_t(of)];  // from the root to its island
    if (of >= 0) body[std::size_t(next[std::size_t(of)]++)] = i;
  }
  IslandLists lists;
  lists.body_count = b.count;
  lists.island_count = islands;
  lists.island_of = island_of.data();
  lists.bond_held = bond_held.data();
  lists.begin = begin.data();
  lists.body = body.data();
  return lists;
}

const IslandLists& current_island_lists(const StepContext& ctx) {
  StepBuffers& buf = *ctx.buffers;
  const bool current = buf.island_lists_built && buf.island_lists_model == ctx.model_version &&
                       buf.island_lists_bodies == ctx.bodies.count &&
                       buf.island_lists_bonds == ctx.bonds.count;
  if (!current) {
    buf.island_lists = island_momentum_applies(ctx) ? build_island_lists(ctx) : IslandLists{};
    buf.island_lists_built = true;
    buf.island_lists_model = ctx.model_version;
    buf.island_lists_bodies = ctx.bodies.count;
    buf.island_lists_bonds = ctx.bonds.count;
  }
  return buf.island_lists;
}

void island_momentum_stage(StepContext& ctx) {
  const auto t0 = StageClock::now();
  const IslandLists& lists = current_island_lists(ctx);
  if (lists.island_count == 0) return;  // no bond joins two moving bodies
  std::vector<std::uint8_t>& held = ctx.buffers->island_held;
  held.resize(std::size_t(ctx.bodies.count));
  // Over the contact pairs in host memory (ctx.contact_graph, on any backend).
  island_momentum_loops(ctx.bodies, lists, ctx.contact_graph, held.data(), host_loops(ctx));
  ctx.timings.velocities_ms += ms_since(t0);
}

}  // namespace pabd
