// CUDA launch wrappers for the shared per-body and per-bond kernels.
//
// Compile check only (PABD_CUDA_COMPILE_CHECK): each __global__ function runs
// one thread per body or bond and calls the very same PABD_HD kernel that the
// CPU step (src/solver/step.cpp) calls from its OpenMP loops. No kernel code
// lives here, so nvcc compiles exactly the code the CPU build runs. The views
// are passed by value: their pointers must then point to device memory.
//
// Kernels that return a value (energies, the finiteness check) write it to
// out[i]; the reduction over i is left to the caller.

#include <cstdint>

#include "bonds/bond_kernels.h"
#include "contacts/contact_detect_kernels.h"
#include "contacts/contact_kernels.h"
#include "contacts/contact_restitution.h"
#include "fields/gerstner.h"
#include "fields/hydro_force.h"
#include "fields/sand_bed.h"
#include "solver/acceleration.h"
#include "solver/body_kernels.h"
#include "solver/colour_body_kernel.h"
#include "solver/external_velocity.h"

namespace pabd::cuda {

namespace {

/// Global index of this thread in a 1-D launch.
__device__ inline int thread_index() {
  return static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
}

}  // namespace

// Per-body kernels -------------------------------------------------------------

__global__ void external_velocity_kernel(BodyArrays bodies, StepConstants k) {
  const int i = thread_index();
  if (i >= bodies.count) return;
  ::pabd::external_velocity_kernel(bodies, i, k.h, k.gravity);
}

__global__ void predict_kernel(BodyArrays bodies, StepConstants k) {
  const int i = thread_index();
  if (i >= bodies.count) return;
  ::pabd::predict_kernel(bodies, i, k);
}

__global__ void global_local_kernel(BodyArrays bodies, BondArrays bonds, StepConstants k) {
  const int i = thread_index();
  if (i >= bodies.count) return;
  ::pabd::global_local_kernel(bodies, bonds, i, k);
}

/// With this step's contacts: gathers the body's contact pair ends after its bond ends.
__global__ void global_local_contact_kernel(BodyArrays bodies, BondArrays bonds,
                                            ContactEnds contacts, StepConstants k) {
  const int i = thread_index();
  if (i >= bodies.count) return;
  ::pabd::global_local_kernel(bodies, bonds, contacts, i, k);
}

/// Colored sweeps with contacts: the bodies of one colour, order[0 .. count),
/// each evaluating its contact pairs (solver/colour_body_kernel.h).
__global__ void colour_body_kernel(BodyArrays bodies, BondArrays bonds, ContactArrays contacts,
                                   ContactEnds ends, const int* body_colour, bool fuse_dual,
                                   bool keep_weights, StepConstants k, const int* order,
                                   int count) {
  const int j = thread_index();
  if (j >= count) return;
  ::pabd::colour_body_kernel(bodies, bonds, contacts, ends, body_colour, fuse_dual, keep_weights,
                             order[j], k);
}

/// IterationOrder::Colored: the bodies of one colour, order[0 .. count).
__global__ void global_local_colour_kernel(BodyArrays bodies, BondArrays bonds, StepConstants k,
                                           const int* order, int count) {
  const int j = thread_index();
  if (j >= count) return;
  ::pabd::global_local_kernel(bodies, bonds, order[j], k);
}

__global__ void acceleration_start_kernel(BodyArrays bodies) {
  const int i = thread_index();
  if (i >= bodies.count) return;
  ::pabd::acceleration_start_kernel(bodies, i);
}

__global__ void acceleration_kernel(BodyArrays bodies, Real omega, Real gamma) {
  const int i = thread_index();
  if (i >= bodies.count) return;
  ::pabd::acceleration_kernel(bodies, i, omega, gamma);
}

__global__ void velocity_kernel(BodyArrays bodies, StepConstants k) {
  const int i = thread_index();
  if (i >= bodies.count) return;
  ::pabd::velocity_kernel(bodies, i, k);
}

/// out[i] = inertial energy of body i [J].
__global__ void inertial_energy_kernel(BodyArrays bodies, Real h, Real* out) {
  const int i = thread_index();
  if (i >= bodies.count) return;
  out[i] = ::pabd::inertial_energy_kernel(bodies, i, h);
}

/// out[i] = 1 when every number of body i's state is finite, else 0.
__global__ void body_state_finite(BodyArrays bodies, std::uint8_t* out) {
  const int i = thread_index();
  if (i >= bodies.count) return;
  out[i] = ::pabd::body_state_finite(bodies, i) ? 1 : 0;
}

// Per-bond kernels -------------------------------------------------------------

__global__ void bond_weights_kernel(BodyArrays bodies, BondArrays bonds, HardBondSettings s,
                                    Real h2) {
  const int i = thread_index();
  if (i >= bonds.count) return;
  ::pabd::bond_weights_kernel(bodies, bonds, i, s, h2);
}

/// IterationOrder::Colored: the bonds touching one colour, order[0 .. count).
__global__ void bond_weights_colour_kernel(BodyArrays bodies, BondArrays bonds, HardBondSettings s,
                                           Real h2, const int* order, int count) {
  const int j = thread_index();
  if (j >= count) return;
  ::pabd::bond_weights_kernel(bodies, bonds, order[j], s, h2);
}

__global__ void bond_warm_start_kernel(BodyArrays bodies, BondArrays bonds, HardBondSettings s,
                                       Real h2) {
  const int i = thread_index();
  if (i >= bonds.count) return;
  ::pabd::bond_warm_start_kernel(bodies, bonds, i, s, h2);
}

/// Joint limits and drives: start-of-step coordinate and drive target (time: end of the step).
__global__ void axis_bond_step_kernel(BodyArrays bodies, BondArrays bonds, HardBondSettings s,
                                      Real time, Real h) {
  const int i = thread_index();
  if (i >= bonds.count) return;
  ::pabd::axis_bond_step_kernel(bodies, bonds, i, s, time, h);
}

__global__ void bond_dual_kernel(BodyArrays bodies, BondArrays bonds, HardBondSettings s, Real h2) {
  const int i = thread_index();
  if (i >= bonds.count) return;
  ::pabd::bond_dual_kernel(bodies, bonds, i, s, h2);
}

/// out[i] = energy of bond i [J].
__global__ void bond_energy_kernel(BodyArrays bodies, BondArrays bonds, Real* out) {
  const int i = thread_index();
  if (i >= bonds.count) return;
  out[i] = ::pabd::bond_energy_kernel(bodies, bonds, i);
}

// Per-contact kernels (model/contact_arrays.h) --------------------------------

/// Start of a step: the contacts' end weights and correction scales.
__global__ void contact_prepare_kernel(BodyArrays bodies, ContactArrays contacts,
                                       HardBondSettings s, Real h2) {
  const int i = thread_index();
  if (i >= contacts.count) return;
  ::pabd::contact_prepare_kernel(bodies, contacts, i, s, h2);
}

/// Start of a step: the contact pairs' idle bounds and quiet flags.
__global__ void contact_pair_prepare_kernel(ContactArrays contacts) {
  const int m = thread_index();
  if (m >= contacts.pair_count) return;
  ::pabd::contact_pair_prepare_kernel(contacts, m);
}

/// Start of a step, after the pairs': the idle bounds beside each body's pair ends.
__global__ void contact_end_bound_kernel(ContactArrays contacts, ContactEnds ends, int bodies) {
  const int i = thread_index();
  if (i >= bodies) return;
  ::pabd::contact_end_bound_kernel(contacts, ends, i);
}

/// The pairs' quiet flags after a per-contact dual update.
__global__ void contact_pair_quiet_kernel(ContactArrays contacts) {
  const int m = thread_index();
  if (m >= contacts.pair_count) return;
  ::pabd::contact_pair_quiet_kernel(contacts, m);
}

/// Contact pair m's slot weights and pulls, summed per end (with dual_first,
/// after the previous iteration's dual update of its contacts).
__global__ void contact_pair_weights_kernel(BodyArrays bodies, ContactArrays contacts,
                                            bool dual_first, bool second_moment) {
  const int m = thread_index();
  if (m >= contacts.pair_count) return;
  ::pabd::contact_pair_weights_kernel(bodies, contacts, m, dual_first, second_moment);
}

__global__ void contact_dual_kernel(BodyArrays bodies, ContactArrays contacts) {
  const int i = thread_index();
  if (i >= contacts.count) return;
  ::pabd::contact_dual_kernel(bodies, contacts, i);
}

/// out[i] = energy of contact i [J].
__global__ void contact_energy_kernel(BodyArrays bodies, ContactArrays contacts, Real* out) {
  const int i = thread_index();
  if (i >= contacts.count) return;
  out[i] = ::pabd::contact_energy_kernel(bodies, contacts, i);
}

// Restitution stage (contacts/contact_restitution.h) ----------------------------------

/// share[i]: how many of body i's contacts bounce this step.
__global__ void restitution_share_kernel(ContactArrays contacts, ContactEnds ends, Real threshold,
                                         RestitutionScratch s, int bodies) {
  const int i = thread_index();
  if (i >= bodies) return;
  ::pabd::restitution_share_kernel(contacts, ends, threshold, s, i);
}

/// One Jacobi round: contact i's impulse change from the velocities before the round.
__global__ void restitution_impulse_kernel(BodyArrays bodies, ContactArrays contacts,
                                           Real threshold, RestitutionScratch s, bool first) {
  const int i = thread_index();
  if (i >= contacts.count) return;
  ::pabd::restitution_impulse_kernel(bodies, contacts, threshold, s, first, i);
}

/// After a round: body i adds the impulse changes of its contacts.
__global__ void restitution_apply_kernel(BodyArrays bodies, ContactArrays contacts,
                                         ContactEnds ends, RestitutionScratch s) {
  const int i = thread_index();
  if (i >= bodies.count) return;
  ::pabd::restitution_apply_kernel(bodies, contacts, ends, s, i);
}

// Detect-stage kernels (contacts/contact_detect_kernels.h) ------------------------

/// reach[i]: how far any point of body i can move during the step [m].
__global__ void contact_reach_kernel(ShapePoseView poses, AabbSettings k, Real* reach) {
  const int i = thread_index();
  if (i >= poses.count) return;
  reach[i] = ::pabd::contact_reach(poses, i, k);
}

/// capacity[i]: room for candidate i's manifolds (before the prefix sum).
__global__ void candidate_manifold_capacity_kernel(ShapePoseView poses,
                                                   ContactCandidates candidates, int* capacity) {
  const int i = thread_index();
  if (i >= candidates.count) return;
  capacity[i] = ::pabd::candidate_manifold_capacity(poses, candidates, i);
}

/// The narrowphase of candidate i: its manifolds from manifold_begin[i], their
/// number and their points' total.
__global__ void contact_manifold_kernel(ShapePoseView poses, const Real* reach,
                                        ContactCandidates candidates, Real margin,
                                        const int* manifold_begin, ContactManifold* manifolds,
                                        int* manifold_count, int* counts) {
  const int i = thread_index();
  if (i >= candidates.count) return;
  ::pabd::contact_manifold_kernel(poses, reach, candidates, margin, manifold_begin, manifolds,
                                  manifold_count, counts, i);
}

/// Candidate i's match in the previous step and nearness (near[i] = 1: its contacts go first).
__global__ void contact_near_kernel(ContactCandidates candidates, const std::uint64_t* key,
                                    const ContactManifold* manifolds, const int* manifold_begin,
                                    const int* manifold_count, PreviousContacts previous,
                                    Real near_gap, int* previous_candidate, int* near) {
  const int i = thread_index();
  if (i >= candidates.count) return;
  near[i] = ::pabd::contact_near_kernel(candidates, key, manifolds, manifold_begin, manifold_count,
                                        previous, near_gap, previous_candidate, i);
}

/// Candidate i's points at offset[i] .. offset_end[i], matched and warm-started.
__global__ void contact_write_kernel(ShapePoseView poses, ContactBodyModel model,
                                     ContactCandidates candidates, const ContactManifold* manifolds,
                                     const int* manifold_begin, const int* manifold_count,
                                     const int* offset, const int* offset_end,
                                     PreviousContacts previous, const int* previous_candidate,
                                     Real h2, Real impact_speed, ContactOutput out) {
  const int i = thread_index();
  if (i >= candidates.count) return;
  ::pabd::contact_write_kernel(poses, model, candidates, manifolds, manifold_begin, manifold_count,
                               offset, offset_end, previous, previous_candidate, h2, impact_speed,
                               out, i);
}

// --- Fields beside the bodies (docs/fields.md) -------------------------------

/// The wave surface's height at each vertex of a columns x rows grid.
__global__ void wave_height_kernel(WaveView waves, int columns, int rows, Real spacing, Real x0,
                                   Real z0, Real time, Real* height) {
  const int i = thread_index();
  if (i >= columns * rows) return;
  height[i] =
      wave_height(waves, x0 + Real(i % columns) * spacing, z0 + Real(i / columns) * spacing, time);
}

/// The water's push on triangle i (three world vertices, their depths below
/// the surface and velocities relative to the water), about `centre`; the sum
/// over a body's triangles is left to the caller.
__global__ void hydro_triangle_kernel(const Vec3* vertex, const Real* depth, const Vec3* relative,
                                      int triangles, Vec3 centre, HydroParams params,
                                      HydroSum* out) {
  const int i = thread_index();
  if (i >= triangles) return;
  HydroSum sum;
  add_triangle_hydro_force(vertex[3 * i], vertex[3 * i + 1], vertex[3 * i + 2], depth[3 * i],
                           depth[3 * i + 1], depth[3 * i + 2], relative[3 * i], relative[3 * i + 1],
                           relative[3 * i + 2], centre, params, sum);
  out[i] = sum;
}

/// Bekker's sinkage for footprint i's pressure and width.
__global__ void bekker_sinkage_kernel(const Real* pressure, const Real* width, int count, Real n,
                                      Real k_c, Real k_phi, Real* sinkage) {
  const int i = thread_index();
  if (i >= count) return;
  sinkage[i] = bekker_sinkage(pressure[i], width[i], n, k_c, k_phi);
}

}  // namespace pabd::cuda
