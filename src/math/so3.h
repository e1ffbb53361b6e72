// Rotation helpers: quaternion exponential and logarithm maps, and matrix to
// quaternion. Used by the prediction and the velocity recovery so that free
// rotation about a principal axis keeps its angular velocity exactly (the
// paper's first-order update Q + h/2 [w,0] Q loses about 3% in 2 s).
#pragma once

#include <cmath>

#include "math/portable_trig.h"
#include "pabd/math.h"

namespace pabd {

/// exp of a rotation vector v (angle |v| about v/|v|) as a unit quaternion.
PABD_HD Quat quat_exp(Vec3 v) {
  const Real angle = length(v);
  const Real half = Real(0.5) * angle;
  // sin(half)/angle, with its Taylor series near 0 so tiny rotations stay exact.
  // pabd's own sine and cosine: a device computes the same bits (math/portable_trig.h).
  Real sin_half, cos_half;
  portable_sin_cos(half, sin_half, cos_half);
  const Real k = angle > Real(1e-8) ? sin_half / angle : Real(0.5) - angle * angle / Real(48);
  return {cos_half, k * v.x, k * v.y, k * v.z};
}

/// log of a unit quaternion: the rotation vector (shortest arc, |v| <= pi).
PABD_HD Vec3 quat_log(Quat q) {
  if (q.w < 0) q = {-q.w, -q.x, -q.y, -q.z};  // same rotation, shorter arc
  const Real s = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
  // angle = 2 atan2(s, w); angle / s -> 2 / w as s -> 0.
  const Real k = s > Real(1e-8) ? Real(2) * portable_atan2(s, q.w) / s : Real(2) / q.w;
  return {k * q.x, k * q.y, k * q.z};
}

/// The quaternion among {q, -q} closest to `reference` (keeps a trajectory continuous).
PABD_HD Quat same_hemisphere(Quat q, Quat reference) {
  const Real d = q.w * reference.w + q.x * reference.x + q.y * reference.y + q.z * reference.z;
  return d < 0 ? Quat{-q.w, -q.x, -q.y, -q.z} : q;
}

}  // namespace pabd
