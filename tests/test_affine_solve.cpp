// The structured 12x12 solve (paper Sec. 4.3) against a dense Eigen solve.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <random>

#include "math/affine_system.h"

namespace pabd {
namespace {

using Mat12 = Eigen::Matrix<double, 12, 12>;
using Vec12 = Eigen::Matrix<double, 12, 1>;

// J = [I3, I3 (x) x^T] for q = (c, a1, a2, a3), a_r = rows of A.
Eigen::Matrix<double, 3, 12> jacobian(Vec3 x) {
  Eigen::Matrix<double, 3, 12> j = Eigen::Matrix<double, 3, 12>::Zero();
  for (int r = 0; r < 3; ++r) {
    j(r, r) = 1;
    j(r, 3 + 3 * r + 0) = x.x;
    j(r, 3 + 3 * r + 1) = x.y;
    j(r, 3 + 3 * r + 2) = x.z;
  }
  return j;
}

TEST(AffineSolve, MatchesDenseSolveOnRandomSpdSystems) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int trial = 0; trial < 200; ++trial) {
    // A random body: mass, an SPD affine inertia, a random inertial target.
    const double m = 0.1 + 10 * (u(rng) + 1);
    Eigen::Matrix3d g = Eigen::Matrix3d::Random();
    Eigen::Matrix3d pi_e = 0.01 * Eigen::Matrix3d::Identity() + g * g.transpose();
    Mat3 pi;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) pi.m[r][c] = pi_e(r, c);
    const Vec3 s_c{u(rng), u(rng), u(rng)};
    Mat3 s_a;
    for (auto& rr : s_a.m)
      for (double& v : rr) v = u(rng);

    AffineSystem sys = inertial_system(m, pi, s_c, s_a);
    Mat12 h = Mat12::Zero();
    Vec12 rhs = Vec12::Zero();
    h.block<3, 3>(0, 0) = m * Eigen::Matrix3d::Identity();
    for (int r = 0; r < 3; ++r) h.block<3, 3>(3 + 3 * r, 3 + 3 * r) = pi_e;
    Vec12 s;
    s << s_c.x, s_c.y, s_c.z, s_a.m[0][0], s_a.m[0][1], s_a.m[0][2], s_a.m[1][0], s_a.m[1][1],
        s_a.m[1][2], s_a.m[2][0], s_a.m[2][1], s_a.m[2][2];
    rhs = h * s;

    // Random bond ends with weights spanning six orders of magnitude, as stiff
    // joints next to soft springs do.
    const int ends = trial % 7;
    for (int e = 0; e < ends; ++e) {
      const double w = std::pow(10.0, 3 * u(rng));
      const Vec3 x{2 * u(rng), 2 * u(rng), 2 * u(rng)};
      const Vec3 pull{5 * u(rng), 5 * u(rng), 5 * u(rng)};
      add_bond_end(sys, w, x, pull);
      const auto j = jacobian(x);
      h += w * j.transpose() * j;
      rhs += j.transpose() * Eigen::Vector3d(pull.x, pull.y, pull.z);
    }

    // The structured form stores H exactly: check the 13 numbers first.
    EXPECT_NEAR(sys.a, h(0, 0), 1e-12 * h(0, 0));

    const Vec12 dense = h.ldlt().solve(rhs);
    Vec3 c;
    Mat3 a;
    solve_affine_system(sys, c, a);
    Vec12 mine;
    mine << c.x, c.y, c.z, a.m[0][0], a.m[0][1], a.m[0][2], a.m[1][0], a.m[1][1], a.m[1][2],
        a.m[2][0], a.m[2][1], a.m[2][2];
    // The bound: both are backward-stable solves of a system whose
    // condition number stays below ~1e5 here, so 1e-10 relative is ample.
    EXPECT_LT((mine - dense).norm() / dense.norm(), 1e-10) << "trial " << trial;
  }
}

}  // namespace
}  // namespace pabd
