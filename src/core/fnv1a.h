// FNV-1a, 64 bits, over 8-byte words (low byte first): the state hash the
// golden tests pin and the model fingerprint of snapshots.
#pragma once

#include <bit>
#include <cstdint>

namespace pabd {

class Fnv1a {
 public:
  void add(std::uint64_t bits) {
    for (int k = 0; k < 8; ++k) {
      h_ ^= (bits >> (8 * k)) & 0xffu;
      h_ *= 1099511628211ull;  // FNV prime
    }
  }
  void add(double x) { add(std::bit_cast<std::uint64_t>(x)); }
  std::uint64_t value() const { return h_; }

 private:
  std::uint64_t h_ = 1469598103934665603ull;  // offset basis
};

}  // namespace pabd
