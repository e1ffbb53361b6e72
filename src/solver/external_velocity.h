// What the user pushes bodies with (World::apply_force, apply_torque,
// BodyDef::linear_damping, angular_damping), as a change of velocity at the
// start of a step, before the prediction (predict_kernel adds gravity).
//
// Over the step the body obeys dv/dt = g + F/m - c_l v and
// dw/dt = I^-1 tau - c_a w, integrated by implicit Euler as the step itself
// is: v' = (v + h (g + F/m)) / (1 + h c_l); the kernel leaves out the h g that
// the prediction adds. So a free fall reaches |g| / c_l, and a spin decays
// by 1 / (1 + h c_a) a step, unconditionally stable for any rate.
#pragma once

#include "model/body_arrays.h"
#include "model/body_inertia.h"

namespace pabd {

/// True when body i has a force, torque or damping for the step.
PABD_HD bool has_external_input(const BodyArrays& b, int i) {
  const Vec3 f = b.applied_force[i], t = b.applied_torque[i];
  return f.x != 0 || f.y != 0 || f.z != 0 || t.x != 0 || t.y != 0 || t.z != 0 ||
         b.linear_damping[i] != 0 || b.angular_damping[i] != 0;
}

/// Start of a step: body i's velocities under its applied force and torque
/// and its damping over the step h, with gravity g (see above). Bodies
/// without any are left bit for bit as they are.
PABD_HD void external_velocity_kernel(const BodyArrays& b, int i, Real h, Vec3 g) {
  if (b.is_static[i] || !has_external_input(b, i)) return;
  Vec3 v = b.velocity[i] + (h / b.mass[i]) * b.applied_force[i];
  if (b.linear_damping[i] != 0) {
    const Real keep = Real(1) / (Real(1) + h * b.linear_damping[i]);
    v = keep * (v + h * g) - h * g;
  }
  Vec3 w = b.angular_velocity[i];
  const Vec3 tau = b.applied_torque[i];
  if (tau.x != 0 || tau.y != 0 || tau.z != 0) w += h * world_inverse_inertia_times(b, i, tau);
  if (b.angular_damping[i] != 0) w = (Real(1) / (Real(1) + h * b.angular_damping[i])) * w;
  b.velocity[i] = v;
  b.angular_velocity[i] = w;
}

}  // namespace pabd
