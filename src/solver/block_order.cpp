// Block order of a large contact scene's sweep (see block_order.h).
#include "solver/block_order.h"

#include <algorithm>
#include <cmath>

namespace pabd {

int block_bodies(int dynamic_bodies) { return std::max(64, dynamic_bodies / 64); }

bool use_block_order(int body_count, int bond_count, int contact_count, int min_bodies) {
  return body_count >= min_bodies && bond_count == 0 && contact_count > 0;
}

namespace {

/// The value below which a share q of v lies (v reordered; not empty).
Real quantile(std::vector<Real>& v, Real q) {
  const auto at = v.begin() + static_cast<std::ptrdiff_t>(q * Real(v.size() - 1));
  std::nth_element(v.begin(), at, v.end());
  return *at;
}

/// The smallest cell edge (to bisection's precision) that cuts extents e
/// into at most `cells` cells, at least one along each axis; the largest
/// extent is one such edge, so the grid never outgrows `cells`.
Real cell_edge(Vec3 e, int cells) {
  const auto count = [&](Real edge) {
    const auto along = [&](Real x) { return std::max(Real(1), std::ceil(x / edge)); };
    return along(e.x) * along(e.y) * along(e.z);
  };
  Real lo = 0, hi = std::max({e.x, e.y, e.z, Real(1e-9)});
  for (int k = 0; k < 60; ++k) {
    const Real mid = Real(0.5) * (lo + hi);
    (mid > 0 && count(mid) <= Real(cells) ? hi : lo) = mid;
  }
  return hi;
}

/// The dynamic bodies by cell of a grid over their centres, each cell's in
/// index order; the non-empty cells, in grid order (x fastest), are the
/// blocks: out.block_begin. The grid spans the centres from the 1st to the
/// 99th percentile on each axis (a body thrown far away joins an edge cell
/// instead of stretching every cell) and has about n / block_bodies(n) cells,
/// longer along the index axis (index_axis) than across it when the bodies
/// have one (kIndexAxisScale).
int sort_into_cells(const BodyArrays& bodies, Colouring& out) {
  const int nb = bodies.count;
  out.sorted.clear();
  for (int i = 0; i < nb; ++i)
    if (!bodies.is_static[i]) out.sorted.push_back(i);
  const int n = static_cast<int>(out.sorted.size());
  Vec3 lo, hi;
  Real* axes[2][3] = {{&lo.x, &lo.y, &lo.z}, {&hi.x, &hi.y, &hi.z}};
  for (int a = 0; a < 3; ++a) {
    out.coordinate.resize(static_cast<std::size_t>(n));
    for (int j = 0; j < n; ++j) out.coordinate[j] = get(bodies.position[out.sorted[j]], a);
    *axes[0][a] = quantile(out.coordinate, Real(0.01));
    *axes[1][a] = quantile(out.coordinate, Real(0.99));
  }
  // The grid is cubic over centres scaled by `scale`: by a power of two along
  // each axis (exact), shorter along the index axis and longer across it.
  const int along_index = index_axis(bodies, out.sorted, out.coordinate);
  const auto scale_of = [&](int axis) {
    if (along_index < 0) return Real(1);
    return axis == along_index ? Real(1) / (kIndexAxisScale * kIndexAxisScale) : kIndexAxisScale;
  };
  const Vec3 scale{scale_of(0), scale_of(1), scale_of(2)};
  const auto scaled = [&](Vec3 p) { return Vec3{p.x * scale.x, p.y * scale.y, p.z * scale.z}; };
  lo = scaled(lo);
  hi = scaled(hi);
  const Vec3 extent = hi - lo;
  const Real edge = cell_edge(extent, std::max(1, n / block_bodies(n)));
  const auto cells_along = [&](Real x) {
    return static_cast<int>(std::max(Real(1), std::ceil(x / edge)));
  };
  const int cx = cells_along(extent.x), cy = cells_along(extent.y), cz = cells_along(extent.z);
  const auto cell_of = [&](Vec3 centre) {
    const Vec3 p = scaled(centre);
    const auto along = [](Real x, Real from, Real to_edge, int cells) {
      const Real t = std::floor((x - from) / to_edge);
      return !(t > 0) ? 0 : (t >= Real(cells - 1) ? cells - 1 : static_cast<int>(t));
    };
    return (along(p.z, lo.z, edge, cz) * cy + along(p.y, lo.y, edge, cy)) * cx +
           along(p.x, lo.x, edge, cx);
  };
  // Counting sort by cell, stable in index.
  const int cells = cx * cy * cz;
  out.cell_begin.assign(static_cast<std::size_t>(cells) + 1, 0);
  out.block_of.assign(static_cast<std::size_t>(nb), -1);
  for (const int i : out.sorted) {
    out.block_of[i] = cell_of(bodies.position[i]);
    ++out.cell_begin[out.block_of[i] + 1];
  }
  for (int c = 0; c < cells; ++c) out.cell_begin[c + 1] += out.cell_begin[c];
  out.fill.assign(out.cell_begin.begin(), out.cell_begin.end() - 1);
  out.order.resize(static_cast<std::size_t>(n));
  for (const int i : out.sorted) out.order[out.fill[out.block_of[i]]++] = i;
  // The non-empty cells become blocks 0, 1, ...
  out.block_begin.clear();
  for (int c = 0; c < cells; ++c)
    if (out.cell_begin[c + 1] > out.cell_begin[c]) out.block_begin.push_back(out.cell_begin[c]);
  const int blocks = static_cast<int>(out.block_begin.size());
  out.block_begin.push_back(n);
  for (int b = 0; b < blocks; ++b)
    for (int at = out.block_begin[b]; at < out.block_begin[b + 1]; ++at)
      out.block_of[out.order[at]] = b;
  return blocks;
}

/// Greedy colours of the blocks (out.block_begin over out.order), in block
/// order: two blocks that share a contact pair differ. Returns the number of
/// colours; block b's colour is out.block_colour[b].
int colour_blocks(const ContactArrays& contacts, const ContactEnds& ends, int blocks,
                  Colouring& out) {
  out.block_colour.assign(static_cast<std::size_t>(blocks), -1);
  out.used.clear();
  int colours = 0;
  for (int b = 0; b < blocks; ++b) {
    for (int at = out.block_begin[b]; at < out.block_begin[b + 1]; ++at) {
      const int i = out.order[at];
      for (int e_at = ends.begin[i]; e_at < ends.begin[i + 1]; ++e_at) {
        const int other = out.block_of[contacts.pair_body[ends.index[e_at] ^ 1]];
        if (other >= 0 && other != b && out.block_colour[other] >= 0)
          out.used[out.block_colour[other]] = b;
      }
    }
    out.block_colour[b] = smallest_free_colour(out.used, colours, b);
  }
  return colours;
}

}  // namespace

int index_axis(const BodyArrays& bodies, const std::vector<int>& dynamic,
               std::vector<Real>& scratch) {
  const int n = static_cast<int>(dynamic.size());
  if (n < 2) return -1;
  Real step[3];
  for (int a = 0; a < 3; ++a) {
    scratch.resize(static_cast<std::size_t>(n - 1));
    for (int j = 0; j + 1 < n; ++j)
      scratch[j] =
          std::fabs(get(bodies.position[dynamic[j + 1]], a) - get(bodies.position[dynamic[j]], a));
    step[a] = quantile(scratch, Real(0.5));
  }
  int fast = 0;
  for (int a = 1; a < 3; ++a)
    if (step[a] > step[fast]) fast = a;
  const Real across = std::max(step[(fast + 1) % 3], step[(fast + 2) % 3]);
  return step[fast] > 0 && step[fast] >= kIndexAxisDominance * across ? fast : -1;
}

void order_in_blocks(const BodyArrays& bodies, const ContactArrays& contacts,
                     const ContactEnds& ends, Colouring& out) {
  out.colour.assign(static_cast<std::size_t>(bodies.count), -1);
  const int blocks = sort_into_cells(bodies, out);
  const int n = static_cast<int>(out.order.size());
  const int colours = colour_blocks(contacts, ends, blocks, out);

  // Blocks by colour (a counting sort, stable in grid order).
  out.colour_block_begin.assign(static_cast<std::size_t>(colours) + 1, 0);
  for (int b = 0; b < blocks; ++b) ++out.colour_block_begin[out.block_colour[b] + 1];
  for (int c = 0; c < colours; ++c) out.colour_block_begin[c + 1] += out.colour_block_begin[c];
  out.fill.assign(out.colour_block_begin.begin(), out.colour_block_begin.end() - 1);
  out.block_list.resize(static_cast<std::size_t>(blocks));
  for (int b = 0; b < blocks; ++b) out.block_list[out.fill[out.block_colour[b]]++] = b;

  // The bodies block after block in that order; each block keeps its index
  // order. cell_begin, free by now, takes the new block starts.
  out.sorted.resize(static_cast<std::size_t>(n));
  out.cell_begin.assign(static_cast<std::size_t>(blocks) + 1, 0);
  int at = 0;
  for (int listed = 0; listed < blocks; ++listed) {
    const int b = out.block_list[listed];
    out.cell_begin[listed] = at;
    for (int from = out.block_begin[b]; from < out.block_begin[b + 1]; ++from)
      out.sorted[at++] = out.order[from];
  }
  out.cell_begin[blocks] = at;
  out.order.swap(out.sorted);
  out.block_begin.swap(out.cell_begin);
  for (int r = 0; r < n; ++r) out.colour[out.order[r]] = r;

  out.colour_begin.resize(static_cast<std::size_t>(colours) + 1);
  for (int c = 0; c <= colours; ++c)
    out.colour_begin[c] = out.block_begin[out.colour_block_begin[c]];
  out.bond_order.clear();
  out.bond_colour_begin.assign(static_cast<std::size_t>(colours) + 1, 0);
}

}  // namespace pabd
