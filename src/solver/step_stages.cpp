// The stages of a step (see step_stages.h).
#include "solver/step_stages.h"

#include <algorithm>

#include "bonds/bond_kernels.h"
#include "contacts/contact_kernels.h"
#include "contacts/contact_restitution.h"
#include "core/stage_clock.h"
#include "solver/acceleration.h"
#include "solver/block_order.h"
#include "solver/colour_body_kernel.h"
#include "solver/external_velocity.h"

namespace pabd {

namespace {

Real h_squared(const StepContext& ctx) {
  return ctx.settings.constants.h * ctx.settings.constants.h;
}

/// With colored sweeps and contacts, the colouring is over bonds and contacts.
bool contact_colours(const StepContext& ctx) {
  return ctx.settings.colored && ctx.contact.count > 0;
}

/// What one pass of an iteration updates: one colour of a colored sweep, or
/// everything for a Jacobi iteration (null lists: the identity).
struct Sweep {
  const int* bonds = nullptr;
  int bond_count = 0;
  int pair_count = 0;  ///< Jacobi: every contact pair
  const int* bodies = nullptr;
  int body_count = 0;
  /// A colour of a sweep with contacts: the colouring whose first body of
  /// a pair takes its dual update (colour_body_kernel).
  const Colouring* colouring = nullptr;
  /// A colour of a block order: its blocks, block j being
  /// bodies[blocks[j] .. blocks[j + 1]) (none: a thread per body).
  const int* blocks = nullptr;
  int block_count = 0;
};

Sweep jacobi_sweep(const StepContext& ctx) {
  Sweep s;
  s.bond_count = ctx.bonds.count;
  s.pair_count = ctx.contact.pair_count;
  s.body_count = ctx.bodies.count;
  return s;
}

Sweep colour_sweep(const Colouring& c, int colour, bool with_contacts) {
  Sweep s;
  s.bonds = c.bond_order.data() + c.bond_colour_begin[colour];
  s.bond_count = c.bond_colour_begin[colour + 1] - c.bond_colour_begin[colour];
  if (with_contacts) s.colouring = &c;
  s.bodies = c.order.data() + c.colour_begin[colour];
  s.body_count = c.colour_begin[colour + 1] - c.colour_begin[colour];
  if (!c.block_begin.empty()) {
    // The blocks hold places in the whole order: it is read through them alone.
    s.bodies = c.order.data();
    s.body_count = 0;
    s.blocks = c.block_begin.data() + c.colour_block_begin[colour];
    s.block_count = c.colour_block_begin[colour + 1] - c.colour_block_begin[colour];
  }
  return s;
}

/// The sweep's bonds, and for a Jacobi sweep its contact pairs: their ends'
/// weights and pulls from the latest iterate. `fuse`: the contacts' deferred
/// dual update is taken here, by the pair's evaluation. A colour of a colored
/// sweep with contacts evaluates its pairs in sweep_bodies instead.
void sweep_bonds(StepContext& ctx, const Sweep& s, bool fuse, bool second_moment) {
  const BodyArrays& bodies = ctx.bodies;
  const BondArrays& bonds = ctx.bonds;
  const ContactArrays& contact = ctx.contact;
  const HardBondSettings& hard = ctx.settings.hard;
  const Real h2 = h_squared(ctx);
  for_each_index(ctx, s.bond_count, [&](int j) {
    bond_weights_kernel(bodies, bonds, s.bonds ? s.bonds[j] : j, hard, h2);
  });
  for_each_index(ctx, s.pair_count, [&](int m) {
    contact_pair_weights_kernel(bodies, contact, m, fuse, second_moment);
  });
}

/// The sweep's bodies: gather, global solve, closest rotation. A colour of a
/// colored sweep with contacts evaluates its bodies' contact pairs in the
/// same loop (solver/colour_body_kernel.h), not beforehand in sweep_bonds.
void sweep_bodies(StepContext& ctx, const Sweep& s, const ContactEnds& ends, bool fuse,
                  bool keep_weights) {
  const BodyArrays& bodies = ctx.bodies;
  const BondArrays& bonds = ctx.bonds;
  const StepConstants& k = ctx.settings.constants;
  if (s.colouring) {
    const ContactArrays& contact = ctx.contact;
    const int* body_key = s.colouring->colour.data();
    const auto solve = [&](int j, int last) {
      // Two bodies ahead: where its pair ends are listed.
      if (j + 2 < last) prefetch_body_ends(ends, s.bodies[j + 2]);
      colour_body_kernel(bodies, bonds, contact, ends, body_key, fuse, keep_weights, s.bodies[j],
                         k);
    };
    if (s.blocks) {
      // A thread per block, its bodies in turn (solver/block_order.h).
      for_each_block(ctx, s.block_count, [&](int b) {
        for (int j = s.blocks[b]; j < s.blocks[b + 1]; ++j) solve(j, s.blocks[b + 1]);
      });
    } else {
      for_each_uneven_index(ctx, s.body_count, [&](int j) { solve(j, s.body_count); });
    }
    return;
  }
  for_each_index(ctx, s.body_count, [&](int j) {
    global_local_kernel(bodies, bonds, ends, s.bodies ? s.bodies[j] : j, k);
  });
}

}  // namespace

void detect_stage(StepContext& ctx) {
  const auto t0 = StageClock::now();
  if (ctx.detector) {
    ctx.detector->detect(ctx.detect_input);
    ctx.contact = ctx.detector->arrays();
    ctx.contact_ends = ctx.detector->ends();
  } else {
    ctx.contact = ContactArrays{};
    ctx.contact_ends = ContactEnds{};
  }
  if (contact_colours(ctx)) {
    if (use_block_order(ctx.bodies.count, ctx.bonds.count, ctx.contact.count,
                        ctx.settings.block_order_min_bodies))
      order_in_blocks(ctx.bodies, ctx.contact, ctx.contact_ends, *ctx.contact_colouring);
    else
      colour_bodies(ctx.bodies, ctx.bonds.end_body, ctx.bonds.count, ctx.contact, ctx.contact_ends,
                    *ctx.contact_colouring);
  }
  StageTimings& t = ctx.timings;
  t.detect_ms = ms_since(t0);
  if (ctx.detector) {
    const ContactDetector::Timings& d = ctx.detector->timings();
    t.broadphase_ms = d.broadphase;
    t.narrowphase_ms = d.narrowphase;
    t.contact_setup_ms = d.setup;
    t.contact_load_ms = d.load;
  }
}

void external_velocity_stage(StepContext& ctx) {
  if (!ctx.any_external_input) return;
  const auto t0 = StageClock::now();
  const BodyArrays& bodies = ctx.bodies;
  const StepConstants& k = ctx.settings.constants;
  for_each_index(ctx, bodies.count,
                 [&](int i) { external_velocity_kernel(bodies, i, k.h, k.gravity); });
  ctx.timings.predict_ms += ms_since(t0);
}

void predict_stage(StepContext& ctx) {
  const auto t0 = StageClock::now();
  const BodyArrays& bodies = ctx.bodies;
  const StepConstants& k = ctx.settings.constants;
  for_each_index(ctx, bodies.count, [&](int i) { predict_kernel(bodies, i, k); });
  ctx.timings.predict_ms += ms_since(t0);
}

void warm_start_stage(StepContext& ctx) {
  const auto t0 = StageClock::now();
  const BodyArrays& bodies = ctx.bodies;
  const BondArrays& bonds = ctx.bonds;
  const ContactArrays& contact = ctx.contact;
  const HardBondSettings& hard = ctx.settings.hard;
  const Real h = ctx.settings.constants.h, h2 = h_squared(ctx);
  for_each_index(ctx, bonds.count,
                 [&](int i) { bond_warm_start_kernel(bodies, bonds, i, hard, h2); });
  for_each_index(ctx, contact.count,
                 [&](int i) { contact_prepare_kernel(bodies, contact, i, hard, h2); });
  for_each_index(ctx, contact.pair_count, [&](int m) { contact_pair_prepare_kernel(contact, m); });
  const ContactEnds& ends = ctx.contact_ends;
  if (ends.bound)
    for_each_index(ctx, bodies.count, [&](int i) { contact_end_bound_kernel(contact, ends, i); });
  // Joint limits and drives: coordinates at the step's start, drive targets at its end time.
  const Real t_end = Real(ctx.steps_taken + 1) * h;
  for_each_index(ctx, bonds.count,
                 [&](int i) { axis_bond_step_kernel(bodies, bonds, i, hard, t_end, h); });
  ctx.timings.predict_ms += ms_since(t0);
}

void iterate_stage(StepContext& ctx) {
  const StepSettings& s = ctx.settings;
  const BodyArrays& bodies = ctx.bodies;
  const BondArrays& bonds = ctx.bonds;
  const ContactArrays& contact = ctx.contact;
  const HardBondSettings& hard = s.hard;
  const Real h2 = h_squared(ctx);
  StageTimings& t = ctx.timings;

  // The colouring the sweeps follow, or none (Jacobi).
  const bool with_contacts = contact_colours(ctx);
  const Colouring* colouring = nullptr;
  if (with_contacts) {
    colouring = ctx.contact_colouring;
  } else if (s.colored) {
    Colouring& c = *ctx.bond_colouring;
    if (!colouring_is_current(c, bodies.count, bonds.end_body, bonds.count))
      colour_bodies(bodies, bonds.end_body, bonds.count, c);
    colouring = &c;
  }
  // Colored sweeps without contacts gather no contact ends.
  const ContactEnds ends = s.colored && !with_contacts ? ContactEnds{} : ctx.contact_ends;

  // Chebyshev acts only on bodies whose joints carry load (acceleration.h):
  // without such a joint the stage would only copy poses.
  const bool accelerate = (s.chebyshev_rho > 0 && ctx.any_loaded_joint) || s.relaxation != 1;
  if (accelerate)
    for_each_index(ctx, bodies.count, [&](int i) { acceleration_start_kernel(bodies, i); });
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
  const int sweeps = colouring ? colouring->colour_count() : 1;

  for (int it = 0; it < s.iterations; ++it) {
    for (int c = 0; c < sweeps; ++c) {
      const Sweep sweep =
          colouring ? colour_sweep(*colouring, c, with_contacts) : jacobi_sweep(ctx);
      auto t0 = StageClock::now();
      sweep_bonds(ctx, sweep, fuse_contact_dual && it > 0, second_moment);
      t.bonds_ms += ms_since(t0);
      t0 = StageClock::now();
      sweep_bodies(ctx, sweep, ends, fuse_contact_dual && it > 0, accelerate);
      t.solve_ms += ms_since(t0);
    }

    if (accelerate) {
      const auto t0 = StageClock::now();
      omega = chebyshev_omega(it, s.chebyshev_rho, omega);
      const Real gamma = s.relaxation;
      const ContactEnds& all_ends = ctx.contact_ends;
      for_each_index(ctx, bodies.count, [&](int i) {
        // Relaxation applies to every body, the extrapolation only where it may.
        const bool on = accelerates_body(bodies, bonds, all_ends, i);
        acceleration_kernel(bodies, i, on ? omega : Real(1), gamma);
      });
      t.solve_ms += ms_since(t0);
    }

    const auto t0 = StageClock::now();
    for_each_index(ctx, bonds.count, [&](int i) { bond_dual_kernel(bodies, bonds, i, hard, h2); });
    if (!fuse_contact_dual || it + 1 == s.iterations)
      for_each_index(ctx, contact.count, [&](int i) { contact_dual_kernel(bodies, contact, i); });
    // The per-contact update leaves the pairs' quiet flags behind; the
    // evaluations of the next iteration read them.
    if (!fuse_contact_dual && it + 1 < s.iterations)
      for_each_index(ctx, contact.pair_count,
                     [&](int m) { contact_pair_quiet_kernel(contact, m); });
    t.dual_ms += ms_since(t0);

    observe(ctx, it);
  }
}

void velocities_stage(StepContext& ctx) {
  const auto t0 = StageClock::now();
  const BodyArrays& bodies = ctx.bodies;
  const StepConstants& k = ctx.settings.constants;
  for_each_index(ctx, bodies.count, [&](int i) { velocity_kernel(bodies, i, k); });
  ctx.timings.velocities_ms += ms_since(t0);
}

/// The bouncing contacts' normal velocities set to -e v_n0 by
/// kRestitutionRounds Jacobi rounds (contact_restitution.h).
void restitution_stage(StepContext& ctx) {
  const ContactArrays& contact = ctx.contact;
  const ContactEnds& ends = ctx.contact_ends;
  const BodyArrays& bodies = ctx.bodies;
  if (!ctx.any_restitution || contact.count == 0 || !ends.begin) return;
  const auto t0 = StageClock::now();
  const Real threshold =
      restitution_threshold(ctx.settings.constants.gravity, ctx.settings.constants.h);
  bool any = false;  // a serial scan: most steps have no bouncing contact
  for (int k = 0; k < contact.count && !any; ++k) any = restitution_active(contact, k, threshold);
  if (any) {
    const int nb = bodies.count, nk = contact.count;
    StepBuffers& b = *ctx.buffers;
    b.restitution_impulse.resize(std::max(b.restitution_impulse.size(), std::size_t(nk)));
    b.restitution_delta.resize(std::max(b.restitution_delta.size(), std::size_t(nk)));
    b.restitution_share.resize(std::max(b.restitution_share.size(), std::size_t(nb)));
    const RestitutionScratch s{b.restitution_impulse.data(), b.restitution_delta.data(),
                               b.restitution_share.data()};
    for_each_index(ctx, nb,
                   [&](int i) { restitution_share_kernel(contact, ends, threshold, s, i); });
    for (int round = 0; round < kRestitutionRounds; ++round) {
      for_each_index(ctx, nk, [&](int k) {
        restitution_impulse_kernel(bodies, contact, threshold, s, round == 0, k);
      });
      for_each_index(ctx, nb,
                     [&](int i) { restitution_apply_kernel(bodies, contact, ends, s, i); });
    }
  }
  ctx.timings.velocities_ms += ms_since(t0);  // timed with the velocities
}

StepResult finite_check_stage(const StepContext& ctx) {
  StepResult result;
  for (int i = 0; i < ctx.bodies.count; ++i) {
    if (!body_state_finite(ctx.bodies, i)) {
      result.ok = false;
      result.bad_body = i;
      result.failure = StepFailure::NonFinite;
      break;
    }
  }
  return result;
}

}  // namespace pabd
