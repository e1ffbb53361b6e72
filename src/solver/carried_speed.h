// The speed a body may have from its heavier neighbours: the divergence
// guard's carried speed (world/energy_audit.cpp), per joint bond and per
// contact pair. Single source for the host's audit and a device's pass over
// the contact pairs (device/mirrored_backend.h), so both give the same bits.
#pragma once

#include "model/body_arrays.h"
#include "model/contact_arrays.h"

namespace pabd {

/// What body `from`'s frame moves at body `to`'s place, |v| + |w| lever,
/// when `from` is strictly heavier and both move; 0 otherwise. The lever is
/// at most `extent` (the scene's at the guard's reference): a body flung
/// farther than that from its partner has left the joint's or contact's
/// geometry, and a longer lever would let an explosion raise its own bound.
PABD_HD_ALWAYS_INLINE double carried_reach(const BodyArrays& b, int from, int to, double extent) {
  if (from < 0 || to < 0 || b.is_static[from] || b.is_static[to] || !(b.mass[from] > b.mass[to]))
    return 0;
  const double distance = double(length(b.position[to] - b.position[from]));
  const double lever = extent < distance ? extent : distance;  // std::min's order
  return double(length(b.velocity[from])) + double(length(b.angular_velocity[from])) * lever;
}

/// The most any contact pair of body `to` carries to it (0 when none):
/// over its list of pair ends (`graph`'s), each pair's other body.
PABD_HD_ALWAYS_INLINE double contact_carried_speed(const BodyArrays& b, const ContactGraph& graph,
                                                   double extent, int to) {
  double most = 0;
  for (int at = graph.end_begin[to]; at < graph.end_begin[to + 1]; ++at) {
    const double r = carried_reach(b, graph.pair_body[graph.end_index[at] ^ 1], to, extent);
    most = r > most ? r : most;
  }
  return most;
}

}  // namespace pabd
