// One time step of the AVBD baseline (Giles et al. 2025), over the same
// StepContext, bodies, bonds and inertial target as PABD's step
// (solver/step.cpp), in stages:
//
//   colouring   host: rebuild the body colouring if the bond topology changed
//               (the world rejects bond kinds and contacts AVBD does not
//               support first: world/world_step.cpp)
//   warm start  per bond: C(x^n) of hard bonds; kappa = max(gamma kappa, kappa_start),
//               lambda *= alpha gamma (kept whole with post-stabilization)
//   predict     per body: PABD's predict_kernel (inertial target s, exact exp map),
//               then AVBD's adaptive initial guess for the centre
//   K times:
//     solve     per colour, per body: one 6x6 Newton step (Gauss-Seidel over colours)
//     dual      per bond: lambda <- kappa C* + lambda, kappa += beta |C*| (capped)
//   velocities  per body: PABD's velocity_kernel (v and the log map of the turn)
//   post-stab   with AvbdStabilization::Post and hard bonds: one more sweep with
//               alpha = 0 that removes the old error from the positions only
//
// Stabilization (docs/avbd.md): hard bonds solve C* = C(x) - alpha C(x^n), so
// error present at the start of a step is not turned into velocity. Post: the K
// iterations use alpha = 1 (all old error kept) and the extra sweep alpha = 0;
// Alpha: the K iterations use alpha = hard_lambda_decay; Off: C* = C.
//
// Timings map onto StageTimings: colouring, warm start and predict in
// predict_ms; the sweeps, the post-stabilization one included, in solve_ms
// (AVBD evaluates its bonds inside the per-body solve, so bonds_ms stays 0);
// dual_ms; velocities_ms.
// Every loop writes only its own index: a body (colours never share a bond)
// or a bond, so the result is the same for any thread count.
#include "avbd/avbd_step.h"

#include "avbd/avbd_kernels.h"
#include "core/stage_clock.h"
#include "solver/step_stages.h"

namespace pabd {

namespace {

bool any_hard_bond(const BondArrays& bonds) {
  for (int i = 0; i < bonds.count; ++i)
    if (bonds.hard[i] && (bonds.end_body[2 * i] >= 0 || bonds.end_body[2 * i + 1] >= 0))
      return true;
  return false;
}

}  // namespace

bool avbd_supports(BondKind kind) {
  switch (kind) {
    case BondKind::Spring:
    case BondKind::Point:
    case BondKind::Line:
    case BondKind::Distance:
      return true;
    default:
      return false;
  }
}

StepResult avbd_step(StepContext& ctx, AvbdScratch& avbd) {
  const auto step_start = StageClock::now();
  external_velocity_stage(ctx);
  StageTimings& t = ctx.timings;
  auto t0 = StageClock::now();
  const BodyArrays& bodies = ctx.bodies;
  const BondArrays& bonds = ctx.bonds;
  Colouring& colouring = *ctx.bond_colouring;
  if (!colouring_is_current(colouring, bodies.count, bonds.end_body, bonds.count))
    colour_bodies(bodies, bonds.end_body, bonds.count, colouring);
  const HardBondSettings& hard = ctx.settings.hard;
  const StepConstants& k = ctx.settings.constants;
  const Real h = k.h;
  const int nb = bodies.count, nc = bonds.count;
  const int* order = colouring.order.data();

  // AVBD's own arrays: resized only when a body or bond was added.
  avbd.start_violation.resize(static_cast<std::size_t>(nc));
  avbd.last_start_velocity.resize(static_cast<std::size_t>(nb));
  const bool has_history = avbd.history_step == ctx.steps_taken && avbd.history_bodies == nb;
  Vec3* last_velocity = avbd.last_start_velocity.data();

  // Stabilization of hard bonds. Plain penalties (augmented_lagrangian off)
  // are soft springs of kappa_start: like AVBD's soft forces, not stabilized.
  const AvbdStabilization mode =
      hard.augmented ? ctx.settings.avbd_stabilization : AvbdStabilization::Off;
  AvbdStabilizerView solve_st;  // the K iterations
  if (mode != AvbdStabilization::Off) {
    solve_st.start_violation = avbd.start_violation.data();
    solve_st.alpha = mode == AvbdStabilization::Post ? Real(1) : hard.lambda_decay;
  }
  const bool keep_lambda = mode == AvbdStabilization::Post;

  // Warm start at x^n (before the bodies move), then predict and the initial guess.
  Vec3* start_violation = avbd.start_violation.data();
  for_each_index(ctx, nc, [&](int i) {
    avbd_start_violation_kernel(bodies, bonds, i, start_violation);
    avbd_warm_start_kernel(bonds, i, hard, keep_lambda);
  });
  for_each_index(ctx, nb, [&](int i) {
    predict_kernel(bodies, i, k);
    avbd_initial_guess_kernel(bodies, last_velocity, i, h, k.gravity, has_history);
  });
  avbd.history_step = ctx.steps_taken + 1;
  avbd.history_bodies = nb;
  t.predict_ms += ms_since(t0);
  observe(ctx, -1);

  // One Gauss-Seidel sweep over the colours with the given stabilization.
  const auto sweep = [&](const AvbdStabilizerView& st) {
    for (int c = 0; c < colouring.colour_count(); ++c) {
      const int begin = colouring.colour_begin[c];
      for_each_index(ctx, colouring.colour_begin[c + 1] - begin,
                     [&](int j) { avbd_body_kernel(bodies, bonds, order[begin + j], h, st); });
    }
  };

  for (int it = 0; it < ctx.settings.iterations; ++it) {
    t0 = StageClock::now();
    sweep(solve_st);
    t.solve_ms += ms_since(t0);

    t0 = StageClock::now();
    for_each_index(ctx, nc, [&](int i) { avbd_dual_kernel(bodies, bonds, i, hard, solve_st); });
    t.dual_ms += ms_since(t0);

    observe(ctx, it);
  }

  velocities_stage(ctx);

  // Post-stabilization: one sweep on C* = C (alpha = 0) moves the bodies to
  // remove the drift; the velocities, kappa and lambda stay as they are. Only
  // where there is drift to remove: with no hard bond the sweep would be one
  // more, uncounted iteration whose motion no velocity sees.
  if (mode == AvbdStabilization::Post && any_hard_bond(bonds)) {
    t0 = StageClock::now();
    sweep(AvbdStabilizerView{});  // no start_violation: C* = C
    t.solve_ms += ms_since(t0);
  }

  t.total_ms = ms_since(step_start);
  return finite_check_stage(ctx);
}

}  // namespace pabd
