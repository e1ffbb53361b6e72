// The wake of bodies in water: the linearised shallow-water equations on a
// staggered grid (Bridson's fluid notes; Garcia, "Real-time height-field
// water", 2019), the "standard shallow water equations" of the paper's boats.
//
//   eta: the surface's rise above the still level at columns x rows vertices,
//        vertex (c, r) at world x = x0 + c spacing, z = z0 + r spacing [m];
//   u:   depth-averaged velocity along x on the faces between vertex (c, r)
//        and (c + 1, r), (columns - 1) x rows of them [m/s];
//   w:   the same along z between (c, r) and (c, r + 1), columns x (rows - 1).
//
// One step of symplectic Euler, velocities first from the old heights, then
// heights from the new velocities:
//   u += -h g (eta_right - eta_left) / spacing,   w likewise along z,
//   eta -= h H (u_right - u_left + w_up - w_down) / spacing.
// Each vertex stands for a cell of spacing^2 and the outer wall is closed (the
// faces beyond it carry no flow), so every face moves water from one cell to
// its neighbour and the volume sum(eta) spacing^2 is conserved to rounding.
// The scheme is stable while h sqrt(g H) / spacing < 1/sqrt(2) (the largest
// eigenvalue of the grid Laplacian is 8 / spacing^2); step() cuts a longer
// step into equal sub-steps of Courant number <= kWakeCourant.
//
// Two dampings, both implicit (x /= 1 + h rate, stable for any rate):
// - a uniform one of the velocities only (viscosity-like, `damping` [1/s]),
//   so the wake dies out while the volume stays conserved;
// - an absorbing border: a ring of `border` vertices at the edge where eta,
//   u and w all decay at a rate that rises quadratically toward the wall, to
//   6 sqrt(g H) / (border spacing) there. A wave entering it decays by about
//   e^-2 on its way in and again on its way out, and a smooth ramp reflects
//   little of it, so the wake leaves instead of bouncing back. Damping eta
//   toward 0 removes (or adds) water there: the volume is conserved exactly
//   only with border 0 or while the ring stays flat, and in time the ring
//   pulls the whole grid's mean level back to 0 (as the open sea would carry
//   off the water a body displaces).
//
// The state is three plain arrays and a few numbers: the world snapshots and
// restores them bit for bit. The step is serial and fixed in order, so it is
// deterministic (a 128 x 128 grid steps in tens of microseconds).
#pragma once

#include <vector>

#include "pabd/config.h"
#include "pabd/math.h"

namespace pabd {

/// Largest Courant number h sqrt(g H) / spacing of one sub-step (< 1/sqrt(2)).
inline constexpr Real kWakeCourant = Real(0.5);

/// A shallow-water height field for the wake bodies make.
class WakeGrid {
 public:
  /// Border width that reset() is usually given: 8% of the smaller side, at
  /// least 3 vertices, at most what fits ((min(columns, rows) - 1) / 2).
  static int default_border(int columns, int rows);

  /// Makes a flat, still grid of columns x rows vertices `spacing` apart [m],
  /// vertex (0, 0) at world (x0, z0) [m], over still depth `depth` [m], with an
  /// absorbing ring `border` vertices wide (0 = a closed, reflecting wall).
  /// Throws Error for columns or rows < 2, more than 2^28 vertices, a spacing
  /// or depth that is not finite and > 0, or a border < 0 or above
  /// (min(columns, rows) - 1) / 2. Keeps the damping rate.
  void reset(int columns, int rows, Real spacing, Real x0, Real z0, Real depth, int border);
  /// Sets the uniform damping rate of the velocities [1/s] (default 0.02);
  /// throws Error unless finite and >= 0.
  void set_damping(Real rate);

  /// Sub-steps that step(dt, gravity) takes: ceil(dt sqrt(g H) / (kWakeCourant
  /// spacing)), at least 1.
  int substeps(Real dt, Real gravity) const;
  /// Advances by dt [s] (>= 0) under gravity |g| [m/s^2] (> 0), in substeps()
  /// equal sub-steps of dt / substeps(). Throws Error for a non-finite or
  /// negative dt, a gravity not finite and > 0, or more than 10^6 sub-steps.
  void step(Real dt, Real gravity);

  /// Raises eta at vertex (c, r) by delta [m] (the change of a body's
  /// submerged thickness there); a vertex outside the grid is ignored.
  void add_height(int c, int r, Real delta);

  /// eta at world (x, z), bilinear between vertices [m]; 0 outside the grid.
  Real height(Real x, Real z) const;
  /// Horizontal water velocity (u, 0, w) at world (x, z) [m/s]: bilinear over
  /// the staggered faces (the wall faces carry 0), so at a vertex it is the
  /// mean of the two faces either side along each axis; 0 outside the grid.
  Vec3 velocity(Real x, Real z) const;
  /// Water above the still level: sum(eta) spacing^2 [m^3].
  double volume() const;

  int columns() const { return columns_; }   ///< vertices along x
  int rows() const { return rows_; }         ///< vertices along z
  Real spacing() const { return spacing_; }  ///< [m]
  Real x0() const { return x0_; }            ///< world x of column 0 [m]
  Real z0() const { return z0_; }            ///< world z of row 0 [m]
  Real depth() const { return depth_; }      ///< still depth H [m]
  int border() const { return border_; }     ///< width of the absorbing ring [vertices]
  Real damping() const { return damping_; }  ///< uniform velocity damping [1/s]

  /// eta per vertex, row-major (index r columns + c) [m].
  std::vector<Real>& eta() { return eta_; }
  const std::vector<Real>& eta() const { return eta_; }
  /// u per x-face, index r (columns - 1) + c for the face right of vertex (c, r) [m/s].
  std::vector<Real>& u() { return u_; }
  const std::vector<Real>& u() const { return u_; }
  /// w per z-face, index r columns + c for the face above vertex (c, r) [m/s].
  std::vector<Real>& w() { return w_; }
  const std::vector<Real>& w() const { return w_; }

 private:
  /// One sub-step of h [s].
  void substep(Real h, Real gravity, Real border_rate);
  /// 0 inside, rising to 1 at the wall: ((border - d) / border)^2 at a
  /// vertex d vertices from the nearest edge.
  Real ramp(int c, int r) const;
  /// u of x-face i on row r, with the wall faces i = -1 and i = columns - 1 at 0.
  Real u_face(int i, int r) const;
  /// w of z-face j on column c, with the wall faces j = -1 and j = rows - 1 at 0.
  Real w_face(int c, int j) const;

  int columns_ = 0, rows_ = 0;
  Real spacing_ = 1;
  Real x0_ = 0, z0_ = 0;
  Real depth_ = 1;
  int border_ = 0;
  Real damping_ = Real(0.02);
  std::vector<Real> eta_, u_, w_;
};

}  // namespace pabd
