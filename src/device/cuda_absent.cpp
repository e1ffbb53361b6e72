// make_cuda_backend for builds without CUDA (PABD_CUDA off): says how to get it.
#include "device/device_backend.h"
#include "pabd/world.h"

namespace pabd {

std::unique_ptr<DeviceBackend> make_cuda_backend() {
  throw Error(
      "device cuda: this pabd was built without CUDA (configure with -DPABD_CUDA=ON where nvcc "
      "is installed; scripts/gpu_check.sh does)");
}

}  // namespace pabd
