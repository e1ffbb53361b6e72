// World: the public API over WorldImpl's arrays. Handles are validated here,
// definitions are turned into model data, and world-frame anchors into
// material points.
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>

#include "contacts/contact_detect_kernels.h"
#include "core/fnv1a.h"
#include "core/parallel.h"
#include "math/so3.h"
#include "shapes/mass_properties.h"
#include "shapes/shape_data.h"
#include "solver/external_velocity.h"
#include "world/joint_axes.h"
#include "world/world_impl.h"
#include "world/world_validation.h"

namespace pabd {

namespace {

constexpr std::uint32_t kGeneration = 1;  // a new body's or joint's generation

bool finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

}  // namespace

// WorldImpl ---------------------------------------------------------------------

WorldImpl::WorldImpl(const WorldDef& def) : settings(def) {
  validate_world_def(def);
  threads = resolve_thread_count(def.threads);
  contacts.set_threading(def.threads, def.parallel_for);
  if (def.device == Device::Cuda) device = make_cuda_backend();
}

WorldImpl& world_impl(World& world) { return *world.impl_; }

void WorldImpl::build_topology() {
  const int nb = body_count(), nc = bond_count();
  // Count ends per body, prefix-sum, then fill in bond order so every body
  // gathers its ends in a fixed order (determinism).
  std::vector<int>& end_begin = bodies.end_begin;
  std::vector<int>& end_index = bodies.end_index;
  const std::vector<int>& end_body = bonds.end_body;
  end_begin.assign(nb + 1, 0);
  for (int e = 0; e < 2 * nc; ++e)
    if (end_body[e] >= 0) ++end_begin[end_body[e] + 1];
  for (int i = 0; i < nb; ++i) end_begin[i + 1] += end_begin[i];
  end_index.assign(end_begin[nb], 0);
  std::vector<int> fill(end_begin.begin(), end_begin.end() - 1);
  for (int e = 0; e < 2 * nc; ++e)
    if (end_body[e] >= 0) end_index[fill[end_body[e]]++] = e;

  bodies.resize_scratch();
  bonds.resize_scratch();
  find_mass_behind_joints();
  topology_dirty = false;
  // Every body added or removed and every bond leads here before a step.
  model_changed();
}

HardBondSettings WorldImpl::hard_settings() const {
  HardBondSettings s;
  s.augmented = settings.augmented_lagrangian;
  s.stiffness_start = settings.hard_stiffness_start;
  s.stiffness_growth = settings.hard_stiffness_growth;
  s.lambda_decay = settings.hard_lambda_decay;
  s.stiffness_decay = settings.hard_stiffness_decay;
  s.stiffness_max = settings.hard_stiffness_max;
  s.stiffness_mass_ratio = settings.hard_stiffness_mass_ratio;
  s.full_split = settings.iteration_order == IterationOrder::Colored;
  return s;
}

Vec3 WorldImpl::to_local(int body, Vec3 p) const {
  if (body < 0) return p;
  // A is a rotation, so A^-1 = A^T.
  return transpose(bodies.affine[body]) * (p - bodies.position[body]);
}

int WorldImpl::add_bond(BondKind kind, int body_a, Vec3 local_a, int body_b, Vec3 local_b,
                        Real stiffness, Real rest_length, bool hard, Vec3 axis) {
  bonds.kind.push_back(kind);
  bonds.end_body.push_back(body_a);
  bonds.end_body.push_back(body_b);
  bonds.end_local.push_back(local_a);
  bonds.end_local.push_back(local_b);
  bonds.stiffness.push_back(stiffness);
  bonds.rest_length.push_back(rest_length);
  bonds.axis.push_back(axis);
  bonds.hard.push_back(hard ? 1 : 0);
  bonds.axis_model.push_back(AxisBondModel{});
  bonds.axis_state.push_back(AxisBondState{});
  bonds.penalty.push_back(settings.hard_stiffness_start);
  bonds.lambda.push_back(Vec3{});
  topology_dirty = true;
  return bond_count() - 1;
}

// World -------------------------------------------------------------------------

World::World(const WorldDef& def) : impl_(std::make_unique<WorldImpl>(def)) {}
World::~World() = default;
World::World(World&&) noexcept = default;
World& World::operator=(World&&) noexcept = default;

namespace {

int check_body(const WorldImpl& w, BodyId id, bool allow_world, const char* what) {
  if (id.is_world()) {
    if (allow_world) return -1;
    throw Error(std::string(what) + ": expected a body handle, got the world frame");
  }
  if (id.index >= static_cast<std::uint32_t>(w.body_count()) || !w.body_alive[id.index] ||
      id.generation != w.body_generation[id.index])
    throw Error(std::string(what) + ": invalid body handle (index " + std::to_string(id.index) +
                ")");
  return static_cast<int>(id.index);
}

}  // namespace

BodyId World::add_body(const BodyDef& def_in) {
  WorldImpl& w = *impl_;
  BodyDef def = def_in;
  if (def.name.empty()) def.name = std::to_string(w.body_count());
  validate_body_def(def);
  if (w.body_by_name.count(def.name))
    throw Error("body '" + def.name + "': name: expected a unique name (already used)");

  MassProperties mp;
  const bool inertia_given = trace(def.inertia) != 0;  // validated: zero or positive definite
  if (!def.is_static && inertia_given) {
    mp.mass = def.mass;
    mp.affine_inertia = affine_inertia_from_tensor(def.inertia);
  } else if (!def.is_static) {
    if (def.shape.type == ShapeType::Compound && def.shape.data->compound.in_frame)
      throw Error("body '" + def.name +
                  "': inertia: expected the mass and inertia of a body whose compound keeps "
                  "its frame (compound_shape_in_frame)");
    mp = shape_mass_properties(def.shape, def.density);
    if (def.mass > 0) {  // an explicit mass rescales the density-based properties
      const Real scale = def.mass / mp.mass;
      mp.mass = def.mass;
      mp.affine_inertia = scale * mp.affine_inertia;
    }
    if (!(mp.mass > 0) || !std::isfinite(mp.mass))
      throw Error("body '" + def.name + "': mass: expected a finite number > 0");
  }
  if (def.shape.type == ShapeType::Plane) {
    const Real n = length(def.shape.normal);
    def.shape.normal = (Real(1) / n) * def.shape.normal;
    def.shape.offset /= n;
  }

  const Quat q = normalized(def.orientation);
  w.body_by_name[def.name] = w.body_count();
  w.body_names.push_back(def.name);
  w.body_generation.push_back(kGeneration);
  w.body_alive.push_back(1);
  w.shapes.push_back(def.shape);
  w.friction.push_back(def.friction);
  w.restitution.push_back(def.restitution);
  w.collision_group.push_back(def.collision_group);
  w.collision_mask.push_back(def.collision_mask);
  w.any_collision_filter =
      w.any_collision_filter || def.collision_group != 1 || def.collision_mask != 0xffffffffu;
  w.any_restitution = w.any_restitution || def.restitution > 0;
  w.bodies.mass.push_back(mp.mass);
  w.bodies.affine_inertia.push_back(mp.affine_inertia);
  w.bodies.is_static.push_back(def.is_static ? 1 : 0);
  w.bodies.linear_damping.push_back(def.is_static ? 0 : def.linear_damping);
  w.bodies.angular_damping.push_back(def.is_static ? 0 : def.angular_damping);
  w.any_damping =
      w.any_damping || w.bodies.linear_damping.back() != 0 || w.bodies.angular_damping.back() != 0;
  w.bodies.applied_force.push_back(Vec3{});
  w.bodies.applied_torque.push_back(Vec3{});
  w.bodies.position.push_back(def.position);
  w.bodies.orientation.push_back(q);
  w.bodies.affine.push_back(to_matrix(q));
  w.bodies.velocity.push_back(def.is_static ? Vec3{} : def.velocity);
  w.bodies.angular_velocity.push_back(def.is_static ? Vec3{} : def.angular_velocity);
  w.topology_dirty = true;
  w.raycast_tree.invalidate();
  return BodyId{static_cast<std::uint32_t>(w.body_count() - 1), kGeneration};
}

namespace {

JointId record_joint(WorldImpl& w, JointKind kind, int first_bond, int count) {
  w.joints.first_bond.push_back(first_bond);
  w.joints.bond_count.push_back(count);
  w.joints.kind.push_back(kind);
  w.joints.generation.push_back(kGeneration);
  w.joints.alive.push_back(1);
  w.joints.axis.push_back(JointAxis{});
  w.joints.effort.push_back(0);
  w.joints.name.emplace_back();
  return JointId{static_cast<std::uint32_t>(w.joints.first_bond.size() - 1), kGeneration};
}

int check_joint(const WorldImpl& w, JointId id, const char* what) {
  if (id.index >= w.joints.first_bond.size() || !w.joints.alive[id.index] ||
      id.generation != w.joints.generation[id.index])
    throw Error(std::string(what) + ": invalid or removed joint handle (index " +
                std::to_string(id.index) + ")");
  return static_cast<int>(id.index);
}

BodyId handle_of(const WorldImpl& w, int body) {
  return body < 0 ? world_frame()
                  : BodyId{static_cast<std::uint32_t>(body),
                           w.body_generation[static_cast<std::size_t>(body)]};
}

}  // namespace

JointId World::add_spring(const SpringDef& def) {
  WorldImpl& w = *impl_;
  const int a = check_body(w, def.body_a, true, "spring body_a");
  const int b = check_body(w, def.body_b, true, "spring body_b");
  if (a < 0 && b < 0) throw Error("spring: expected at least one end on a body, both are world");
  if (a == b) throw Error("spring: expected two different bodies, both ends are on one body");
  if (!finite(def.anchor_a) || !finite(def.anchor_b))
    throw Error("spring: anchors: expected finite numbers");
  if (!std::isfinite(def.rest_length) || def.rest_length < 0)
    throw Error("spring: rest_length: expected a finite number >= 0");
  if (!std::isfinite(def.stiffness) || def.stiffness <= 0)
    throw Error("spring: stiffness: expected a finite number > 0");
  const int bond = w.add_bond(BondKind::Spring, a, w.to_local(a, def.anchor_a), b,
                              w.to_local(b, def.anchor_b), def.stiffness, def.rest_length, false);
  return record_joint(w, JointKind::Spring, bond, 1);
}

namespace {

/// Checks the two ends of a joint of bonds; returns their body indices.
std::pair<int, int> check_joint_ends(const WorldImpl& w, const char* what, BodyId body_a,
                                     BodyId body_b, Real stiffness) {
  const int a = check_body(w, body_a, true, what);
  const int b = check_body(w, body_b, true, what);
  const std::string name(what);
  if (a == b) throw Error(name + ": expected two different bodies, got one body twice");
  const bool a_moves = a >= 0 && !w.bodies.is_static[a], b_moves = b >= 0 && !w.bodies.is_static[b];
  if (!a_moves && !b_moves)
    throw Error(name + ": expected at least one dynamic body, both ends are fixed");
  if (!std::isfinite(stiffness) || stiffness < 0)
    throw Error(name + ": stiffness: expected a finite number >= 0 (0 = hard)");
  return {a, b};
}

/// A joint made of point bonds of one kind at the given world points: every
/// joint type that pins points (spherical 1, hinge 2, fixed 3) or puts them on
/// a rail (slider 3, along `axis`).
JointId add_point_joint(WorldImpl& w, JointKind kind, const char* what, BodyId body_a,
                        BodyId body_b, const Vec3* points, int count, Real stiffness,
                        BondKind bond = BondKind::Point, Vec3 axis = Vec3{}) {
  const auto [a, b] = check_joint_ends(w, what, body_a, body_b, stiffness);
  for (int k = 0; k < count; ++k)
    if (!finite(points[k])) throw Error(std::string(what) + ": anchor: expected finite numbers");
  const bool hard = stiffness == 0;
  const Vec3 axis_local = a < 0 ? axis : transpose(w.bodies.affine[a]) * axis;  // rail turns with a
  const int first = w.bond_count();
  for (int k = 0; k < count; ++k)
    w.add_bond(bond, a, w.to_local(a, points[k]), b, w.to_local(b, points[k]), stiffness, 0, hard,
               axis_local);
  return record_joint(w, kind, first, count);
}

/// Distance between the points that fix a joint's orientation: the larger
/// body's bounding radius, so the lever matches the body (at least 5 cm).
Real joint_lever(const WorldImpl& w, BodyId a, BodyId b) {
  const Real ra = a.is_world() ? 0 : shape_bounding_radius(w.shapes[a.index]);
  const Real rb = b.is_world() ? 0 : shape_bounding_radius(w.shapes[b.index]);
  const Real r = ra > rb ? ra : rb;
  return r > Real(0.05) ? r : Real(0.05);
}

}  // namespace

JointId World::add_spherical_joint(const SphericalJointDef& def) {
  return add_point_joint(*impl_, JointKind::Spherical, "spherical joint", def.body_a, def.body_b,
                         &def.anchor, 1, def.stiffness);
}

JointId World::add_hinge_joint(const HingeJointDef& def) {
  const Real n = length(def.axis);
  if (!std::isfinite(n) || n == 0)
    throw Error("hinge joint: axis: expected a finite, non-zero vector");
  // Two points on the axis: pinning both leaves only the turn about it.
  check_body(*impl_, def.body_a, true, "hinge joint");
  check_body(*impl_, def.body_b, true, "hinge joint");
  validate_joint_limits(def.limits, "hinge joint");
  validate_joint_drive(def.drive, "hinge joint");
  const Real lever = joint_lever(*impl_, def.body_a, def.body_b);
  const Vec3 points[2] = {def.anchor, def.anchor + (lever / n) * def.axis};
  const JointId id = add_point_joint(*impl_, JointKind::Hinge, "hinge joint", def.body_a,
                                     def.body_b, points, 2, def.stiffness);
  // Limits and drive: couples of bonds at the same lever (src/world/joint_axes.cpp).
  add_joint_axis(*impl_, static_cast<int>(id.index), true, def.anchor, (Real(1) / n) * def.axis,
                 lever, def.stiffness, def.limits, def.drive);
  return id;
}

JointId World::add_slider_joint(const SliderJointDef& def) {
  const Real n = length(def.axis);
  if (!std::isfinite(n) || n == 0)
    throw Error("slider joint: axis: expected a finite, non-zero vector");
  check_body(*impl_, def.body_a, true, "slider joint");
  check_body(*impl_, def.body_b, true, "slider joint");
  validate_joint_limits(def.limits, "slider joint");
  validate_joint_drive(def.drive, "slider joint");
  const Real lever = joint_lever(*impl_, def.body_a, def.body_b);
  // Points on rails parallel to the axis: two on the axis (no tilt about the
  // two cross directions) and one off it (no turn about the axis).
  const Vec3 d = (Real(1) / n) * def.axis;
  const Vec3 helper = std::fabs(d.x) < Real(0.9) ? Vec3{1, 0, 0} : Vec3{0, 1, 0};
  const Vec3 u = cross(d, helper);
  const Vec3 off = (lever / length(u)) * u;
  const Vec3 points[3] = {def.anchor, def.anchor + lever * d, def.anchor + off};
  const JointId id = add_point_joint(*impl_, JointKind::Slider, "slider joint", def.body_a,
                                     def.body_b, points, 3, def.stiffness, BondKind::Line, d);
  add_joint_axis(*impl_, static_cast<int>(id.index), false, def.anchor, d, 1, def.stiffness,
                 def.limits, def.drive);
  return id;
}

JointId World::add_distance_joint(const DistanceJointDef& def) {
  WorldImpl& w = *impl_;
  const auto [a, b] = check_joint_ends(w, "distance joint", def.body_a, def.body_b, def.stiffness);
  if (!finite(def.anchor_a) || !finite(def.anchor_b))
    throw Error("distance joint: anchors: expected finite numbers");
  if (!std::isfinite(def.length) || def.length < 0)
    throw Error("distance joint: length: expected a finite number >= 0 (0 = current distance)");
  const Real rest = def.length > 0 ? def.length : length(def.anchor_b - def.anchor_a);
  const bool hard = def.stiffness == 0;
  // A rigid rod of length 0 is a ball joint: its point bond has a direction
  // at every gap, where |y_b - y_a| - 0 has none at the solution and the rod
  // law's pull lambda/kappa, divided by the vanishing gap, threw the bodies
  // (a zero-length rod off the centres of two spinning bodies blew up).
  const BondKind kind =
      !hard ? BondKind::Spring : (rest > 0 ? BondKind::Distance : BondKind::Point);
  const int bond = w.add_bond(kind, a, w.to_local(a, def.anchor_a), b, w.to_local(b, def.anchor_b),
                              def.stiffness, rest, hard);
  return record_joint(w, JointKind::Distance, bond, 1);
}

JointId World::add_fixed_joint(const FixedJointDef& def) {
  check_body(*impl_, def.body_a, true, "fixed joint");
  check_body(*impl_, def.body_b, true, "fixed joint");
  const Real lever = joint_lever(*impl_, def.body_a, def.body_b);
  // Three non-collinear points pin all six relative degrees of freedom.
  const Vec3 points[3] = {def.anchor, def.anchor + Vec3{lever, 0, 0},
                          def.anchor + Vec3{0, lever, 0}};
  return add_point_joint(*impl_, JointKind::Fixed, "fixed joint", def.body_a, def.body_b, points, 3,
                         def.stiffness);
}

void World::set_world_anchor(JointId id, Vec3 anchor) {
  WorldImpl& w = *impl_;
  const int j = check_joint(w, id, "set_world_anchor");
  if (!finite(anchor)) throw Error("set_world_anchor: anchor: expected finite numbers");
  bool moved = false;
  for (int bond = w.joints.first_bond[j]; bond < w.joints.first_bond[j] + w.joints.bond_count[j];
       ++bond) {
    for (int e = 2 * bond; e < 2 * bond + 2; ++e) {
      if (w.bonds.end_body[e] < 0) {
        w.bonds.end_local[e] = anchor;  // a world end's "material point" is its world point
        moved = true;
      }
    }
  }
  if (!moved) throw Error("set_world_anchor: expected a joint with a world end, both are bodies");
  w.state_written();  // the bonds' anchors; a moved anchor does work from outside
}

void World::remove_joint(JointId id) {
  WorldImpl& w = *impl_;
  const int j = check_joint(w, id, "remove_joint");
  // Detach both ends from their bodies: no body gathers the bonds any more.
  for (int bond = w.joints.first_bond[j]; bond < w.joints.first_bond[j] + w.joints.bond_count[j];
       ++bond) {
    w.bonds.end_body[2 * bond] = w.bonds.end_body[2 * bond + 1] = -1;
    w.bonds.hard[bond] = 0;
  }
  detach_joint_axis(w, j);  // a hinge's or slider's limit and drive bonds
  w.joints.effort[j] = 0;
  if (!w.joints.name[j].empty()) w.joint_by_name.erase(w.joints.name[j]);
  w.joints.name[j].clear();
  w.joints.alive[j] = 0;
  ++w.joints.generation[j];
  w.topology_dirty = true;
}

void World::set_joint_drive(JointId id, const JointDrive& drive) {
  WorldImpl& w = *impl_;
  const int j = check_joint(w, id, "set_joint_drive");
  if (!w.joints.axis[j].used)
    throw Error("set_joint_drive: expected a hinge or slider joint (index " + std::to_string(j) +
                ")");
  validate_joint_drive(drive, "set_joint_drive");
  set_joint_axis_drive(w, j, drive);
  w.energy_audit.restart();  // the audit's list of driven joints may change
}

void World::set_joint_name(JointId id, const std::string& name) {
  WorldImpl& w = *impl_;
  const int j = check_joint(w, id, "set_joint_name");
  if (name == w.joints.name[static_cast<std::size_t>(j)]) return;
  if (!name.empty() && w.joint_by_name.count(name))
    throw Error("set_joint_name: expected a unique joint name, '" + name + "' is already used");
  if (!w.joints.name[static_cast<std::size_t>(j)].empty())
    w.joint_by_name.erase(w.joints.name[static_cast<std::size_t>(j)]);
  w.joints.name[static_cast<std::size_t>(j)] = name;
  if (!name.empty()) w.joint_by_name[name] = j;
}

const std::string& World::joint_name(JointId id) const {
  return impl_->joints.name[static_cast<std::size_t>(check_joint(*impl_, id, "joint_name"))];
}

JointId World::find_joint(const std::string& name) const {
  const auto it = impl_->joint_by_name.find(name);
  if (it == impl_->joint_by_name.end()) throw Error("find_joint: no joint named '" + name + "'");
  return joint_at(it->second);
}

void World::set_joint_effort(JointId id, Real effort) {
  WorldImpl& w = *impl_;
  const int j = check_joint(w, id, "set_joint_effort");
  if (!w.joints.axis[static_cast<std::size_t>(j)].used)
    throw Error("set_joint_effort: expected a hinge or slider joint (index " + std::to_string(j) +
                ")");
  if (!std::isfinite(effort)) throw Error("set_joint_effort: effort: expected a finite number");
  w.joints.effort[static_cast<std::size_t>(j)] = effort;
}

Real World::joint_effort(JointId id) const {
  return impl_->joints.effort[static_cast<std::size_t>(check_joint(*impl_, id, "joint_effort"))];
}

StepResult World::step() { return impl_->step(); }

int World::body_count() const { return impl_->body_count(); }
int World::joint_count() const { return static_cast<int>(impl_->joints.first_bond.size()); }

JointId World::joint_at(int index) const {
  if (index < 0 || index >= joint_count())
    throw Error("joint_at: index " + std::to_string(index) + " out of range");
  return JointId{static_cast<std::uint32_t>(index), impl_->joints.generation[index]};
}

bool World::is_valid(JointId id) const {
  const WorldImpl& w = *impl_;
  return id.index < w.joints.first_bond.size() && w.joints.alive[id.index] &&
         id.generation == w.joints.generation[id.index];
}

JointInfo World::joint_info(JointId id) const {
  const WorldImpl& w = *impl_;
  const int j = check_joint(w, id, "joint_info");
  const int bond = w.joints.first_bond[j];
  const int a = w.bonds.end_body[2 * bond], b = w.bonds.end_body[2 * bond + 1];
  auto world_of = [&w](int body, Vec3 x) {
    return body < 0 ? x : w.bodies.affine[body] * x + w.bodies.position[body];
  };
  JointInfo info;
  info.kind = w.joints.kind[j];
  info.body_a = handle_of(w, a);
  info.body_b = handle_of(w, b);
  info.world_a = world_of(a, w.bonds.end_local[2 * bond]);
  info.world_b = world_of(b, w.bonds.end_local[2 * bond + 1]);
  info.hard = w.bonds.hard[bond] != 0;
  read_joint_axis(w, j, info);  // hinges and sliders: coordinate, drive and limit forces
  return info;
}

const ShapeDef& World::body_shape(BodyId id) const {
  return impl_->shapes[check_body(*impl_, id, false, "body_shape")];
}

BodyId World::body_at(int index) const {
  if (index < 0 || index >= impl_->body_count())
    throw Error("body_at: index " + std::to_string(index) + " out of range");
  return BodyId{static_cast<std::uint32_t>(index),
                impl_->body_generation[static_cast<std::size_t>(index)]};
}

bool World::is_valid(BodyId id) const {
  const WorldImpl& w = *impl_;
  return id.index < static_cast<std::uint32_t>(w.body_count()) && w.body_alive[id.index] &&
         id.generation == w.body_generation[id.index];
}

void World::remove_body(BodyId id) {
  WorldImpl& w = *impl_;
  const int i = check_body(w, id, false, "remove_body");
  // Its joints and springs first: any joint with a bond end on it.
  for (int j = 0; j < w.joints.count(); ++j) {
    if (!w.joints.alive[static_cast<std::size_t>(j)]) continue;
    const int first = w.joints.first_bond[static_cast<std::size_t>(j)];
    const int last = first + w.joints.bond_count[static_cast<std::size_t>(j)];
    bool touches = false;
    for (int bond = first; bond < last && !touches; ++bond)
      touches = w.bonds.end_body[2 * bond] == i || w.bonds.end_body[2 * bond + 1] == i;
    if (touches) remove_joint(joint_at(j));
  }
  // A removed body is a static one that nothing touches: no motion, no
  // contacts (group and mask 0, so no pair passes the filter), no rays.
  const std::size_t k = static_cast<std::size_t>(i);
  w.bodies.is_static[k] = 1;
  w.bodies.velocity[k] = w.bodies.angular_velocity[k] = Vec3{};
  w.bodies.applied_force[k] = w.bodies.applied_torque[k] = Vec3{};
  w.bodies.linear_damping[k] = w.bodies.angular_damping[k] = 0;
  w.collision_group[k] = w.collision_mask[k] = 0;
  w.any_collision_filter = true;
  w.body_by_name.erase(w.body_names[k]);
  w.body_alive[k] = 0;
  ++w.body_generation[k];
  w.raycast_tree.invalidate();
  w.topology_dirty = true;
}

BodyId World::find_body(const std::string& name) const {
  const auto it = impl_->body_by_name.find(name);
  if (it == impl_->body_by_name.end()) throw Error("find_body: no body named '" + name + "'");
  return body_at(it->second);
}

const std::string& World::body_name(BodyId id) const {
  return impl_->body_names[check_body(*impl_, id, false, "body_name")];
}

bool World::is_static(BodyId id) const {
  return impl_->bodies.is_static[check_body(*impl_, id, false, "is_static")] != 0;
}

Real World::body_mass(BodyId id) const {
  return impl_->bodies.mass[check_body(*impl_, id, false, "body_mass")];
}

Mat3 World::body_affine_inertia(BodyId id) const {
  return impl_->bodies.affine_inertia[check_body(*impl_, id, false, "body_affine_inertia")];
}

BodyState World::body_state(BodyId id) const {
  const int i = check_body(*impl_, id, false, "body_state");
  const WorldImpl& w = *impl_;
  return BodyState{w.bodies.position[i], w.bodies.orientation[i], w.bodies.velocity[i],
                   w.bodies.angular_velocity[i]};
}

void World::set_body_state(BodyId id, const BodyState& s) {
  const int i = check_body(*impl_, id, false, "set_body_state");
  const Quat q = s.orientation;
  const Real qn = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
  if (!finite(s.position) || !finite(s.velocity) || !finite(s.angular_velocity) ||
      !std::isfinite(qn) || qn == 0)
    throw Error("set_body_state: expected finite values and a non-zero quaternion");
  WorldImpl& w = *impl_;
  w.bodies.position[i] = s.position;
  w.bodies.orientation[i] = normalized(q);
  w.bodies.affine[i] = to_matrix(w.bodies.orientation[i]);
  const bool still = w.bodies.is_static[i] != 0;
  w.bodies.velocity[i] = still ? Vec3{} : s.velocity;
  w.bodies.angular_velocity[i] = still ? Vec3{} : s.angular_velocity;
  w.state_written();  // a state set by hand is a new reference
  w.raycast_tree.invalidate();
}

namespace {

/// The index of a moving body for the push API; throws for a static body.
int check_moving_body(const WorldImpl& w, BodyId id, const char* what) {
  const int i = check_body(w, id, false, what);
  if (w.bodies.is_static[i])
    throw Error(std::string(what) + ": body '" + w.body_names[i] + "' is static");
  return i;
}

void require_finite(bool ok, const char* what, const char* which) {
  if (!ok) throw Error(std::string(what) + ": " + which + ": expected finite numbers");
}

}  // namespace

void World::apply_force(BodyId id, Vec3 force, Vec3 world_point) {
  WorldImpl& w = *impl_;
  const int i = check_moving_body(w, id, "apply_force");
  require_finite(finite(force), "apply_force", "force");
  require_finite(finite(world_point), "apply_force", "world_point");
  w.bodies.applied_force[i] += force;
  w.bodies.applied_torque[i] += cross(world_point - w.bodies.position[i], force);
  w.any_applied = true;
}

void World::apply_torque(BodyId id, Vec3 torque) {
  WorldImpl& w = *impl_;
  const int i = check_moving_body(w, id, "apply_torque");
  require_finite(finite(torque), "apply_torque", "torque");
  w.bodies.applied_torque[i] += torque;
  w.any_applied = true;
}

void World::apply_impulse(BodyId id, Vec3 impulse, Vec3 world_point) {
  WorldImpl& w = *impl_;
  const int i = check_moving_body(w, id, "apply_impulse");
  require_finite(finite(impulse), "apply_impulse", "impulse");
  require_finite(finite(world_point), "apply_impulse", "world_point");
  const BodyArrays b = w.bodies.view();
  const Vec3 spin =
      world_inverse_inertia_times(b, i, cross(world_point - w.bodies.position[i], impulse));
  w.bodies.velocity[i] += (Real(1) / w.bodies.mass[i]) * impulse;
  w.bodies.angular_velocity[i] += spin;
  w.state_written();  // energy from outside, at once: a new reference
}

void World::set_velocity(BodyId id, Vec3 velocity, Vec3 angular_velocity) {
  WorldImpl& w = *impl_;
  const int i = check_moving_body(w, id, "set_velocity");
  require_finite(finite(velocity), "set_velocity", "velocity");
  require_finite(finite(angular_velocity), "set_velocity", "angular_velocity");
  w.bodies.velocity[i] = velocity;
  w.bodies.angular_velocity[i] = angular_velocity;
  w.state_written();
}

void World::set_damping(BodyId id, Real linear, Real angular) {
  WorldImpl& w = *impl_;
  const int i = check_moving_body(w, id, "set_damping");
  if (!(std::isfinite(linear) && linear >= 0 && std::isfinite(angular) && angular >= 0))
    throw Error("set_damping: expected finite rates >= 0");
  w.bodies.linear_damping[i] = linear;
  w.bodies.angular_damping[i] = angular;
  bool any = false;
  for (int k = 0; k < w.body_count() && !any; ++k)
    any = w.bodies.linear_damping[k] != 0 || w.bodies.angular_damping[k] != 0;
  w.any_damping = any;
}

void World::set_collision_filter(BodyId id, std::uint32_t group, std::uint32_t mask) {
  WorldImpl& w = *impl_;
  const int i = check_body(w, id, false, "set_collision_filter");
  w.collision_group[i] = group;
  w.collision_mask[i] = mask;
  ++w.model_version;
  w.any_collision_filter = w.any_collision_filter || group != 1 || mask != 0xffffffffu;
}

void World::disable_collision(BodyId a, BodyId b) {
  WorldImpl& w = *impl_;
  const int i = check_body(w, a, false, "disable_collision");
  const int j = check_body(w, b, false, "disable_collision");
  if (i == j) throw Error("disable_collision: expected two different bodies");
  const std::uint64_t key = i < j ? contact_pair_key(i, j) : contact_pair_key(j, i);
  auto at = std::lower_bound(w.no_collision_pairs.begin(), w.no_collision_pairs.end(), key);
  if (at == w.no_collision_pairs.end() || *at != key) w.no_collision_pairs.insert(at, key);
}

const WorldDef& World::settings() const { return impl_->settings; }

void World::set_settings(const WorldDef& def) {
  validate_world_def(def);
  if (def.device != impl_->settings.device) {
    std::unique_ptr<DeviceBackend> next =
        def.device == Device::Cuda ? make_cuda_backend() : nullptr;
    impl_->host_contacts();  // the old device's contacts, if newer, before it goes
    impl_->device = std::move(next);
  }
  impl_->settings = def;
  impl_->threads = resolve_thread_count(def.threads);
  impl_->contacts.set_threading(def.threads, def.parallel_for);
  impl_->energy_audit.restart();  // gravity or the step may have changed
}

const StageTimings& World::last_timings() const { return impl_->timings; }
std::string World::device_name() const {
  return impl_->device ? impl_->device->name() : std::string("CPU");
}
std::size_t World::device_peak_memory() const {
  return impl_->device ? impl_->device->peak_memory() : 0;
}
std::int64_t World::step_count() const { return impl_->steps_taken; }
double World::time() const { return static_cast<double>(impl_->steps_taken) * impl_->settings.dt; }
double World::variational_energy() const { return impl_->variational_energy(); }
void World::set_iteration_observer(IterationObserver observer) {
  impl_->observer = std::move(observer);
}

std::uint64_t World::state_hash() const {
  const WorldImpl& w = *impl_;
  Fnv1a h;
  auto mix = [&h](Real x) { h.add(static_cast<double>(x)); };
  for (int i = 0; i < w.body_count(); ++i) {
    for (Vec3 v : {w.bodies.position[i], w.bodies.velocity[i], w.bodies.angular_velocity[i]}) {
      mix(v.x);
      mix(v.y);
      mix(v.z);
    }
    const Quat q = w.bodies.orientation[i];
    mix(q.w);
    mix(q.x);
    mix(q.y);
    mix(q.z);
  }
  return h.value();
}

}  // namespace pabd
