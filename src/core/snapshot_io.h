// The byte format of World::save_state: plain arrays of fixed-size values
// written one after another, each after its element count, read back with
// every count and the total length checked. Raw bytes, so a snapshot is for
// the same build on the same kind of machine (endianness, Real's size).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "pabd/world.h"

namespace pabd {

class SnapshotWriter {
 public:
  template <typename T>
  void value(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
    bytes_.insert(bytes_.end(), p, p + sizeof(T));
  }
  /// n elements from data, after their count.
  template <typename T>
  void array(const T* data, std::size_t n) {
    static_assert(std::is_trivially_copyable_v<T>);
    value(static_cast<std::uint64_t>(n));
    const auto* p = reinterpret_cast<const std::uint8_t*>(data);
    if (n > 0) bytes_.insert(bytes_.end(), p, p + n * sizeof(T));
  }
  template <typename T>
  void array(const std::vector<T>& v) {
    array(v.data(), v.size());
  }
  std::vector<std::uint8_t> take() { return std::move(bytes_); }

 private:
  std::vector<std::uint8_t> bytes_;
};

/// Reads what SnapshotWriter wrote; throws pabd::Error ("restore_state: ...")
/// on a short read or a count that is not the expected one.
class SnapshotReader {
 public:
  SnapshotReader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  template <typename T>
  T value() {
    static_assert(std::is_trivially_copyable_v<T>);
    T v;
    take(&v, sizeof(T));
    return v;
  }
  /// An array's count, checked against `expected` (the world's own size).
  std::size_t count(std::size_t expected, const char* what) {
    const auto n = value<std::uint64_t>();
    if (n != expected)
      throw Error(std::string("restore_state: the snapshot has ") + std::to_string(n) + " " + what +
                  ", this world " + std::to_string(expected) +
                  " (a snapshot restores into a world built from the same scene)");
    return static_cast<std::size_t>(n);
  }
  /// An array of exactly `expected` elements into out.
  template <typename T>
  void array(T* out, std::size_t expected, const char* what) {
    static_assert(std::is_trivially_copyable_v<T>);
    const std::size_t n = count(expected, what);
    if (n > 0) take(out, n * sizeof(T));
  }
  template <typename T>
  void array(std::vector<T>& out, const char* what) {
    array(out.data(), out.size(), what);
  }
  /// An array of any length up to `limit` elements, into a resized vector.
  template <typename T>
  void any_array(std::vector<T>& out, std::size_t limit, const char* what) {
    const auto n = value<std::uint64_t>();
    if (n > limit) throw Error(std::string("restore_state: corrupt snapshot (") + what + ")");
    if (n * sizeof(T) > size_ - at_) throw Error("restore_state: truncated snapshot");
    out.resize(static_cast<std::size_t>(n));
    if (n > 0) take(out.data(), static_cast<std::size_t>(n) * sizeof(T));
  }
  /// Throws when bytes are left over.
  void finish() const {
    if (at_ != size_)
      throw Error("restore_state: " + std::to_string(size_ - at_) +
                  " bytes after the end of the snapshot");
  }

 private:
  void take(void* out, std::size_t n) {
    if (n > size_ - at_) throw Error("restore_state: truncated snapshot");
    std::memcpy(out, data_ + at_, n);
    at_ += n;
  }
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

}  // namespace pabd
