// The World's contacts: the detector's input from its arrays (the step's detect stage),
// the AVBD baseline's refusal of contacts, and the public contact queries.
#include <string>

#include "contacts/contact_kernels.h"
#include "core/stage_clock.h"
#include "world/world_impl.h"

namespace pabd {

ContactDetectInput WorldImpl::contact_input() {
  ContactDetectInput in;
  in.poses.count = body_count();
  in.poses.shape = shapes.data();
  in.poses.position = bodies.position.data();
  in.poses.rotation = bodies.affine.data();
  in.poses.velocity = bodies.velocity.data();
  in.poses.angular_velocity = bodies.angular_velocity.data();
  in.poses.is_static = bodies.is_static.data();
  in.mass = bodies.mass.data();
  in.friction = friction.data();
  in.restitution = restitution.data();
  in.bond_end_body = bonds.end_body.data();
  in.bond_count = bond_count();
  in.no_collision_pairs = no_collision_pairs.data();
  in.no_collision_count = static_cast<int>(no_collision_pairs.size());
  if (any_collision_filter) {
    in.collision_group = collision_group.data();
    in.collision_mask = collision_mask.data();
  }
  in.aabb.margin = settings.contact_margin;
  in.aabb.dt = settings.dt;
  in.aabb.acceleration = settings.gravity;
  return in;
}

void WorldImpl::detect_contacts() {
  if (settings.collisions)
    contacts.detect(contact_input());
  else
    contacts.clear();
}

double WorldImpl::reject_contacts_for_avbd() {
  if (!settings.collisions) return 0;
  const auto t0 = StageClock::now();
  detect_contacts();
  const ContactArrays c = contacts.arrays();
  for (int k = 0; k < c.count; ++k) {
    if (contacts.separation(k) > settings.contact_margin) continue;  // speculative only
    const std::string a = body_names[c.end_body[2 * k]], b = body_names[c.end_body[2 * k + 1]];
    contacts.clear();
    throw Error("solver avbd: bodies '" + a + "' and '" + b +
                "' are in contact, and the AVBD baseline has no contacts (use solver pabd, or "
                "WorldDef::collisions = false to ignore collisions)");
  }
  contacts.clear();  // AVBD does not use them
  return ms_since(t0);
}

ContactDetector& WorldImpl::host_contacts() {
  if (device) device->bring_back_contacts(contacts);
  return contacts;
}

int WorldImpl::contact_count() {
  return device ? device->contact_count(contacts) : contacts.count();
}

int World::contact_count() const { return impl_->contact_count(); }

ContactInfo World::contact(int index) const {
  WorldImpl& w = *impl_;
  ContactDetector& contacts = w.host_contacts();
  if (index < 0 || index >= contacts.count())
    throw Error("contact: index " + std::to_string(index) + " out of range (" +
                std::to_string(contacts.count()) + " contacts)");
  const ContactArrays c = contacts.arrays();
  const BodyArrays bodies = w.bodies.view();
  const ContactPoints p = contact_points(bodies, c, index);
  ContactInfo info;
  info.body_a = body_at(c.end_body[2 * index]);
  info.body_b = body_at(c.end_body[2 * index + 1]);
  info.normal = c.normal[index];
  info.point_a = p.a_core + p.radius_a * info.normal;
  info.point_b = p.b_core - p.radius_b * info.normal;
  info.separation = contacts.separation(index);
  info.gap = contact_gap(p, info.normal);
  const Vec3 f = c.lambda[index];
  info.normal_force = dot(f, info.normal);
  info.friction_force = f - info.normal_force * info.normal;
  info.sticking = c.sticking[index] != 0;
  return info;
}

}  // namespace pabd
