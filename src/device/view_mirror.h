// The step's views with every array swapped for its device copy
// (array_mirror.h): the lists below name each array of a view, how many
// elements it has, and which way it travels. A step's scratch (`kScratch`:
// the loops write it before they read it, and no host stage or API reads it
// after the step) is copied neither way; what the loops write before they
// read it but the host reads after them only comes back (Copy::Out); the
// model and what follows from it only goes up, after a change
// (Copy::Model); the state comes back after every pass and goes up only
// after the host wrote it (Copy::Kept); an array no device loop reads is not
// mapped (its view is null there). tests/test_device_step.cpp's
// stand-in scribbles on the copies that are not uploaded, so a read before
// the write shows there as NaN. A field added to a view must be added here
// too; the static_asserts count the pointers so that a forgotten one fails to
// build instead of leaving a kernel to read host memory on the device.
#pragma once

#include <cstddef>

#include "device/array_mirror.h"
#include "model/body_arrays.h"
#include "model/bond_arrays.h"
#include "model/contact_arrays.h"
#include "solver/colouring.h"
#include "solver/island_kernels.h"
#include "solver/step_loops.h"

namespace pabd {

inline constexpr ArrayMirror::Copy kScratch = ArrayMirror::Copy::None;

namespace view_mirror_detail {
/// Bytes of a view of one int count (padded to a pointer) and `pointers` pointers.
constexpr std::size_t one_count(int pointers) { return sizeof(void*) * (pointers + 1); }
}  // namespace view_mirror_detail

/// What the host reads of the bodies after the device's loops
/// (device_step.cpp), which decides what comes back besides the state.
struct BodyPass {
  /// The start pose: the energy audit's work of the applied loads
  /// (world/energy_audit.cpp).
  bool host_reads_start = false;
};

/// Per body: model, state, scratch; the bond-end adjacency (CSR).
inline void map_arrays(ArrayMirror& m, BodyArrays& b, BodyPass pass = {}) {
  static_assert(sizeof(BodyArrays) == view_mirror_detail::one_count(24),
                "map_arrays(BodyArrays) must list every array of BodyArrays");
  const std::size_t n = static_cast<std::size_t>(b.count);
  const std::size_t ends = n > 0 ? static_cast<std::size_t>(b.end_begin[n]) : 0;
  constexpr ArrayMirror::Copy model = ArrayMirror::Copy::Model;  // up after a change only
  m.map(b.mass, n, model);
  m.map(b.affine_inertia, n, model);
  m.map(b.is_static, n, model);
  // The step's inputs are read by external_velocity_kernel alone, which runs
  // on the host before detection (device_step.h): no device copy.
  b.linear_damping = b.angular_damping = nullptr;
  b.applied_force = b.applied_torque = nullptr;
  // The state: brought back after every pass, and up again only when the
  // host wrote it since (StepContext::state_version).
  constexpr ArrayMirror::Copy kept = ArrayMirror::Copy::Kept;
  m.map(b.position, n, kept);
  m.map(b.affine, n, kept);
  m.map(b.orientation, n, kept);
  // Read by predict; written by the velocities stage (on the device, after
  // the iterations), and on the host by external velocity.
  m.map(b.velocity, n, kept);
  m.map(b.angular_velocity, n, kept);
  // Written by predict for every body before any loop reads them; read after
  // the iterations by island momentum (the target) and the velocities stage,
  // both on the device, and by the energy audit's applied work (the start).
  const ArrayMirror::Copy start = pass.host_reads_start ? ArrayMirror::Copy::Out : kScratch;
  m.map(b.start_position, n, start);
  m.map(b.start_orientation, n, start);
  m.map(b.start_affine, n, kScratch);
  m.map(b.target_position, n, kScratch);
  m.map(b.target_affine, n, kScratch);
  m.map(b.iterate_position, n, kScratch);  // the acceleration's: set at its start
  m.map(b.iterate_orientation, n, kScratch);
  m.map(b.previous_position, n, kScratch);
  m.map(b.previous_orientation, n, kScratch);
  m.map(b.motion, n, kScratch);  // predict's, read by the iterations' idle tests only
  m.map(b.end_begin, n + 1, model);
  m.map(b.end_index, ends, model);
}

/// Per bond and per end (2 per bond). `joint_settings_version`
/// (StepContext's): the version of the joints' limits and drives.
inline void map_arrays(ArrayMirror& m, BondArrays& b,
                       std::uint64_t joint_settings_version = ArrayMirror::kUnversioned) {
  static_assert(sizeof(BondArrays) == view_mirror_detail::one_count(14),
                "map_arrays(BondArrays) must list every array of BondArrays");
  const std::size_t n = static_cast<std::size_t>(b.count), ends = 2 * n;
  // Set when a bond is made, or by the World's topology (the mass behind a
  // joint), whose every change bumps the model version: up after a change only.
  constexpr ArrayMirror::Copy model = ArrayMirror::Copy::Model;
  m.map(b.kind, n, model);
  m.map(b.end_body, ends, model);
  m.map(b.stiffness, n, model);
  m.map(b.rest_length, n, model);
  m.map(b.axis, n, model);
  m.map(b.mass_behind, n, model);
  // The joints' limits and drives change with World::set_joint_drive, which
  // leaves the model version alone: up when their own version changed.
  m.map_model(b.hard, n, joint_settings_version);
  m.map_model(b.axis_model, n, joint_settings_version);
  // The bonds' state, kept on the device as the bodies' (a line bond's end
  // slides each step: slide_line_anchor).
  constexpr ArrayMirror::Copy kept = ArrayMirror::Copy::Kept;
  m.map(b.end_local, ends, kept);
  m.map(b.axis_state, n, kept);
  m.map(b.penalty, n, kept);
  m.map(b.lambda, n, kept);
  m.map(b.end_weight, ends, kScratch);  // each sweep's bonds before its bodies
  m.map(b.end_pull, ends, kScratch);
}

/// Per contact, per end (2 per contact), per slot (4 per contact), per pair
/// and per pair end (2 per pair).
inline void map_arrays(ArrayMirror& m, ContactArrays& c) {
  static_assert(sizeof(ContactArrays) == sizeof(void*) * (26 + 2),
                "map_arrays(ContactArrays) must list every array of ContactArrays");
  const std::size_t k = static_cast<std::size_t>(c.count);
  const std::size_t pairs = static_cast<std::size_t>(c.pair_count);
  m.map(c.end_body, 2 * k);
  m.map(c.end_radius, 2 * k);
  m.map(c.slot_local, kContactSlots * k);
  m.map(c.normal, k);
  m.map(c.friction, k);
  m.map(c.restitution, k);
  m.map(c.approach_velocity, k);
  m.map(c.penalty, k);
  m.map(c.normal_penalty, k);
  m.map(c.gap_offset, k);
  m.map(c.start_gap, k);
  m.map(c.anchor_reach, k);
  m.map(c.lambda, k);
  m.map(c.sticking, k);
  m.map(c.end_weight, 2 * k);
  m.map(c.end_scale, 2 * k);
  m.map(c.record, k, kScratch);  // contact_prepare_kernel
  m.map(c.pair_begin, pairs);
  m.map(c.pair_end, pairs);
  m.map(c.pair_body, 2 * pairs);
  m.map(c.pair_round, pairs);
  m.map(c.pair_record, pairs, kScratch);  // contact_pair_prepare_kernel
  m.map(c.pair_quiet, pairs, kScratch);
  m.map(c.pair_sums, 2 * pairs, kScratch);  // each evaluation of the pair
  m.map(c.pair_weight, 2 * pairs, kScratch);
  m.map(c.pair_second_moment, 2 * pairs, kScratch);
}

/// The bodies' lists of contact pair ends; `body_count` bodies, `pair_count`
/// pairs. Its weight, sums and second moments are the contact arrays' own:
/// map it after them (map_arrays(ContactArrays)) to share their buffers.
inline void map_arrays(ArrayMirror& m, ContactEnds& e, int body_count, int pair_count) {
  static_assert(sizeof(ContactEnds) == 6 * sizeof(void*),
                "map_arrays(ContactEnds) must list every array of ContactEnds");
  const std::size_t n = static_cast<std::size_t>(body_count);
  const std::size_t listed = e.begin ? static_cast<std::size_t>(e.begin[n]) : 0;
  const std::size_t pair_ends = 2 * static_cast<std::size_t>(pair_count);
  m.map(e.begin, n + 1);
  m.map(e.index, listed);
  m.map(e.weight, pair_ends, kScratch);
  m.map(e.sums, pair_ends, kScratch);
  m.map(e.second_moment, pair_ends, kScratch);
  m.map(e.bound, listed, kScratch);  // contact_end_bound_kernel
}

/// A colouring's lists on the device; the launch sizes stay in host memory.
/// They go up when `version` changed since its slots last held them: a bond
/// colouring's Colouring::bond_builds; kUnversioned (a colouring over this
/// step's contacts) uploads them every pass.
inline ColouringView map_colouring(ArrayMirror& m, const Colouring& c,
                                   std::uint64_t version = ArrayMirror::kUnversioned) {
  ColouringView v = host_view(c);
  m.map_model(v.order, c.order.size(), version);
  m.map_model(v.bond_order, c.bond_order.size(), version);
  m.map_model(v.colour, c.colour.size(), version);
  m.map_model(v.block_begin, v.block_begin ? c.block_begin.size() : 0, version);
  return v;
}

/// The islands' lists (solver/island_kernels.h): built on the host when the
/// model changes (current_island_lists), read by the device's island momentum only. They
/// follow from the bonds and the static flags alone, whose every change
/// bumps the model version: up after a change only, as the model.
inline void map_arrays(ArrayMirror& m, IslandLists& l) {
  static_assert(sizeof(IslandLists) == view_mirror_detail::one_count(4),
                "map_arrays(IslandLists) must list every array of IslandLists");
  const std::size_t n = static_cast<std::size_t>(l.body_count);
  const std::size_t islands = static_cast<std::size_t>(l.island_count);
  const std::size_t listed = islands > 0 ? static_cast<std::size_t>(l.begin[islands]) : 0;
  constexpr ArrayMirror::Copy model = ArrayMirror::Copy::Model;
  m.map(l.island_of, n, model);
  m.map(l.bond_held, n, model);
  m.map(l.begin, islands + 1, model);
  m.map(l.body, listed, model);
}

}  // namespace pabd
