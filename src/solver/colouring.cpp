// Greedy body colouring for Gauss-Seidel sweeps (see colouring.h).
#include "solver/colouring.h"

#include <algorithm>

#include "solver/colouring_rounds.h"

namespace pabd {

namespace {

/// Lists, by colour, the bonds touching each colour: a bond is listed once
/// per distinct colour of its two ends' bodies.
void list_by_colour(const int* end_body, int items, const std::vector<int>& colour, int colours,
                    std::vector<int>& begin, std::vector<int>& order, std::vector<int>& fill) {
  auto end_colour = [&](int end) {
    const int body = end_body[end];
    return body < 0 ? -1 : colour[body];
  };
  begin.assign(static_cast<std::size_t>(colours) + 1, 0);
  for (int b = 0; b < items; ++b) {
    const int ca = end_colour(2 * b), cb = end_colour(2 * b + 1);
    if (ca >= 0) ++begin[ca + 1];
    if (cb >= 0 && cb != ca) ++begin[cb + 1];
  }
  for (int c = 0; c < colours; ++c) begin[c + 1] += begin[c];
  order.resize(begin[colours]);
  fill.assign(begin.begin(), begin.end() - 1);
  for (int b = 0; b < items; ++b) {
    const int ca = end_colour(2 * b), cb = end_colour(2 * b + 1);
    if (ca >= 0) order[fill[ca]++] = b;
    if (cb >= 0 && cb != ca) order[fill[cb]++] = b;
  }
}

/// The greedy colouring, visiting the bodies in `visit_order` (null: index order).
void colour_greedy(const BodyArrays& bodies, const int* bond_end_body, int bond_count,
                   const ContactGraph& contacts, const int* visit_order, Colouring& out) {
  const int nb = bodies.count;
  out.colour.assign(static_cast<std::size_t>(nb), -1);
  out.used.clear();
  int colours = 0;
  for (int at = 0; at < nb; ++at) {
    const int i = visit_order ? visit_order[at] : at;
    if (bodies.is_static[i]) continue;
    // Mark the colours of the already-coloured neighbours, through bonds and contacts.
    for (int e_at = bodies.end_begin[i]; e_at < bodies.end_begin[i + 1]; ++e_at) {
      const int other = bond_end_body[bodies.end_index[e_at] ^ 1];
      if (other >= 0 && out.colour[other] >= 0) out.used[out.colour[other]] = i;
    }
    if (contacts.end_begin) {
      for (int e_at = contacts.end_begin[i]; e_at < contacts.end_begin[i + 1]; ++e_at) {
        const int other =
            contacts.pair_body[contacts.end_index[e_at] ^ 1];  // the pair's other body
        if (out.colour[other] >= 0) out.used[out.colour[other]] = i;
      }
    }
    out.colour[i] = smallest_free_colour(out.used, colours, i);
  }

  // Bodies by colour (counting sort, stable in body index).
  out.colour_begin.assign(static_cast<std::size_t>(colours) + 1, 0);
  for (int i = 0; i < nb; ++i)
    if (out.colour[i] >= 0) ++out.colour_begin[out.colour[i] + 1];
  for (int c = 0; c < colours; ++c) out.colour_begin[c + 1] += out.colour_begin[c];
  out.order.resize(out.colour_begin[colours]);
  out.fill.assign(out.colour_begin.begin(), out.colour_begin.end() - 1);
  for (int i = 0; i < nb; ++i)
    if (out.colour[i] >= 0) out.order[out.fill[out.colour[i]]++] = i;

  list_by_colour(bond_end_body, bond_count, out.colour, colours, out.bond_colour_begin,
                 out.bond_order, out.fill);
  out.block_begin.clear();
  out.colour_block_begin.clear();
}

}  // namespace

void colour_bodies(const BodyArrays& bodies, const int* bond_end_body, int bond_count,
                   const ContactGraph& contacts, VisitOrder order, Colouring& out) {
  if (order == VisitOrder::Index) {
    colour_greedy(bodies, bond_end_body, bond_count, contacts, nullptr, out);
    return;
  }
  const int nb = bodies.count;
  if (static_cast<int>(out.hash_order.size()) != nb) {
    // The bodies by hash: no two share one, so the order is unique.
    out.hash_order.resize(static_cast<std::size_t>(nb));
    for (int i = 0; i < nb; ++i) out.hash_order[i] = i;
    std::sort(out.hash_order.begin(), out.hash_order.end(),
              [](int a, int b) { return colouring_priority(a) < colouring_priority(b); });
  }
  // By class, each class in hash order (a stable counting sort): the order
  // of colouring_key. Static bodies take no colour; their place is moot.
  constexpr int kClasses = 8;
  out.visit_class.resize(static_cast<std::size_t>(nb));
  int begin[kClasses + 1] = {};
  for (int i = 0; i < nb; ++i) {
    const std::uint32_t c =
        bodies.is_static[i]
            ? 0
            : colouring_class(bodies.position[i], bodies.mass[i], bodies.affine_inertia[i]);
    out.visit_class[i] = static_cast<int>(c);
    ++begin[c + 1];
  }
  for (int c = 0; c < kClasses; ++c) begin[c + 1] += begin[c];
  out.visit_order.resize(static_cast<std::size_t>(nb));
  for (int i : out.hash_order) out.visit_order[begin[out.visit_class[i]]++] = i;
  colour_greedy(bodies, bond_end_body, bond_count, contacts, out.visit_order.data(), out);
}

void colour_bodies(const BodyArrays& bodies, const int* bond_end_body, int bond_count,
                   Colouring& out) {
  colour_greedy(bodies, bond_end_body, bond_count, ContactGraph{}, nullptr, out);
  out.built_body_count = bodies.count;
  out.built_end_body.assign(bond_end_body, bond_end_body + 2 * bond_count);
  ++out.bond_builds;
}

bool colouring_is_current(const Colouring& colouring, int body_count, const int* bond_end_body,
                          int bond_count) {
  return colouring.built_body_count == body_count &&
         colouring.built_end_body.size() == std::size_t(2 * bond_count) &&
         std::equal(colouring.built_end_body.begin(), colouring.built_end_body.end(),
                    bond_end_body);
}

}  // namespace pabd
