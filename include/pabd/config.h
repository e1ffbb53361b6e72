// Build-wide configuration: the scalar type and the host/device marker that
// lets every per-body and per-bond kernel compile both as C++ and as CUDA.
#pragma once

#if defined(__CUDACC__)
#define PABD_HD __host__ __device__ inline
#define PABD_HD_ALWAYS_INLINE __host__ __device__ __forceinline__
/// A stage's loop body, `[=] PABD_LAMBDA (int i) { ... }`: a lambda that
/// both a CPU loop and a CUDA launch can run (nvcc --extended-lambda).
#define PABD_LAMBDA __host__ __device__
#else
#define PABD_LAMBDA
#define PABD_HD inline
/// For small helpers of the hot kernels that the compiler otherwise keeps as
/// calls: GCC 12 kept world_point and contact_points as calls in the contact
/// kernel and returned their results through memory (perf).
#define PABD_HD_ALWAYS_INLINE inline __attribute__((always_inline))
#endif

namespace pabd {

/// Floating-point type of all state and kernels (double by default).
using Real = double;

}  // namespace pabd
