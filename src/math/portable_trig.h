// Sine, cosine and arctangent made of IEEE-754 additions, multiplications,
// divisions and square roots only, so that they give the same bits wherever
// those operations are exact-rounded and not fused: glibc on the CPU and a
// CUDA device (nvcc --fmad=false) alike. The library functions do not: the
// device's sin, cos and atan2 are within 2 ulp, glibc's within 1, and they
// differ in the last bit for some inputs, which was the one difference left
// between a device step and a CPU step (docs/gpu.md). Used by the kernels'
// exponential map, hinge angle and position drives.
//
// Accuracy: within a few ulp of the true values (tests/test_portable_trig.cpp
// measures it against glibc). The argument reduction is Cody and Waite's by
// pi/2 in three parts, exact for |x| < 2^20 pi/2 (about 1.6e6 rad); beyond
// that the result loses digits, still the same on every platform.
#pragma once

#include <cmath>

#include "pabd/config.h"

namespace pabd {

namespace portable_trig_detail {

// pi/2 = kPio2a + kPio2b + kPio2c: the first two have 33 significant bits, so
// k * kPio2a and k * kPio2b are exact for |k| < 2^20.
inline constexpr Real kPio2a = 0x1.921fb544p+0;
inline constexpr Real kPio2b = 0x1.0b4611a6p-34;
inline constexpr Real kPio2c = 0x1.3198a2e037073p-69;
inline constexpr Real kTwoOverPi = 0x1.45f306dc9c883p-1;
inline constexpr Real kPi = 0x1.921fb54442d18p+1;
inline constexpr Real kPio2 = 0x1.921fb54442d18p+0;

/// sin r for |r| <= pi/4: its Taylor series to r^17 (the next term is below
/// 1e-19 there).
PABD_HD Real sin_near_zero(Real r) {
  const Real z = r * r;
  const Real p =
      Real(-1.0 / 6) +
      z * (Real(1.0 / 120) +
           z * (Real(-1.0 / 5040) +
                z * (Real(1.0 / 362880) +
                     z * (Real(-1.0 / 39916800) + z * (Real(1.0 / 6227020800.0) +
                                                       z * (Real(-1.0 / 1307674368000.0) +
                                                            z * Real(1.0 / 355687428096000.0)))))));
  return r + r * z * p;
}

/// cos r for |r| <= pi/4: its Taylor series to r^18.
PABD_HD Real cos_near_zero(Real r) {
  const Real z = r * r;
  const Real p =
      Real(1.0 / 24) +
      z * (Real(-1.0 / 720) +
           z * (Real(1.0 / 40320) + z * (Real(-1.0 / 3628800) +
                                         z * (Real(1.0 / 479001600) +
                                              z * (Real(-1.0 / 87178291200.0) +
                                                   z * (Real(1.0 / 20922789888000.0) +
                                                        z * Real(-1.0 / 6402373705728000.0)))))));
  return Real(1) + z * (Real(-0.5) + z * p);
}

/// atan(k / 8) for k = 0..8, each the double nearest the true value
/// (computed to 60 digits); a switch, not a table, so that a device keeps
/// it in registers.
PABD_HD Real atan_of_eighths(int k) {
  switch (k) {
    case 0:
      return 0;
    case 1:
      return 0x1.fd5ba9aac2f6ep-4;
    case 2:
      return 0x1.f5b75f92c80ddp-3;
    case 3:
      return 0x1.6f61941e4def1p-2;
    case 4:
      return 0x1.dac670561bb4fp-2;
    case 5:
      return 0x1.1e00babdefeb4p-1;
    case 6:
      return 0x1.4978fa3269ee1p-1;
    case 7:
      return 0x1.700a7c5784634p-1;
    default:  // 8: pi / 4
      return 0x1.921fb54442d18p-1;
  }
}

/// atan t for 0 <= t <= 1 (NaN for NaN): with c = k / 8 the nearest eighth,
/// atan t = atan c + atan u, u = (t - c) / (1 + t c), |u| <= 1/16, where the
/// series to u^15 is exact to 1e-22. t - c is exact (Sterbenz), t c and the
/// division round once each: one division and no square root, where halving
/// the angle took up to three of each in turn (a hinge's angle is read
/// twice per bond and iteration).
PABD_HD Real atan_unit(Real t) {
  const Real scaled = t * 8 + Real(0.5);
  const int k = scaled >= 0 && scaled < 9 ? int(scaled) : 0;  // NaN: 0, u stays NaN
  const Real c = Real(0.125) * Real(k);
  const Real u = (t - c) / (Real(1) + t * c);
  const Real z = u * u;
  const Real p = Real(-1.0 / 3) +
                 z * (Real(1.0 / 5) +
                      z * (Real(-1.0 / 7) +
                           z * (Real(1.0 / 9) + z * (Real(-1.0 / 11) +
                                                     z * (Real(1.0 / 13) + z * Real(-1.0 / 15))))));
  return atan_of_eighths(k) + (u + u * z * p);
}

}  // namespace portable_trig_detail

/// sin x and cos x.
PABD_HD void portable_sin_cos(Real x, Real& s, Real& c) {
  using namespace portable_trig_detail;
  const Real k = std::floor(x * kTwoOverPi + Real(0.5));  // nearest multiple of pi/2
  const Real r = ((x - k * kPio2a) - k * kPio2b) - k * kPio2c;
  const Real sr = sin_near_zero(r), cr = cos_near_zero(r);
  // The quadrant, k mod 4 (k may be negative; NaN for a NaN or infinite x,
  // which then gives NaN through r).
  const Real quarter = k - Real(4) * std::floor(Real(0.25) * k);
  const int q = quarter >= 2 ? (quarter >= 3 ? 3 : 2) : (quarter >= 1 ? 1 : 0);
  s = q == 0 ? sr : q == 1 ? cr : q == 2 ? -sr : -cr;
  c = q == 0 ? cr : q == 1 ? -sr : q == 2 ? -cr : sr;
}

PABD_HD Real portable_sin(Real x) {
  Real s, c;
  portable_sin_cos(x, s, c);
  return s;
}

PABD_HD Real portable_cos(Real x) {
  Real s, c;
  portable_sin_cos(x, s, c);
  return c;
}

/// The angle of (x, y) in [-pi, pi], as std::atan2 for finite arguments
/// (signed zeros included).
PABD_HD Real portable_atan2(Real y, Real x) {
  using namespace portable_trig_detail;
  const Real ax = std::fabs(x), ay = std::fabs(y);
  if (ay == 0) return std::signbit(x) ? std::copysign(kPi, y) : y;
  const bool steep = ay > ax;
  const Real t = steep ? ax / ay : ay / ax;
  Real a = atan_unit(t);
  if (steep) a = kPio2 - a;
  if (std::signbit(x)) a = kPi - a;
  return std::copysign(a, y);
}

}  // namespace pabd
