#include "output/recording.h"

namespace pabd {
namespace {

/// A world point as the material point of a body (the world's own frame for the world).
Vec3 to_local(const World& world, BodyId body, Vec3 p) {
  if (body.is_world()) return p;
  const BodyState s = world.body_state(body);
  return transpose(to_matrix(s.orientation)) * (p - s.position);
}

}  // namespace

Recording start_recording(const World& world, const std::string& scene, int every, bool contacts) {
  Recording rec;
  rec.scene = scene;
  rec.dt = world.settings().dt;
  rec.every = every;
  rec.iterations = world.settings().iterations;
  rec.threads = world.settings().threads;
  rec.has_contacts = contacts;
  std::vector<int> recorded(static_cast<std::size_t>(world.body_count()), -1);  // slot -> body
  for (int i = 0; i < world.body_count(); ++i) {
    const BodyId id = world.body_at(i);
    if (!world.is_valid(id)) continue;  // removed
    recorded[static_cast<std::size_t>(i)] = rec.body_count();
    rec.body_slot.push_back(i);
    rec.bodies.push_back(
        {world.body_name(id), world.body_shape(id), world.is_static(id), world.body_mass(id)});
  }
  const auto body_index = [&recorded](BodyId id) {
    return id.is_world() ? -1 : recorded[id.index];
  };
  // A joint's ends are material points of its bodies: recorded once, in the
  // body frames, they give the end points of every frame from its poses.
  for (int j = 0; j < world.joint_count(); ++j) {
    const JointId id = world.joint_at(j);
    if (!world.is_valid(id)) continue;
    const JointInfo info = world.joint_info(id);
    rec.joints.push_back({info.kind, body_index(info.body_a), body_index(info.body_b),
                          to_local(world, info.body_a, info.world_a),
                          to_local(world, info.body_b, info.world_b)});
  }
  if (contacts) rec.contact_start.push_back(0);
  record_frame(rec, world);
  return rec;
}

void record_frame(Recording& rec, const World& world) {
  rec.frame_time.push_back(world.time());
  const std::size_t n = rec.body_slot.size();
  for (std::size_t k = 0; k < n; ++k) {
    const BodyId id = world.body_at(rec.body_slot[k]);
    if (world.is_valid(id)) {
      const BodyState s = world.body_state(id);
      rec.position.push_back(s.position);
      rec.orientation.push_back(s.orientation);
    } else {  // removed since the last frame: it stays where it was
      rec.position.push_back(rec.position[rec.position.size() - n]);
      rec.orientation.push_back(rec.orientation[rec.orientation.size() - n]);
    }
  }
  if (rec.has_contacts) {
    for (int c = 0; c < world.contact_count(); ++c) {
      const ContactInfo info = world.contact(c);
      rec.contacts.push_back({0.5 * (info.point_a + info.point_b), info.normal, info.normal_force});
    }
    rec.contact_start.push_back(static_cast<int>(rec.contacts.size()));
  }
}

void record_step_timings(Recording& rec, const StageTimings& t) {
  rec.step_collision_ms.push_back(t.detect_ms);
  rec.step_solve_ms.push_back(t.predict_ms + t.bonds_ms + t.solve_ms + t.dual_ms + t.velocities_ms);
}

}  // namespace pabd
