// World::save_state and restore_state: everything the next step reads that
// is not the model, so that a restored world steps on with the same bits as
// one that never stopped (tests/test_snapshot.cpp):
// - the bodies' poses, velocities, pending forces and torques, damping and
//   collision filters;
// - the bonds' multipliers and penalties, the joint-axis bonds' settings and
//   state, and the bond ends (a line bond's end slides with its travel);
// - the contacts the next step matches and warm-starts from (the detector's
//   part, contacts/contact_snapshot.cpp);
// - the step count, the divergence guard's reference, the AVBD history.
// The model (shapes, masses, which bodies each bond joins) is not stored: a
// fingerprint of it is, and a snapshot restores only into a world with the
// same one, built from the same scene. Settings are the caller's.
#include <algorithm>
#include <cstring>

#include "core/fnv1a.h"
#include "core/snapshot_io.h"
#include "world/world_impl.h"

namespace pabd {
namespace {

constexpr char kMagic[8] = {'P', 'A', 'B', 'D', 'S', 'N', 'A', 'P'};
constexpr std::uint32_t kFormatVersion = 3;  // 2: joint efforts; 3: sand and wake

/// FNV-1a over the model a snapshot belongs to: body count, static flags and
/// masses, bond count, kinds and end bodies.
std::uint64_t model_fingerprint(const WorldImpl& w) {
  Fnv1a h;
  auto mix = [&h](std::uint64_t bits) { h.add(bits); };
  mix(static_cast<std::uint64_t>(w.body_count()));
  for (int i = 0; i < w.body_count(); ++i) {
    mix(w.bodies.is_static[i]);
    h.add(static_cast<double>(w.bodies.mass[i]));
  }
  mix(static_cast<std::uint64_t>(w.bond_count()));
  for (int i = 0; i < w.bond_count(); ++i) {
    mix(static_cast<std::uint64_t>(w.bonds.kind[i]));
    mix(static_cast<std::uint64_t>(static_cast<std::int64_t>(w.bonds.end_body[2 * i])));
    mix(static_cast<std::uint64_t>(static_cast<std::int64_t>(w.bonds.end_body[2 * i + 1])));
  }
  for (std::uint64_t key : w.no_collision_pairs) mix(key);  // none: the fingerprint of before
  // The fields' grids (none: the fingerprint of before).
  const FieldState& f = w.fields;
  if (f.has_sand) mix((std::uint64_t(f.sand.columns) << 32) | std::uint64_t(f.sand.rows));
  if (f.has_water) mix((std::uint64_t(f.wake.columns()) << 32) | std::uint64_t(f.wake.rows()));
  return h.value();
}

/// Calls f(array, what) for every per-body and per-bond array of the state, in
/// the one order that saving and restoring share.
template <typename Bodies, typename Filters, typename Bonds, typename F>
void visit_arrays(Bodies& b, Filters& group, Filters& mask, Bonds& c, F&& f) {
  f(b.position, "body positions");
  f(b.affine, "body poses");
  f(b.orientation, "body orientations");
  f(b.velocity, "body velocities");
  f(b.angular_velocity, "body angular velocities");
  f(b.applied_force, "body forces");
  f(b.applied_torque, "body torques");
  f(b.linear_damping, "body dampings");
  f(b.angular_damping, "body dampings");
  f(group, "collision groups");
  f(mask, "collision masks");
  f(c.end_local, "bond ends");
  f(c.hard, "bonds");
  f(c.axis_model, "joint axes");
  f(c.axis_state, "joint axes");
  f(c.penalty, "bonds");
  f(c.lambda, "bonds");
}

}  // namespace

std::vector<std::uint8_t> World::save_state() const {
  const WorldImpl& w = *impl_;
  SnapshotWriter out;
  for (char c : kMagic) out.value(c);
  out.value(kFormatVersion);
  out.value(static_cast<std::uint32_t>(sizeof(Real)));
  out.value(model_fingerprint(w));
  out.value(static_cast<std::int64_t>(w.steps_taken));
  visit_arrays(w.bodies, w.collision_group, w.collision_mask, w.bonds,
               [&](const auto& v, const char*) { out.array(v); });
  out.array(w.joints.effort);
  // The divergence guard.
  const EnergyAudit& a = w.energy_audit;
  out.value(static_cast<std::uint8_t>(a.started));
  for (double x :
       {a.reference, a.allowance, a.drive_work, a.speed_scale, a.reference_time, a.extent})
    out.value(x);
  out.array(a.half_size);
  out.array(a.carried_speed);
  out.array(a.pushed_speed);
  out.array(a.driven_joints);
  out.array(a.coordinate_before);
  // The AVBD baseline's history.
  out.array(w.avbd.last_start_velocity);
  out.value(w.avbd.history_step);
  out.value(static_cast<std::int32_t>(w.avbd.history_bodies));
  // Contacts.
  impl_->host_contacts().save_state(out);  // a device's, brought over when newer
  // The fields' state: the sand's heights and what the model keeps per
  // vertex and per body, the wake's grid.
  const FieldState& f = w.fields;
  if (f.has_sand) {
    out.array(f.sand_shape->height_field.height);
    out.array(f.sand.pressed);
    out.array(f.sand.covered);
    out.array(f.covered_before);
    for (int x : {f.sand.active_c0, f.sand.active_c1, f.sand.active_r0, f.sand.active_r1})
      out.value(static_cast<std::int32_t>(x));
  }
  if (f.has_water) {
    out.array(f.wake.eta());
    out.array(f.wake.u());
    out.array(f.wake.w());
    out.array(f.wake_thickness);
    out.value(static_cast<std::uint8_t>(f.wake_primed));
  }
  return out.take();
}

void World::restore_state(const std::vector<std::uint8_t>& bytes) {
  restore_state(bytes.data(), bytes.size());
}

void World::restore_state(const std::uint8_t* data, std::size_t size) {
  WorldImpl& w = *impl_;
  // The adjacency first: a step after a restore must not take it for an
  // edit and restart the guard's reference.
  if (w.topology_dirty) w.build_topology();
  SnapshotReader in(data, size);
  char magic[8];
  for (char& c : magic) c = size >= 8 ? in.value<char>() : '\0';
  if (std::memcmp(magic, kMagic, 8) != 0) throw Error("restore_state: not a pabd snapshot");
  const auto version = in.value<std::uint32_t>();
  if (version != kFormatVersion)
    throw Error("restore_state: snapshot format " + std::to_string(version) +
                ", this build reads " + std::to_string(kFormatVersion));
  if (in.value<std::uint32_t>() != sizeof(Real))
    throw Error("restore_state: the snapshot was written by a build with another Real");
  if (in.value<std::uint64_t>() != model_fingerprint(w))
    throw Error(
        "restore_state: the snapshot is of another world (bodies, masses or joints differ)");

  // Read into copies, so that a snapshot found bad halfway leaves the world as it was.
  const auto steps = in.value<std::int64_t>();
  if (steps < 0) throw Error("restore_state: corrupt snapshot (step count)");
  BodyStorage b = w.bodies;
  std::vector<std::uint32_t> group = w.collision_group, mask = w.collision_mask;
  BondStorage c = w.bonds;
  visit_arrays(b, group, mask, c, [&](auto& v, const char* what) { in.array(v, what); });
  std::vector<Real> effort = w.joints.effort;
  in.array(effort, "joint efforts");
  EnergyAudit a = w.energy_audit;
  a.started = in.value<std::uint8_t>() != 0;
  for (double* x :
       {&a.reference, &a.allowance, &a.drive_work, &a.speed_scale, &a.reference_time, &a.extent})
    *x = in.value<double>();
  const std::size_t nb = static_cast<std::size_t>(w.body_count());
  in.any_array(a.half_size, nb, "guard sizes");
  in.any_array(a.carried_speed, nb, "guard speeds");
  in.any_array(a.pushed_speed, nb, "guard speeds");
  in.any_array(a.driven_joints, w.joints.first_bond.size(), "driven joints");
  in.any_array(a.coordinate_before, w.joints.first_bond.size(), "driven joints");
  for (int j : a.driven_joints)
    if (j < 0 || j >= static_cast<int>(w.joints.first_bond.size()))
      throw Error("restore_state: corrupt snapshot (driven joints)");
  if (a.started &&
      (a.half_size.size() != nb || a.carried_speed.size() != nb || a.pushed_speed.size() != nb ||
       a.coordinate_before.size() != a.driven_joints.size()))
    throw Error("restore_state: corrupt snapshot (the guard's reference)");
  AvbdScratch avbd = w.avbd;
  in.any_array(avbd.last_start_velocity, nb, "AVBD history");
  avbd.history_step = in.value<std::int64_t>();
  avbd.history_bodies = in.value<std::int32_t>();
  w.contacts.load_state(in, w.body_count());
  FieldState& f = w.fields;
  std::vector<Real> sand_height, pressed, eta, u, wf, thickness;
  std::vector<std::uint8_t> covered;
  std::vector<int> covered_before;
  std::int32_t active[4] = {1, 0, 1, 0};
  bool primed = false;
  if (f.has_sand) {
    const std::size_t n = std::size_t(f.sand.vertex_count());
    sand_height = f.sand_shape->height_field.height;
    in.array(sand_height, "sand heights");
    pressed = f.sand.pressed;
    in.array(pressed, "sand state");
    covered = f.sand.covered;
    in.array(covered, "sand state");
    in.any_array(covered_before, n, "sand state");
    for (std::int32_t& x : active) x = in.value<std::int32_t>();
    for (const int v : covered_before)
      if (v < 0 || std::size_t(v) >= n) throw Error("restore_state: corrupt snapshot (sand)");
    for (const Real h : sand_height)
      if (!(h >= 0)) throw Error("restore_state: corrupt snapshot (sand heights)");
  }
  if (f.has_water) {
    eta = f.wake.eta();
    u = f.wake.u();
    wf = f.wake.w();
    thickness = f.wake_thickness;
    for (auto* v : {&eta, &u, &wf, &thickness}) in.array(*v, "wake");
    primed = in.value<std::uint8_t>() != 0;
  }
  in.finish();

  if (f.has_sand) {
    // Copied in: the height field's view and the bed point at this storage.
    std::copy(sand_height.begin(), sand_height.end(), f.sand_shape->height_field.height.begin());
    f.sand.pressed = std::move(pressed);
    f.sand.covered = std::move(covered);
    f.covered_before = std::move(covered_before);
    f.sand.active_c0 = active[0];
    f.sand.active_c1 = active[1];
    f.sand.active_r0 = active[2];
    f.sand.active_r1 = active[3];
    refresh_sand_surface(f);
  }
  if (f.has_water) {
    f.wake.eta() = std::move(eta);
    f.wake.u() = std::move(u);
    f.wake.w() = std::move(wf);
    f.wake_thickness = std::move(thickness);
    f.wake_primed = primed;
  }

  w.steps_taken = steps;
  w.model_changed();  // new arrays, their model included
  w.bodies = std::move(b);
  w.collision_group = std::move(group);
  w.collision_mask = std::move(mask);
  w.bonds = std::move(c);
  w.joints.effort = std::move(effort);
  w.energy_audit = std::move(a);
  w.avbd = std::move(avbd);
  w.raycast_tree.invalidate();  // other poses
  w.any_applied = w.any_damping = w.any_collision_filter = false;
  for (std::size_t i = 0; i < nb; ++i) {
    const Vec3 force = w.bodies.applied_force[i], torque = w.bodies.applied_torque[i];
    w.any_applied = w.any_applied || dot(force, force) != 0 || dot(torque, torque) != 0;
    w.any_damping =
        w.any_damping || w.bodies.linear_damping[i] != 0 || w.bodies.angular_damping[i] != 0;
    w.any_collision_filter =
        w.any_collision_filter || w.collision_group[i] != 1 || w.collision_mask[i] != 0xffffffffu;
  }
}

}  // namespace pabd
