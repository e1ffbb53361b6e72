// The CUDA device backend (device/device_backend.h): CUDA memory and a CUDA
// executor given to the mirrored backend (device/mirrored_backend.h), so the
// step's loops (solver/step_loops.h) launch one thread per index on the
// first visible device. Built with PABD_CUDA; nothing else in pabd names CUDA.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>
#include <memory>
#include <string>
#include <vector>

#include "device/mirrored_backend.h"
#include "pabd/world.h"

namespace pabd {

namespace {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw Error(std::string("device cuda: ") + what + ": " + cudaGetErrorString(status));
}

class CudaMemory final : public DeviceMemory {
 public:
  void* allocate(std::size_t bytes) override {
    void* p = nullptr;
    check(cudaMalloc(&p, bytes), "cudaMalloc");
    return p;
  }
  void release(void* device) override { cudaFree(device); }
  void copy_to_device(void* device, const void* host, std::size_t bytes) override {
    check(cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice), "copy to the device");
  }
  void copy_to_host(void* host, const void* device, std::size_t bytes) override {
    check(cudaMemcpy(host, device, bytes, cudaMemcpyDeviceToHost), "copy from the device");
  }
};

template <typename Fn>
__global__ void each_index_kernel(int n, Fn f) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) f(i);
}

/// A body's solve holds a 12x12 system in doubles (255 registers a thread in
/// the contact sweeps): 128 threads a block, two blocks an SM.
constexpr int kThreadsPerBlock = 128;

/// Stage timing by the device's clock: CUDA events recorded between the
/// launches, read once the device is done (CudaLoops::finish). No wait
/// between the launches: a colored sweep launches some 600 loops a step.
class CudaStageTimers {
 public:
  CudaStageTimers() = default;
  CudaStageTimers(const CudaStageTimers&) = delete;
  CudaStageTimers& operator=(const CudaStageTimers&) = delete;
  ~CudaStageTimers() {
    for (cudaEvent_t e : events_) cudaEventDestroy(e);
  }
  /// Records the next event of the pool (created once, reused every step).
  int record() {
    if (next_ == events_.size()) {
      cudaEvent_t e = nullptr;
      check(cudaEventCreate(&e), "cudaEventCreate");
      events_.push_back(e);
    }
    check(cudaEventRecord(events_[next_]), "cudaEventRecord");
    return static_cast<int>(next_++);
  }
  void add_later(int from, int to, double* ms) { pending_.push_back({from, to, ms}); }
  /// Adds every pending interval to its figure; the device must be done.
  void settle() {
    for (const Pending& p : pending_) {
      float ms = 0;
      check(cudaEventElapsedTime(&ms, events_[p.from], events_[p.to]), "cudaEventElapsedTime");
      *p.ms += ms;
    }
    pending_.clear();
    next_ = 0;
  }

 private:
  struct Pending {
    int from, to;
    double* ms;
  };
  std::vector<cudaEvent_t> events_;
  std::vector<Pending> pending_;
  std::size_t next_ = 0;
};

/// Device scratch of CUB's algorithms: one buffer, grown to twice the size
/// asked and kept, and a slot for a scan's total.
class CubScratch {
 public:
  CubScratch() = default;
  CubScratch(const CubScratch&) = delete;
  CubScratch& operator=(const CubScratch&) = delete;
  ~CubScratch() {
    if (data_) cudaFree(data_);
    if (total_) cudaFree(total_);
  }
  void* room(std::size_t bytes) {
    if (bytes <= capacity_ && data_) return data_;
    if (data_) cudaFree(data_);
    data_ = nullptr;
    capacity_ = 0;
    check(cudaMalloc(&data_, 2 * bytes + 1), "cudaMalloc (CUB's scratch)");
    capacity_ = 2 * bytes + 1;
    peak_ = std::max(peak_, capacity_ + sizeof(long long));
    return data_;
  }
  long long* total() {
    if (!total_) check(cudaMalloc(&total_, sizeof(long long)), "cudaMalloc (a scan's total)");
    return total_;
  }
  std::size_t peak_bytes() const { return peak_; }

 private:
  void* data_ = nullptr;
  std::size_t capacity_ = 0, peak_ = 0;
  long long* total_ = nullptr;
};

/// The detect stages' scans and sorts by CUB (core/block_loops.h:
/// ExecutorOwnScans) unless PABD_CUDA_BLOCK_SCANS is set, which keeps the
/// host's blocks of 4096 (a thread each): the same results either way.
bool cub_scans_chosen() { return std::getenv("PABD_CUDA_BLOCK_SCANS") == nullptr; }

/// One thread per index, on the default stream, in launch order.
struct CudaLoops : OneKindOfLoop<CudaLoops> {
  std::shared_ptr<CudaStageTimers> timers = std::make_shared<CudaStageTimers>();
  std::shared_ptr<CubScratch> cub_scratch = std::make_shared<CubScratch>();
  bool cub_scans = cub_scans_chosen();
  using Mark = int;

  template <typename Fn>
  void each(int n, const Fn& f) const {
    if (n <= 0) return;
    each_index_kernel<<<(n + kThreadsPerBlock - 1) / kThreadsPerBlock, kThreadsPerBlock>>>(n, f);
    check(cudaGetLastError(), "kernel launch");
  }
  Mark start() const { return timers->record(); }
  void stop(Mark mark, double& ms) const { timers->add_later(mark, timers->record(), &ms); }
  void finish() const {
    check(cudaDeviceSynchronize(), "kernel");
    timers->settle();
  }
  std::size_t scratch_peak_bytes() const { return cub_scratch->peak_bytes(); }

  static constexpr bool kOwnScans = true;
  bool own_scans() const { return cub_scans; }
  /// block_exclusive_scan_on's result: CUB sums in 64 bits (the init's
  /// type) and stores each as int, as the blocks do; the total by a 64-bit
  /// reduction before the scan (in and out may alias).
  long long exclusive_scan(const int* in, int* out, int n) const {
    if (n <= 0) return 0;
    long long* total = cub_scratch->total();
    const ::cuda::std::plus<> add;
    std::size_t reduce_bytes = 0, scan_bytes = 0;
    check(cub::DeviceReduce::Reduce(nullptr, reduce_bytes, in, total, n, add, 0LL), "CUB reduce");
    check(cub::DeviceScan::ExclusiveScan(nullptr, scan_bytes, in, out, add, 0LL, n), "CUB scan");
    void* temp = cub_scratch->room(std::max(reduce_bytes, scan_bytes));
    check(cub::DeviceReduce::Reduce(temp, reduce_bytes, in, total, n, add, 0LL), "CUB reduce");
    check(cub::DeviceScan::ExclusiveScan(temp, scan_bytes, in, out, add, 0LL, n), "CUB scan");
    long long host = 0;
    check(cudaMemcpy(&host, total, sizeof host, cudaMemcpyDeviceToHost), "a scan's total");
    return host;
  }
  /// radix_sort_by_key_on's result: CUB's radix sort is stable.
  void sort_by_key(std::uint64_t* keys, int* values, std::uint64_t* keys_tmp, int* values_tmp,
                   int n, int end_bit) const {
    if (n <= 1) return;
    cub::DoubleBuffer<std::uint64_t> k(keys, keys_tmp);
    cub::DoubleBuffer<int> v(values, values_tmp);
    std::size_t bytes = 0;
    check(cub::DeviceRadixSort::SortPairs(nullptr, bytes, k, v, n, 0, end_bit), "CUB sort");
    check(cub::DeviceRadixSort::SortPairs(cub_scratch->room(bytes), bytes, k, v, n, 0, end_bit),
          "CUB sort");
    if (k.Current() != keys) {
      check(cudaMemcpyAsync(keys, k.Current(), std::size_t(n) * sizeof(std::uint64_t),
                            cudaMemcpyDeviceToDevice),
            "the sorted keys");
      check(cudaMemcpyAsync(values, v.Current(), std::size_t(n) * sizeof(int),
                            cudaMemcpyDeviceToDevice),
            "the sorted values");
    }
  }
};

}  // namespace

std::unique_ptr<DeviceBackend> make_cuda_backend() {
  int count = 0;
  const cudaError_t found = cudaGetDeviceCount(&count);
  if (found != cudaSuccess || count == 0)
    throw Error(std::string("device cuda: no CUDA device found (") +
                (found != cudaSuccess ? cudaGetErrorString(found) : "none visible") + ")");
  // The default stack (1 KiB a thread) holds the deepest loop: ptxas gives
  // the contact sweeps' bodies 255 registers and 160 bytes of stack frame
  // (nvcc -Xptxas -v, sm_90).
  check(cudaSetDevice(0), "cudaSetDevice");
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  return std::make_unique<MirroredBackend<CudaMemory, CudaLoops>>(std::string(prop.name),
                                                                  CudaMemory{}, CudaLoops{});
}

}  // namespace pabd
