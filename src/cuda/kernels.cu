// CUDA launch wrappers for the shared kernels that the CUDA backend does not
// launch (yet): the velocities, energies and finiteness check, restitution,
// detection and the fields.
//
// Compile check only (PABD_CUDA_COMPILE_CHECK): each __global__ function runs
// one thread per index and calls the very same PABD_HD kernel that the CPU
// calls from its OpenMP loops. No kernel code lives here, so nvcc compiles
// exactly the code the CPU build runs. The views are passed by value: their
// pointers must then point to device memory. The kernels of the predict,
// warm start and iteration loops are not listed: the backend
// (cuda_backend.cu, solver/step_loops.h) compiles and launches those.
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
#include "solver/body_kernels.h"

namespace pabd::cuda {

namespace {

/// Global index of this thread in a 1-D launch.
__device__ inline int thread_index() {
  return static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
}

}  // namespace

// Per-body kernels -------------------------------------------------------------

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

/// out[i] = energy of bond i [J].
__global__ void bond_energy_kernel(BodyArrays bodies, BondArrays bonds, Real* out) {
  const int i = thread_index();
  if (i >= bonds.count) return;
  out[i] = ::pabd::bond_energy_kernel(bodies, bonds, i);
}

// Per-contact kernels (model/contact_arrays.h) --------------------------------

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
