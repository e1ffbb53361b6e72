// A device backend: where the device part of a step runs (device_step.h).
// One interface, two makers: CUDA (src/cuda/cuda_backend.cu, built with
// PABD_CUDA; cuda_absent.cpp says how to get it otherwise) and a serial host
// stand-in that runs the same mirroring and the same loops, which the CPU
// tests use to check the backend where no GPU is (emulated_backend.cpp).
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "collision/broadphase_pipeline.h"
#include "solver/step_context.h"
#include "solver/step_stages.h"

namespace pabd {

struct DeviceBroadphaseResult;
struct DetectedContacts;
struct ContactDetectInput;

class DeviceBackend {
 public:
  virtual ~DeviceBackend() = default;
  /// The device, in words ("NVIDIA H200", "emulated on the host").
  virtual std::string name() const = 0;
  /// Copies the context's arrays (host memory) to the device, runs the
  /// predict, warm start and iterate loops there over `sweeps`,
  /// and copies back what they wrote; times them into ctx.timings.
  virtual void run_loops(StepContext& ctx, const IterationColouring& sweeps) = 0;
  /// The broadphase of `poses` (host arrays) run on the device
  /// (device_broadphase.h): its pairs and plane pairs, the same as
  /// Broadphase's, brought back. Not yet part of run_loops' step.
  virtual void broadphase(const ShapePoseView& poses, const AabbSettings& settings,
                          DeviceBroadphaseResult& out) = 0;
  /// Contact detection of `in` (host arrays) on the device
  /// (device_contacts.h), this step's contacts kept there for the next
  /// one's matching; with `out`, its results brought back. Not yet part of
  /// run_loops' step.
  virtual void detect_contacts(const ContactDetectInput& in, DetectedContacts* out) = 0;
  /// Most device memory held so far [bytes].
  virtual std::size_t peak_memory() const = 0;
};

/// The CUDA backend on the first visible device; throws pabd::Error when
/// pabd was built without CUDA or no CUDA device is found.
std::unique_ptr<DeviceBackend> make_cuda_backend();
/// The serial host stand-in, with its own copies of every array.
std::unique_ptr<DeviceBackend> make_emulated_backend();

}  // namespace pabd
