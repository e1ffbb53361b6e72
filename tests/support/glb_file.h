// What the glTF tests share to read a .glb: the file's bytes and its
// little-endian 32-bit words (the container's header, chunk headers and
// buffer data).
#pragma once

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

namespace pabd {

/// The whole file as bytes ("" when it cannot be read).
inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

/// The little-endian uint32 at `offset` of `s`.
inline std::uint32_t u32_at(const std::string& s, std::size_t offset) {
  std::uint32_t v = 0;
  for (int k = 3; k >= 0; --k) v = (v << 8) | std::uint8_t(s[offset + std::size_t(k)]);
  return v;
}

}  // namespace pabd
