// What detection reads (contact_detect.h, and a device's detector,
// device/device_contacts.h): the start-of-step poses and the model.
#pragma once

#include <cstdint>

#include "pabd/config.h"
#include "shapes/body_aabb.h"

namespace pabd {

/// What detection reads: the start-of-step poses and the model.
struct ContactDetectInput {
  ShapePoseView poses;                 ///< shapes, c, R, v, omega, static flags
  const Real* mass = nullptr;          ///< per body [kg] (ignored for static bodies)
  const Real* friction = nullptr;      ///< per body Coulomb coefficient
  const Real* restitution = nullptr;   ///< per body, in [0, 1] (nullptr = all 0)
  const int* bond_end_body = nullptr;  ///< per bond end (2 per bond): body, < 0 = world
  int bond_count = 0;                  ///< bonds (for the joined-pair filter)
  /// More pairs that never collide (World::disable_collision), as contact pair keys.
  const std::uint64_t* no_collision_pairs = nullptr;
  int no_collision_count = 0;
  const std::uint32_t* collision_group = nullptr;  ///< per body (null: no filtering)
  const std::uint32_t* collision_mask = nullptr;   ///< per body
  AabbSettings aabb;                               ///< margin, h and gravity
};

/// All dynamic mass [kg]: the load-aware penalties' cap (a serial sum, the
/// same for any thread count).
inline Real total_dynamic_mass(const ContactDetectInput& in) {
  Real total = 0;
  for (int i = 0; i < in.poses.count; ++i)
    if (!(in.poses.is_static && in.poses.is_static[i])) total += in.mass[i];
  return total;
}

}  // namespace pabd
