// pabd's own sine, cosine and arctangent (math/portable_trig.h) against
// glibc's, which are within 1 ulp of the true values: ours must be within a
// few ulp too. Why ours exist at all: they are made of exact-rounded basic
// operations, so a CUDA device computes the same bits (docs/gpu.md).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "math/portable_trig.h"

namespace pabd {
namespace {

/// |a - b| in units of the last place of b (at least the smallest normal's ulp).
double ulps(double a, double b) {
  const double unit =
      std::nextafter(std::fabs(b), std::numeric_limits<double>::infinity()) - std::fabs(b);
  return std::fabs(a - b) / std::max(unit, std::numeric_limits<double>::denorm_min());
}

// Sine and cosine, 4 ulp: the Taylor polynomials' truncation is below 1e-19
// on the reduced range, Horner's rule in double adds about 1 ulp, the
// reduction's remainder another near a multiple of pi/2; glibc's own error is
// up to 1 ulp. (Measured: 1 ulp at most over 2 million points.)
constexpr double kUlps = 4;
// Arctangent, 4 ulp: the ratio rounds (0.5 ulp); the reduced argument u
// rounds t c and the division (1 ulp of u, at most half that of the result,
// |u| <= 1/16 against atan t >= 1/8 - 1/16 where c > 0); the table's constant
// 0.5, the series about 0.5 of u, their sum 0.5, the quadrant's subtraction
// 0.5, glibc 1. (Measured: 2 ulp at most over 2 million points; the angle
// halvings this replaced measured 5.)
constexpr double kAtanUlps = 4;

TEST(PortableTrig, SineAndCosineAreWithinFourUlpOfGlibc) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> small(-7.0, 7.0), wide(-1e5, 1e5);
  double worst_sin = 0, worst_cos = 0;
  for (int n = 0; n < 200000; ++n) {
    const double x = n % 2 ? small(rng) : wide(rng);
    double s, c;
    portable_sin_cos(x, s, c);
    // Near a zero of sin or cos, an ulp of the result is far below an ulp of
    // x: compare there against the absolute error x's ulp allows.
    const double floor = std::fabs(x) * 0x1p-52;
    worst_sin = std::max(worst_sin, std::fabs(s - std::sin(x)) <= floor ? 0 : ulps(s, std::sin(x)));
    worst_cos = std::max(worst_cos, std::fabs(c - std::cos(x)) <= floor ? 0 : ulps(c, std::cos(x)));
  }
  EXPECT_LE(worst_sin, kUlps);
  EXPECT_LE(worst_cos, kUlps);
}

TEST(PortableTrig, SmallAnglesAndQuadrantsAreExactWhereTheyMustBe) {
  double s, c;
  portable_sin_cos(0.0, s, c);
  EXPECT_EQ(s, 0.0);
  EXPECT_EQ(c, 1.0);
  portable_sin_cos(1e-10, s, c);  // the exponential map's small turns
  EXPECT_EQ(s, 1e-10);
  EXPECT_EQ(c, 1.0);
  // Each quadrant's signs, at the middle of each.
  for (int q = -4; q < 4; ++q) {
    const double x = (q + 0.5) * 1.5707963267948966;
    portable_sin_cos(x, s, c);
    EXPECT_EQ(std::signbit(s), std::signbit(std::sin(x))) << q;
    EXPECT_EQ(std::signbit(c), std::signbit(std::cos(x))) << q;
  }
  portable_sin_cos(std::numeric_limits<double>::quiet_NaN(), s, c);
  EXPECT_TRUE(std::isnan(s) && std::isnan(c));
  portable_sin_cos(std::numeric_limits<double>::infinity(), s, c);
  EXPECT_TRUE(std::isnan(s) && std::isnan(c));
}

TEST(PortableTrig, ArctangentIsWithinFourUlpOfGlibcInEveryQuadrant) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> coordinate(-3.0, 3.0);
  std::uniform_int_distribution<int> exponent(-30, 30);
  double worst = 0;
  for (int n = 0; n < 200000; ++n) {
    const double y = std::ldexp(coordinate(rng), exponent(rng));
    const double x = std::ldexp(coordinate(rng), exponent(rng));
    worst = std::max(worst, ulps(portable_atan2(y, x), std::atan2(y, x)));
  }
  EXPECT_LE(worst, kAtanUlps);
}

TEST(PortableTrig, ArctangentKeepsTheLibrarysSpecialValues) {
  for (const double y : {0.0, -0.0, 1.0, -1.0})
    for (const double x : {0.0, -0.0, 1.0, -1.0, 1e-300, -1e300}) {
      const double ours = portable_atan2(y, x), glibc = std::atan2(y, x);
      EXPECT_EQ(std::signbit(ours), std::signbit(glibc)) << y << ", " << x;
      EXPECT_LE(ulps(ours, glibc), kAtanUlps) << y << ", " << x;
    }
}

}  // namespace
}  // namespace pabd
