// One time step of the AVBD baseline (Giles et al. 2025), over the same bodies,
// bonds and inertial target as PABD's step (src/solver/step.cpp), in stages:
//
//   colouring   host: rebuild the body colouring if the bond topology changed,
//               and reject bond kinds AVBD does not support
//   predict     per body: PABD's predict_kernel (s = q^0, exact exp map)
//   warm start  per bond: kappa = max(gamma kappa, kappa_start), lambda *= alpha gamma
//   K times:
//     solve     per colour, per body: one 6x6 Newton step (Gauss-Seidel over colours)
//     dual      per bond: lambda <- kappa C + lambda, kappa += beta |C| (capped)
//   velocities  per body: PABD's velocity_kernel (v and the log map of the turn)
//
// Timings map onto StageTimings: colouring, predict and warm start in
// predict_ms; the sweeps in solve_ms (AVBD evaluates its bonds inside the
// per-body solve, so bonds_ms stays 0); dual_ms; velocities_ms.
// Every loop writes only its own index: a body (colours never share a bond)
// or a bond, so the result is the same for any thread count.
#include <chrono>
#include <string>

#include "avbd/avbd_kernels.h"
#include "solver/body_colouring.h"
#include "solver/body_kernels.h"
#include "solver/parallel.h"
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

}  // namespace

StepResult WorldImpl::step_avbd() {
  const auto step_start = Clock::now();
  StageTimings t;
  auto t0 = Clock::now();
  if (!colouring_is_current(colouring, *this)) {
    check_bond_kinds(*this);
    colouring = colour_bodies(*this);
  }
  const BodyArrays bodies = body_arrays();
  const BondArrays bonds = bond_arrays();
  const HardBondSettings hard = hard_settings();
  const StepConstants k{settings.dt, settings.gravity, settings.prediction == PredictionMode::Exact,
                        settings.local_step == LocalStep::Rigid};
  const Real h = settings.dt;
  const ParallelFor& pf = settings.parallel_for;
  const int nb = bodies.count, nc = bonds.count;
  const int* order = colouring.order.data();

  // Predict: the same inertial target and first iterate as PABD.
  parallel_for(pf, threads, nb, [&](int i) { predict_kernel(bodies, i, k); });
  parallel_for(pf, threads, nc, [&](int i) { avbd_warm_start_kernel(bonds, i, hard); });
  t.predict_ms = ms_since(t0);
  if (observer) observer(-1);

  for (int it = 0; it < settings.iterations; ++it) {
    t0 = Clock::now();
    for (int c = 0; c < colouring.colour_count(); ++c) {
      const int begin = colouring.colour_begin[c];
      parallel_for(pf, threads, colouring.colour_begin[c + 1] - begin,
                   [&](int j) { avbd_body_kernel(bodies, bonds, order[begin + j], h); });
    }
    t.solve_ms += ms_since(t0);

    t0 = Clock::now();
    parallel_for(pf, threads, nc, [&](int i) { avbd_dual_kernel(bodies, bonds, i, hard); });
    t.dual_ms += ms_since(t0);

    if (observer) observer(it);
  }

  t0 = Clock::now();
  parallel_for(pf, threads, nb, [&](int i) { velocity_kernel(bodies, i, k); });
  t.velocities_ms = ms_since(t0);

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
