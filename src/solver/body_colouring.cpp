// Greedy body colouring for Gauss-Seidel sweeps (see body_colouring.h).
#include "solver/body_colouring.h"

#include "world/world_impl.h"

namespace pabd {

bool colouring_is_current(const BodyColouring& colouring, const WorldImpl& world) {
  return colouring.body_count == world.body_count() && colouring.end_body == world.end_body;
}

BodyColouring colour_bodies(const WorldImpl& world) {
  const int nb = world.body_count();
  std::vector<int> colour(nb, -1);
  // used[c] == i marks colour c as taken by a neighbour of body i.
  std::vector<int> used;
  int colours = 0;
  for (int i = 0; i < nb; ++i) {
    if (world.is_static[i]) continue;
    for (int e_at = world.end_begin[i]; e_at < world.end_begin[i + 1]; ++e_at) {
      const int other = world.end_body[world.end_index[e_at] ^ 1];  // the bond's other end
      if (other >= 0 && colour[other] >= 0) used[colour[other]] = i;
    }
    int c = 0;
    while (c < colours && used[c] == i) ++c;
    if (c == colours) {
      ++colours;
      used.push_back(-1);
    }
    colour[i] = c;
  }

  // Counting sort by colour, stable in body index.
  BodyColouring out;
  out.colour_begin.assign(colours + 1, 0);
  for (int i = 0; i < nb; ++i)
    if (colour[i] >= 0) ++out.colour_begin[colour[i] + 1];
  for (int c = 0; c < colours; ++c) out.colour_begin[c + 1] += out.colour_begin[c];
  out.order.assign(out.colour_begin[colours], 0);
  std::vector<int> fill(out.colour_begin.begin(), out.colour_begin.end() - 1);
  for (int i = 0; i < nb; ++i)
    if (colour[i] >= 0) out.order[fill[colour[i]]++] = i;

  // Bonds touching each colour: a bond is listed once per distinct colour of
  // its dynamic ends (static ends and the world have none).
  const int bonds = static_cast<int>(world.end_body.size()) / 2;
  auto end_colour = [&](int end) {
    const int body = world.end_body[end];
    return body < 0 ? -1 : colour[body];
  };
  out.bond_colour_begin.assign(colours + 1, 0);
  for (int b = 0; b < bonds; ++b) {
    const int ca = end_colour(2 * b), cb = end_colour(2 * b + 1);
    if (ca >= 0) ++out.bond_colour_begin[ca + 1];
    if (cb >= 0 && cb != ca) ++out.bond_colour_begin[cb + 1];
  }
  for (int c = 0; c < colours; ++c) out.bond_colour_begin[c + 1] += out.bond_colour_begin[c];
  out.bond_order.assign(out.bond_colour_begin[colours], 0);
  std::vector<int> bond_fill(out.bond_colour_begin.begin(), out.bond_colour_begin.end() - 1);
  for (int b = 0; b < bonds; ++b) {
    const int ca = end_colour(2 * b), cb = end_colour(2 * b + 1);
    if (ca >= 0) out.bond_order[bond_fill[ca]++] = b;
    if (cb >= 0 && cb != ca) out.bond_order[bond_fill[cb]++] = b;
  }
  out.body_count = nb;
  out.end_body = world.end_body;
  return out;
}

}  // namespace pabd
