// The wake grid's step and its look-ups (the scheme: wake_grid.h).
#include "fields/wake_grid.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>

#include "pabd/world.h"

namespace pabd {

namespace {

/// A wave entering the ring decays by exp(-kBorderStrength / 3) on the way
/// in (the integral of a quadratic ramp is a third of its peak times width).
constexpr Real kBorderStrength = 6;
/// Most sub-steps one step may take before it is refused as a mistake.
constexpr Real kMaxSubsteps = 1e6;
/// Most vertices a grid may have (2 GiB per array of doubles).
constexpr long long kMaxVertices = 1LL << 28;

std::size_t at(int i) { return static_cast<std::size_t>(i); }

}  // namespace

int WakeGrid::default_border(int columns, int rows) {
  const int side = std::min(columns, rows);
  const int fits = std::max(0, (side - 1) / 2);
  const int wanted = std::max(3, static_cast<int>(std::lround(Real(0.08) * side)));
  return std::min(wanted, fits);
}

void WakeGrid::reset(int columns, int rows, Real spacing, Real x0, Real z0, Real depth,
                     int border) {
  if (columns < 2 || rows < 2)
    throw Error("wake grid: expected at least 2 columns and 2 rows, got " +
                std::to_string(columns) + " x " + std::to_string(rows));
  if (static_cast<long long>(columns) * rows > kMaxVertices)
    throw Error("wake grid: " + std::to_string(columns) + " x " + std::to_string(rows) +
                " vertices is more than 2^28");
  if (!(std::isfinite(spacing) && spacing > 0))
    throw Error("wake grid: spacing: expected a finite number > 0");
  if (!(std::isfinite(depth) && depth > 0))
    throw Error("wake grid: depth: expected a finite number > 0");
  if (!(std::isfinite(x0) && std::isfinite(z0)))
    throw Error("wake grid: origin: expected finite numbers");
  const int fits = (std::min(columns, rows) - 1) / 2;
  if (border < 0 || border > fits)
    throw Error("wake grid: border: expected 0 to " + std::to_string(fits) + " vertices, got " +
                std::to_string(border));
  columns_ = columns;
  rows_ = rows;
  spacing_ = spacing;
  x0_ = x0;
  z0_ = z0;
  depth_ = depth;
  border_ = border;
  eta_.assign(at(columns) * at(rows), 0);
  u_.assign(at(columns - 1) * at(rows), 0);
  w_.assign(at(columns) * at(rows - 1), 0);
}

void WakeGrid::set_damping(Real rate) {
  if (!(std::isfinite(rate) && rate >= 0))
    throw Error("wake grid: damping: expected a finite number >= 0");
  damping_ = rate;
}

int WakeGrid::substeps(Real dt, Real gravity) const {
  const Real courant = dt * std::sqrt(gravity * depth_) / spacing_;
  const Real n = std::ceil(courant / kWakeCourant);
  if (!(n <= kMaxSubsteps)) return -1;  // non-finite or too many: step() refuses
  return std::max(1, static_cast<int>(n));
}

void WakeGrid::step(Real dt, Real gravity) {
  if (!(std::isfinite(dt) && dt >= 0)) throw Error("wake grid: step: expected a finite dt >= 0");
  if (!(std::isfinite(gravity) && gravity > 0))
    throw Error("wake grid: step: expected a finite gravity > 0");
  if (dt == 0 || columns_ < 2) return;
  const int n = substeps(dt, gravity);
  if (n < 0) throw Error("wake grid: step: dt needs more than 10^6 sub-steps");
  const Real h = dt / n;
  const Real border_rate =
      border_ > 0 ? kBorderStrength * std::sqrt(gravity * depth_) / (border_ * spacing_) : 0;
  for (int i = 0; i < n; ++i) substep(h, gravity, border_rate);
}

void WakeGrid::substep(Real h, Real gravity, Real border_rate) {
  const int nc = columns_, nr = rows_;
  const Real kv = h * gravity / spacing_;  // velocity change per unit height difference
  const Real ke = h * depth_ / spacing_;   // height change per unit velocity difference
  // Velocities from the old heights, then damped: the uniform rate plus the
  // ring's at the face (the mean of its two vertices').
  for (int r = 0; r < nr; ++r)
    for (int c = 0; c + 1 < nc; ++c) {
      const std::size_t f = at(r * (nc - 1) + c), v = at(r * nc + c);
      Real rate = damping_;
      if (border_ > 0) rate += border_rate * Real(0.5) * (ramp(c, r) + ramp(c + 1, r));
      u_[f] = (u_[f] - kv * (eta_[v + 1] - eta_[v])) / (1 + h * rate);
    }
  for (int r = 0; r + 1 < nr; ++r)
    for (int c = 0; c < nc; ++c) {
      const std::size_t f = at(r * nc + c);
      Real rate = damping_;
      if (border_ > 0) rate += border_rate * Real(0.5) * (ramp(c, r) + ramp(c, r + 1));
      w_[f] = (w_[f] - kv * (eta_[f + at(nc)] - eta_[f])) / (1 + h * rate);
    }
  // Heights from the new velocities' divergence; the ring's damping after.
  for (int r = 0; r < nr; ++r)
    for (int c = 0; c < nc; ++c) {
      const Real div = (u_face(c, r) - u_face(c - 1, r)) + (w_face(c, r) - w_face(c, r - 1));
      Real e = eta_[at(r * nc + c)] - ke * div;
      if (border_ > 0) e /= 1 + h * border_rate * ramp(c, r);
      eta_[at(r * nc + c)] = e;
    }
}

Real WakeGrid::ramp(int c, int r) const {
  const int d = std::min(std::min(c, r), std::min(columns_ - 1 - c, rows_ - 1 - r));
  if (d >= border_) return 0;
  const Real s = Real(border_ - d) / Real(border_);
  return s * s;
}

Real WakeGrid::u_face(int i, int r) const {
  if (i < 0 || i >= columns_ - 1) return 0;
  return u_[at(r * (columns_ - 1) + i)];
}

Real WakeGrid::w_face(int c, int j) const {
  if (j < 0 || j >= rows_ - 1) return 0;
  return w_[at(j * columns_ + c)];
}

void WakeGrid::add_height(int c, int r, Real delta) {
  if (c < 0 || r < 0 || c >= columns_ || r >= rows_) return;
  eta_[at(r * columns_ + c)] += delta;
}

Real WakeGrid::height(Real x, Real z) const {
  const Real fx = (x - x0_) / spacing_, fz = (z - z0_) / spacing_;
  if (!(fx >= 0 && fx <= columns_ - 1 && fz >= 0 && fz <= rows_ - 1)) return 0;
  const int c = std::min(static_cast<int>(fx), columns_ - 2);
  const int r = std::min(static_cast<int>(fz), rows_ - 2);
  const Real tx = fx - c, tz = fz - r;
  const std::size_t v = at(r * columns_ + c), up = at(columns_);
  const Real low = (1 - tx) * eta_[v] + tx * eta_[v + 1];
  const Real high = (1 - tx) * eta_[v + up] + tx * eta_[v + up + 1];
  return (1 - tz) * low + tz * high;
}

Vec3 WakeGrid::velocity(Real x, Real z) const {
  const Real fx = (x - x0_) / spacing_, fz = (z - z0_) / spacing_;
  if (!(fx >= 0 && fx <= columns_ - 1 && fz >= 0 && fz <= rows_ - 1)) return {0, 0, 0};
  // Vertex cell (c, r) and the staggered cells: u lives at (i + 1/2, r), w at (c, j + 1/2).
  const int c = std::min(static_cast<int>(fx), columns_ - 2);
  const int r = std::min(static_cast<int>(fz), rows_ - 2);
  const Real tx = fx - c, tz = fz - r;
  const Real gx = fx - Real(0.5), gz = fz - Real(0.5);
  const int i = std::min(static_cast<int>(std::floor(gx)), columns_ - 2);
  const int j = std::min(static_cast<int>(std::floor(gz)), rows_ - 2);
  const Real sx = gx - i, sz = gz - j;
  const Real u_low = (1 - sx) * u_face(i, r) + sx * u_face(i + 1, r);
  const Real u_high = (1 - sx) * u_face(i, r + 1) + sx * u_face(i + 1, r + 1);
  const Real w_left = (1 - sz) * w_face(c, j) + sz * w_face(c, j + 1);
  const Real w_right = (1 - sz) * w_face(c + 1, j) + sz * w_face(c + 1, j + 1);
  return {(1 - tz) * u_low + tz * u_high, 0, (1 - tx) * w_left + tx * w_right};
}

double WakeGrid::volume() const {
  double sum = 0;
  for (const Real e : eta_) sum += e;
  return sum * spacing_ * spacing_;
}

}  // namespace pabd
