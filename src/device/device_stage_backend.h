// The backend the detect stages run on a device (collision/broadphase_pipeline.h,
// contacts/contact_stages.h): DeviceArrays, the device's loops as a
// block-loop executor, the device's clock.
//
// Its block loops give each block of kLoopBlock elements one device thread
// (the same split as the host's, so the same results); the serial parts
// (scans of block sums, the radix digits' prefix) are a one-thread launch.
// Where the device's loops have scans and sorts of their own (CUDA: CUB's,
// with the whole card), the stages use those instead: the same results
// (core/block_loops.h: ExecutorOwnScans).
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/block_loops.h"
#include "device/device_array.h"

namespace pabd {

/// The block-loop executor (core/block_loops.h) of a device's loops.
template <typename Loops>
struct DeviceBlockLoops {
  const Loops* loops = nullptr;
  DeviceMemory* memory = nullptr;

  template <typename Fn>
  void each(int n, const Fn& f) const {
    loops->each(n, f);
  }
  template <typename Fn>
  void each_block(int n, const Fn& f) const {
    loops->each(loop_block_count(n), [=] PABD_LAMBDA(int b) {
      const int begin = b * kLoopBlock;
      const int end = n - begin > kLoopBlock ? begin + kLoopBlock : n;
      f(b, begin, end);
    });
  }
  template <typename Fn>
  void serial(const Fn& f) const {
    loops->each(1, [=] PABD_LAMBDA(int) { f(); });
  }
  /// Waits for the loops launched so far (a copy does, on the device's stream).
  template <typename T>
  T read(const T* p) const {
    T value{};
    memory->download(&value, p, sizeof(T));
    return value;
  }

  // The device's own scans and sorts, where its loops have them
  // (core/block_loops.h: ExecutorOwnScans); unused otherwise.
  static constexpr bool kOwnScans = ExecutorOwnScans<Loops>::value;
  bool own_scans() const { return loops->own_scans(); }
  long long exclusive_scan(const int* in, int* out, int n) const {
    return loops->exclusive_scan(in, out, n);
  }
  void sort_by_key(std::uint64_t* keys, int* values, std::uint64_t* keys_tmp, int* values_tmp,
                   int n, int end_bit) const {
    loops->sort_by_key(keys, values, keys_tmp, values_tmp, n, end_bit);
  }
};

/// The detect stages' backend on a device (collision/broadphase_pipeline.h,
/// contacts/contact_stages.h): its memory, its loops, its clock.
template <typename Loops>
struct DeviceStageBackend {
  template <typename T>
  using Array = DeviceArray<T>;
  using Mark = typename Loops::Mark;
  /// The adjacency by the stable radix sort (contact_adjacency_stage).
  static constexpr bool kSerialAdjacency = false;

  const Loops* device_loops = nullptr;
  DeviceMemory* memory = nullptr;
  DeviceMeter* meter = nullptr;

  DeviceBlockLoops<Loops> loops() const { return {device_loops, memory}; }
  template <typename T>
  T* room(DeviceArray<T>& a, std::size_t n) const {
    return a.reserve(*memory, *meter, n);
  }
  /// The device hands no vector out, and maps nothing ahead: sized like room.
  template <typename T>
  T* exact(DeviceArray<T>& a, std::size_t n) const {
    return room(a, n);
  }
  template <typename T>
  T* room_lazy(DeviceArray<T>& a, std::size_t n) const {
    return room(a, n);
  }
  Mark start() const { return device_loops->start(); }
  void stop(Mark mark, double& ms) const { device_loops->stop(mark, ms); }
  void finish() const { device_loops->finish(); }
};

}  // namespace pabd
