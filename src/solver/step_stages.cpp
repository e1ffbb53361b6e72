// The stages of a step (see step_stages.h).
#include "solver/step_stages.h"

#include <algorithm>

#include "contacts/contact_restitution.h"
#include "core/stage_clock.h"
#include "solver/block_order.h"
#include "solver/island_momentum.h"
#include "solver/step_loops.h"

namespace pabd {

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
  ctx.contact_graph = contact_graph_of(ctx.contact, ctx.contact_ends);
  contact_colouring_stage(ctx);
  StageTimings& t = ctx.timings;
  t.detect_ms = ms_since(t0);
  if (ctx.detector) add_detect_timings(ctx.detector->timings(), t);
}

void add_detect_timings(const ContactDetectTimings& d, StageTimings& t) {
  t.broadphase_ms = d.broadphase;
  t.narrowphase_ms = d.narrowphase;
  t.contact_setup_ms = d.setup;
  t.contact_load_ms = d.load;
}

void contact_colouring_stage(StepContext& ctx) {
  if (!contact_colours(ctx)) return;
  if (use_block_order(ctx.bodies.count, ctx.bonds.count, ctx.contact.count,
                      ctx.settings.block_order_min_bodies))
    order_in_blocks(ctx.bodies, ctx.contact, ctx.contact_ends, *ctx.contact_colouring);
  else
    colour_bodies(ctx.bodies, ctx.bonds.end_body, ctx.bonds.count, ctx.contact_graph,
                  VisitOrder::Priority, *ctx.contact_colouring);
}

void external_velocity_stage(StepContext& ctx) {
  if (!ctx.any_external_input) return;
  const auto t0 = StageClock::now();
  external_velocity_loops(ctx, host_loops(ctx));
  ctx.timings.predict_ms += ms_since(t0);
}

void predict_stage(StepContext& ctx) {
  const auto t0 = StageClock::now();
  predict_loops(ctx, host_loops(ctx));
  ctx.timings.predict_ms += ms_since(t0);
}

void warm_start_stage(StepContext& ctx) {
  const auto t0 = StageClock::now();
  warm_start_loops(ctx, host_loops(ctx));
  ctx.timings.predict_ms += ms_since(t0);
}

IterationColouring iteration_colouring(StepContext& ctx) {
  IterationColouring out;
  out.with_contacts = contact_colours(ctx);
  if (out.with_contacts) {
    out.colouring = ctx.contact_colouring;
  } else if (ctx.settings.colored) {
    Colouring& c = *ctx.bond_colouring;
    const BondArrays& bonds = ctx.bonds;
    if (!colouring_is_current(c, ctx.bodies.count, bonds.end_body, bonds.count))
      colour_bodies(ctx.bodies, bonds.end_body, bonds.count, c);
    out.colouring = &c;
  }
  // Colored sweeps without contacts gather no contact ends.
  out.ends = ctx.settings.colored && !out.with_contacts ? ContactEnds{} : ctx.contact_ends;
  return out;
}

void iterate_stage(StepContext& ctx) {
  const IterationColouring c = iteration_colouring(ctx);
  const ColouringView view = c.colouring ? host_view(*c.colouring) : ColouringView{};
  iterate_loops(ctx, c.colouring ? &view : nullptr, c.with_contacts, c.ends, ctx.timings,
                host_loops(ctx));
}

void velocities_stage(StepContext& ctx) {
  const auto t0 = StageClock::now();
  velocities_loops(ctx, host_loops(ctx));
  ctx.timings.velocities_ms += ms_since(t0);
}

/// The bouncing contacts' normal velocities set to -e v_n0 by
/// kRestitutionRounds Jacobi rounds (contact_restitution.h).
void restitution_stage(StepContext& ctx) {
  const ContactArrays& contact = ctx.contact;
  const BodyArrays& bodies = ctx.bodies;
  if (!restitution_stage_applies(ctx)) return;
  const auto t0 = StageClock::now();
  const Real threshold = restitution_threshold(ctx);
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
    restitution_loops(ctx, threshold, s, host_loops(ctx));
  }
  ctx.timings.velocities_ms += ms_since(t0);  // timed with the velocities
}

void after_iterations_stage(StepContext& ctx) {
  island_momentum_stage(ctx);
  velocities_stage(ctx);
  restitution_stage(ctx);
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
