// The mass each hard bond holds to the world along the joint graph
// (bonds/joint_load.h), found when the topology changes.
#include <vector>

#include "bonds/joint_load.h"
#include "world/world_impl.h"

namespace pabd {

void WorldImpl::find_mass_behind_joints() {
  const int nb = body_count(), nc = bond_count();
  bonds.mass_behind.assign(static_cast<std::size_t>(nc), 0);
  any_loaded_joint = false;
  // The joints' structural bonds (hard point, point-on-line and distance
  // bonds; not limits or drives). Roots: bodies held by the world or a static body.
  auto joint = [&](int b) {
    const BondKind k = bonds.kind[b];
    return bonds.hard[b] != 0 &&
           (k == BondKind::Point || k == BondKind::Line || k == BondKind::Distance);
  };
  auto fixed = [&](int x) { return x < 0 || bodies.is_static[x] != 0; };
  std::vector<int> dist(static_cast<std::size_t>(nb), -1), queue;
  for (int b = 0; b < nc; ++b) {
    if (!joint(b)) continue;
    for (int side = 0; side < 2; ++side) {
      const int x = bonds.end_body[2 * b + side], o = bonds.end_body[2 * b + (side ^ 1)];
      if (!fixed(x) && fixed(o) && dist[x] < 0) {
        dist[x] = 0;
        queue.push_back(x);
      }
    }
  }
  for (std::size_t q = 0; q < queue.size(); ++q) {  // breadth first, in body and end order
    const int i = queue[q];
    for (int t = bodies.end_begin[i]; t < bodies.end_begin[i + 1]; ++t) {
      const int e = bodies.end_index[t], o = bonds.end_body[e ^ 1];
      if (!joint(e / 2) || fixed(o) || dist[o] >= 0) continue;
      dist[o] = dist[i] + 1;
      queue.push_back(o);
    }
  }
  // Each body's parent bonds: to the world, a static body or a body one hop nearer.
  auto parent_bond = [&](int i, int e) {
    const int o = bonds.end_body[e ^ 1];
    return joint(e / 2) && (fixed(o) || dist[o] == dist[i] - 1);
  };
  std::vector<Real> behind(static_cast<std::size_t>(nb), 0);
  for (std::size_t q = queue.size(); q-- > 0;) {  // farthest first
    const int i = queue[q];
    behind[i] += bodies.mass[i];
    int parents = 0;
    for (int t = bodies.end_begin[i]; t < bodies.end_begin[i + 1]; ++t)
      parents += parent_bond(i, bodies.end_index[t]);
    for (int t = bodies.end_begin[i]; t < bodies.end_begin[i + 1]; ++t) {
      const int e = bodies.end_index[t];
      if (!parent_bond(i, e)) continue;
      const Real share = behind[i] / Real(parents);
      bonds.mass_behind[e / 2] += share;
      const int o = bonds.end_body[e ^ 1];
      if (!fixed(o)) behind[o] += share;
    }
  }
  for (int b = 0; b < nc; ++b) {
    if (bonds.kind[b] != BondKind::Point || !bonds.hard[b]) continue;
    Real inv = 0;
    for (int side = 0; side < 2; ++side)
      if (!fixed(bonds.end_body[2 * b + side]))
        inv += Real(1) / bodies.mass[bonds.end_body[2 * b + side]];
    any_loaded_joint =
        any_loaded_joint || (inv > 0 && joint_carries_load(bonds.mass_behind[b], 1 / inv));
  }
}

}  // namespace pabd
