// Build-wide configuration: the scalar type and the host/device marker that
// lets every per-body and per-bond kernel compile both as C++ and as CUDA.
#pragma once

#if defined(__CUDACC__)
#define PABD_HD __host__ __device__ inline
#else
#define PABD_HD inline
#endif

namespace pabd {

/// Floating-point type of all state and kernels (double by default).
using Real = double;

}  // namespace pabd
