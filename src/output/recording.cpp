#include "output/recording.h"

namespace pabd {

Recording start_recording(const World& world, const std::string& scene, int every) {
  Recording rec;
  rec.scene = scene;
  rec.dt = world.settings().dt;
  rec.every = every;
  rec.iterations = world.settings().iterations;
  rec.threads = world.settings().threads;
  for (int i = 0; i < world.body_count(); ++i) {
    const BodyId id = world.body_at(i);
    rec.bodies.push_back(
        {world.body_name(id), world.body_shape(id), world.is_static(id), world.body_mass(id)});
  }
  for (int j = 0; j < world.joint_count(); ++j) {
    const JointId id = world.joint_at(j);
    if (!world.is_valid(id)) continue;
    const JointInfo info = world.joint_info(id);
    rec.joints.push_back({info.kind, info.body_a.is_world() ? -1 : int(info.body_a.index),
                          info.body_b.is_world() ? -1 : int(info.body_b.index)});
  }
  record_frame(rec, world);
  return rec;
}

void record_frame(Recording& rec, const World& world) {
  rec.frame_time.push_back(world.time());
  for (int i = 0; i < world.body_count(); ++i) {
    const BodyState s = world.body_state(world.body_at(i));
    rec.position.push_back(s.position);
    rec.orientation.push_back(s.orientation);
    rec.velocity.push_back(s.velocity);
    rec.angular_velocity.push_back(s.angular_velocity);
  }
  for (int j = 0; j < world.joint_count(); ++j) {
    const JointId id = world.joint_at(j);
    if (!world.is_valid(id)) continue;
    const JointInfo info = world.joint_info(id);
    rec.joint_a.push_back(info.world_a);
    rec.joint_b.push_back(info.world_b);
  }
}

void record_step_timings(Recording& rec, const StageTimings& t) {
  rec.step_collision_ms.push_back(t.detect_ms);
  rec.step_solve_ms.push_back(t.predict_ms + t.bonds_ms + t.solve_ms + t.dual_ms + t.velocities_ms);
}

}  // namespace pabd
