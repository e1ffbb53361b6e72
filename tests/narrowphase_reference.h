// Independent references for tests/test_narrowphase.cpp, written with Eigen
// and GJK/EPA rather than with the narrowphase's own helpers: box signed
// distance, box-box separation along an axis, the 15-axis separating-axis
// minimum, and the separation of two convex cores with radii; plus Eigen/pabd
// conversions and a seeded random source of poses.
#pragma once

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "collision/epa.h"
#include "collision/gjk.h"
#include "shapes/shape_geometry.h"

namespace pabd::narrowphase_test {

// Two separating axes closer than this angle [rad] are one axis: their
// separations differ by at most this times the boxes' size (1e-4 m at 1 m).
inline constexpr Real kSameAxis = 1e-4;

inline Mat3 from_eigen(const Eigen::Matrix3d& r) {
  Mat3 m;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m.m[i][j] = r(i, j);
  return m;
}
inline Eigen::Matrix3d to_eigen(const Mat3& r) {
  Eigen::Matrix3d m;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m(i, j) = r.m[i][j];
  return m;
}
inline Eigen::Vector3d to_eigen(Vec3 v) { return {v.x, v.y, v.z}; }
inline Vec3 from_eigen(const Eigen::Vector3d& v) { return {v.x(), v.y(), v.z()}; }

inline Mat3 rotation_about(Vec3 axis, Real angle) {
  return from_eigen(Eigen::AngleAxisd(angle, to_eigen(axis).normalized()).toRotationMatrix());
}
inline ShapePose pose_at(Vec3 p, Mat3 r = identity3()) {
  ShapePose s;
  s.position = p;
  s.rotation = r;
  return s;
}

struct Rng {
  std::mt19937_64 gen;
  explicit Rng(std::uint64_t seed) : gen(seed) {}
  Real uniform(Real lo, Real hi) { return std::uniform_real_distribution<Real>(lo, hi)(gen); }
  Vec3 direction() {
    std::normal_distribution<Real> n;
    return from_eigen(Eigen::Vector3d(n(gen), n(gen), n(gen)).normalized());
  }
  Mat3 rotation() {
    std::normal_distribution<Real> n;
    Eigen::Quaterniond q(n(gen), n(gen), n(gen), n(gen));
    return from_eigen(q.normalized().toRotationMatrix());
  }
};

// Independent references (Eigen) ---------------------------------------------

struct RefBox {
  Eigen::Vector3d c, h;
  Eigen::Matrix3d r;
};
inline RefBox ref_box(Vec3 half, const ShapePose& p) {
  return {to_eigen(p.position), to_eigen(half), to_eigen(p.rotation)};
}

// Signed distance from a world point to a box: Euclidean outside, minus the
// distance to the nearest face inside.
inline double ref_box_distance(const RefBox& b, Vec3 p) {
  const Eigen::Vector3d local = b.r.transpose() * (to_eigen(p) - b.c);
  const Eigen::Vector3d q = local.cwiseAbs() - b.h;
  return q.cwiseMax(0.0).norm() + std::min(q.maxCoeff(), 0.0);
}

// Separation of two boxes along a unit axis.
inline double ref_axis_separation(const RefBox& a, const RefBox& b, const Eigen::Vector3d& l) {
  const double ra = (a.r.transpose() * l).cwiseAbs().dot(a.h);
  const double rb = (b.r.transpose() * l).cwiseAbs().dot(b.h);
  return std::abs((b.c - a.c).dot(l)) - ra - rb;
}

// The separating-axis reference: the largest separation over the 15 axes,
// its axis (oriented from A to B) and the best separation over the axes that
// point elsewhere (to know whether the best axis is unique).
struct RefSat {
  double sep = -1e300;
  Eigen::Vector3d axis;
  double runner_up = -1e300;
};
inline RefSat ref_sat(const RefBox& a, const RefBox& b) {
  std::vector<Eigen::Vector3d> axes;
  for (int i = 0; i < 3; ++i) axes.push_back(a.r.col(i));
  for (int i = 0; i < 3; ++i) axes.push_back(b.r.col(i));
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const Eigen::Vector3d l = a.r.col(i).cross(b.r.col(j));
      // Products of near-parallel edges are redundant with the face axes.
      if (l.norm() > 1e-6) axes.push_back(l.normalized());
    }
  RefSat out;
  std::vector<double> seps;
  for (const auto& l : axes) seps.push_back(ref_axis_separation(a, b, l));
  for (size_t k = 0; k < axes.size(); ++k)
    if (seps[k] > out.sep) {
      out.sep = seps[k];
      out.axis = axes[k];
    }
  // Axes within kSameAxis radians of the best count as the best axis itself
  // (different products of nearly the same edges).
  for (size_t k = 0; k < axes.size(); ++k)
    if (std::abs(axes[k].dot(out.axis)) < std::cos(kSameAxis))
      out.runner_up = std::max(out.runner_up, seps[k]);
  if ((b.c - a.c).dot(out.axis) < 0) out.axis = -out.axis;
  return out;
}

// Separation of two convex shapes = GJK/EPA on their cores minus the radii,
// with the normal from A to B.
struct ConvexSeparation {
  double sep;
  Vec3 normal;
  bool normal_defined;
};
template <class CoreA, class CoreB>
ConvexSeparation gjk_epa_separation(const CoreA& a, Real ra, const CoreB& b, Real rb, Vec3 guess) {
  const GjkResult g = gjk_distance(a, b, guess);
  if (!g.overlap) {
    const Vec3 d = g.point_b - g.point_a;
    return {g.distance - ra - rb, (1 / length(d)) * d, g.distance > 1e-6};
  }
  const EpaResult e = epa_penetration(a, b, g);
  EXPECT_TRUE(e.valid);
  return {-e.depth - ra - rb, e.normal, e.depth > 1e-6};
}

}  // namespace pabd::narrowphase_test
