// One time step of the AVBD baseline (Giles et al. 2025), over the same bodies,
// bonds and inertial target as PABD's step (src/solver/step.cpp), in stages:
//
//   colouring   host: rebuild the body colouring if the bond topology changed,
//               and reject bond kinds AVBD does not support
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
#include <chrono>
#include <string>

#include "avbd/avbd_kernels.h"
#include "avbd/avbd_scratch.h"
#include "core/parallel.h"
#include "solver/body_colouring.h"
#include "solver/body_kernels.h"
#include "world/world_impl.h"

namespace pabd {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

/// True for the bond kinds avbd_bond_terms.h implements.
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

const char* joint_kind_name(JointKind kind) {
  switch (kind) {
    case JointKind::Spring:
      return "spring";
    case JointKind::Spherical:
      return "spherical joint";
    case JointKind::Hinge:
      return "hinge joint";
    case JointKind::Fixed:
      return "fixed joint";
    case JointKind::Slider:
      return "slider joint";
    case JointKind::Distance:
      return "distance joint";
    default:
      return "joint";
  }
}

/// Throws pabd::Error naming the first live bond AVBD cannot solve and its joint.
void check_bond_kinds(const WorldImpl& w) {
  for (int i = 0; i < w.bond_count(); ++i) {
    const bool live = w.end_body[2 * i] >= 0 || w.end_body[2 * i + 1] >= 0;
    if (!live || avbd_supports(w.bond_kind[i])) continue;
    std::string owner = "bond " + std::to_string(i);
    for (std::size_t j = 0; j < w.joint_first_bond.size(); ++j)
      if (i >= w.joint_first_bond[j] && i < w.joint_first_bond[j] + w.joint_bond_count[j])
        owner = std::string(joint_kind_name(w.joint_kind[j])) + " " + std::to_string(j);
    throw Error("solver avbd: " + owner + " uses bond kind " +
                std::to_string(static_cast<int>(w.bond_kind[i])) +
                ", which AVBD does not support (it solves springs and point, line and distance "
                "bonds; joint limits and drives need solver pabd)");
  }
}

/// True when some live bond is hard (only hard bonds are stabilized).
bool any_hard_bond(const WorldImpl& w) {
  for (int i = 0; i < w.bond_count(); ++i)
    if (w.bond_hard[i] && (w.end_body[2 * i] >= 0 || w.end_body[2 * i + 1] >= 0)) return true;
  return false;
}

}  // namespace

StepResult WorldImpl::step_avbd() {
  const auto step_start = Clock::now();
  StageTimings t;
  t.detect_ms = reject_contacts_for_avbd();  // no contacts in the baseline (world_contacts.cpp)
  auto t0 = Clock::now();
  if (!colouring_is_current(colouring, *this)) {
    check_bond_kinds(*this);
    colouring = colour_bodies(*this);
  }
  const BodyArrays bodies = body_arrays();
  const BondArrays bonds = bond_arrays();
  const HardBondSettings hard = hard_settings();
  const StepConstants k{settings.dt, settings.gravity, settings.prediction == PredictionMode::Exact,
                        settings.local_step == LocalStep::Rigid, settings.max_rotation_per_step};
  const Real h = settings.dt;
  const ParallelFor& pf = settings.parallel_for;
  const int nb = bodies.count, nc = bonds.count;
  const int* order = colouring.order.data();

  // AVBD's own arrays: resized only when a body or bond was added.
  avbd.start_violation.resize(static_cast<std::size_t>(nc));
  avbd.last_start_velocity.resize(static_cast<std::size_t>(nb));
  const bool has_history = avbd.history_step == steps_taken && avbd.history_bodies == nb;
  Vec3* last_velocity = avbd.last_start_velocity.data();

  // Stabilization of hard bonds. Plain penalties (augmented_lagrangian off)
  // are soft springs of kappa_start: like AVBD's soft forces, not stabilized.
  const AvbdStabilization mode =
      hard.augmented ? settings.avbd_stabilization : AvbdStabilization::Off;
  AvbdStabilizerView solve_st;  // the K iterations
  if (mode != AvbdStabilization::Off) {
    solve_st.start_violation = avbd.start_violation.data();
    solve_st.alpha = mode == AvbdStabilization::Post ? Real(1) : hard.lambda_decay;
  }
  const bool keep_lambda = mode == AvbdStabilization::Post;

  // Warm start at x^n (before the bodies move), then predict and the initial guess.
  Vec3* start_violation = avbd.start_violation.data();
  parallel_for(pf, threads, nc, [&](int i) {
    avbd_start_violation_kernel(bodies, bonds, i, start_violation);
    avbd_warm_start_kernel(bonds, i, hard, keep_lambda);
  });
  parallel_for(pf, threads, nb, [&](int i) {
    predict_kernel(bodies, i, k);
    avbd_initial_guess_kernel(bodies, last_velocity, i, h, settings.gravity, has_history);
  });
  avbd.history_step = steps_taken + 1;
  avbd.history_bodies = nb;
  t.predict_ms = ms_since(t0);
  if (observer) observer(-1);

  // One Gauss-Seidel sweep over the colours with the given stabilization.
  const auto sweep = [&](const AvbdStabilizerView& st) {
    for (int c = 0; c < colouring.colour_count(); ++c) {
      const int begin = colouring.colour_begin[c];
      parallel_for(pf, threads, colouring.colour_begin[c + 1] - begin,
                   [&](int j) { avbd_body_kernel(bodies, bonds, order[begin + j], h, st); });
    }
  };

  for (int it = 0; it < settings.iterations; ++it) {
    t0 = Clock::now();
    sweep(solve_st);
    t.solve_ms += ms_since(t0);

    t0 = Clock::now();
    parallel_for(pf, threads, nc,
                 [&](int i) { avbd_dual_kernel(bodies, bonds, i, hard, solve_st); });
    t.dual_ms += ms_since(t0);

    if (observer) observer(it);
  }

  t0 = Clock::now();
  parallel_for(pf, threads, nb, [&](int i) { velocity_kernel(bodies, i, k); });
  t.velocities_ms = ms_since(t0);

  // Post-stabilization: one sweep on C* = C (alpha = 0) moves the bodies to
  // remove the drift; the velocities, kappa and lambda stay as they are. Only
  // where there is drift to remove: with no hard bond the sweep would be one
  // more, uncounted iteration whose motion no velocity sees.
  if (mode == AvbdStabilization::Post && any_hard_bond(*this)) {
    t0 = Clock::now();
    sweep(AvbdStabilizerView{});  // no start_violation: C* = C
    t.solve_ms += ms_since(t0);
  }

  ++steps_taken;
  StepResult result;
  result.step = steps_taken;
  for (int i = 0; i < nb; ++i) {
    if (!body_state_finite(bodies, i)) {
      result.ok = false;
      result.bad_body = i;
      break;
    }
  }
  t.total_ms = ms_since(step_start);
  timings = t;
  return result;
}

}  // namespace pabd
