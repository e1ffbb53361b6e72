// Contact detection on a device: the host detector's stages
// (collision/broadphase_pipeline.h, contacts/contact_stages.h) on a device
// backend (device_stage_backend.h), with this step's and the previous step's
// contacts kept in device memory, so the matching reads the previous ones
// where the iterations left them. The bodies' poses and model come over
// each detection through the backend's mirror, in the pass its loops then
// go on with (mirrored_backend.h), so what both read goes up once; the
// topology (joined pairs, articulations) is the host's ContactTopology,
// uploaded with them.
//
// The device's step (device_step.h) detects with it when every shape's
// geometry is on the device: its iterations read these arrays where they
// are, and the host's ContactDetector gets a copy only when a host reader
// asks (contact_handover.h); every stage that reads the pairs' graph after
// detection runs on the device too (island momentum, the guard's carried
// speeds). Its tests require the host detector's arrays bit for bit.
#pragma once

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "contacts/contact_detect_input.h"
#include "contacts/contact_stages.h"
#include "contacts/contact_topology.h"
#include "device/contact_handover.h"
#include "device/device_broadphase.h"

namespace pabd {

/// A detection's results in host vectors, from either detector: what the
/// iterations read of the contacts (the load-aware penalties included) and
/// of their pairs, and the adjacency.
struct DetectedContacts {
  int count = 0, pair_count = 0;
  std::vector<int> end_body;
  std::vector<Real> end_radius;
  std::vector<Vec3> slot_local, normal;
  std::vector<Real> friction, restitution, approach_velocity, gap_offset, start_gap, anchor_reach,
      penalty, normal_penalty;
  std::vector<Vec3> lambda;
  std::vector<std::uint8_t> sticking;
  std::vector<int> pair_begin, pair_end, pair_body;
  std::vector<std::uint8_t> pair_round;
  std::vector<int> end_begin, end_index;
};

/// Fills `out` from a detector's views; copy(host, from, bytes) reads its
/// memory (memcpy on the host, a download from a device).
template <typename Copy>
void read_detected(const ContactArrays& c, const ContactEnds& e, int bodies, const Copy& copy,
                   DetectedContacts& out) {
  const auto take = [&](auto& v, const auto* from, long long n) {
    v.resize(static_cast<std::size_t>(n));
    if (n > 0) copy(v.data(), from, static_cast<std::size_t>(n) * sizeof(v[0]));
  };
  const long long n = c.count, p = c.pair_count;
  out.count = c.count;
  out.pair_count = c.pair_count;
  take(out.end_body, c.end_body, 2 * n);
  take(out.end_radius, c.end_radius, 2 * n);
  take(out.slot_local, c.slot_local, kContactSlots * n);
  take(out.normal, c.normal, n);
  take(out.friction, c.friction, n);
  take(out.restitution, c.restitution, n);
  take(out.approach_velocity, c.approach_velocity, n);
  take(out.gap_offset, c.gap_offset, n);
  take(out.start_gap, c.start_gap, n);
  take(out.anchor_reach, c.anchor_reach, n);
  take(out.penalty, c.penalty, n);
  take(out.normal_penalty, c.normal_penalty, n);
  take(out.lambda, c.lambda, n);
  take(out.sticking, c.sticking, n);
  take(out.pair_begin, c.pair_begin, p);
  take(out.pair_end, c.pair_end, p);
  take(out.pair_body, c.pair_body, 2 * p);
  take(out.pair_round, c.pair_round, p);
  out.end_begin.clear();
  out.end_index.clear();
  if (e.begin) {
    take(out.end_begin, e.begin, bodies + 1LL);
    take(out.end_index, e.index, out.end_begin.back());
  }
}

template <typename Loops>
class DeviceContactDetector {
 public:
  using Backend = DeviceStageBackend<Loops>;

  /// `inputs`: the mirror its inputs are mapped into, in the pass its caller
  /// began (ArrayMirror::begin_pass) before detect: the backend's, whose
  /// loops then find the bodies' poses, mass and static flags uploaded.
  DeviceContactDetector(const Loops* loops, DeviceMemory& memory, DeviceMeter& meter,
                        ArrayMirror& inputs)
      : inputs_(inputs) {
    be_.device_loops = loops;
    be_.memory = &memory;
    be_.meter = &meter;
    broadphase_.backend = be_;
  }
  DeviceContactDetector(const DeviceContactDetector&) = delete;
  DeviceContactDetector& operator=(const DeviceContactDetector&) = delete;

  /// This step's contacts from `in` (host arrays, mapped into the caller's
  /// pass of `inputs`), as ContactDetector::detect finds them. Throws pabd::Error for a shape whose
  /// geometry is not on the device (device_broadphase.h).
  void detect(const ContactDetectInput& in) {
    require_device_geometry(in.poses, "device contacts");
    timings_ = {};
    bodies_ = in.poses.count;
    std::swap(stages_.cur, stages_.prev);
    topology_.update(in);
    const ContactDetectInput dev = upload_inputs(in);
    const int nb = in.poses.count;

    // A box that is not finite leaves the step without contacts (as on the host).
    try {
      broadphase_build(broadphase_, broadphase_boxes(broadphase_, dev.poses, in.aabb));
    } catch (const Error&) {
      stages_.cur.count = stages_.cur.pairs = stages_.cur.body_pairs = 0;
      stages_.pairs.count = 0;
      stages_.ends.built = false;
      return;
    }
    timings_.broadphase = broadphase_.timings.total_ms;
    ContactCandidates cand;
    cand.body_pairs = broadphase_.counts.pairs;
    cand.count = cand.body_pairs + broadphase_.counts.plane_pairs;
    cand.pairs = broadphase_.arrays.pairs.data();
    cand.plane_pairs = broadphase_.arrays.plane_pairs.data();
    cand.joined = dev.no_collision_pairs;
    cand.joined_count = dev.no_collision_count;
    cand.group = dev.collision_group;
    cand.mask = dev.collision_mask;
    run_contact_setup_stages(be_, stages_, dev.poses, {dev.mass, dev.friction, dev.restitution},
                             cand, in.aabb, timings_);

    if (load_stage_runs(stages_.cur.count, in.aabb)) {
      ContactLoadInput load;
      load.bodies = nb;
      load.mass = dev.mass;
      load.is_static = dev.poses.is_static;
      load.jointed = jointed_;
      load.articulation = articulation_;
      load.total_mass = total_dynamic_mass(in);
      load.aabb = in.aabb;
      // Warm start from the previous step's masses; a new or resized world
      // starts from each body's own mass and takes more rounds (as the host).
      int rounds = kLoadRoundsPerStep;
      Real* supported = be_.room(supported_mass_, nb);
      if (supported_bodies_ != nb) {
        const Real* mass = dev.mass;
        be_.loops().each(nb, [=] PABD_LAMBDA(int i) { supported[i] = mass[i]; });
        supported_bodies_ = nb;
        rounds = kLoadRoundsFirstStep;
      }
      const auto mark = be_.start();
      contact_load_stage(be_, stages_.load, stages_.cur, stages_.pairs, stages_.ends, load,
                         supported, rounds);
      be_.stop(mark, timings_.load);
    }
    be_.finish();
  }

  /// A step's detection: `host`'s contacts first when they changed since the
  /// two last agreed (a restored snapshot, a clear, a host detection), so
  /// the matching starts from what the host holds; then detect(in).
  void detect_after(ContactDetector& host, const ContactDetectInput& in) {
    if (host.generation() != host_generation_) {
      upload_carried_contacts(host.stages().cur, stages_.cur, be_);
      const std::vector<Real>& masses = host.supported_masses();
      supported_bodies_ = masses.empty() ? -1 : static_cast<int>(masses.size());
      if (!masses.empty())
        be_.memory->upload(be_.room(supported_mass_, masses.size()), masses.data(),
                           masses.size() * sizeof(Real));
      host_generation_ = host.generation();
    }
    detect(in);
    ahead_ = true;
  }
  /// Brings the last detection (with what the iterations wrote since) into
  /// `host` when it is newer than host's own; true when it did.
  bool bring_back(ContactDetector& host) {
    if (!holds_newer(host)) return false;
    DeviceMemory& memory = *be_.memory;
    download_detection(stages_, memory, bodies_, host.stages());
    download_supported_masses(memory, supported_mass_.data(), supported_bodies_,
                              host.supported_masses());
    host.mark_changed();
    host_generation_ = host.generation();
    ahead_ = false;
    return true;
  }
  /// Whether the device holds contacts newer than `host`'s: it detected
  /// since they last agreed, and the host did not change them meanwhile.
  bool holds_newer(const ContactDetector& host) const {
    return ahead_ && host.generation() == host_generation_;
  }
  /// The last detection's contact count.
  int count() const { return stages_.cur.count; }
  /// The contacts for the device's loops (device memory; valid until the
  /// next detect).
  ContactArrays arrays() { return contact_arrays_of(stages_); }
  /// The adjacency for the device's loops (begin == nullptr when there are none).
  ContactEnds ends() { return contact_ends_of(stages_); }
  /// The last detection's results, brought back.
  void download(int bodies, DetectedContacts& out) {
    DeviceMemory& memory = *be_.memory;
    read_detected(
        arrays(), ends(), bodies,
        [&](void* host, const void* device, std::size_t bytes) {
          memory.download(host, device, bytes);
        },
        out);
  }
  const ContactDetectTimings& timings() const { return timings_; }

 private:
  /// Device copies of what the stages read of `in`, and of the topology.
  ContactDetectInput upload_inputs(const ContactDetectInput& in) {
    ContactDetectInput dev = in;
    const std::size_t n = in.poses.count > 0 ? static_cast<std::size_t>(in.poses.count) : 0;
    map_poses(inputs_, dev.poses);
    constexpr ArrayMirror::Copy model = ArrayMirror::Copy::Model;  // up after a change only
    inputs_.map(dev.mass, n, model);
    inputs_.map(dev.friction, n, model);
    inputs_.map(dev.restitution, n, model);
    inputs_.map(dev.collision_group, n, model);
    inputs_.map(dev.collision_mask, n, model);
    // The never-colliding pairs as the candidates' `joined` list. The
    // topology's arrays go up after a rebuild only.
    const std::uint64_t topology = topology_.version();
    dev.no_collision_pairs = topology_.joined().data();
    dev.no_collision_count = static_cast<int>(topology_.joined().size());
    inputs_.map_model(dev.no_collision_pairs, topology_.joined().size(), topology);
    jointed_ = topology_.jointed().data();
    inputs_.map_model(jointed_, topology_.jointed().size(), topology);
    articulation_ = topology_.any_articulation() ? topology_.articulation().data() : nullptr;
    inputs_.map_model(articulation_, articulation_ ? topology_.articulation().size() : 0, topology);
    dev.bond_end_body = nullptr;  // read by the topology only, on the host
    dev.bond_count = 0;
    return dev;
  }

  Backend be_;
  ArrayMirror& inputs_;  ///< the backend's (see the constructor)
  ContactTopology topology_;
  BroadphaseState<Backend> broadphase_;
  ContactStages<Backend> stages_;
  DeviceArray<Real> supported_mass_;
  int supported_bodies_ = -1;              ///< bodies supported_mass_ was started for
  const std::uint8_t* jointed_ = nullptr;  ///< the topology's, on the device
  const int* articulation_ = nullptr;      ///< the topology's, on the device; null: none
  ContactDetectTimings timings_;
  int bodies_ = 0;  ///< the last detection's
  // The handover with the host's detector (detect_after, bring_back).
  std::uint64_t host_generation_ = ~std::uint64_t(0);  ///< its generation when they last agreed
  bool ahead_ = false;                                 ///< detected since they last agreed
};

}  // namespace pabd
