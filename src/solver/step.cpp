// One time step, as the paper's Algorithm 1, in named stages:
//
//   detect      collision detection: this step's contacts with their warm-started
//               multipliers (contacts/contact_detect.h); with colored sweeps and
//               contacts, the body colouring over bonds and contacts
//   predict     per body: inertial target s and first iterate q^0 = s
//   warm start  per bond: augmented-Lagrangian penalty and multiplier; for
//               joint limits and drives, the start coordinate and drive target;
//               per contact: its ends' weights and correction scales
//   K times:
//     bonds     per bond and per contact pair: weight and pull for both ends, from iterate k
//     solve     per body: gather bond then contact pair ends, 12x12 global solve, closest
//               rotation; then the optional acceleration (solver/acceleration.h)
//     dual      per bond and per contact: augmented-Lagrangian update from iterate k+1
//               (Jacobi: a contact's is fused into the next iteration's bonds stage)
//   velocities  per body: v and w from the start and end poses
//   restitution only when some body has restitution and a contact bounces:
//               Jacobi rounds of per-contact impulses and per-body gathers
//               (contacts/contact_restitution.h); timed with the velocities
//
// IterationOrder::Jacobi runs bonds then solve once per iteration over all
// bonds and bodies (the paper). IterationOrder::Colored runs them once per
// body colour (solver/body_colouring.h), a Gauss-Seidel sweep: each colour
// sees the colours solved before it in the same iteration.
//
// Each stage is one parallel loop over a kernel that writes only its own index
// (bond stages write their bond's two ends; body stages their body), so there
// are no atomics and the result is the same for any thread count.
#include <algorithm>
#include <chrono>

#include "bonds/bond_kernels.h"
#include "contacts/contact_kernels.h"
#include "contacts/contact_restitution.h"
#include "core/parallel.h"
#include "solver/acceleration.h"
#include "solver/body_colouring.h"
#include "solver/body_kernels.h"
#include "world/world_impl.h"

namespace pabd {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

/// The restitution stage: the bouncing contacts' normal velocities set to
/// -e v_n0 by kRestitutionRounds Jacobi rounds (contact_restitution.h).
void restitution_stage(WorldImpl& w, const BodyArrays& bodies, const ContactArrays& contact,
                       const ContactEnds& ends) {
  const Real threshold = restitution_threshold(w.settings.gravity, w.settings.dt);
  bool any = false;  // a serial scan: most steps have no bouncing contact
  for (int k = 0; k < contact.count && !any; ++k) any = restitution_active(contact, k, threshold);
  if (!any || !ends.begin) return;
  const int nb = bodies.count, nk = contact.count;
  w.restitution_impulse.resize(std::max(w.restitution_impulse.size(), std::size_t(nk)));
  w.restitution_delta.resize(std::max(w.restitution_delta.size(), std::size_t(nk)));
  w.restitution_share.resize(std::max(w.restitution_share.size(), std::size_t(nb)));
  const RestitutionScratch s{w.restitution_impulse.data(), w.restitution_delta.data(),
                             w.restitution_share.data()};
  const ParallelFor& pf = w.settings.parallel_for;
  parallel_for(pf, w.threads, nb,
               [&](int i) { restitution_share_kernel(contact, ends, threshold, s, i); });
  for (int round = 0; round < kRestitutionRounds; ++round) {
    parallel_for(pf, w.threads, nk, [&](int k) {
      restitution_impulse_kernel(bodies, contact, threshold, s, round == 0, k);
    });
    parallel_for(pf, w.threads, nb,
                 [&](int i) { restitution_apply_kernel(bodies, contact, ends, s, i); });
  }
}

}  // namespace

StepResult WorldImpl::step() {
  if (topology_dirty) build_topology();
  if (settings.solver == SolverKind::Avbd) return step_avbd();
  const auto step_start = Clock::now();
  StageTimings t;
  const BodyArrays bodies = body_arrays();
  const BondArrays bonds = bond_arrays();
  const HardBondSettings hard = hard_settings();
  const StepConstants k{settings.dt, settings.gravity, settings.prediction == PredictionMode::Exact,
                        settings.local_step == LocalStep::Rigid, settings.max_rotation_per_step};
  const Real h2 = settings.dt * settings.dt;
  const ParallelFor& pf = settings.parallel_for;
  const int nb = bodies.count, nc = bonds.count;

  // Detect: contacts at the start-of-step state (before the prediction moves it).
  auto t0 = Clock::now();
  detect_contacts();
  const ContactArrays contact = contacts.arrays();
  const ContactEnds contact_ends = contacts.ends();
  const int nk = contact.count;
  const bool colored = settings.iteration_order == IterationOrder::Colored;
  // Colored sweeps with contacts: colour over bonds and contacts (contact_colouring.h).
  const bool contact_colours = colored && nk > 0;
  if (contact_colours)
    colour_bodies_with_contacts(bodies, end_body.data(), nc, contact, contact_ends,
                                contact_colouring);
  t.detect_ms = ms_since(t0);
  if (settings.collisions) {
    const ContactDetector::Timings& d = contacts.timings();
    t.broadphase_ms = d.broadphase;
    t.narrowphase_ms = d.narrowphase;
    t.contact_setup_ms = d.setup;
    t.contact_load_ms = d.load;
  }

  t0 = Clock::now();
  parallel_for(pf, threads, nb, [&](int i) { predict_kernel(bodies, i, k); });
  parallel_for(pf, threads, nc, [&](int i) { bond_warm_start_kernel(bodies, bonds, i, hard, h2); });
  parallel_for(pf, threads, nk,
               [&](int i) { contact_prepare_kernel(bodies, contact, i, hard, h2); });
  // Joint limits and drives: coordinates at the step's start, drive targets at its end time.
  parallel_for(pf, threads, nc, [&, t_end = Real(steps_taken + 1) * settings.dt](int i) {
    axis_bond_step_kernel(bodies, bonds, i, hard, t_end, settings.dt);
  });
  t.predict_ms = ms_since(t0);
  if (observer) observer(-1);

  if (colored && !contact_colours && !colouring_is_current(colouring, *this))
    colouring = colour_bodies(*this);
  // Chebyshev acts only on bodies whose joints carry load (acceleration.h):
  // without such a joint the stage would only copy poses.
  const bool accelerate =
      (settings.chebyshev_rho > 0 && any_loaded_joint) || settings.relaxation != 1;
  if (accelerate)
    parallel_for(pf, threads, nb, [&](int i) { acceleration_start_kernel(bodies, i); });
  Real omega = 1;
  // The contacts' dual update is deferred into the next iteration's weights
  // (contact_pair_weights_kernel's dual_first), except after the last
  // iteration, or when an observer must see every iteration's multipliers.
  // Colored sweeps evaluate a pair in both its bodies' colours; the first of
  // the two in the next iteration still sees both bodies where this
  // iteration left them, so it takes the update.
  const bool fuse_contact_dual = !observer && (!colored || contact_colours);
  // Only the paper's local step reads D, so only it needs the contacts' sum w x x^T.
  const bool second_moment = !k.rigid_local;

  for (int it = 0; it < settings.iterations; ++it) {
    if (contact_colours) {
      // One colour at a time: its bonds and contacts from the latest poses, then its bodies.
      const ContactColouring& cc = contact_colouring;
      for (int c = 0; c < cc.colour_count(); ++c) {
        const int* bond_order = cc.bond_order.data() + cc.bond_colour_begin[c];
        const int* contact_order = cc.contact_order.data() + cc.contact_colour_begin[c];
        const int* body_order = cc.order.data() + cc.colour_begin[c];
        t0 = Clock::now();
        parallel_for(pf, threads, cc.bond_colour_begin[c + 1] - cc.bond_colour_begin[c],
                     [&](int j) { bond_weights_kernel(bodies, bonds, bond_order[j], hard, h2); });
        const bool fuse = fuse_contact_dual && it > 0;
        parallel_for(pf, threads, cc.contact_colour_begin[c + 1] - cc.contact_colour_begin[c],
                     [&](int j) {
                       const int m = contact_order[j];
                       const bool dual_first = fuse && first_contact_colour(cc, contact, m) == c;
                       contact_pair_weights_kernel(bodies, contact, m, dual_first, second_moment);
                     });
        t.bonds_ms += ms_since(t0);
        t0 = Clock::now();
        parallel_for(pf, threads, cc.colour_begin[c + 1] - cc.colour_begin[c], [&](int j) {
          global_local_kernel(bodies, bonds, contact_ends, body_order[j], k);
        });
        t.solve_ms += ms_since(t0);
      }
    } else if (colored) {
      // One colour at a time: its bonds from the latest poses, then its bodies.
      for (int c = 0; c < colouring.colour_count(); ++c) {
        const int* bond_order = colouring.bond_order.data() + colouring.bond_colour_begin[c];
        const int* body_order = colouring.order.data() + colouring.colour_begin[c];
        t0 = Clock::now();
        parallel_for(pf, threads,
                     colouring.bond_colour_begin[c + 1] - colouring.bond_colour_begin[c],
                     [&](int j) { bond_weights_kernel(bodies, bonds, bond_order[j], hard, h2); });
        t.bonds_ms += ms_since(t0);
        t0 = Clock::now();
        parallel_for(pf, threads, colouring.colour_begin[c + 1] - colouring.colour_begin[c],
                     [&](int j) { global_local_kernel(bodies, bonds, body_order[j], k); });
        t.solve_ms += ms_since(t0);
      }
    } else {
      t0 = Clock::now();
      parallel_for(pf, threads, nc,
                   [&](int i) { bond_weights_kernel(bodies, bonds, i, hard, h2); });
      const bool dual_first = fuse_contact_dual && it > 0;
      parallel_for(pf, threads, contact.pair_count, [&](int m) {
        contact_pair_weights_kernel(bodies, contact, m, dual_first, second_moment);
      });
      t.bonds_ms += ms_since(t0);
      t0 = Clock::now();
      parallel_for(pf, threads, nb,
                   [&](int i) { global_local_kernel(bodies, bonds, contact_ends, i, k); });
      t.solve_ms += ms_since(t0);
    }

    if (accelerate) {
      t0 = Clock::now();
      omega = chebyshev_omega(it, settings.chebyshev_rho, omega);
      const Real gamma = settings.relaxation;
      parallel_for(pf, threads, nb, [&](int i) {
        // Relaxation applies to every body, the extrapolation only where it may.
        const bool on = accelerates_body(bodies, bonds, contact_ends, i);
        acceleration_kernel(bodies, i, on ? omega : Real(1), gamma);
      });
      t.solve_ms += ms_since(t0);
    }

    t0 = Clock::now();
    parallel_for(pf, threads, nc, [&](int i) { bond_dual_kernel(bodies, bonds, i, hard, h2); });
    if (!fuse_contact_dual || it + 1 == settings.iterations)
      parallel_for(pf, threads, nk, [&](int i) { contact_dual_kernel(bodies, contact, i); });
    t.dual_ms += ms_since(t0);

    if (observer) observer(it);
  }

  t0 = Clock::now();
  parallel_for(pf, threads, nb, [&](int i) { velocity_kernel(bodies, i, k); });
  if (any_restitution && nk > 0) restitution_stage(*this, bodies, contact, contact_ends);
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

double WorldImpl::variational_energy() {
  if (topology_dirty) build_topology();
  const BodyArrays bodies = body_arrays();
  const BondArrays bonds = bond_arrays();
  // Serial, fixed order: a diagnostic, not a hot path.
  double e = 0;
  for (int i = 0; i < bodies.count; ++i) e += inertial_energy_kernel(bodies, i, settings.dt);
  for (int i = 0; i < bonds.count; ++i) e += bond_energy_kernel(bodies, bonds, i);
  const ContactArrays contact = contacts.arrays();
  for (int i = 0; i < contact.count; ++i) e += contact_energy_kernel(bodies, contact, i);
  return e;
}

}  // namespace pabd
