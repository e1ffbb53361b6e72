// The CUDA device backend (device/device_backend.h): CUDA memory and a CUDA
// executor given to the mirrored backend (device/mirrored_backend.h), so the
// step's loops (solver/step_loops.h) launch one thread per index on the
// first visible device. Built with PABD_CUDA; nothing else in pabd names CUDA.
#include <cuda_runtime.h>

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
  void upload(void* device, const void* host, std::size_t bytes) override {
    check(cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice), "copy to the device");
  }
  void download(void* host, const void* device, std::size_t bytes) override {
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

/// One thread per index, on the default stream, in launch order.
struct CudaLoops : OneKindOfLoop<CudaLoops> {
  std::shared_ptr<CudaStageTimers> timers = std::make_shared<CudaStageTimers>();
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
