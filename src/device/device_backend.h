// A device backend: where the device part of a step runs (device_step.h).
// One interface, two makers: CUDA (src/cuda/cuda_backend.cu, built with
// PABD_CUDA; cuda_absent.cpp says how to get it otherwise) and a serial host
// stand-in that runs the same mirroring and the same loops, which the CPU
// tests use to check the backend where no GPU is (emulated_backend.cpp).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "collision/broadphase_pipeline.h"
#include "device/device_memory.h"
#include "solver/step_context.h"
#include "solver/step_stages.h"

namespace pabd {

struct DeviceBroadphaseResult;
struct DetectedContacts;
struct ContactDetectInput;
class ContactDetector;

class DeviceBackend {
 public:
  virtual ~DeviceBackend() = default;
  /// The device, in words ("NVIDIA H200", "emulated on the host").
  virtual std::string name() const = 0;
  /// Whether this step's contacts can be detected on the device: every
  /// shape's geometry is there (device_broadphase.h). If not, the step
  /// detects on the host and run_loops copies the contacts over.
  virtual bool detects(const ContactDetectInput& in) const = 0;
  /// The detect stage on the device (device_contacts.h), from
  /// ctx.detect_input: ctx.detector's contacts go over first where they
  /// changed since the device last had them (contact_handover.h).
  /// ctx.contact and ctx.contact_ends then point at the device's arrays;
  /// ctx.timings gets the detection's stage times. The pairs' graph stays
  /// on the device (ctx.contact_graph is empty): island momentum reads it
  /// there (run_loops), and so do the guard's carried speeds
  /// (carry_contact_speeds).
  virtual void detect_stage(StepContext& ctx) = 0;
  /// Copies the context's arrays (host memory) to the device, runs the
  /// predict, warm start and iterate loops there over `sweeps`, then island
  /// momentum (the islands' lists built on the host, solver/island_momentum.h),
  /// the velocities and restitution, and copies back what they wrote; times
  /// them into ctx.timings. With `contacts_on_device` the contacts are
  /// detect_stage's, already there, and stay there; otherwise they are host
  /// arrays, copied like the rest.
  virtual void run_loops(StepContext& ctx, const IterationColouring& sweeps,
                         bool contacts_on_device) = 0;
  /// Brings the device's contacts into `host` when they are newer than its
  /// (a device step's, with what its iterations wrote), so that host readers
  /// see them; true when it did.
  virtual bool bring_back_contacts(ContactDetector& host) = 0;
  /// The number of contacts `host` would hold after bring_back_contacts,
  /// without bringing them.
  virtual int contact_count(const ContactDetector& host) const = 0;
  /// The broadphase of `poses` (host arrays) run on the device
  /// (device_broadphase.h): its pairs and plane pairs, the same as
  /// Broadphase's, brought back (for its tests: the step's detection runs
  /// its own).
  virtual void broadphase(const ShapePoseView& poses, const AabbSettings& settings,
                          DeviceBroadphaseResult& out) = 0;
  /// Contact detection of `in` (host arrays) on the device
  /// (device_contacts.h), this step's contacts kept there for the next
  /// one's matching; with `out`, its results brought back. For its tests:
  /// it shares the step's detector, so a world's steps do not mix with it.
  virtual void detect_contacts(const ContactDetectInput& in, DetectedContacts* out) = 0;
  /// The divergence guard's speeds carried over the last step's contact
  /// pairs (solver/carried_speed.h: contact_carried_speed, for every body,
  /// with `extent`), from the device's contacts and end-of-step state, into
  /// `out`; false, with nothing done, when the device does not hold both
  /// (the host detected): then the host carries them over its own pairs.
  virtual bool carry_contact_speeds(double extent, std::vector<double>& out) = 0;
  /// Most device memory held so far [bytes].
  virtual std::size_t peak_memory() const = 0;
  /// Bytes copied each way since the backend was made.
  virtual CopiedBytes copied() const = 0;
};

/// The CUDA backend on the first visible device; throws pabd::Error when
/// pabd was built without CUDA or no CUDA device is found.
std::unique_ptr<DeviceBackend> make_cuda_backend();
/// The serial host stand-in, with its own copies of every array. With
/// `library_scans`, the detect stages' scans and sorts are the standard
/// library's in the place of CUB's (emulated_backend.cpp).
std::unique_ptr<DeviceBackend> make_emulated_backend(bool library_scans = false);

}  // namespace pabd
