// The divergence guard (energy_audit.h). Serial loops in body order, so the
// audit is bit-identical for every thread count; it costs one pass over the
// bodies per step, small beside the step's K iterations.
#include "world/energy_audit.h"

#include <algorithm>
#include <cmath>

#include "bonds/bond_kernels.h"
#include "core/parallel.h"
#include "device/device_backend.h"
#include "solver/body_kernels.h"
#include "solver/carried_speed.h"
#include "solver/external_velocity.h"
#include "world/joint_axes.h"
#include "world/world_impl.h"

namespace pabd {

namespace {

/// The scene's extent: the span of the moving bodies' centres, at least 1 m.
double scene_extent(const WorldImpl& w) {
  const BodyArrays b = const_cast<WorldImpl&>(w).bodies.view();
  double lowest = HUGE_VAL, highest = -HUGE_VAL;
  for (int i = 0; i < b.count; ++i) {
    if (b.is_static[i]) continue;
    const Vec3 p = b.position[i];
    for (const Real c : {p.x, p.y, p.z}) {
      lowest = std::min<double>(lowest, c);
      highest = std::max<double>(highest, c);
    }
  }
  return std::max(1.0, highest - lowest);
}

/// Kinetic plus gravitational energy of the moving bodies [J]; `largest` is
/// the body with the most kinetic energy.
double mechanical_energy(const WorldImpl& w, int* largest) {
  const BodyArrays b = const_cast<WorldImpl&>(w).bodies.view();
  const Vec3 g = w.settings.gravity;
  double e = 0;
  double most = -1;
  for (int i = 0; i < b.count; ++i) {
    if (b.is_static[i]) continue;
    const double kinetic = kinetic_energy_kernel(b, i);
    e += kinetic - b.mass[i] * dot(g, b.position[i]);
    if (kinetic > most) {
      most = kinetic;
      if (largest) *largest = i;
    }
  }
  return e;
}

/// The part of the bound fixed at the reference [J]:
/// - the kinetic energy then (the scene's motion can only be handed around);
/// - the elastic energy of springs and soft joints then (their stretch);
/// - each moving body raised by the scene's height, at least 1 m (gravity's
///   work on a body that falls the scene's height is balanced in the audit, so
///   this is slack for contacts and joints that trade height for speed), and
///   moved by its own size in one step (the most a contact or joint pushing
///   out an initial overlap or a violated joint can give it: size^2/(2h^2)).
/// A body's size: the edge of the box with its second moments
/// (Pi_xx = m a^2 / 12 for each axis).
double body_size(const BodyArrays& b, int i) {
  return std::sqrt(12 * trace(b.affine_inertia[i]) / (3 * b.mass[i]));
}

double fixed_allowance(const WorldImpl& w, double extent) {
  const BodyArrays b = const_cast<WorldImpl&>(w).bodies.view();
  const BondArrays bonds = const_cast<WorldImpl&>(w).bonds.view();
  const Real h = w.settings.dt;
  const Real gravity = length(w.settings.gravity);
  double e = 0;
  for (int i = 0; i < b.count; ++i) {
    if (b.is_static[i]) continue;
    const double size = body_size(b, i);
    e += kinetic_energy_kernel(b, i) + b.mass[i] * (gravity * extent + size * size / (2 * h * h));
  }
  for (int i = 0; i < bonds.count; ++i) {
    const bool live = bonds.end_body[2 * i] >= 0 || bonds.end_body[2 * i + 1] >= 0;
    const BondKind kind = bonds.kind[i];
    const bool elastic = kind == BondKind::Spring ||
                         (!bonds.hard[i] && (kind == BondKind::Point || kind == BondKind::Line));
    if (live && elastic) e += std::max<Real>(0, bond_energy_kernel(b, bonds, i));
  }
  return e;
}

/// The speed bound's part fixed at the reference [m/s]: speeds come from the
/// initial motion (a body's speed, or a spin times the scene's size), the
/// drives (a velocity drive's speed, a position drive's target moving, or
/// snapping to its target within one step, on a lever of the scene's size),
/// and position corrections (a contact or joint moves a body by at most the
/// largest body's size in one step). Gravity adds |g| t (audit_after_step).
double speed_scale(const WorldImpl& w, double extent) {
  const BodyArrays b = const_cast<WorldImpl&>(w).bodies.view();
  const BondArrays bonds = const_cast<WorldImpl&>(w).bonds.view();
  const double h = w.settings.dt;
  double motion = 0, size = 0;
  for (int i = 0; i < b.count; ++i) {
    if (b.is_static[i]) continue;
    motion = std::max(
        motion, double(length(b.velocity[i])) + double(length(b.angular_velocity[i])) * extent);
    size = std::max(size, body_size(b, i));
  }
  double drive = 0;
  for (int i = 0; i < bonds.count; ++i) {
    const bool live = bonds.end_body[2 * i] >= 0 || bonds.end_body[2 * i + 1] >= 0;
    if (!live || !is_drive_bond(bonds.kind[i])) continue;
    const AxisBondModel& m = bonds.axis_model[i];
    const double lever = is_hinge_axis_bond(bonds.kind[i]) ? extent : 1.0;
    const double rate = m.mode == AxisDriveMode::Velocity
                            ? std::fabs(m.target)
                            : std::fabs(m.amplitude) * 2 * 3.141592653589793 * m.frequency +
                                  (std::fabs(m.target) + std::fabs(m.amplitude)) / h;
    drive = std::max(drive, rate * lever);
  }
  return motion + drive + size / h;
}

/// Raises body `to`'s carried speed to what body `from`'s frame moves at its
/// place (solver/carried_speed.h: 0 where `from` is the world).
void carry(const BodyArrays& b, int from, int to, EnergyAudit& a) {
  if (to < 0) return;  // the world carries nothing
  a.carried_speed[to] = std::max(a.carried_speed[to], carried_reach(b, from, to, a.extent));
}

/// Carries speeds across every joint's bonds and every contact pair (its
/// contacts join the same two bodies), both ways (only toward the lighter
/// end). A carried speed is a maximum, so the order does not matter: the
/// bonds in one serial pass, the contact pairs per receiving body over its
/// list of pair ends (static bodies, which have none, receive nothing), in
/// parallel: a pile has a million pairs.
void carry_speeds(WorldImpl& w, EnergyAudit& a) {
  const BodyArrays b = w.bodies.view();
  const BondArrays bonds = w.bonds.view();
  for (int i = 0; i < bonds.count; ++i) {
    const int ea = bonds.end_body[2 * i], eb = bonds.end_body[2 * i + 1];
    carry(b, ea, eb, a);
    carry(b, eb, ea, a);
  }
  // A device that kept the step's contacts carries their speeds there.
  std::vector<double>& from_device = a.device_carried_speed;
  if (w.device && w.device->carry_contact_speeds(a.extent, from_device)) {
    for (int to = 0; to < b.count; ++to)
      a.carried_speed[to] = std::max(a.carried_speed[to], from_device[std::size_t(to)]);
    return;
  }
  const ContactGraph& c = w.contact_graph;
  if (c.end_begin) {
    parallel_for(w.settings.parallel_for, w.threads, b.count, [&](int to) {
      a.carried_speed[to] =
          std::max(a.carried_speed[to], contact_carried_speed(b, c, a.extent, to));
    });
    return;
  }
  for (int i = 0; i < c.pair_count; ++i) {  // pairs without their lists
    const int ea = c.pair_body[2 * i], eb = c.pair_body[2 * i + 1];
    carry(b, ea, eb, a);
    carry(b, eb, ea, a);
  }
}

/// The applied forces' and torques' part of a step: their positive work
/// F . (c - c^n) + tau . theta (theta: the turn from Q^n to Q) goes to the
/// supplied energy, and the speed they could give to each body's bound.
void add_applied_work(WorldImpl& w, EnergyAudit& a) {
  const BodyArrays b = w.bodies.view();
  const double h = w.settings.dt;
  for (int i = 0; i < b.count; ++i) {
    const Vec3 f = b.applied_force[i], tau = b.applied_torque[i];
    if (b.is_static[i] || (dot(f, f) == 0 && dot(tau, tau) == 0)) continue;
    const Vec3 turn = quat_log(b.orientation[i] * conjugate(b.start_orientation[i]));
    const double work =
        double(dot(f, b.position[i] - b.start_position[i])) + double(dot(tau, turn));
    a.drive_work += std::max(0.0, work);
    a.pushed_speed[i] +=
        h * (double(length(f)) / double(b.mass[i]) +
             double(length(world_inverse_inertia_times(b, i, tau))) * a.half_size[i]);
  }
}

/// Marks the step failed: `value` passed `bound` (J or m/s, StepResult).
void fail(StepResult& result, StepFailure why, int body, double value, double bound) {
  result.ok = false;
  result.failure = why;
  result.bad_body = body;
  result.created_energy = value;
  result.energy_bound = bound;
}

}  // namespace

void audit_before_step(WorldImpl& w) {
  EnergyAudit& a = w.energy_audit;
  if (!a.started) {
    a.started = true;
    a.reference = mechanical_energy(w, nullptr);
    const double extent = scene_extent(w);
    a.extent = extent;
    a.allowance = fixed_allowance(w, extent);
    a.speed_scale = speed_scale(w, extent);
    const BodyArrays b = w.bodies.view();
    a.half_size.assign(b.count, 0.0);
    for (int i = 0; i < b.count; ++i)
      if (!b.is_static[i]) a.half_size[i] = 0.5 * body_size(b, i);
    a.carried_speed.assign(b.count, 0.0);
    a.pushed_speed.assign(b.count, 0.0);
    a.reference_time = double(w.steps_taken) * w.settings.dt;
    a.drive_work = 0;
    a.driven_joints.clear();
    for (int j = 0; j < static_cast<int>(w.joints.axis.size()); ++j)
      if (w.joints.alive[j] && w.joints.axis[j].used && w.joints.axis[j].drive_bond >= 0)
        a.driven_joints.push_back(j);
    a.coordinate_before.resize(a.driven_joints.size());
  }
  for (std::size_t k = 0; k < a.driven_joints.size(); ++k) {
    JointInfo info;
    read_joint_axis(w, a.driven_joints[k], info);
    a.coordinate_before[k] = info.coordinate;
  }
}

void audit_after_step(WorldImpl& w, StepResult& result) {
  EnergyAudit& a = w.energy_audit;
  if (!result.ok || !a.started || !w.settings.divergence_guard) return;
  // A drive's torque on body_b (its force on a slider) times the coordinate's
  // change is the work it did on the pair; braking (negative work) is taken
  // out by the energy itself.
  for (std::size_t k = 0; k < a.driven_joints.size(); ++k) {
    JointInfo info;
    read_joint_axis(w, a.driven_joints[k], info);
    a.drive_work +=
        std::max(0.0, double(info.drive_force) * double(info.coordinate - a.coordinate_before[k]));
  }
  if (w.any_applied) add_applied_work(w, a);
  int largest = -1;
  const double created = mechanical_energy(w, &largest) - a.reference - a.drive_work;
  const double bound = a.allowance + a.drive_work;
  if (created > bound) return fail(result, StepFailure::EnergyGrowth, largest, created, bound);
  // Twice what the scene's motion, drives, corrections and gravity can give,
  // plus what the heavier bodies joined to it or touching it have moved at its
  // place. The rim (a spin times half the body's size) is held to the same
  // bound: a body's spin reaches its lighter neighbours through the lever.
  carry_speeds(w, a);
  const double elapsed = double(w.steps_taken) * w.settings.dt - a.reference_time;
  const double scene_bound = a.speed_scale + length(w.settings.gravity) * elapsed;
  const BodyArrays b = w.bodies.view();
  for (int i = 0; i < b.count; ++i) {
    if (b.is_static[i]) continue;
    const double bound_i = 2 * (scene_bound + a.carried_speed[i] + a.pushed_speed[i]);
    const double speed = length(b.velocity[i]);
    if (speed > bound_i) return fail(result, StepFailure::SpeedGrowth, i, speed, bound_i);
    const double rim = double(length(b.angular_velocity[i])) * a.half_size[i];
    if (rim > bound_i) return fail(result, StepFailure::SpinGrowth, i, rim, bound_i);
  }
}

}  // namespace pabd
