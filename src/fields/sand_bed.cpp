#include "fields/sand_bed.h"

#include <algorithm>

namespace pabd {

namespace {

/// Rings of free vertices around a footprint that share the sand it pushes
/// aside: the neighbours only. Wider rings make lower berms; with 2, 3 or 5
/// the dog on sand walked no differently (measured), so the berm stays where
/// Sumner et al. put it.
constexpr int kPushRings = 1;

void grow(int& c0, int& c1, int& r0, int& r1, int c, int r) {
  if (c0 > c1) {
    c0 = c1 = c;
    r0 = r1 = r;
    return;
  }
  c0 = std::min(c0, c);
  c1 = std::max(c1, c);
  r0 = std::min(r0, r);
  r1 = std::max(r1, r);
}

void mark_active(SandBed& bed, int c, int r) {
  grow(bed.active_c0, bed.active_c1, bed.active_r0, bed.active_r1, c, r);
}

void mark_changed(SandBed& bed, int c, int r) {
  grow(bed.changed_c0, bed.changed_c1, bed.changed_r0, bed.changed_r1, c, r);
  mark_active(bed, c, r);
}

/// Adds loose sand to a vertex: it can be pressed again.
void deposit(SandBed& bed, int v, Real amount) {
  bed.height[v] += amount;
  bed.pressed[static_cast<std::size_t>(v)] =
      std::max(Real(0), bed.pressed[static_cast<std::size_t>(v)] - amount);
}

}  // namespace

void sand_bed_init(SandBed& bed, int columns, int rows, Real spacing, Real* height,
                   Real tan_repose) {
  bed.columns = columns;
  bed.rows = rows;
  bed.spacing = spacing;
  bed.height = height;
  bed.tan_repose = tan_repose;
  const std::size_t n = std::size_t(columns) * std::size_t(rows);
  bed.pressed.assign(n, 0);
  bed.covered.assign(n, 0);
  bed.flow.assign(n, 0);
  bed.outflow.assign(n, 0);
  bed.stamp.assign(n, 0);
  bed.stamp_now = 0;
  bed.ring.clear();
  sand_bed_clear_changed(bed);
  // Every slope of the initial heights is checked once.
  bed.active_c0 = bed.active_r0 = 0;
  bed.active_c1 = columns - 1;
  bed.active_r1 = rows - 1;
}

double sand_bed_volume(const SandBed& bed) {
  // Each vertex owns a square of side `spacing`: the sum every transfer
  // between vertices keeps exactly (up to rounding).
  double sum = 0;
  for (int v = 0; v < bed.vertex_count(); ++v) sum += double(bed.height[v]);
  return sum * double(bed.spacing) * double(bed.spacing);
}

void sand_bed_press(SandBed& bed, const int* vertices, int count, Real sinkage, Real give) {
  if (count <= 0 || !(sinkage > 0)) return;
  // The free vertices around the footprint, kPushRings rings deep
  // (breadth first), each once, in the order found.
  ++bed.stamp_now;
  bed.ring.clear();
  for (int i = 0; i < count; ++i) bed.stamp[static_cast<std::size_t>(vertices[i])] = bed.stamp_now;
  std::size_t layer_begin = 0;
  for (int layer = 0; layer < kPushRings; ++layer) {
    const std::size_t layer_end = bed.ring.size();
    const std::size_t from_count = layer == 0 ? std::size_t(count) : layer_end - layer_begin;
    for (std::size_t i = 0; i < from_count; ++i) {
      const int v = layer == 0 ? vertices[i] : bed.ring[layer_begin + i];
      const int c = v % bed.columns, r = v / bed.columns;
      const int nc[4] = {c - 1, c + 1, c, c};
      const int nr[4] = {r, r, r - 1, r + 1};
      for (int k = 0; k < 4; ++k) {
        if (nc[k] < 0 || nc[k] >= bed.columns || nr[k] < 0 || nr[k] >= bed.rows) continue;
        const int u = nr[k] * bed.columns + nc[k];
        if (bed.covered[static_cast<std::size_t>(u)] ||
            bed.stamp[static_cast<std::size_t>(u)] == bed.stamp_now)
          continue;
        bed.stamp[static_cast<std::size_t>(u)] = bed.stamp_now;
        bed.ring.push_back(u);
      }
    }
    layer_begin = layer_end;
  }
  if (bed.ring.empty()) return;  // nowhere to push the sand: the footprint holds
  Real removed = 0;
  for (int i = 0; i < count; ++i) {
    const int v = vertices[i];
    Real& done = bed.pressed[static_cast<std::size_t>(v)];
    const Real down = std::min({sinkage - done, give, bed.height[v]});
    if (!(down > 0)) continue;
    bed.height[v] -= down;
    done += down;
    removed += down;
    mark_changed(bed, v % bed.columns, v / bed.columns);
  }
  if (removed == 0) return;
  const Real share = removed / Real(bed.ring.size());
  for (const int u : bed.ring) {
    deposit(bed, u, share);
    mark_changed(bed, u % bed.columns, u / bed.columns);
  }
}

void sand_bed_slide(SandBed& bed, int rounds, Real fraction) {
  const int nc = bed.columns, nr = bed.rows;
  const Real limit = bed.tan_repose * bed.spacing;
  // The flow from vertex a to its neighbour b this round (negative: b to a).
  // Both ends compute it from the same numbers in the same order, so what
  // one loses the other gains bit for bit.
  auto edge_flow = [&](int a, int b) -> Real {
    if (bed.covered[static_cast<std::size_t>(a)] || bed.covered[static_cast<std::size_t>(b)])
      return 0;
    const Real drop = bed.height[a] - bed.height[b];
    if (drop > limit) return fraction * (drop - limit);
    if (-drop > limit) return -fraction * (-drop - limit);
    return 0;
  };
  for (int round = 0; round < rounds && bed.active_c0 <= bed.active_c1; ++round) {
    // The active rectangle and its neighbours: an edge with an end outside
    // that has not changed is stable (see SandBed::active_c0).
    const int c0 = std::max(0, bed.active_c0 - 1), c1 = std::min(nc - 1, bed.active_c1 + 1);
    const int r0 = std::max(0, bed.active_r0 - 1), r1 = std::min(nr - 1, bed.active_r1 + 1);
    bed.active_c0 = bed.active_r0 = 1;
    bed.active_c1 = bed.active_r1 = 0;
    // What each vertex would send out; a vertex that would send more than it
    // holds sends its whole thickness, shared in proportion.
    for (int r = std::max(0, r0 - 1); r <= std::min(nr - 1, r1 + 1); ++r)
      for (int c = std::max(0, c0 - 1); c <= std::min(nc - 1, c1 + 1); ++c) {
        const int v = r * nc + c;
        Real out = 0;
        if (c > 0) out += std::max(Real(0), edge_flow(v, v - 1));
        if (c + 1 < nc) out += std::max(Real(0), edge_flow(v, v + 1));
        if (r > 0) out += std::max(Real(0), edge_flow(v, v - nc));
        if (r + 1 < nr) out += std::max(Real(0), edge_flow(v, v + nc));
        bed.outflow[static_cast<std::size_t>(v)] = out;
      }
    auto scale = [&](int v) {
      const Real out = bed.outflow[static_cast<std::size_t>(v)];
      return out > bed.height[v] ? bed.height[v] / out : Real(1);
    };
    // The flow of an edge, limited by what its source holds.
    auto limited = [&](int a, int b) {
      const Real f = edge_flow(a, b);
      return f > 0 ? f * scale(a) : f * scale(b);
    };
    bool any = false;
    for (int r = r0; r <= r1; ++r)
      for (int c = c0; c <= c1; ++c) {
        const int v = r * nc + c;
        Real net = 0;
        if (c > 0) net -= limited(v, v - 1);
        if (c + 1 < nc) net -= limited(v, v + 1);
        if (r > 0) net -= limited(v, v - nc);
        if (r + 1 < nr) net -= limited(v, v + nc);
        bed.flow[static_cast<std::size_t>(v)] = net;
        any = any || net != 0;
      }
    if (!any) return;
    for (int r = r0; r <= r1; ++r)
      for (int c = c0; c <= c1; ++c) {
        const int v = r * nc + c;
        const Real net = bed.flow[static_cast<std::size_t>(v)];
        if (net == 0) continue;
        if (net > 0)
          deposit(bed, v, net);
        else
          bed.height[v] = std::max(Real(0), bed.height[v] + net);
        mark_changed(bed, c, r);
      }
  }
}

void sand_bed_clear_changed(SandBed& bed) {
  bed.changed_c0 = bed.changed_r0 = 1;
  bed.changed_c1 = bed.changed_r1 = 0;
}

void sand_bed_set_covered(SandBed& bed, int v, bool covered) {
  std::uint8_t& flag = bed.covered[static_cast<std::size_t>(v)];
  if ((flag != 0) == covered) return;
  flag = covered ? 1 : 0;
  mark_active(bed, v % bed.columns, v / bed.columns);
}

}  // namespace pabd
