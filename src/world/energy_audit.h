// The divergence guard: an energy audit after every step. A step of a
// dissipative solver cannot raise the bodies' kinetic plus gravitational
// energy beyond what the scene supplies: its kinetic and elastic energy at the
// reference, and the work of the drives since. An iteration that diverges
// creates energy without bound while staying finite for hundreds of steps, so
// the audit compares the energy created against a generous bound and fails
// the step (StepFailure::EnergyGrowth) once it is passed. A light body thrown
// by a diverging iteration carries little energy beside heavy ones, so each
// body's speed and spin are also held to a bound (StepFailure::SpeedGrowth,
// SpinGrowth): what the scene's motion, drives, corrections and gravity can
// give it, plus what the heavier bodies joined to it or touching it have moved
// at its place (a light body on a heavy one's lever, or struck by it). The
// bounds and why they are safe: docs/method.md, "The divergence guard".
#pragma once

#include <vector>

#include "pabd/world.h"

namespace pabd {

class WorldImpl;

struct EnergyAudit {
  bool started = false;    ///< false: the next audit takes a new reference
  double reference = 0;    ///< kinetic + gravitational energy at the reference [J]
  double allowance = 0;    ///< the bound's part fixed at the reference [J]
  double drive_work = 0;   ///< positive work of drives and applied forces since the reference [J]
  double speed_scale = 0;  ///< the speed bound's part fixed at the reference [m/s]
  double reference_time = 0;  ///< simulated time at the reference [s]
  double extent = 1;          ///< the scene's extent R at the reference [m]
  /// Per body: half its size (the edge of the box with its second moments) [m].
  std::vector<double> half_size;
  /// Per body: the fastest that a heavier body joined to it or touching it has
  /// moved at its place since the reference, |v_j| + |w_j| |x_i - x_j| [m/s];
  /// never decreases.
  std::vector<double> carried_speed;
  /// A step's contact pairs' part of it, when a device computed it
  /// (DeviceBackend::carry_contact_speeds): scratch.
  std::vector<double> device_carried_speed;
  /// Per body: the speed the applied forces and torques could have given it
  /// since the reference, h |F| / m + h |I^-1 tau| (half its size) a step [m/s].
  std::vector<double> pushed_speed;
  /// Each driven hinge's or slider's coordinate at the start of this step.
  std::vector<int> driven_joints;
  std::vector<Real> coordinate_before;

  /// Forget the reference: the world was edited (a body moved by hand, a joint
  /// added or removed, an anchor moved), so energy came from outside.
  void restart() { started = false; }
};

/// Before a step: takes the reference when there is none, and records the
/// driven joints' coordinates.
void audit_before_step(WorldImpl& w);
/// After a successful step: adds the drives' work and fails `result` with
/// StepFailure::EnergyGrowth when the energy created passes the bound.
void audit_after_step(WorldImpl& w, StepResult& result);

}  // namespace pabd
