// The device backend's serial host stand-in (device_backend.h): its "device
// memory" is separate host buffers, reached only through copies, and its
// loops run one index after another. It runs the CUDA backend's mirroring
// and loops where no GPU is, so the CPU tests check them: the bits must be
// the CPU step's.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <vector>

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
  void copy_to_device(void* device, const void* host, std::size_t bytes) override {
    std::memcpy(device, host, bytes);
  }
  void copy_to_host(void* host, const void* device, std::size_t bytes) override {
    std::memcpy(host, device, bytes);
  }
  /// All bits set: a NaN in every double, -1 in every index.
  void scribble(void* device, std::size_t bytes) override { std::memset(device, 0xff, bytes); }
};

/// Every index in turn, on the calling thread. With library_scans, the
/// detect stages' scans and sorts are the standard library's, where CUDA's
/// are CUB's (core/block_loops.h: ExecutorOwnScans): another algorithm held
/// to the same contract, so the tests check what the stages ask of CUB.
struct SerialLoops : HostStageTimer, OneKindOfLoop<SerialLoops> {
  bool library_scans = false;

  template <typename Fn>
  void each(int n, const Fn& f) const {
    for (int i = 0; i < n; ++i) f(i);
  }
  void finish() const {}
  std::size_t scratch_peak_bytes() const { return 0; }

  static constexpr bool kOwnScans = true;
  bool own_scans() const { return library_scans; }
  long long exclusive_scan(const int* in, int* out, int n) const {
    if (n <= 0) return 0;
    const long long total = std::accumulate(in, in + n, 0LL);
    std::exclusive_scan(in, in + n, out, 0LL);  // sums in 64 bits, stored as int
    return total;
  }
  void sort_by_key(std::uint64_t* keys, int* values, std::uint64_t* keys_tmp, int* values_tmp,
                   int n, int end_bit) const {
    const std::uint64_t mask =
        end_bit >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << end_bit) - 1;
    std::vector<int> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return (keys[a] & mask) < (keys[b] & mask); });
    for (int i = 0; i < n; ++i) {
      keys_tmp[i] = keys[order[static_cast<std::size_t>(i)]];
      values_tmp[i] = values[order[static_cast<std::size_t>(i)]];
    }
    std::copy(keys_tmp, keys_tmp + n, keys);
    std::copy(values_tmp, values_tmp + n, values);
  }
};

}  // namespace

std::unique_ptr<DeviceBackend> make_emulated_backend(bool library_scans) {
  SerialLoops loops;
  loops.library_scans = library_scans;
  return std::make_unique<MirroredBackend<HostBufferMemory, SerialLoops>>(
      library_scans ? "emulated on the host (library scans)" : "emulated on the host",
      HostBufferMemory{}, loops);
}

}  // namespace pabd
