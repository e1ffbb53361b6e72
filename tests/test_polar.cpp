// The local step's closest rotation against an SVD reference, including
// reflections, nearly singular and rank-deficient inputs.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <random>

#include "math/polar.h"

namespace pabd {
namespace {

Eigen::Matrix3d to_eigen(const Mat3& a) {
  Eigen::Matrix3d e;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) e(r, c) = a.m[r][c];
  return e;
}

Mat3 from_eigen(const Eigen::Matrix3d& e) {
  Mat3 a;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) a.m[r][c] = e(r, c);
  return a;
}

// Closest proper rotation from the SVD: U diag(1, 1, det(U V^T)) V^T.
Eigen::Matrix3d svd_reference(const Eigen::Matrix3d& a, double* gap) {
  Eigen::JacobiSVD<Eigen::Matrix3d> svd(a, Eigen::ComputeFullU | Eigen::ComputeFullV);
  const double d = (svd.matrixU() * svd.matrixV().transpose()).determinant() > 0 ? 1 : -1;
  const Eigen::Vector3d s = svd.singularValues();
  // The answer is unique, and well conditioned, when the sum of the two
  // smallest signed singular values stays away from zero.
  *gap = s(1) + d * s(2);
  return svd.matrixU() * Eigen::Vector3d(1, 1, d).asDiagonal() * svd.matrixV().transpose();
}

void expect_proper_rotation(const Eigen::Matrix3d& r) {
  // Built from a unit quaternion, so orthonormal to round-off (~1e-16 per entry).
  EXPECT_LT((r.transpose() * r - Eigen::Matrix3d::Identity()).norm(), 1e-12);
  EXPECT_NEAR(r.determinant(), 1.0, 1e-12);
}

enum class Kind { General, Reflection, NearlySingular, RankOne };

Eigen::Matrix3d random_input(std::mt19937_64& rng, Kind kind) {
  std::normal_distribution<double> n(0, 1);
  Eigen::Matrix3d g;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) g(r, c) = n(rng);
  Eigen::JacobiSVD<Eigen::Matrix3d> svd(g, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Eigen::Vector3d s = svd.singularValues();
  Eigen::Matrix3d u = svd.matrixU(), v = svd.matrixV();
  if (u.determinant() < 0) u.col(2) *= -1;  // make U, V proper so the sign is ours
  if (v.determinant() < 0) v.col(2) *= -1;
  switch (kind) {
    case Kind::General:
      break;
    case Kind::Reflection:
      s(2) = -s(2);
      break;
    case Kind::NearlySingular:
      s(2) = 1e-9 * s(0);
      break;
    case Kind::RankOne:
      s(1) = s(2) = 0;
      break;
  }
  return u * s.asDiagonal() * v.transpose();
}

TEST(Polar, MatchesSvdReferenceOnRandomInputs) {
  std::mt19937_64 rng(7);
  int checked = 0;
  for (Kind kind : {Kind::General, Kind::Reflection, Kind::NearlySingular}) {
    for (int trial = 0; trial < 300; ++trial) {
      const Eigen::Matrix3d a = random_input(rng, kind);
      double gap = 0;
      const Eigen::Matrix3d ref = svd_reference(a, &gap);
      const Eigen::Matrix3d r = to_eigen(to_matrix(rotation_closest_to(from_eigen(a))));
      expect_proper_rotation(r);
      if (gap < 1e-3 * a.norm()) continue;  // ill-posed: any nearby rotation is optimal
      // The polar factor's sensitivity is ~1/gap; inputs are O(1), so round-off
      // of 1e-15 becomes at most ~1e-12 here; 1e-9 leaves a wide margin.
      EXPECT_LT((r - ref).norm(), 1e-9) << "kind " << static_cast<int>(kind) << " trial " << trial;
      ++checked;
    }
  }
  EXPECT_GT(checked, 800);  // the skip above must not hide most cases
}

TEST(Polar, RankDeficientInputStillGivesARotation) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 100; ++trial) {
    const Eigen::Matrix3d a = random_input(rng, Kind::RankOne);
    const Eigen::Matrix3d r = to_eigen(to_matrix(rotation_closest_to(from_eigen(a))));
    expect_proper_rotation(r);
    // Optimality: tr(R^T A) equals the largest singular value, the maximum.
    Eigen::JacobiSVD<Eigen::Matrix3d> svd(a);
    EXPECT_NEAR((r.transpose() * a).trace(), svd.singularValues()(0), 1e-12 * a.norm());
  }
  // The zero matrix: every rotation is optimal; it must still be a rotation.
  expect_proper_rotation(to_eigen(to_matrix(rotation_closest_to(Mat3{}))));
}

TEST(Polar, HalfTurnIsReturnedExactly) {
  // A rotation by pi: the identity is a stationary point of tr(R^T A), which
  // trips gradient-style methods that start from it.
  const Mat3 a = diagonal3({-1, -1, 1});
  const Eigen::Matrix3d r = to_eigen(to_matrix(rotation_closest_to(a)));
  EXPECT_LT((r - to_eigen(a)).norm(), 1e-12);
  const Eigen::Matrix3d r2 = to_eigen(to_matrix(rotation_closest_to(a, Quat{})));
  EXPECT_LT((r2 - to_eigen(a)).norm(), 1e-12);
}

TEST(Polar, WarmStartAgreesWithColdStartForAnyGuess) {
  std::mt19937_64 rng(3);
  std::normal_distribution<double> n(0, 1);
  for (Kind kind : {Kind::General, Kind::Reflection, Kind::NearlySingular}) {
    for (int trial = 0; trial < 200; ++trial) {
      const Eigen::Matrix3d a = random_input(rng, kind);
      double gap = 0;
      const Eigen::Matrix3d ref = svd_reference(a, &gap);
      if (gap < 1e-3 * a.norm()) continue;
      // A good guess (the answer turned by ~0.05 rad) and an arbitrary one.
      const Quat exact = rotation_closest_to(from_eigen(a));
      const Quat near = normalized(
          Quat{exact.w, exact.x + 0.02 * n(rng), exact.y + 0.02 * n(rng), exact.z + 0.02 * n(rng)});
      const Quat far = normalized(Quat{n(rng), n(rng), n(rng), n(rng)});
      for (Quat guess : {near, far}) {
        const Eigen::Matrix3d r = to_eigen(to_matrix(rotation_closest_to(from_eigen(a), guess)));
        expect_proper_rotation(r);
        // The fast path stops when its step is below 1e-13 rad (or falls back
        // to the exact method): the rotation error is at most ~1e-12/gap.
        EXPECT_LT((r - ref).norm(), 1e-8) << "trial " << trial;
      }
    }
  }
}

}  // namespace
}  // namespace pabd
