// Limits and drives of hinges and sliders on the World's side (joint_axes.h).
//
// A hinge's limit and drive each act through a couple: two bonds whose ends
// are reference points at lever r on either side of the axis, one on each body
// and together at creation, so the joint's angle is 0 there. The two bonds'
// forces are equal and opposite across the axis: a pure torque on each body,
// with no net force whatever the angle. A slider's act through one bond
// between its anchor points, along the axis. Limit bonds are added with the
// joint; drive bonds with the first drive that is not Off.
#include "world/joint_axes.h"

#include <cmath>

#include "bonds/axis_bond.h"

namespace pabd {
namespace {

Vec3 world_of(const WorldImpl& w, int body, Vec3 x) {
  return body < 0 ? x : w.bodies.affine[body] * x + w.bodies.position[body];
}

/// A world direction in a body's frame (itself for the world).
Vec3 direction_in(const WorldImpl& w, int body, Vec3 d) {
  return body < 0 ? d : transpose(w.bodies.affine[body]) * d;
}

/// A unit vector across the unit axis d.
Vec3 across_axis(Vec3 d) {
  const Vec3 helper = std::fabs(d.x) < Real(0.9) ? Vec3{1, 0, 0} : Vec3{0, 1, 0};
  const Vec3 u = cross(d, helper);
  return (Real(1) / length(u)) * u;
}

/// The joint's coordinate now, as its first couple bond (or the slider bond) measures it.
AxisMeasure measure_now(const WorldImpl& w, const JointAxis& f) {
  const Vec3 n = f.body_a < 0 ? f.axis_a : w.bodies.affine[f.body_a] * f.axis_a;
  const Vec3 oa = world_of(w, f.body_a, f.pivot_a), ob = world_of(w, f.body_b, f.pivot_b);
  if (!f.hinge) return slider_measure(oa, ob, n);
  return hinge_measure(world_of(w, f.body_a, f.pivot_a + f.lever * f.radial_a),
                       world_of(w, f.body_b, f.pivot_b + f.lever * f.radial_b), oa, ob, n);
}

/// The joint's coordinate now [rad] or [m]; a hinge's angle is counted across
/// turns against the start of the last step when it has limit or drive bonds.
Real coordinate_now(const WorldImpl& w, const JointAxis& f) {
  const Real value = measure_now(w, f).value;
  if (!f.hinge) return value;
  const int tracked = f.drive_bond >= 0 ? f.drive_bond : f.limit_bond;
  return tracked >= 0 ? unwrap_angle(value, w.bonds.axis_state[tracked].start) : value;
}

int bonds_per_axis(const JointAxis& f) { return f.hinge ? 2 : 1; }

/// Adds the limit or drive bonds of a joint; returns the first one.
int add_axis_bonds(WorldImpl& w, const JointAxis& f, bool drive, Real coordinate) {
  const BondKind kind = f.hinge ? (drive ? BondKind::HingeDrive : BondKind::HingeLimit)
                                : (drive ? BondKind::SliderDrive : BondKind::SliderLimit);
  const int parts = bonds_per_axis(f);
  const int first = w.bond_count();
  for (int k = 0; k < parts; ++k) {
    // Hinge: reference points at +r and -r along the radial; slider: the anchors.
    const Real side = k == 0 ? f.lever : -f.lever;
    const Vec3 local_a = f.hinge ? f.pivot_a + side * f.radial_a : f.pivot_a;
    const Vec3 local_b = f.hinge ? f.pivot_b + side * f.radial_b : f.pivot_b;
    // Limits are as hard or soft as the joint; a drive sets its own (its mode).
    const int bond = w.add_bond(kind, f.body_a, local_a, f.body_b, local_b,
                                drive ? Real(0) : f.stiffness, 0, !drive && f.hard, f.axis_a);
    AxisBondModel& m = w.bonds.axis_model[bond];
    m.pivot_a = f.pivot_a;
    m.pivot_b = f.pivot_b;
    m.lever = f.lever;
    m.share = Real(1) / parts;
    w.bonds.axis_state[bond].start = coordinate;
  }
  return first;
}

AxisDriveMode bond_mode(DriveMode mode) {
  switch (mode) {
    case DriveMode::Velocity:
      return AxisDriveMode::Velocity;
    case DriveMode::Position:
      return AxisDriveMode::Position;
    case DriveMode::Off:
      break;
  }
  return AxisDriveMode::Off;
}

}  // namespace

void add_joint_axis(WorldImpl& w, int joint, bool hinge, Vec3 anchor, Vec3 axis, Real lever,
                    Real stiffness, const JointLimits& limits, const JointDrive& drive) {
  JointAxis& f = w.joints.axis[joint];
  const int bond = w.joints.first_bond[joint];
  f.used = true;
  f.hinge = hinge;
  f.body_a = w.bonds.end_body[2 * bond];
  f.body_b = w.bonds.end_body[2 * bond + 1];
  f.axis_a = direction_in(w, f.body_a, axis);  // the axis turns with body_a
  f.pivot_a = w.to_local(f.body_a, anchor);
  f.pivot_b = w.to_local(f.body_b, anchor);
  const Vec3 radial = across_axis(axis);
  f.radial_a = direction_in(w, f.body_a, radial);
  f.radial_b = direction_in(w, f.body_b, radial);
  f.lever = hinge ? lever : Real(1);
  f.hard = stiffness == 0;
  f.stiffness = stiffness;
  if (limits.enabled) {
    f.limit_bond = add_axis_bonds(w, f, false, 0);
    for (int i = f.limit_bond; i < f.limit_bond + bonds_per_axis(f); ++i) {
      w.bonds.axis_model[i].lower = limits.lower;
      w.bonds.axis_model[i].upper = limits.upper;
    }
  }
  if (drive.mode != DriveMode::Off) set_joint_axis_drive(w, joint, drive);
}

void set_joint_axis_drive(WorldImpl& w, int joint, const JointDrive& drive) {
  JointAxis& f = w.joints.axis[joint];
  if (f.drive_bond < 0) {
    if (drive.mode == DriveMode::Off) return;
    f.drive_bond = add_axis_bonds(w, f, true, coordinate_now(w, f));
  }
  const AxisDriveMode mode = bond_mode(drive.mode);
  ++w.joint_settings_version;  // the drive bonds' axis model and `hard`, below
  ++w.state_version;           // and a new mode's multiplier and penalty
  for (int i = f.drive_bond; i < f.drive_bond + bonds_per_axis(f); ++i) {
    AxisBondModel& m = w.bonds.axis_model[i];
    if (m.mode != mode) {  // a new mode starts from a fresh multiplier and penalty
      w.bonds.lambda[i] = Vec3{};
      w.bonds.penalty[i] = w.settings.hard_stiffness_start;
      w.bonds.axis_state[i].penalty = 0;
    }
    m.mode = mode;
    m.target = drive.target;
    m.max_force = drive.max_force;
    m.stiffness = drive.stiffness;
    m.damping = drive.damping;
    m.amplitude = drive.amplitude;
    m.frequency = drive.frequency;
    m.phase = drive.phase;
    w.bonds.hard[i] = mode == AxisDriveMode::Velocity ? 1 : 0;  // a motor is a hard constraint
  }
}

void read_joint_axis(const WorldImpl& w, int joint, JointInfo& info) {
  const JointAxis& f = w.joints.axis[joint];
  if (!f.used) return;
  info.coordinate = coordinate_now(w, f);
  // The kernels' views, only read here (they carry non-const pointers for the step).
  WorldImpl& views = const_cast<WorldImpl&>(w);
  const BodyArrays bodies = views.bodies.view();
  const BondArrays bonds = views.bonds.view();
  const auto force_of = [&](int first) {  // torque [N m] or force [N] on body_b
    Real sum = 0;
    for (int i = first; first >= 0 && i < first + bonds_per_axis(f); ++i)
      sum += axis_bond_force(bodies, bonds, i, w.settings.augmented_lagrangian) * f.lever;
    return sum;
  };
  info.drive_force = force_of(f.drive_bond);
  info.limit_force = force_of(f.limit_bond);
}

void detach_joint_axis(WorldImpl& w, int joint) {
  JointAxis& f = w.joints.axis[joint];
  for (int first : {f.limit_bond, f.drive_bond}) {
    for (int i = first; first >= 0 && i < first + bonds_per_axis(f); ++i) {
      w.bonds.end_body[2 * i] = w.bonds.end_body[2 * i + 1] = -1;
      w.bonds.hard[i] = 0;
      w.bonds.axis_model[i].mode = AxisDriveMode::Off;
    }
  }
  f = JointAxis{};
  w.topology_dirty = true;
}

}  // namespace pabd
