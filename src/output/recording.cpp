#include "output/recording.h"

#include <algorithm>

#include "output/surface_mesh.h"

namespace pabd {
namespace {

/// A world point as the material point of a body (the world's own frame for the world).
Vec3 to_local(const World& world, BodyId body, Vec3 p) {
  if (body.is_world()) return p;
  const BodyState s = world.body_state(body);
  return transpose(to_matrix(s.orientation)) * (p - s.position);
}

/// The surface's layout and where it is drawn from, without heights.
RecordedSurface surface_layout(const SurfaceInfo& info, const Recording& rec) {
  RecordedSurface s;
  s.name = info.name;
  s.kind = info.kind;
  s.stride =
      std::max(grid_stride(info.columns, kMaxSurfaceSide), grid_stride(info.rows, kMaxSurfaceSide));
  const GridLayout g =
      strided_layout({info.columns, info.rows, info.spacing, info.x0, info.z0}, s.stride);
  s.columns = g.columns;
  s.rows = g.rows;
  s.spacing = g.spacing;
  s.x0 = info.x0;
  s.z0 = info.z0;
  // The sand's surface is a static height-field body of the same name.
  if (info.kind == SurfaceKind::Sand)
    for (int b = 0; b < rec.body_count(); ++b)
      if (rec.bodies[std::size_t(b)].name == info.name &&
          rec.bodies[std::size_t(b)].shape.type == ShapeType::HeightField)
        s.body = b;
  return s;
}

/// Keeps the heights of recording frame `frame` (see recording.h: frames on
/// the `every` grid plus the latest, thinned by doubling `every`).
void record_surface(RecordedSurface& s, const SurfaceInfo& info, int frame) {
  const std::size_t n = s.vertex_count();
  // The last kept frame off the grid only stood for the latest: this one replaces it.
  if (s.frame.size() > 1 && s.frame.back() % s.every != 0) {
    s.frame.pop_back();
    s.height.resize(s.frame.size() * n);
  }
  append_strided(info.height.data(), info.columns, info.rows, s.stride, s.height);
  s.frame.push_back(frame);
  while (s.frame.size() * n > kSurfaceSampleBudget && s.frame.size() > 2) {
    s.every *= 2;
    std::size_t kept = 0;
    for (std::size_t k = 0; k < s.frame.size(); ++k) {
      if (s.frame[k] % s.every != 0 && k + 1 != s.frame.size()) continue;
      if (kept != k) {
        s.frame[kept] = s.frame[k];
        std::copy_n(s.height.begin() + std::ptrdiff_t(k * n), n,
                    s.height.begin() + std::ptrdiff_t(kept * n));
      }
      ++kept;
    }
    s.frame.resize(kept);
    s.height.resize(kept * n);
  }
}

}  // namespace

std::vector<bool> Recording::drawn_by_field() const {
  std::vector<bool> drawn(bodies.size(), false);
  for (const RecordedSurface& s : surfaces)
    if (s.body >= 0) drawn[std::size_t(s.body)] = true;
  for (const RecordedCloth& c : cloths)
    for (int b : c.particles)
      if (b >= 0) drawn[std::size_t(b)] = true;
  return drawn;
}

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
  for (int i = 0; i < world.surface_count(); ++i)
    rec.surfaces.push_back(surface_layout(world.surface(i), rec));
  // A cloth's vertices and triangles in recorded bodies; a triangle that lost
  // a particle before the recording started is left out.
  for (int i = 0; i < world.cloth_count(); ++i) {
    const ClothInfo info = world.cloth(i);
    RecordedCloth c{info.name, {}, {}};
    for (int slot : info.particles)
      c.particles.push_back(slot >= 0 && slot < world.body_count() ? recorded[std::size_t(slot)]
                                                                   : -1);
    for (std::size_t t = 0; t + 2 < info.triangles.size(); t += 3) {
      const int a = c.particles[std::size_t(info.triangles[t])];
      const int b = c.particles[std::size_t(info.triangles[t + 1])];
      const int d = c.particles[std::size_t(info.triangles[t + 2])];
      if (a >= 0 && b >= 0 && d >= 0) c.triangles.insert(c.triangles.end(), {a, b, d});
    }
    rec.cloths.push_back(std::move(c));
  }
  if (contacts) rec.contact_start.push_back(0);
  record_frame(rec, world);
  return rec;
}

void record_frame(Recording& rec, const World& world) {
  rec.frame_time.push_back(world.time());
  const int frame = rec.frame_count() - 1;
  for (std::size_t i = 0; i < rec.surfaces.size(); ++i)
    record_surface(rec.surfaces[i], world.surface(static_cast<int>(i)), frame);
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
