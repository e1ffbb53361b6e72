// The per-body 12x12 system of the PABD global step, in the paper's sparse form.
//
// With q = (c, a1, a2, a3) (a_r = rows of A), every bond end at material point x
// with weight w adds w J^T J, and J = [I3, I3 (x) x^T] makes H
//
//        [ a I      e_x b^T  e_y b^T  e_z b^T ]
//   H =  [ b e_x^T  D        0        0       ]     a = m + sum w
//        [ b e_y^T  0        D        0       ]     b = sum w x
//        [ b e_z^T  0        0        D       ]     D = Pi + sum w x x^T
//
// so only 13 numbers are stored. Writing the right-hand side as a 3-vector
// r_c (translation rows) and a 3x3 matrix R_A (row r = the rows of a_r), the
// system reads  a c + A b = r_c  and  c b^T + A D = R_A. Eliminating c (the
// Schur complement of the paper, D~ = D - b b^T / a) gives
//
//   A = (R_A - r_c b^T / a) D~^-1,   c = (r_c - A b) / a,
//
// which needs a single symmetric 3x3 inverse.
//
// The rigid local step (pabd's default, see docs/architecture.md) uses the same
// numbers differently: over rigid poses A = R the quadratic model
// 1/2 q^T H q - rhs^T q reduces, after eliminating c, to const - tr(R^T B)
// with B = R_A - r_c b^T / a (because tr(R D~ R^T) = tr(D~) for any rotation).
// So its exact minimiser over rigid poses is R = closest rotation to B, and
// c = (r_c - R b) / a: no inverse at all.
#pragma once

#include "pabd/math.h"

namespace pabd {

/// The 13 numbers of H plus the right-hand side, accumulated per body.
struct AffineSystem {
  Real a = 0;  ///< m + sum of weights
  Vec3 b;      ///< sum of w x
  Mat3 D;      ///< Pi + sum of w x x^T (symmetric)
  Vec3 rhs_c;  ///< right-hand side of the translation rows
  Mat3 rhs_A;  ///< right-hand side of the affine rows (row r for a_r)
};

/// Starts a system from the inertial term M (q - s) = 0: H = M, rhs = M s.
PABD_HD AffineSystem inertial_system(Real mass, const Mat3& affine_inertia, Vec3 s_c,
                                     const Mat3& s_A) {
  AffineSystem sys;
  sys.a = mass;
  sys.D = affine_inertia;
  sys.rhs_c = mass * s_c;
  sys.rhs_A = s_A * affine_inertia;  // row r: Pi s_a_r, Pi symmetric
  return sys;
}

/// Adds one bond end: weight w pulling material point x toward world point
/// `pull` (pull = w * target + explicit force, already multiplied by h^2).
/// The rigid local step never reads D, so it may skip it (need_D = false).
PABD_HD void add_bond_end(AffineSystem& sys, Real w, Vec3 x, Vec3 pull, bool need_D = true) {
  sys.a += w;
  sys.b += w * x;
  if (need_D) sys.D = sys.D + outer(w * x, x);
  sys.rhs_c += pull;
  sys.rhs_A = sys.rhs_A + outer(pull, x);
}

/// What several bond ends on one body add to its system, summed beforehand
/// (a contact pair's points, contacts/contact_kernels.h): the weights, their
/// moment sum w x, the pulls and their moment sum outer(pull, x). D's share,
/// sum w x x^T, is kept apart: only the paper's local step reads it.
struct BondEndSums {
  Real weight = 0;   ///< sum of w
  Vec3 moment;       ///< sum of w x
  Vec3 pull;         ///< sum of pull
  Mat3 pull_moment;  ///< sum of outer(pull, x)
};

/// Adds one bond end to a sum (add_bond_end's terms without D).
PABD_HD_ALWAYS_INLINE void add_bond_end(BondEndSums& s, Real w, Vec3 x, Vec3 pull) {
  s.weight += w;
  s.moment += w * x;
  s.pull += pull;
  // In place: a temporary Mat3 is zeroed before it is filled.
  const Real p[3] = {pull.x, pull.y, pull.z};
  for (int i = 0; i < 3; ++i) {
    s.pull_moment.m[i][0] += p[i] * x.x;
    s.pull_moment.m[i][1] += p[i] * x.y;
    s.pull_moment.m[i][2] += p[i] * x.z;
  }
}

/// Adds summed bond ends to a system; `second_moment` (sum w x x^T) may be
/// null when D is not needed (the rigid local step).
PABD_HD_ALWAYS_INLINE void add_bond_end_sums(AffineSystem& sys, const BondEndSums& s,
                                             const Mat3* second_moment) {
  sys.a += s.weight;
  sys.b += s.moment;
  if (second_moment) sys.D = sys.D + *second_moment;
  sys.rhs_c += s.pull;
  sys.rhs_A = sys.rhs_A + s.pull_moment;
}

/// Adjugate and determinant of a symmetric 3x3 matrix (its inverse is adj / det).
struct Adjugate3 {
  Mat3 adj;
  Real det = 0;
};

/// The adjugate and determinant of symmetric s.
PABD_HD Adjugate3 adjugate_symmetric3(const Mat3& s) {
  Mat3 adj;
  adj.m[0][0] = s.m[1][1] * s.m[2][2] - s.m[1][2] * s.m[2][1];
  adj.m[0][1] = s.m[0][2] * s.m[2][1] - s.m[0][1] * s.m[2][2];
  adj.m[0][2] = s.m[0][1] * s.m[1][2] - s.m[0][2] * s.m[1][1];
  adj.m[1][1] = s.m[0][0] * s.m[2][2] - s.m[0][2] * s.m[2][0];
  adj.m[1][2] = s.m[0][2] * s.m[1][0] - s.m[0][0] * s.m[1][2];
  adj.m[2][2] = s.m[0][0] * s.m[1][1] - s.m[0][1] * s.m[1][0];
  adj.m[1][0] = adj.m[0][1];
  adj.m[2][0] = adj.m[0][2];
  adj.m[2][1] = adj.m[1][2];
  const Real det = s.m[0][0] * adj.m[0][0] + s.m[0][1] * adj.m[1][0] + s.m[0][2] * adj.m[2][0];
  return {adj, det};
}

/// Inverse of a symmetric positive-definite 3x3 matrix (adjugate / determinant).
PABD_HD Mat3 inverse_symmetric3(const Mat3& s) {
  const Adjugate3 a = adjugate_symmetric3(s);
  return (Real(1) / a.det) * a.adj;
}

/// B = R_A - r_c b^T / a: the affine right-hand side with c eliminated.
PABD_HD_ALWAYS_INLINE Mat3 reduced_affine_rhs(const AffineSystem& sys) {
  return sys.rhs_A - (Real(1) / sys.a) * outer(sys.rhs_c, sys.b);
}

/// c = (r_c - A b) / a: the best translation for a given affine part A.
PABD_HD_ALWAYS_INLINE Vec3 translation_for(const AffineSystem& sys, const Mat3& A) {
  return (Real(1) / sys.a) * (sys.rhs_c - A * sys.b);
}

/// Solves H q = rhs with the Schur-complement form; returns c and A.
PABD_HD void solve_affine_system(const AffineSystem& sys, Vec3& c, Mat3& A) {
  const Mat3 schur = sys.D - (Real(1) / sys.a) * outer(sys.b, sys.b);
  A = reduced_affine_rhs(sys) * inverse_symmetric3(schur);
  c = translation_for(sys, A);
}

}  // namespace pabd
