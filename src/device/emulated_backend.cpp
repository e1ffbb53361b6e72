// The device backend's serial host stand-in (device_backend.h): its "device
// memory" is separate host buffers, reached only through copies, and its
// loops run one index after another. It runs the CUDA backend's mirroring
// and loops where no GPU is, so the CPU tests check them: the bits must be
// the CPU step's.
#include <cstdlib>
#include <cstring>

#include "device/mirrored_backend.h"
#include "pabd/world.h"

namespace pabd {

namespace {

class HostBufferMemory final : public DeviceMemory {
 public:
  void* allocate(std::size_t bytes) override {
    void* p = std::malloc(bytes);
    if (!p) throw Error("emulated device: out of memory");
    return p;
  }
  void release(void* device) override { std::free(device); }
  void upload(void* device, const void* host, std::size_t bytes) override {
    std::memcpy(device, host, bytes);
  }
  void download(void* host, const void* device, std::size_t bytes) override {
    std::memcpy(host, device, bytes);
  }
  /// All bits set: a NaN in every double, -1 in every index.
  void scribble(void* device, std::size_t bytes) override { std::memset(device, 0xff, bytes); }
};

/// Every index in turn, on the calling thread.
struct SerialLoops : HostStageTimer, OneKindOfLoop<SerialLoops> {
  template <typename Fn>
  void each(int n, const Fn& f) const {
    for (int i = 0; i < n; ++i) f(i);
  }
  void finish() const {}
};

}  // namespace

std::unique_ptr<DeviceBackend> make_emulated_backend() {
  return std::make_unique<MirroredBackend<HostBufferMemory, SerialLoops>>(
      "emulated on the host", HostBufferMemory{}, SerialLoops{});
}

}  // namespace pabd
