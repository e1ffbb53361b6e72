// Free islands keep the momentum the outside gives them.
//
// Bodies joined by bonds form islands. An island is free when none of its
// bonds ties it to the world or to a static body and none of its bodies has
// a contact this step: then only the applied forces and gravity act on it
// from outside, and those are already in each body's inertial target s
// (predict). Every bond pulls its two ends equally and oppositely, so the
// exact step keeps sum_i m_i (c_i - s_i) = 0 over the island. K Gauss-Seidel
// or Jacobi sweeps do not: a body's solve sees its neighbours where they
// were at that moment, and where they move on after it, the pulls no longer
// cancel. Light, stiffly bonded bodies under a strong push (a sail's cloth
// particles in the wind, tied to a 250 kg hull) gained the island 25 times
// the momentum the wind gave it (docs/fields.md). This stage shifts each
// free island's centres by one common vector that restores the sum: a
// translation, which changes no bond's stretch and no body's pose. (Angular
// momentum is not restored.) A lone body's iterate is its target already.
//
// The islands come from the bonds (host memory, build_island_lists); the
// passes over them (solver/island_kernels.h) run on the host's loops here
// and on a device's in a device step (device/mirrored_backend.h).
#pragma once

#include "solver/island_kernels.h"
#include "solver/step_context.h"

namespace pabd {

/// After the iterations: restores each free island's linear momentum.
void island_momentum_stage(StepContext& ctx);

/// The islands of ctx's bonds between moving bodies, in ctx.buffers (host
/// memory, valid until the next call): union-find over the bonds, then each
/// island's bodies in ascending order. Reads the bodies' static flags and
/// the bonds' ends only, which ctx must hold in host memory.
IslandLists build_island_lists(const StepContext& ctx);

/// build_island_lists' lists when some bond joins two moving bodies, else
/// none (island_count 0), kept in ctx.buffers from step to step and built
/// again only when the model changed: they follow from the bonds' ends and
/// the static flags, and the World bumps StepContext::model_version with
/// every change to either (a bond added or removed, a body removed, a
/// snapshot restored).
const IslandLists& current_island_lists(const StepContext& ctx);

}  // namespace pabd
