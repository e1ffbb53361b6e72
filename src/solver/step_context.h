// What one step works on: the views of the bodies, bonds and contacts, the
// colourings, the step's constants and the parallel loop. The stages
// (solver/step_stages.h) and the two stage lists (solver/step.h: PABD;
// avbd/avbd_step.h: the AVBD baseline) take it and nothing else, so they do
// not know the World: the world (world/world_step.cpp) fills a context from
// its storage, and a device backend would fill one with device views.
#pragma once

#include <cstdint>
#include <vector>

#include "contacts/contact_detect.h"
#include "core/parallel.h"
#include "model/body_arrays.h"
#include "model/bond_arrays.h"
#include "model/contact_arrays.h"
#include "pabd/world.h"
#include "solver/body_kernels.h"
#include "solver/colour_flow.h"
#include "solver/colouring.h"
#include "solver/island_kernels.h"

namespace pabd {

/// Step scratch the stages size themselves (grown, never shrunk).
struct StepBuffers {
  /// The restitution stage's (contacts/contact_restitution.h): per contact, per body.
  std::vector<Real> restitution_impulse, restitution_delta;
  std::vector<int> restitution_share;
  /// The island momentum stage's (solver/island_momentum.h): per body, and
  /// the islands' lists (build_island_lists).
  std::vector<int> island_parent, island_size, island_of, island_of_root, island_next;
  std::vector<int> island_begin, island_body;
  std::vector<std::uint8_t> island_bond_held, island_held;
  /// current_island_lists' lists, and the model they were built for.
  IslandLists island_lists;
  bool island_lists_built = false;
  std::uint64_t island_lists_model = 0;
  int island_lists_bodies = 0, island_lists_bonds = 0;
  /// The colored sweeps' dataflow's (solver/colour_flow.h).
  ColourFlowBuffers colour_flow;
};

/// The step's settings, read once from WorldDef.
struct StepSettings {
  StepConstants constants;            ///< h, gravity, prediction, local step, turn limit
  HardBondSettings hard;              ///< augmented Lagrangian of hard bonds and contacts
  int iterations = 10;                ///< K
  bool colored = true;                ///< IterationOrder::Colored
  Real chebyshev_rho = 0;             ///< WorldDef::chebyshev_rho
  Real relaxation = 1;                ///< WorldDef::relaxation
  int block_order_min_bodies = 4096;  ///< WorldDef::block_order_min_bodies
  AvbdStabilization avbd_stabilization = AvbdStabilization::Post;  ///< AVBD only
};

struct StepContext {
  // Views of the bodies' and bonds' arrays (model/).
  BodyArrays bodies;
  BondArrays bonds;
  // Contacts: the detector and its input (null: collisions off); the detect
  // stage fills `contact`, `contact_ends` and `contact_graph` from it.
  ContactDetector* detector = nullptr;
  ContactDetectInput detect_input;
  ContactArrays contact;
  ContactEnds contact_ends;
  /// The contact pairs in host memory (the colouring, the island momentum):
  /// a device step's contacts are in device memory.
  ContactGraph contact_graph;
  // Colourings: over the bonds (kept while the topology holds), and over bonds
  // and contacts (rebuilt every step that has contacts).
  Colouring* bond_colouring = nullptr;
  Colouring* contact_colouring = nullptr;
  StepBuffers* buffers = nullptr;

  StepSettings settings;
  std::int64_t steps_taken = 0;  ///< steps before this one (drive targets, AVBD history)
  /// WorldImpl::model_version: a device re-uploads the bodies' model when it changes.
  std::uint64_t model_version = 0;
  /// WorldImpl::joint_settings_version: a device re-uploads the bonds'
  /// `hard` and axis model (limits, drives) when it changes.
  std::uint64_t joint_settings_version = 0;
  /// WorldImpl::state_version: a device uploads the bodies' and bonds' state
  /// again only when the host wrote it since the device's last step.
  std::uint64_t state_version = 0;
  bool any_loaded_joint = false;    ///< some hard point bond carries load (acceleration.h)
  bool any_restitution = false;     ///< some body has restitution > 0
  bool any_external_input = false;  ///< some body has an applied force or torque, or damping

  // The parallel loop (core/parallel.h) and the per-iteration callback.
  ParallelFor parallel_for;
  int threads = 1;
  const IterationObserver* observer = nullptr;

  StageTimings timings;  ///< filled by the stages
};

/// Runs `kernel(i)` for i in [0, count) through the context's parallel loop.
template <typename Fn>
void for_each_index(const StepContext& ctx, int count, const Fn& kernel) {
  parallel_for(ctx.parallel_for, ctx.threads, count, kernel);
}

/// Calls the iteration observer, if any (iteration -1: after the warm start).
inline void observe(const StepContext& ctx, int iteration) {
  if (ctx.observer && *ctx.observer) (*ctx.observer)(iteration);
}

}  // namespace pabd
