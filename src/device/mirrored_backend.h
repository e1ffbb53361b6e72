// A DeviceBackend over any DeviceMemory and executor (solver/step_loops.h):
// mirror the views (view_mirror.h), run the step's loops on the copies,
// bring back what they wrote. CUDA and the host stand-in differ only in the
// two types they give it.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "core/stage_clock.h"
#include "device/array_mirror.h"
#include "device/device_backend.h"
#include "device/device_broadphase.h"
#include "device/device_contacts.h"
#include "device/device_restitution.h"
#include "device/view_mirror.h"
#include "solver/carried_speed.h"
#include "solver/colouring.h"
#include "solver/colouring_rounds.h"
#include "solver/island_momentum.h"
#include "solver/step_loops.h"

namespace pabd {

template <typename Memory, typename Loops>
class MirroredBackend final : public DeviceBackend {
 public:
  MirroredBackend(std::string name, Memory memory, Loops loops)
      : name_(std::move(name)),
        memory_(std::move(memory)),
        loops_(loops),
        mirror_(memory_),
        poses_(memory_),
        contacts_(&loops_, memory_, meter_, mirror_) {
    stage_.device_loops = &loops_;
    stage_.memory = &memory_;
    stage_.meter = &meter_;
    broadphase_.backend = stage_;
  }
  MirroredBackend(const MirroredBackend&) = delete;
  MirroredBackend& operator=(const MirroredBackend&) = delete;

  std::string name() const override { return name_; }
  /// Every buffer only grows, so the sum of the peaks is the peak.
  std::size_t peak_memory() const override {
    return mirror_.peak_bytes() + poses_.peak_bytes() + meter_.peak + loops_.scratch_peak_bytes();
  }

  CopiedBytes copied() const override { return memory_.copied(); }

  void detect_contacts(const ContactDetectInput& in, DetectedContacts* out) override {
    carry_here_ = false;  // a new pass: the loops' views are gone
    mirror_.begin_pass();
    contacts_.detect(in);
    if (out) contacts_.download(in.poses.count, *out);
  }

  void broadphase(const ShapePoseView& poses, const AabbSettings& settings,
                  DeviceBroadphaseResult& out) override {
    run_device_broadphase(broadphase_, poses_, poses, settings, out);
  }

  bool detects(const ContactDetectInput& in) const override {
    return first_host_only_shape(in.poses) < 0;
  }

  void detect_stage(StepContext& ctx) override {
    carry_here_ = false;  // until this step's loops ran
    // The step's pass starts with the detection's inputs; run_loops goes on
    // with it, so the bodies' arrays both read (poses, mass, static flags)
    // go up once.
    mirror_.begin_pass(ctx.model_version, ctx.state_version);
    contacts_.detect_after(*ctx.detector, ctx.detect_input);
    ctx.contact = contacts_.arrays();
    ctx.contact_ends = contacts_.ends();
    add_detect_timings(contacts_.timings(), ctx.timings);
  }

  bool carry_contact_speeds(double extent, std::vector<double>& out) override {
    if (!carry_here_) return false;
    const BodyArrays bodies = carry_bodies_;
    const int n = bodies.count;
    double* carried = stage_.room(carried_, static_cast<std::size_t>(n));
    const ContactArrays c = contacts_.arrays();
    const ContactEnds e = contacts_.ends();
    if (e.begin) {
      const ContactGraph graph = contact_graph_of(c, e);
      loops_.each(n, [=] PABD_LAMBDA(int to) {
        carried[to] = contact_carried_speed(bodies, graph, extent, to);
      });
    } else {
      loops_.each(n, [=] PABD_LAMBDA(int to) { carried[to] = 0; });
    }
    out.resize(static_cast<std::size_t>(n));
    if (n > 0) memory_.download(out.data(), carried, out.size() * sizeof(double));
    carry_here_ = false;  // once per step
    return true;
  }

  bool bring_back_contacts(ContactDetector& host) override { return contacts_.bring_back(host); }

  int contact_count(const ContactDetector& host) const override {
    return contacts_.holds_newer(host) ? contacts_.count() : host.count();
  }

  void run_loops(StepContext& host, const IterationColouring& sweeps,
                 bool contacts_on_device) override {
    auto t0 = StageClock::now();
    StepContext dev = host;  // settings, flags, observer; the views are swapped below
    const int pairs = host.contact.pair_count;
    // The islands from the host's bonds and static flags, before they are mapped.
    IslandLists lists = current_island_lists(host);
    const bool islands = lists.island_count > 0;
    // With the contacts on the device, this step's detect_stage began the
    // pass (device_step.cpp runs it first).
    if (!contacts_on_device) mirror_.begin_pass(host.model_version, host.state_version);
    map_arrays(mirror_, dev.bodies, BodyPass{host.any_external_input});
    map_arrays(mirror_, dev.bonds, host.joint_settings_version);
    if (!contacts_on_device) {
      map_arrays(mirror_, dev.contact);
      map_arrays(mirror_, dev.contact_ends, host.bodies.count, pairs);
    }
    // Last, so that a step with islands and one without map the same slots above.
    if (islands) map_arrays(mirror_, lists);
    ColouringView colouring;
    // The colouring over the device's contacts is the device's (device_step.cpp).
    const bool colours_here = contacts_on_device && sweeps.with_contacts;
    if (sweeps.colouring && !colours_here) {
      // A bond colouring is kept while the bonds hold; one over contacts is new.
      const std::uint64_t version =
          sweeps.with_contacts ? ArrayMirror::kUnversioned : sweeps.colouring->bond_builds;
      colouring = map_colouring(mirror_, *sweeps.colouring, version);
    }
    // The ends the bodies gather: none, or the contacts' (now on the device).
    const ContactEnds ends = sweeps.ends.begin ? dev.contact_ends : ContactEnds{};
    StageTimings& t = host.timings;
    t.transfer_ms += ms_since(t0);
    if (colours_here) {
      t0 = StageClock::now();
      colouring = colour_on_device(dev);
      t.detect_ms += ms_since(t0);
    }

    const auto mark = loops_.start();
    predict_loops(dev, loops_);
    warm_start_loops(dev, loops_);
    loops_.stop(mark, t.predict_ms);
    iterate_loops(dev, sweeps.colouring || colours_here ? &colouring : nullptr,
                  sweeps.with_contacts, ends, t, loops_);
    const auto velocities_mark = loops_.start();
    if (islands) {
      std::uint8_t* held = stage_.room(island_held_, static_cast<std::size_t>(lists.body_count));
      island_momentum_loops(dev.bodies, lists, contact_graph_of(dev.contact, dev.contact_ends),
                            held, loops_);
    }
    velocities_loops(dev, loops_);
    device_restitution(stage_, restitution_, dev);
    loops_.stop(velocities_mark, t.velocities_ms);
    loops_.finish();  // the loops done, their timings settled

    t0 = StageClock::now();
    mirror_.download_writable();
    t.transfer_ms += ms_since(t0);
    // The step's contacts and end-of-step state are both here.
    carry_here_ = contacts_on_device;
    carry_bodies_ = dev.bodies;
  }

 private:
  /// The colouring over bonds and contacts, in rounds on the device
  /// (solver/colouring_rounds.h) from `dev`'s device arrays: the host's
  /// colour_bodies lists by priority, whose launch sizes come back.
  ColouringView colour_on_device(const StepContext& dev) {
    const ColouringGraph g =
        colouring_graph_of(dev.bodies, dev.bonds.end_body, dev.bonds.count, dev.contact.pair_body,
                           dev.contact_ends.begin, dev.contact_ends.index);
    const ColouringRoundsResult r = colour_in_rounds(stage_, colouring_, g);
    const auto download = [&](std::vector<int>& to, const int* from) {
      to.resize(static_cast<std::size_t>(r.colours) + 1);
      memory_.download(to.data(), from, to.size() * sizeof(int));
    };
    download(colour_begin_, r.colour_begin);
    download(bond_colour_begin_, r.bond_colour_begin);
    ColouringView v;
    v.colours = r.colours;
    v.colour_begin = colour_begin_.data();
    v.bond_colour_begin = bond_colour_begin_.data();
    v.order = r.order;
    v.bond_order = r.bond_order;
    v.colour = r.colour;
    return v;
  }

  std::string name_;
  Memory memory_;
  Loops loops_;
  ArrayMirror mirror_;
  ArrayMirror poses_;  ///< the broadphase's copies of the poses
  DeviceMeter meter_;  ///< the device's own arrays (the broadphase's, the contacts')
  DeviceStageBackend<Loops> stage_;
  std::vector<int> colour_begin_, bond_colour_begin_;  ///< colour_on_device's launch sizes
  // carry_contact_speeds: whether it may run, over which device views.
  bool carry_here_ = false;
  BodyArrays carry_bodies_;
  // Last: their arrays go back to memory_ before memory_ goes.
  BroadphaseState<DeviceStageBackend<Loops>> broadphase_;
  DeviceArray<double> carried_;            ///< carry_contact_speeds' per body
  DeviceArray<std::uint8_t> island_held_;  ///< island momentum's per body
  DeviceRestitutionArrays restitution_;
  DeviceContactDetector<Loops> contacts_;
  ColouringRoundsArrays<DeviceStageBackend<Loops>> colouring_;
};

}  // namespace pabd
