// 63-bit Morton codes: each AABB centre, scaled into the scene bounds, is
// quantised to 21 bits per axis and the bits are interleaved (x in bit 3k+2,
// y in 3k+1, z in 3k). Sorting by this code lays the bodies along a Z-order
// curve, so bodies close in the sorted order are close in space, and the
// Karras tree is read directly from the codes' common prefixes.
#pragma once

#include <cstdint>

#include "shapes/aabb.h"

namespace pabd {

/// Bits per axis; 3 * 21 = 63 bits of the 64-bit code are used (bit 63 is 0).
inline constexpr int kMortonBitsPerAxis = 21;

/// Spreads the low 21 bits of x so that bit k moves to bit 3k.
PABD_HD std::uint64_t morton_spread_bits(std::uint64_t x) {
  x &= 0x1fffffull;
  x = (x | (x << 32)) & 0x1f00000000ffffull;
  x = (x | (x << 16)) & 0x1f0000ff0000ffull;
  x = (x | (x << 8)) & 0x100f00f00f00f00full;
  x = (x | (x << 4)) & 0x10c30c30c30c30c3ull;
  x = (x | (x << 2)) & 0x1249249249249249ull;
  return x;
}

/// Interleaves three 21-bit integers into a 63-bit code (x highest).
PABD_HD std::uint64_t morton_interleave(std::uint32_t x, std::uint32_t y, std::uint32_t z) {
  return (morton_spread_bits(x) << 2) | (morton_spread_bits(y) << 1) | morton_spread_bits(z);
}

/// Quantises t in [0, 1] (clamped; NaN gives 0) to an integer in [0, 2^21 - 1].
PABD_HD std::uint32_t morton_quantize(Real t) {
  const Real cells = Real(1u << kMortonBitsPerAxis);
  const Real s = t * cells;
  if (!(s > 0)) return 0;
  if (s >= cells - 1) return (1u << kMortonBitsPerAxis) - 1;
  return static_cast<std::uint32_t>(s);
}

/// Morton code of point p inside bounds (a degenerate axis maps to 0).
PABD_HD std::uint64_t morton_code(Vec3 p, const Aabb& bounds) {
  const Vec3 ext = bounds.hi - bounds.lo;
  const Real tx = ext.x > 0 ? (p.x - bounds.lo.x) / ext.x : Real(0);
  const Real ty = ext.y > 0 ? (p.y - bounds.lo.y) / ext.y : Real(0);
  const Real tz = ext.z > 0 ? (p.z - bounds.lo.z) / ext.z : Real(0);
  return morton_interleave(morton_quantize(tx), morton_quantize(ty), morton_quantize(tz));
}

}  // namespace pabd
