// The detect stage of the step: this step's contacts, from the start-of-step
// poses, in struct-of-arrays form for the solver (contact_arrays.h).
//
//   ContactDetector detector(threads);
//   detector.detect(input);                 // once per step, before the prediction
//   ContactArrays c = detector.arrays();    // per contact: bodies, anchors, normal, mu, AL state
//   ContactEnds e = detector.ends();        // per body: its contact ends (CSR)
//
// Stages, each a parallel loop writing only its own index (contact_detect_kernels.h;
// written once for the host and a device in contact_stages.h):
// the broadphase over fattened boxes (body pairs and body-plane pairs), each
// body's reach over the step, the narrowphase of every candidate pair into a
// fixed-size manifold with the margin widened by both reaches (speculative
// contacts), a deterministic prefix sum of the point counts, then every pair
// writes its points at its offset, matched by (pair, feature id) to the
// previous step's contacts for the warm start and the friction anchors. Last,
// the candidates with points become the step's contact pairs (a parallel
// merge by first body), and a counting sort (serial, in pair order) builds
// the body-to-pair-end adjacency. The
// contacts come out in two blocks, the near candidates' (a point within
// 0.1 g h^2, or a match that pushed at the end of the previous step: the
// pairs that push in most iterations) and then the
// others' (speculative pairs, which most iterations skip by their idle
// bounds), each in candidate order, then manifold order: the same for any
// thread count. The iterations then read the pushing contacts densely
// (pile_20: the solve 232 -> 109 ms per step at 1 thread).
//
// Bodies joined by a bond (any joint or spring) never collide with each
// other: a jointed assembly's neighbouring parts usually touch or overlap at
// their joints.
//
// Memory: every array grows when a step needs more (to twice the size asked,
// neither copied nor zeroed: core/scratch_array.h) and never shrinks; a
// step with no more pairs or contacts than an earlier one allocates nothing.
// The previous step's contacts live in a second set of arrays, swapped in at
// the start of each detection.
#pragma once

#include <cstdint>
#include <vector>

#include "collision/broadphase.h"
#include "collision/contact_manifold.h"
#include "contacts/contact_detect_input.h"
#include "contacts/contact_set.h"
#include "contacts/contact_stages.h"
#include "contacts/contact_topology.h"
#include "core/block_loops.h"
#include "core/scratch_array.h"
#include "core/stage_clock.h"
#include "model/bond_arrays.h"
#include "model/contact_arrays.h"
#include "shapes/body_aabb.h"

namespace pabd {

struct ContactLoadView;  // contacts/contact_load.h
class SnapshotWriter;    // core/snapshot_io.h
class SnapshotReader;

/// The host's backend of the detect stages (contact_stages.h): ScratchArrays,
/// Threading's loops.
struct HostContactBackend {
  template <typename T>
  using Array = ScratchArray<T>;
  /// The adjacency by a serial counting sort (contact_adjacency_stage).
  static constexpr bool kSerialAdjacency = true;

  Threading threading;

  ThreadingLoops loops() const { return ThreadingLoops{threading}; }
  /// Room for at least n elements (contents unspecified after a growth),
  /// mapped ahead of need: for arrays the step writes in full.
  template <typename T>
  T* room(ScratchArray<T>& v, long long n) const {
    return v.reserve_mapped(checked_size(n));
  }
  /// The same for arrays the step writes in part (a candidate's room for
  /// manifolds, the pair ends that push, the weights only the acceleration
  /// stage reads): mapped as they are written.
  template <typename T>
  T* room_lazy(ScratchArray<T>& v, long long n) const {
    return v.reserve_for(checked_size(n));
  }
  /// n as an array size; throws pabd::Error past 2^31 - 1.
  static std::size_t checked_size(long long n);
  using Mark = StageClock::time_point;
  Mark start() const { return StageClock::now(); }
  void stop(Mark mark, double& ms) const { ms += ms_since(mark); }
};

class ContactDetector {
 public:
  /// threads: OpenMP threads (0 = OpenMP's default); custom: optional task system.
  explicit ContactDetector(int threads = 0, ParallelFor custom = {});
  ContactDetector(const ContactDetector&) = delete;
  ContactDetector& operator=(const ContactDetector&) = delete;
  ContactDetector(ContactDetector&&) = default;
  ContactDetector& operator=(ContactDetector&&) = default;

  /// Uses another thread count or task system from the next detection on.
  void set_threading(int threads, ParallelFor custom);
  /// Finds this step's contacts (see the top of this file). If some body's
  /// swept box is not finite (its state overflows), finds none.
  void detect(const ContactDetectInput& input);
  /// Forgets all contacts (no warm start from them either).
  void clear();
  /// What the next detection carries over from this one (World::save_state;
  /// contacts/contact_snapshot.cpp); load_state throws pabd::Error on a
  /// snapshot that does not fit a world of `bodies` bodies.
  void save_state(SnapshotWriter& out) const;
  void load_state(SnapshotReader& in, int bodies);

  /// Number of contacts of the last detection.
  int count() const { return stages_.cur.count; }
  /// The solver's view of the contacts (valid until the next detect or clear).
  ContactArrays arrays();
  /// The per-body adjacency of the contact pairs' ends (begin == nullptr when there are none).
  ContactEnds ends();
  /// Separation of contact k at detection [m] (negative = penetration).
  Real separation(int k) const { return stages_.cur.separation[k]; }
  /// Feature id of contact k (contact_manifold.h).
  std::uint32_t feature(int k) const { return stages_.cur.feature[k]; }
  /// The mass resting on body i at the last detection, its own included
  /// (contact_load.h's M_i) [kg]; 0 before any detection.
  Real supported_mass(int i) const {
    return std::size_t(i) < supported_mass_.size() ? supported_mass_[std::size_t(i)] : Real(0);
  }
  /// U_i: the sum of the verticality of body i's supports (contact_load.h).
  Real support_weight(int i) const {
    return i >= 0 && i < stages_.load.weights ? stages_.load.support_weight.data()[i] : Real(0);
  }
  /// Stage times of the last detection [ms].
  using Timings = ContactDetectTimings;
  const Timings& timings() const { return timings_; }

  /// For a device's detector, which keeps this one as the host's copy of its
  /// contacts (device/contact_handover.h): the stages and the supported
  /// masses, and a count that changes whenever the contacts do (detect,
  /// clear, load_state, mark_changed), so that each side knows whether the
  /// other's are newer.
  ContactStages<HostContactBackend>& stages() { return stages_; }
  std::vector<Real>& supported_masses() { return supported_mass_; }
  std::uint64_t generation() const { return generation_; }
  /// Says the contacts changed outside detect, clear and load_state (a
  /// caller wrote through arrays(), or a device handed its over).
  void mark_changed() { ++generation_; }

 private:
  void raise_penalties_by_load(const ContactDetectInput& input);

  HostContactBackend backend_;
  Broadphase broadphase_;
  ContactStages<HostContactBackend> stages_;
  Timings timings_;
  ContactTopology topology_;
  // This step's contact pairs (contact_arrays.h): the candidates with points.
  // Body-to-pair-end adjacency (CSR) and its fill cursors.
  // Load-aware penalties (contact_load.h): per body, the sum of its supports'
  // verticality and the mass it carries (kept across steps as a warm start).
  std::vector<Real> supported_mass_;
  std::uint64_t generation_ = 0;
};

}  // namespace pabd
