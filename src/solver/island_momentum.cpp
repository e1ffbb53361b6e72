#include "solver/island_momentum.h"

#include <vector>

#include "core/stage_clock.h"

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

}  // namespace

bool island_momentum_applies(const StepContext& ctx) {
  const BodyArrays& b = ctx.bodies;
  const BondArrays& bonds = ctx.bonds;
  for (int k = 0; k < bonds.count; ++k)
    if (moving_body(b, bonds.end_body[2 * k]) && moving_body(b, bonds.end_body[2 * k + 1]))
      return true;
  return false;
}

void island_momentum_stage(StepContext& ctx) {
  const BodyArrays& b = ctx.bodies;
  const BondArrays& bonds = ctx.bonds;
  if (!island_momentum_applies(ctx)) return;
  const auto t0 = StageClock::now();
  StepBuffers& buf = *ctx.buffers;
  std::vector<int>& parent = buf.island_parent;
  std::vector<std::uint8_t>& held = buf.island_held;
  const std::size_t n = std::size_t(b.count);
  parent.resize(n);
  held.assign(n, 0);
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
      if (moving(a)) held[std::size_t(a)] = 1;
      if (moving(c)) held[std::size_t(c)] = 1;
    }
  }
  // A contact with anything outside the island holds it (the other body's
  // push is not an applied force); one between two of its own bodies (the
  // links of a chain folding onto each other) is internal.
  // Over the contact pairs (host memory on any backend): a pair's contacts
  // join the same two bodies.
  const ContactGraph& contact = ctx.contact_graph;
  for (int k = 0; k < contact.pair_count; ++k) {
    const int a = contact.pair_body[2 * k], c = contact.pair_body[2 * k + 1];
    if (moving(a) && moving(c) && find_root(parent, a) == find_root(parent, c)) continue;
    if (moving(a)) held[std::size_t(a)] = 1;
    if (moving(c)) held[std::size_t(c)] = 1;
  }
  // Per island, in body order: held?, mass, sum m (c - s).
  std::vector<double>& mass = buf.island_mass;
  std::vector<Vec3>& excess = buf.island_excess;
  mass.assign(n, 0);
  excess.assign(n, Vec3{});
  std::vector<std::uint8_t>& island_held = buf.island_root_held;
  island_held.assign(n, 0);
  std::vector<int>& size = buf.island_size;
  size.assign(n, 0);
  for (int i = 0; i < b.count; ++i) {
    if (!moving(i)) continue;
    const std::size_t r = std::size_t(find_root(parent, i));
    island_held[r] = island_held[r] | held[std::size_t(i)];
    ++size[r];
    mass[r] += double(b.mass[i]);
    excess[r] += b.mass[i] * (b.position[i] - b.target_position[i]);
  }
  for (int i = 0; i < b.count; ++i) {
    if (!moving(i)) continue;
    const std::size_t r = std::size_t(find_root(parent, i));
    if (island_held[r] || size[r] < 2) continue;
    b.position[i] += (Real(-1) / Real(mass[r])) * excess[r];
  }
  ctx.timings.velocities_ms += ms_since(t0);
}

}  // namespace pabd
