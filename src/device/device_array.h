// An array in device memory (device_memory.h) that a device's stages own
// outright (the broadphase's: device_broadphase.h), not a copy of a host
// array (array_mirror.h). Grown to twice the asked size when it outgrows its
// buffer, never shrunk, so after a scene's first steps nothing is allocated;
// the contents are not kept across a growth (every stage writes what it
// reads first). Host-side object: kernels get data().
#pragma once

#include <cstddef>
#include <utility>

#include "device/device_memory.h"

namespace pabd {

/// Device memory held by a backend's own arrays [bytes]: now and at most.
struct DeviceMeter {
  std::size_t held = 0;
  std::size_t peak = 0;
};

template <typename T>
class DeviceArray {
 public:
  DeviceArray() = default;
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  DeviceArray(DeviceArray&& o) noexcept { swap(o); }
  DeviceArray& operator=(DeviceArray&& o) noexcept {
    swap(o);
    return *this;
  }
  ~DeviceArray() { free(); }

  /// At least n elements in `memory` (from which any earlier buffer came),
  /// counted in `meter`; returns the buffer (null for none).
  T* reserve(DeviceMemory& memory, DeviceMeter& meter, std::size_t n) {
    if (n <= capacity_) return data_;
    free();
    const std::size_t capacity = 2 * n;
    data_ = static_cast<T*>(memory.allocate(capacity * sizeof(T)));
    memory_ = &memory;
    meter_ = &meter;
    capacity_ = capacity;
    meter.held += capacity * sizeof(T);
    if (meter.held > meter.peak) meter.peak = meter.held;
    return data_;
  }
  T* data() const { return data_; }

 private:
  void free() {
    if (!data_) return;
    memory_->release(data_);
    meter_->held -= capacity_ * sizeof(T);
    data_ = nullptr;
    capacity_ = 0;
  }
  void swap(DeviceArray& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(capacity_, o.capacity_);
    std::swap(memory_, o.memory_);
    std::swap(meter_, o.meter_);
  }

  T* data_ = nullptr;
  std::size_t capacity_ = 0;
  DeviceMemory* memory_ = nullptr;
  DeviceMeter* meter_ = nullptr;
};

}  // namespace pabd
