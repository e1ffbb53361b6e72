// The World's step: a StepContext filled from its storage, then the PABD stage
// list (solver/step.h) or the AVBD baseline's (avbd/avbd_step.h). What only
// the world knows (joint names for messages, whether to refuse contacts for
// AVBD) is checked here; the stage lists see views and settings only.
#include <algorithm>
#include <chrono>
#include <string>

#include "avbd/avbd_step.h"
#include "bonds/bond_kernels.h"
#include "contacts/contact_kernels.h"
#include "core/stage_clock.h"
#include "device/device_step.h"
#include "solver/step.h"
#include "world/world_impl.h"

namespace pabd {

namespace {

/// AVBD solves springs and point, line and distance bonds: anything else is
/// refused with the joint it belongs to.
void check_bond_kinds_for_avbd(const WorldImpl& w) {
  for (int i = 0; i < w.bond_count(); ++i) {
    const bool live = w.bonds.end_body[2 * i] >= 0 || w.bonds.end_body[2 * i + 1] >= 0;
    if (!live || avbd_supports(w.bonds.kind[i])) continue;
    std::string owner = "bond " + std::to_string(i);
    for (std::size_t j = 0; j < w.joints.first_bond.size(); ++j)
      if (i >= w.joints.first_bond[j] && i < w.joints.first_bond[j] + w.joints.bond_count[j])
        owner =
            w.joints.kind[j] == JointKind::Spring
                ? "spring " + std::to_string(j)
                : std::string(joint_kind_name(w.joints.kind[j])) + " joint " + std::to_string(j);
    throw Error("solver avbd: " + owner + " uses bond kind " +
                std::to_string(static_cast<int>(w.bonds.kind[i])) +
                ", which AVBD does not support (it solves springs and point, line and distance "
                "bonds; joint limits and drives need solver pabd)");
  }
}

}  // namespace

StepContext WorldImpl::step_context() {
  StepContext ctx;
  ctx.bodies = bodies.view();
  ctx.bonds = bonds.view();
  // The AVBD baseline has no contacts: its context has no detector.
  if (settings.collisions && settings.solver == SolverKind::Pabd) {
    ctx.detector = &contacts;
    ctx.detect_input = contact_input();
  }
  ctx.bond_colouring = &colouring;
  ctx.contact_colouring = &contact_colouring;
  ctx.buffers = &buffers;
  StepSettings& s = ctx.settings;
  s.constants =
      StepConstants{settings.dt, settings.gravity, settings.prediction == PredictionMode::Exact,
                    settings.local_step == LocalStep::Rigid, settings.max_rotation_per_step};
  s.hard = hard_settings();
  s.iterations = settings.iterations;
  s.colored = settings.iteration_order == IterationOrder::Colored;
  s.chebyshev_rho = settings.chebyshev_rho;
  s.relaxation = settings.relaxation;
  s.block_order_min_bodies = settings.block_order_min_bodies;
  s.avbd_stabilization = settings.avbd_stabilization;
  ctx.steps_taken = steps_taken;
  ctx.model_version = model_version;
  ctx.joint_settings_version = joint_settings_version;
  ctx.state_version = state_version;
  ctx.any_loaded_joint = any_loaded_joint;
  ctx.any_restitution = any_restitution;
  ctx.any_external_input = any_applied || any_damping;
  ctx.parallel_for = settings.parallel_for;
  ctx.threads = threads;
  ctx.observer = &observer;
  return ctx;
}

namespace {

/// The joints' effort inputs (World::set_joint_effort) become this step's
/// applied torques (hinges) and forces (sliders), about or along the axis as
/// it stands at the start of the step.
void add_joint_efforts(WorldImpl& w) {
  for (int j = 0; j < w.joints.count(); ++j) {
    const Real effort = w.joints.effort[static_cast<std::size_t>(j)];
    if (effort == 0 || !w.joints.alive[static_cast<std::size_t>(j)]) continue;
    const JointAxis& ax = w.joints.axis[static_cast<std::size_t>(j)];
    const Vec3 axis =
        ax.body_a < 0 ? ax.axis_a : rotate(w.bodies.orientation[ax.body_a], ax.axis_a);
    std::vector<Vec3>& load = ax.hinge ? w.bodies.applied_torque : w.bodies.applied_force;
    for (const auto& [body, sign] : {std::pair{ax.body_b, Real(1)}, std::pair{ax.body_a, Real(-1)}})
      if (body >= 0 && !w.bodies.is_static[static_cast<std::size_t>(body)])
        load[static_cast<std::size_t>(body)] += (sign * effort) * axis;
    w.any_applied = true;
  }
}

/// The copies between host and device since `before`, into `t`.
void record_copies(StageTimings& t, const CopiedBytes& before, const CopiedBytes& after) {
  t.uploaded_mb = double(after.up - before.up) * 1e-6;
  t.downloaded_mb = double(after.down - before.down) * 1e-6;
  t.copies = double(after.uploads + after.downloads - before.uploads - before.downloads);
}

}  // namespace

StepResult WorldImpl::step() {
  // A step's copies: the device's stages', and those of the host's readers
  // around them (the fields, the guard's carried speeds).
  const CopiedBytes copied_before = device ? device->copied() : CopiedBytes{};
  raycast_tree.invalidate();  // the bodies move
  add_joint_efforts(*this);
  const auto fields_start = StageClock::now();
  fields_before_step();
  double fields_ms = ms_since(fields_start);
  if (topology_dirty) {
    build_topology();
    energy_audit.restart();
  }
  audit_before_step(*this);
  StepResult result;
  contact_graph = ContactGraph{};
  if (settings.solver == SolverKind::Avbd) {
    const double reject_ms = reject_contacts_for_avbd();  // world_contacts.cpp
    if (!colouring_is_current(colouring, body_count(), bonds.end_body.data(), bond_count()))
      check_bond_kinds_for_avbd(*this);
    StepContext ctx = step_context();
    result = avbd_step(ctx, avbd);
    ctx.timings.detect_ms = reject_ms;
    ctx.timings.total_ms += reject_ms;
    timings = ctx.timings;
  } else {
    if (!settings.collisions) contacts.clear();
    // The external velocity stage writes the velocities on the host.
    if (any_applied || any_damping) ++state_version;
    StepContext ctx = step_context();
    result = device ? device_step(ctx, *device) : pabd_step(ctx);
    timings = ctx.timings;
    contact_graph = ctx.contact_graph;
  }
  ++steps_taken;
  result.step = steps_taken;
  if (result.ok) {
    const auto after_start = StageClock::now();
    fields_after_step();
    fields_ms += ms_since(after_start);
  }
  timings.fields_ms = fields_ms;
  audit_after_step(*this, result);
  if (device) record_copies(timings, copied_before, device->copied());
  // Forces and torques were for this step only.
  if (any_applied) {
    std::fill(bodies.applied_force.begin(), bodies.applied_force.end(), Vec3{});
    std::fill(bodies.applied_torque.begin(), bodies.applied_torque.end(), Vec3{});
    any_applied = false;
  }
  return result;
}

double WorldImpl::variational_energy() {
  if (topology_dirty) build_topology();
  const BodyArrays body_view = bodies.view();
  const BondArrays bond_view = bonds.view();
  // Serial, fixed order: a diagnostic, not a hot path.
  double e = 0;
  for (int i = 0; i < body_view.count; ++i) e += inertial_energy_kernel(body_view, i, settings.dt);
  for (int i = 0; i < bond_view.count; ++i) e += bond_energy_kernel(body_view, bond_view, i);
  const ContactArrays contact = host_contacts().arrays();
  for (int i = 0; i < contact.count; ++i) e += contact_energy_kernel(body_view, contact, i);
  return e;
}

}  // namespace pabd
