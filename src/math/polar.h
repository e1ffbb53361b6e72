// The local step: the proper rotation R closest to an affine matrix A in the
// Frobenius norm, i.e. the R in SO(3) that maximises tr(R^T A). This is the
// rotation factor of the polar decomposition A = R S when det A > 0, and the
// "proper" polar factor U diag(1, 1, -1) V^T when A is a reflection.
//
// Two methods, one result:
// - rotation_closest_to(A): Horn's quaternion form. tr(R(q)^T A) = q^T N q for a
//   symmetric 4x4 N built from A, so the best q is N's top eigenvector, found by
//   cyclic Jacobi sweeps. Exact for any input (singular, reflected, 180-degree
//   rotations), no starting guess needed.
// - rotation_closest_to(A, guess): the solver's hot path. Between two solver
//   iterations the rotation barely changes, so Newton's method on SO(3) from
//   the previous rotation converges in 1-3 steps. If it does not, it falls
//   back to Horn's method, so the result never depends on the guess.
#pragma once

#include <cmath>

#include "math/affine_system.h"
#include "math/so3.h"
#include "pabd/math.h"

namespace pabd {

/// Horn's symmetric 4x4 matrix N with q^T N q = tr(R(q)^T A), row-major.
PABD_HD void horn_matrix(const Mat3& a, Real n[4][4]) {
  // S = A^T in Horn's notation (he maximises tr(R S) over point correlations).
  const Real sxx = a.m[0][0], sxy = a.m[1][0], sxz = a.m[2][0];
  const Real syx = a.m[0][1], syy = a.m[1][1], syz = a.m[2][1];
  const Real szx = a.m[0][2], szy = a.m[1][2], szz = a.m[2][2];
  n[0][0] = sxx + syy + szz;
  n[0][1] = syz - szy;
  n[0][2] = szx - sxz;
  n[0][3] = sxy - syx;
  n[1][1] = sxx - syy - szz;
  n[1][2] = sxy + syx;
  n[1][3] = szx + sxz;
  n[2][2] = -sxx + syy - szz;
  n[2][3] = syz + szy;
  n[3][3] = -sxx - syy + szz;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < i; ++j) n[i][j] = n[j][i];
}

/// Closest proper rotation to A, as a unit quaternion, by Horn's method.
PABD_HD Quat rotation_closest_to(const Mat3& a) {
  Real n[4][4];
  horn_matrix(a, n);
  Real v[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
  // Cyclic Jacobi: each rotation zeroes n[p][q]; converges quadratically, and a
  // 4x4 needs at most ~6 sweeps to reach round-off.
  for (int sweep = 0; sweep < 12; ++sweep) {
    Real off = 0, diag = 0;
    for (int i = 0; i < 4; ++i) {
      diag += n[i][i] * n[i][i];
      for (int j = i + 1; j < 4; ++j) off += n[i][j] * n[i][j];
    }
    if (off <= Real(1e-30) * diag || off == 0) break;
    for (int p = 0; p < 3; ++p) {
      for (int q = p + 1; q < 4; ++q) {
        const Real apq = n[p][q];
        if (apq == 0) continue;
        const Real theta = (n[q][q] - n[p][p]) / (Real(2) * apq);
        const Real t = (theta >= 0 ? Real(1) : Real(-1)) /
                       (std::fabs(theta) + std::sqrt(theta * theta + Real(1)));
        const Real c = Real(1) / std::sqrt(t * t + Real(1));
        const Real s = t * c;
        for (int k = 0; k < 4; ++k) {  // columns p, q of N
          const Real nkp = n[k][p], nkq = n[k][q];
          n[k][p] = c * nkp - s * nkq;
          n[k][q] = s * nkp + c * nkq;
        }
        for (int k = 0; k < 4; ++k) {  // rows p, q of N
          const Real npk = n[p][k], nqk = n[q][k];
          n[p][k] = c * npk - s * nqk;
          n[q][k] = s * npk + c * nqk;
        }
        for (int k = 0; k < 4; ++k) {  // eigenvector columns
          const Real vkp = v[k][p], vkq = v[k][q];
          v[k][p] = c * vkp - s * vkq;
          v[k][q] = s * vkp + c * vkq;
        }
      }
    }
  }
  // Running maximum (not an index into n and v): keeps the arrays in
  // registers on the GPU (a runtime index sends them to local memory).
  Real best = n[0][0];
  Quat q{v[0][0], v[1][0], v[2][0], v[3][0]};
  for (int i = 1; i < 4; ++i) {
    if (n[i][i] > best) {
      best = n[i][i];
      q = Quat{v[0][i], v[1][i], v[2][i], v[3][i]};
    }
  }
  return normalized(q);
}

/// Closest proper rotation to A starting from a nearby rotation `guess`.
/// Returns a unit quaternion in the hemisphere of `guess`.
PABD_HD Quat rotation_closest_to(const Mat3& a, Quat guess) {
  // Newton's method on SO(3) for max tr(R^T A), with R = R0 exp([t]x):
  // with L = R0^T A and S = sym(L), the model is
  //   tr(L) + g . t - 1/2 t^T (tr(S) I - S) t,   g = axial(L - L^T),
  // so t = (tr(S) I - S)^-1 g. Quadratic convergence near the answer; the
  // Hessian is positive definite exactly when R0 is near the maximiser.
  Quat q = guess;
  for (int it = 0; it < 4; ++it) {
    const Mat3 l = transpose(to_matrix(q)) * a;
    const Vec3 g{l.m[2][1] - l.m[1][2], l.m[0][2] - l.m[2][0], l.m[1][0] - l.m[0][1]};
    const Real tr = trace(l);
    Mat3 hess;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        hess.m[i][j] = (i == j ? tr : Real(0)) - Real(0.5) * (l.m[i][j] + l.m[j][i]);
    // One adjugate and determinant serve Sylvester's test (its leading minors
    // are hess[0][0], adj[2][2] and det) and the solve t = adj g / det.
    const Adjugate3 h = adjugate_symmetric3(hess);
    // Sylvester's criterion: otherwise the guess is too far for Newton.
    if (!(hess.m[0][0] > 0 && h.adj.m[2][2] > 0 && h.det > 0)) break;
    const Vec3 t = (Real(1) / h.det) * (h.adj * g);
    const Real step2 = dot(t, t);
    if (!(step2 < Real(0.25))) break;  // a step of 0.5 rad or more, or NaN: leave it to Horn
    // Any retraction keeps Newton quadratic; q (1, t/2) avoids sin and cos.
    const Quat r = q * Quat{1, Real(0.5) * t.x, Real(0.5) * t.y, Real(0.5) * t.z};
    const Real inv_norm = Real(1) / std::sqrt(r.w * r.w + r.x * r.x + r.y * r.y + r.z * r.z);
    q = Quat{inv_norm * r.w, inv_norm * r.x, inv_norm * r.y, inv_norm * r.z};
    // Quadratic convergence: once a step is below 1e-8 rad, the remaining
    // error is ~1e-16 scaled by the Hessian's conditioning.
    if (step2 < Real(1e-16)) return q;
  }
  return same_hemisphere(rotation_closest_to(a), guess);
}

}  // namespace pabd
