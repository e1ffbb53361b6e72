// Where a device backend keeps its copies of the step's arrays: memory that
// the host reaches only through copies (a GPU's), behind one small interface
// so that the same mirroring code (array_mirror.h) serves CUDA
// (src/cuda/cuda_backend.cu) and the tests' host stand-in
// (emulated_backend.cpp). Host-side calls only: nothing here runs in a kernel.
#pragma once

#include <cstddef>

namespace pabd {

/// Bytes copied each way since a DeviceMemory was made, and the copies:
/// each waits for the device, so their number costs a step time too.
struct CopiedBytes {
  std::size_t up = 0;    ///< host to device
  std::size_t down = 0;  ///< device to host
  std::size_t uploads = 0, downloads = 0;
};

class DeviceMemory {
 public:
  virtual ~DeviceMemory() = default;
  /// `bytes` of device memory (> 0); throws pabd::Error when there is none left.
  virtual void* allocate(std::size_t bytes) = 0;
  virtual void release(void* device) = 0;
  /// The copies, counted here so that every backend reports what it moved.
  void upload(void* device, const void* host, std::size_t bytes) {
    copied_.up += bytes;
    ++copied_.uploads;
    copy_to_device(device, host, bytes);
  }
  void download(void* host, const void* device, std::size_t bytes) {
    copied_.down += bytes;
    ++copied_.downloads;
    copy_to_host(host, device, bytes);
  }
  CopiedBytes copied() const { return copied_; }
  /// Fills device memory that the loops must write before they read it (a
  /// step's scratch, ArrayMirror::Copy::None and Copy::Out) with bytes no
  /// result is made of: the host stand-in does, so that a read before the
  /// write shows in its tests; a GPU leaves it as it is.
  virtual void scribble(void* /*device*/, std::size_t /*bytes*/) {}

 private:
  virtual void copy_to_device(void* device, const void* host, std::size_t bytes) = 0;
  virtual void copy_to_host(void* host, const void* device, std::size_t bytes) = 0;

  CopiedBytes copied_;
};

}  // namespace pabd
