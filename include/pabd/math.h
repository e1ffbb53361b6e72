// Small fixed-size vector, matrix and quaternion types used by the public API
// and by every kernel. Plain aggregates with host/device inline operators: no
// allocation, no virtual calls, so nvcc compiles them unchanged.
#pragma once

#include <cmath>

#include "pabd/config.h"

namespace pabd {

/// A 3-vector (metres, m/s, rad/s or newtons depending on use).
struct Vec3 {
  Real x = 0, y = 0, z = 0;
};

/// A unit quaternion [w, x, y, z] describing an orientation.
struct Quat {
  Real w = 1, x = 0, y = 0, z = 0;
};

/// A 3x3 matrix stored row-major: m[row][col].
struct Mat3 {
  Real m[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
};

PABD_HD Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
PABD_HD Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
PABD_HD Vec3 operator-(Vec3 a) { return {-a.x, -a.y, -a.z}; }
PABD_HD Vec3 operator*(Real s, Vec3 a) { return {s * a.x, s * a.y, s * a.z}; }
PABD_HD Vec3 operator*(Vec3 a, Real s) { return {s * a.x, s * a.y, s * a.z}; }
PABD_HD Vec3& operator+=(Vec3& a, Vec3 b) {
  a.x += b.x;
  a.y += b.y;
  a.z += b.z;
  return a;
}
PABD_HD Real dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
PABD_HD Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
PABD_HD Real length(Vec3 a) { return std::sqrt(dot(a, a)); }
PABD_HD Real get(Vec3 a, int i) { return i == 0 ? a.x : (i == 1 ? a.y : a.z); }

PABD_HD Mat3 identity3() {
  Mat3 r;
  r.m[0][0] = r.m[1][1] = r.m[2][2] = 1;
  return r;
}
PABD_HD Mat3 diagonal3(Vec3 d) {
  Mat3 r;
  r.m[0][0] = d.x;
  r.m[1][1] = d.y;
  r.m[2][2] = d.z;
  return r;
}
PABD_HD Vec3 row(const Mat3& a, int r) { return {a.m[r][0], a.m[r][1], a.m[r][2]}; }
// Always inlined: once world_point was (config.h), GCC 12 kept this as a call
// in the bond kernels (perf: 8.7% of the spring-grid benchmark's step).
PABD_HD_ALWAYS_INLINE Vec3 operator*(const Mat3& a, Vec3 v) {
  return {a.m[0][0] * v.x + a.m[0][1] * v.y + a.m[0][2] * v.z,
          a.m[1][0] * v.x + a.m[1][1] * v.y + a.m[1][2] * v.z,
          a.m[2][0] * v.x + a.m[2][1] * v.y + a.m[2][2] * v.z};
}
PABD_HD Mat3 operator*(const Mat3& a, const Mat3& b) {
  Mat3 r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      r.m[i][j] = a.m[i][0] * b.m[0][j] + a.m[i][1] * b.m[1][j] + a.m[i][2] * b.m[2][j];
  return r;
}
PABD_HD Mat3 operator+(const Mat3& a, const Mat3& b) {
  Mat3 r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.m[i][j] = a.m[i][j] + b.m[i][j];
  return r;
}
PABD_HD Mat3 operator-(const Mat3& a, const Mat3& b) {
  Mat3 r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.m[i][j] = a.m[i][j] - b.m[i][j];
  return r;
}
PABD_HD Mat3 operator*(Real s, const Mat3& a) {
  Mat3 r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.m[i][j] = s * a.m[i][j];
  return r;
}
PABD_HD Mat3 transpose(const Mat3& a) {
  Mat3 r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.m[i][j] = a.m[j][i];
  return r;
}
/// Outer product a b^T.
PABD_HD Mat3 outer(Vec3 a, Vec3 b) {
  Mat3 r;
  const Real av[3] = {a.x, a.y, a.z};
  const Real bv[3] = {b.x, b.y, b.z};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.m[i][j] = av[i] * bv[j];
  return r;
}
PABD_HD Real determinant(const Mat3& a) {
  return a.m[0][0] * (a.m[1][1] * a.m[2][2] - a.m[1][2] * a.m[2][1]) -
         a.m[0][1] * (a.m[1][0] * a.m[2][2] - a.m[1][2] * a.m[2][0]) +
         a.m[0][2] * (a.m[1][0] * a.m[2][1] - a.m[1][1] * a.m[2][0]);
}
PABD_HD Real trace(const Mat3& a) { return a.m[0][0] + a.m[1][1] + a.m[2][2]; }

PABD_HD Quat operator*(Quat a, Quat b) {
  return {
      a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
      a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
}
PABD_HD Quat conjugate(Quat q) { return {q.w, -q.x, -q.y, -q.z}; }
PABD_HD Quat normalized(Quat q) {
  const Real n = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
  return {q.w / n, q.x / n, q.y / n, q.z / n};
}

/// Rotation matrix of a unit quaternion.
PABD_HD_ALWAYS_INLINE Mat3 to_matrix(Quat q) {
  Mat3 r;
  const Real xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
  const Real xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
  const Real wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
  r.m[0][0] = 1 - 2 * (yy + zz);
  r.m[0][1] = 2 * (xy - wz);
  r.m[0][2] = 2 * (xz + wy);
  r.m[1][0] = 2 * (xy + wz);
  r.m[1][1] = 1 - 2 * (xx + zz);
  r.m[1][2] = 2 * (yz - wx);
  r.m[2][0] = 2 * (xz - wy);
  r.m[2][1] = 2 * (yz + wx);
  r.m[2][2] = 1 - 2 * (xx + yy);
  return r;
}

/// Rotates v by the unit quaternion q.
PABD_HD Vec3 rotate(Quat q, Vec3 v) { return to_matrix(q) * v; }

}  // namespace pabd
