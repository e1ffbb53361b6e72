// The loops of the step's per-body, per-bond and per-contact stages, written
// once for any executor: HostLoops below (core/parallel.h's loops: the CPU
// step, solver/step_stages.cpp) or the device's (src/cuda/cuda_loops.h, and
// src/device/emulated_loops.h, its serial stand-in for the tests).
//
// An executor runs `f(i)` for i in [0, n) in any order, as each(n, f),
// uneven(n, cost, f) (calls of uneven cost, which cost(i) >= 1 estimates
// for a host's split) and blocks(n, f) (a few long calls);
// finish() waits for what it started. It also times the stages: start()
// marks a moment, stop(mark, ms) adds the time since to `ms` (on the CPU at
// once; on a device, which runs the loops after the host has launched them,
// by the device's clock once finish() returns). The loop bodies are PABD_LAMBDA
// lambdas that capture the views by value, so a CUDA launch can copy them to
// the device; what the host decides (the colouring, the launch sizes) reads
// host memory only. Every kernel writes only its own index, so any executor
// gives the same bits.
#pragma once

#include "bonds/bond_kernels.h"
#include "contacts/contact_kernels.h"
#include "contacts/contact_restitution.h"
#include "core/parallel.h"
#include "core/stage_clock.h"
#include "solver/acceleration.h"
#include "solver/colour_body_kernel.h"
#include "solver/colour_flow.h"
#include "solver/colouring.h"
#include "solver/external_velocity.h"
#include "solver/step_context.h"

namespace pabd {

/// Stage timing by the host's clock, for executors whose loops return when
/// they are done.
struct HostStageTimer {
  using Mark = StageClock::time_point;
  Mark start() const { return StageClock::now(); }
  void stop(Mark mark, double& ms) const { ms += ms_since(mark); }
};

/// For an executor with one kind of loop (a device's, a serial one): its
/// uneven and blocks loops are its each. `Self` derives from it (CRTP).
template <typename Self>
struct OneKindOfLoop {
  /// No dataflow over the colours (HostLoops::flow): colour by colour.
  bool flow(const StepContext&, const ColouringView&, const ContactEnds&) const { return false; }
  template <typename Cost, typename Fn>
  void uneven(int n, const Cost&, const Fn& f) const {
    static_cast<const Self&>(*this).each(n, f);
  }
  template <typename Fn>
  void blocks(int n, const Fn& f) const {
    static_cast<const Self&>(*this).each(n, f);
  }
};

/// The CPU's executor: the context's parallel loop (OpenMP or the user's).
struct HostLoops : HostStageTimer {
  const ParallelFor* custom = nullptr;
  int threads = 1;
  StepBuffers* buffers = nullptr;  ///< the colour flow's memory

  template <typename Fn>
  void each(int n, const Fn& f) const {
    parallel_for(*custom, threads, n, f);
  }
  template <typename Cost, typename Fn>
  void uneven(int n, const Cost& cost, const Fn& f) const {
    parallel_for_uneven(*custom, threads, n, cost, f);
  }
  template <typename Fn>
  void blocks(int n, const Fn& f) const {
    parallel_for_blocks(*custom, threads, n, f);
  }
  void finish() const {}
  /// Every iteration's colored sweeps as one dataflow (solver/colour_flow.h)
  /// where it applies; false: the sweeps run colour by colour.
  bool flow(const StepContext& ctx, const ColouringView& c, const ContactEnds& ends) const {
    if (!buffers || !colour_flow_applies(ctx, c, threads)) return false;
    colour_flow_sweeps(ctx, c, ends, threads, buffers->colour_flow);
    return true;
  }
};

inline HostLoops host_loops(const StepContext& ctx) {
  HostLoops loops;
  loops.custom = &ctx.parallel_for;
  loops.threads = ctx.threads;
  loops.buffers = ctx.buffers;
  return loops;
}

/// What the sweeps read of a Colouring: the launch sizes in host memory, the
/// lists the kernels read in the executor's memory (the same vectors on the
/// CPU, their device copies on a device).
struct ColouringView {
  int colours = 0;
  // Host memory, colours + 1 each (colour_block_begin: null without blocks).
  const int* colour_begin = nullptr;
  const int* bond_colour_begin = nullptr;
  const int* colour_block_begin = nullptr;
  // The executor's memory.
  const int* order = nullptr;
  const int* bond_order = nullptr;
  const int* colour = nullptr;       ///< per body (Colouring::colour)
  const int* block_begin = nullptr;  ///< null without blocks
};

inline ColouringView host_view(const Colouring& c) {
  ColouringView v;
  v.colours = c.colour_count();
  v.colour_begin = c.colour_begin.data();
  v.bond_colour_begin = c.bond_colour_begin.data();
  v.order = c.order.data();
  v.bond_order = c.bond_order.data();
  v.colour = c.colour.data();
  if (!c.block_begin.empty()) {
    v.colour_block_begin = c.colour_block_begin.data();
    v.block_begin = c.block_begin.data();
  }
  return v;
}

/// What one pass of an iteration updates: one colour of a colored sweep, or
/// everything for a Jacobi iteration (null lists: the identity).
struct Sweep {
  const int* bonds = nullptr;
  int bond_count = 0;
  int pair_count = 0;  ///< Jacobi: every contact pair
  const int* bodies = nullptr;
  int body_count = 0;
  /// A colour of a sweep with contacts: the colouring's per-body colours,
  /// which tell the first body of a pair, the one that takes its dual update
  /// (colour_body_kernel).
  const int* body_key = nullptr;
  /// A colour of a block order: its blocks, block j being
  /// bodies[blocks[j] .. blocks[j + 1]) (none: a thread per body).
  const int* blocks = nullptr;
  int block_count = 0;
};

inline Sweep jacobi_sweep(const StepContext& ctx) {
  Sweep s;
  s.bond_count = ctx.bonds.count;
  s.pair_count = ctx.contact.pair_count;
  s.body_count = ctx.bodies.count;
  return s;
}

inline Sweep colour_sweep(const ColouringView& c, int colour, bool with_contacts) {
  Sweep s;
  s.bonds = c.bond_order + c.bond_colour_begin[colour];
  s.bond_count = c.bond_colour_begin[colour + 1] - c.bond_colour_begin[colour];
  if (with_contacts) s.body_key = c.colour;
  s.bodies = c.order + c.colour_begin[colour];
  s.body_count = c.colour_begin[colour + 1] - c.colour_begin[colour];
  if (c.block_begin) {
    // The blocks hold places in the whole order: it is read through them alone.
    s.bodies = c.order;
    s.body_count = 0;
    s.blocks = c.block_begin + c.colour_block_begin[colour];
    s.block_count = c.colour_block_begin[colour + 1] - c.colour_block_begin[colour];
  }
  return s;
}

/// With colored sweeps and contacts, the colouring is over bonds and contacts.
inline bool contact_colours(const StepContext& ctx) {
  return ctx.settings.colored && ctx.contact.count > 0;
}

inline Real h_squared(const StepContext& ctx) {
  return ctx.settings.constants.h * ctx.settings.constants.h;
}

template <typename Loops>
void external_velocity_loops(const StepContext& ctx, const Loops& loops) {
  const BodyArrays bodies = ctx.bodies;
  const Real h = ctx.settings.constants.h;
  const Vec3 gravity = ctx.settings.constants.gravity;
  loops.each(bodies.count,
             [=] PABD_LAMBDA(int i) { external_velocity_kernel(bodies, i, h, gravity); });
}

template <typename Loops>
void predict_loops(const StepContext& ctx, const Loops& loops) {
  const BodyArrays bodies = ctx.bodies;
  const StepConstants k = ctx.settings.constants;
  loops.each(bodies.count, [=] PABD_LAMBDA(int i) { predict_kernel(bodies, i, k); });
}

template <typename Loops>
void warm_start_loops(const StepContext& ctx, const Loops& loops) {
  const BodyArrays bodies = ctx.bodies;
  const BondArrays bonds = ctx.bonds;
  const ContactArrays contact = ctx.contact;
  const ContactEnds ends = ctx.contact_ends;
  const HardBondSettings hard = ctx.settings.hard;
  const Real h = ctx.settings.constants.h, h2 = h_squared(ctx);
  loops.each(bonds.count,
             [=] PABD_LAMBDA(int i) { bond_warm_start_kernel(bodies, bonds, i, hard, h2); });
  loops.each(contact.count,
             [=] PABD_LAMBDA(int i) { contact_prepare_kernel(bodies, contact, i, hard, h2); });
  loops.each(contact.pair_count,
             [=] PABD_LAMBDA(int m) { contact_pair_prepare_kernel(contact, m); });
  if (ends.bound)
    loops.each(bodies.count,
               [=] PABD_LAMBDA(int i) { contact_end_bound_kernel(contact, ends, i); });
  // Joint limits and drives: coordinates at the step's start, drive targets at its end time.
  const Real t_end = Real(ctx.steps_taken + 1) * h;
  loops.each(bonds.count,
             [=] PABD_LAMBDA(int i) { axis_bond_step_kernel(bodies, bonds, i, hard, t_end, h); });
}

/// The sweep's bonds, and for a Jacobi sweep its contact pairs: their ends'
/// weights and pulls from the latest iterate. `fuse`: the contacts' deferred
/// dual update is taken here, by the pair's evaluation. A colour of a colored
/// sweep with contacts evaluates its pairs in sweep_bodies instead.
template <typename Loops>
void sweep_bonds(const StepContext& ctx, const Sweep& s, bool fuse, bool second_moment,
                 const Loops& loops) {
  const BodyArrays bodies = ctx.bodies;
  const BondArrays bonds = ctx.bonds;
  const ContactArrays contact = ctx.contact;
  const HardBondSettings hard = ctx.settings.hard;
  const Real h2 = h_squared(ctx);
  const int* list = s.bonds;
  loops.each(s.bond_count, [=] PABD_LAMBDA(int j) {
    bond_weights_kernel(bodies, bonds, list ? list[j] : j, hard, h2);
  });
  loops.each(s.pair_count, [=] PABD_LAMBDA(int m) {
    contact_pair_weights_kernel(bodies, contact, m, fuse, second_moment);
  });
}

/// A body's gather, 12x12 solve and closest rotation, in listed pair ends,
/// for splitting a colour between threads by estimated cost: a live pair
/// end's four contacts cost about a body's solve, an idle one far less, and
/// the list does not tell them apart. ball_into_stack at 2 threads, the
/// slower thread's time over the mean (summed over a run): 1.10-1.13 with 2,
/// 1.14 with 1, 1.12 with 8, 1.20 with 4 (noise-level), 1.19-1.22 by count.
inline constexpr int kBodyCostInPairEnds = 2;

/// Body i's estimated cost in a split (for a host's; a device's executor
/// ignores it): its solve and its listed pair ends.
inline int body_sweep_cost(const ContactEnds& ends, int i) {
  return kBodyCostInPairEnds + ends.begin[i + 1] - ends.begin[i];
}

/// The sweep's bodies: gather, global solve, closest rotation. A colour of a
/// colored sweep with contacts evaluates its bodies' contact pairs in the
/// same loop (solver/colour_body_kernel.h), not beforehand in sweep_bonds.
template <typename Loops>
void sweep_bodies(const StepContext& ctx, const Sweep& s, const ContactEnds& ends, bool fuse,
                  bool keep_weights, const Loops& loops) {
  const BodyArrays bodies = ctx.bodies;
  const BondArrays bonds = ctx.bonds;
  const StepConstants k = ctx.settings.constants;
  const int* list = s.bodies;
  if (s.body_key) {
    const ContactArrays contact = ctx.contact;
    const int* body_key = s.body_key;
    if (s.blocks) {
      // A thread per block, its bodies in turn (solver/block_order.h).
      const int* blocks = s.blocks;
      loops.blocks(s.block_count, [=] PABD_LAMBDA(int b) {
        const int last = blocks[b + 1];
        for (int j = blocks[b]; j < last; ++j) {
          // Two bodies ahead: where its pair ends are listed.
          if (j + 2 < last) prefetch_body_ends(ends, list[j + 2]);
          colour_body_kernel(bodies, bonds, contact, ends, body_key, fuse, keep_weights, list[j],
                             k);
        }
      });
    } else {
      const int last = s.body_count;
      const auto cost = [=](int j) { return body_sweep_cost(ends, list[j]); };
      loops.uneven(last, cost, [=] PABD_LAMBDA(int j) {
        if (j + 2 < last) prefetch_body_ends(ends, list[j + 2]);
        colour_body_kernel(bodies, bonds, contact, ends, body_key, fuse, keep_weights, list[j], k);
      });
    }
    return;
  }
  loops.each(s.body_count, [=] PABD_LAMBDA(int j) {
    global_local_kernel(bodies, bonds, ends, list ? list[j] : j, k);
  });
}

/// The K iterations over the sweeps of `colouring` (null: Jacobi), with
/// `ends` the contact ends the bodies gather; times its parts into `t`
/// (through the executor's timer: final once loops.finish() has returned).
template <typename Loops>
void iterate_loops(const StepContext& ctx, const ColouringView* colouring, bool with_contacts,
                   const ContactEnds& ends, StageTimings& t, const Loops& loops) {
  const StepSettings& s = ctx.settings;
  const BodyArrays bodies = ctx.bodies;
  const BondArrays bonds = ctx.bonds;
  const ContactArrays contact = ctx.contact;
  const ContactEnds all_ends = ctx.contact_ends;
  const HardBondSettings hard = s.hard;
  const Real h2 = h_squared(ctx);

  // Chebyshev acts only on bodies whose joints carry load (acceleration.h):
  // without such a joint the stage would only copy poses.
  const bool accelerate = (s.chebyshev_rho > 0 && ctx.any_loaded_joint) || s.relaxation != 1;
  if (accelerate)
    loops.each(bodies.count, [=] PABD_LAMBDA(int i) { acceleration_start_kernel(bodies, i); });
  Real omega = 1;
  // The contacts' dual update is deferred into the next iteration's weights
  // (contact_pair_weights_kernel's dual_first), except after the last
  // iteration, or when an observer must see every iteration's multipliers.
  // Colored sweeps evaluate a pair in both its bodies' colours; the first of
  // the two in the next iteration still sees both bodies where this
  // iteration left them, so it takes the update.
  const bool has_observer = ctx.observer && *ctx.observer;
  const bool fuse_contact_dual = !has_observer && (!s.colored || with_contacts);
  // Only the paper's local step reads D, so only it needs the contacts' sum w x x^T.
  const bool second_moment = !s.constants.rigid_local;
  const int sweeps = colouring ? colouring->colours : 1;
  // Where nothing runs between one iteration's sweeps and the next but the
  // fused dual updates, an executor may run them all at once as a dataflow
  // (solver/colour_flow.h); the iterations below then only close the last.
  bool flowed = false;
  if (colouring && with_contacts && fuse_contact_dual && !accelerate) {
    const auto mark = loops.start();
    flowed = loops.flow(ctx, *colouring, ends);
    if (flowed) loops.stop(mark, t.solve_ms);
  }

  for (int it = flowed ? s.iterations - 1 : 0; it < s.iterations; ++it) {
    for (int c = 0; c < sweeps && !flowed; ++c) {
      const Sweep sweep =
          colouring ? colour_sweep(*colouring, c, with_contacts) : jacobi_sweep(ctx);
      // A sweep without bonds or Jacobi pairs (a colour of a contact-only
      // scene) is neither run nor timed: a small scene's clock reads cost
      // as much as a body's solve.
      if (sweep.bond_count > 0 || sweep.pair_count > 0) {
        const auto bonds_mark = loops.start();
        sweep_bonds(ctx, sweep, fuse_contact_dual && it > 0, second_moment, loops);
        loops.stop(bonds_mark, t.bonds_ms);
      }
      const auto mark = loops.start();
      sweep_bodies(ctx, sweep, ends, fuse_contact_dual && it > 0, accelerate, loops);
      loops.stop(mark, t.solve_ms);
    }

    if (accelerate) {
      const auto mark = loops.start();
      omega = chebyshev_omega(it, s.chebyshev_rho, omega);
      const Real gamma = s.relaxation;
      const Real w = omega;
      loops.each(bodies.count, [=] PABD_LAMBDA(int i) {
        // Relaxation applies to every body, the extrapolation only where it may.
        const bool on = accelerates_body(bodies, bonds, all_ends, i);
        acceleration_kernel(bodies, i, on ? w : Real(1), gamma);
      });
      loops.stop(mark, t.solve_ms);
    }

    const bool contact_dual = !fuse_contact_dual || it + 1 == s.iterations;
    // Timed only when something runs (as the bond sweeps above): the
    // contacts' update is fused into the next iteration's evaluations.
    if (bonds.count > 0 || (contact_dual && contact.count > 0)) {
      const auto mark = loops.start();
      loops.each(bonds.count,
                 [=] PABD_LAMBDA(int i) { bond_dual_kernel(bodies, bonds, i, hard, h2); });
      if (contact_dual)
        loops.each(contact.count,
                   [=] PABD_LAMBDA(int i) { contact_dual_kernel(bodies, contact, i); });
      // The per-contact update leaves the pairs' quiet flags behind; the
      // evaluations of the next iteration read them.
      if (!fuse_contact_dual && it + 1 < s.iterations)
        loops.each(contact.pair_count,
                   [=] PABD_LAMBDA(int m) { contact_pair_quiet_kernel(contact, m); });
      loops.stop(mark, t.dual_ms);
    }

    observe(ctx, it);
  }
}

template <typename Loops>
void velocities_loops(const StepContext& ctx, const Loops& loops) {
  const BodyArrays bodies = ctx.bodies;
  const StepConstants k = ctx.settings.constants;
  loops.each(bodies.count, [=] PABD_LAMBDA(int i) { velocity_kernel(bodies, i, k); });
}

/// Whether the restitution stage may find a bouncing contact: some body has
/// restitution and the step has contacts listed per body.
inline bool restitution_stage_applies(const StepContext& ctx) {
  return ctx.any_restitution && ctx.contact.count > 0 && ctx.contact_ends.begin;
}

/// The approach speed below which no contact bounces this step
/// (contacts/contact_restitution.h).
inline Real restitution_threshold(const StepContext& ctx) {
  return restitution_threshold(ctx.settings.constants.gravity, ctx.settings.constants.h);
}

/// The restitution stage's Jacobi rounds (contacts/contact_restitution.h),
/// once a contact bounces faster than `threshold`, over scratch `s` (per
/// contact: impulse and delta; per body: share).
template <typename Loops>
void restitution_loops(const StepContext& ctx, Real threshold, const RestitutionScratch& s,
                       const Loops& loops) {
  const BodyArrays bodies = ctx.bodies;
  const ContactArrays contact = ctx.contact;
  const ContactEnds ends = ctx.contact_ends;
  loops.each(bodies.count,
             [=] PABD_LAMBDA(int i) { restitution_share_kernel(contact, ends, threshold, s, i); });
  for (int round = 0; round < kRestitutionRounds; ++round) {
    const bool first = round == 0;
    loops.each(contact.count, [=] PABD_LAMBDA(int k) {
      restitution_impulse_kernel(bodies, contact, threshold, s, first, k);
    });
    loops.each(bodies.count,
               [=] PABD_LAMBDA(int i) { restitution_apply_kernel(bodies, contact, ends, s, i); });
  }
}

}  // namespace pabd
