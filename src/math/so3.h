// Rotation helpers: quaternion exponential and logarithm maps, and matrix to
// quaternion. Used by the prediction and the velocity recovery so that free
// rotation about a principal axis keeps its angular velocity exactly (the
// paper's first-order update Q + h/2 [w,0] Q loses about 3% in 2 s).
#pragma once

#include <cmath>

#include "pabd/math.h"

namespace pabd {

/// exp of a rotation vector v (angle |v| about v/|v|) as a unit quaternion.
PABD_HD Quat quat_exp(Vec3 v) {
  const Real angle = length(v);
  const Real half = Real(0.5) * angle;
  // sin(half)/angle, with its Taylor series near 0 so tiny rotations stay exact.
  const Real k = angle > Real(1e-8) ? std::sin(half) / angle : Real(0.5) - angle * angle / Real(48);
  return {std::cos(half), k * v.x, k * v.y, k * v.z};
}

/// log of a unit quaternion: the rotation vector (shortest arc, |v| <= pi).
PABD_HD Vec3 quat_log(Quat q) {
  if (q.w < 0) q = {-q.w, -q.x, -q.y, -q.z};  // same rotation, shorter arc
  const Real s = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
  // angle = 2 atan2(s, w); angle / s -> 2 / w as s -> 0.
  const Real k = s > Real(1e-8) ? Real(2) * std::atan2(s, q.w) / s : Real(2) / q.w;
  return {k * q.x, k * q.y, k * q.z};
}

/// Unit quaternion of a proper rotation matrix (Shepperd's method: divide by
/// the largest of the four candidates so it stays accurate for any angle).
PABD_HD Quat quat_from_matrix(const Mat3& r) {
  const Real tr = r.m[0][0] + r.m[1][1] + r.m[2][2];
  Quat q;
  if (tr >= r.m[0][0] && tr >= r.m[1][1] && tr >= r.m[2][2]) {
    const Real s = std::sqrt(Real(1) + tr) * Real(2);
    q = {Real(0.25) * s, (r.m[2][1] - r.m[1][2]) / s, (r.m[0][2] - r.m[2][0]) / s,
         (r.m[1][0] - r.m[0][1]) / s};
  } else if (r.m[0][0] >= r.m[1][1] && r.m[0][0] >= r.m[2][2]) {
    const Real s = std::sqrt(Real(1) + r.m[0][0] - r.m[1][1] - r.m[2][2]) * Real(2);
    q = {(r.m[2][1] - r.m[1][2]) / s, Real(0.25) * s, (r.m[0][1] + r.m[1][0]) / s,
         (r.m[0][2] + r.m[2][0]) / s};
  } else if (r.m[1][1] >= r.m[2][2]) {
    const Real s = std::sqrt(Real(1) + r.m[1][1] - r.m[0][0] - r.m[2][2]) * Real(2);
    q = {(r.m[0][2] - r.m[2][0]) / s, (r.m[0][1] + r.m[1][0]) / s, Real(0.25) * s,
         (r.m[1][2] + r.m[2][1]) / s};
  } else {
    const Real s = std::sqrt(Real(1) + r.m[2][2] - r.m[0][0] - r.m[1][1]) * Real(2);
    q = {(r.m[1][0] - r.m[0][1]) / s, (r.m[0][2] + r.m[2][0]) / s, (r.m[1][2] + r.m[2][1]) / s,
         Real(0.25) * s};
  }
  return normalized(q);
}

/// The quaternion among {q, -q} closest to `reference` (keeps a trajectory continuous).
PABD_HD Quat same_hemisphere(Quat q, Quat reference) {
  const Real d = q.w * reference.w + q.x * reference.x + q.y * reference.y + q.z * reference.z;
  return d < 0 ? Quat{-q.w, -q.x, -q.y, -q.z} : q;
}

}  // namespace pabd
