// The per-body 6x6 Newton system of the AVBD baseline and its LDL^T solve.
//
// A body's unknown is dx = (dc, dtheta): a translation and a rotation vector
// about the current iterate (world frame; R <- exp([dtheta]) R). AVBD builds
// lhs = M / h^2 + sum of bond terms (all symmetric positive semi-definite,
// M / h^2 positive definite) and grad = the energy gradient, then steps
// dx = -lhs^-1 grad. The bond terms arrive as a 3x6 Jacobian (two 3x3 blocks,
// translation and rotation), a 3-vector force and a 3x3 stiffness; the lever's
// geometric stiffness is lumped onto the rotation diagonal as AVBD does.
#pragma once

#include "pabd/math.h"

namespace pabd {

/// Symmetric 6x6 system lhs dx = -grad; rows 0-2 translation, 3-5 rotation.
struct BlockSystem {
  Real lhs[6][6] = {};  ///< [N/m, N, N m]
  Real grad[6] = {};    ///< energy gradient [N, N m]
};

/// Skew matrix [v]x, so that [v]x u = v x u.
PABD_HD Mat3 skew_matrix(Vec3 v) {
  Mat3 s;
  s.m[0][1] = -v.z;
  s.m[0][2] = v.y;
  s.m[1][0] = v.z;
  s.m[1][2] = -v.x;
  s.m[2][0] = -v.y;
  s.m[2][1] = v.x;
  return s;
}

/// Adds a 3x3 block at (row0, col0).
PABD_HD void add_block(BlockSystem& s, int row0, int col0, const Mat3& b) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) s.lhs[row0 + i][col0 + j] += b.m[i][j];
}

/// Adds one bond term: Jacobian J = [jl | ja] (3x6) of a 3-vector C, force
/// f = dE/dC and stiffness K ~ d^2E/dC^2 (symmetric PSD):
/// grad += J^T f, lhs += J^T K J.
PABD_HD void add_jacobian_term(BlockSystem& s, const Mat3& jl, const Mat3& ja, const Mat3& k,
                               Vec3 f) {
  const Mat3 jlt = transpose(jl), jat = transpose(ja);
  const Vec3 gl = jlt * f, ga = jat * f;
  s.grad[0] += gl.x;
  s.grad[1] += gl.y;
  s.grad[2] += gl.z;
  s.grad[3] += ga.x;
  s.grad[4] += ga.y;
  s.grad[5] += ga.z;
  const Mat3 kjl = k * jl, kja = k * ja;
  const Mat3 la = jlt * kja;
  add_block(s, 0, 0, jlt * kjl);
  add_block(s, 0, 3, la);
  add_block(s, 3, 0, transpose(la));
  add_block(s, 3, 3, jat * kja);
}

/// AVBD's lumped geometric stiffness of a lever: a force g on the point
/// y = c + exp([theta]) r has the rotation Hessian G = (r g^T + g r^T) / 2 -
/// (g . r) I (indefinite in general); AVBD keeps only diag(|column k of G|),
/// which is positive semi-definite.
PABD_HD void add_lever_geometric_stiffness(BlockSystem& s, Vec3 r, Vec3 g) {
  const Mat3 gm = Real(0.5) * (outer(r, g) + outer(g, r)) - dot(g, r) * identity3();
  for (int k = 0; k < 3; ++k) {
    const Vec3 col{gm.m[0][k], gm.m[1][k], gm.m[2][k]};
    s.lhs[3 + k][3 + k] += length(col);
  }
}

/// Solves lhs x = rhs by LDL^T (lhs symmetric positive definite). Returns
/// false, with x = 0, if a pivot is not positive (non-finite or indefinite input).
PABD_HD bool solve_ldlt6(const Real lhs[6][6], const Real rhs[6], Real x[6]) {
  Real l[6][6] = {};
  Real d[6] = {};
  for (int j = 0; j < 6; ++j) {
    Real dj = lhs[j][j];
    for (int k = 0; k < j; ++k) dj -= l[j][k] * l[j][k] * d[k];
    if (!(dj > 0)) {
      for (int i = 0; i < 6; ++i) x[i] = 0;
      return false;
    }
    d[j] = dj;
    l[j][j] = 1;
    for (int i = j + 1; i < 6; ++i) {
      Real v = lhs[i][j];
      for (int k = 0; k < j; ++k) v -= l[i][k] * l[j][k] * d[k];
      l[i][j] = v / dj;
    }
  }
  // Forward (L z = rhs), diagonal (D w = z), backward (L^T x = w).
  Real z[6];
  for (int i = 0; i < 6; ++i) {
    Real v = rhs[i];
    for (int k = 0; k < i; ++k) v -= l[i][k] * z[k];
    z[i] = v;
  }
  for (int i = 0; i < 6; ++i) z[i] /= d[i];
  for (int i = 5; i >= 0; --i) {
    Real v = z[i];
    for (int k = i + 1; k < 6; ++k) v -= l[k][i] * x[k];
    x[i] = v;
  }
  return true;
}

}  // namespace pabd
