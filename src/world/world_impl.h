// The World's storage: model, state and scratch arrays for bodies and bonds,
// plus the joint table that groups bonds. Arrays are std::vectors owned here;
// the step hands raw-pointer views (BodyArrays, BondArrays) to the kernels.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "avbd/avbd_scratch.h"
#include "device/device_backend.h"
#include "model/body_storage.h"
#include "model/bond_storage.h"
#include "pabd/world.h"
#include "solver/colouring.h"
#include "solver/step_context.h"
#include "world/energy_audit.h"
#include "world/field_state.h"
#include "world/joint_table.h"
#include "world/raycast_tree.h"

namespace pabd {

class WorldImpl {
 public:
  explicit WorldImpl(const WorldDef& def);

  // Settings and counters.
  WorldDef settings;
  int threads = 1;  ///< resolved thread count
  std::int64_t steps_taken = 0;
  StageTimings timings;
  IterationObserver observer;
  /// Where the step runs (WorldDef::device): null = the CPU. Tests put
  /// the host stand-in here (make_emulated_backend).
  std::unique_ptr<DeviceBackend> device;

  // Bodies: names, shapes and materials here; the kernels' arrays in `bodies`.
  std::vector<std::string> body_names;
  std::vector<std::uint32_t> body_generation;  ///< per body slot, bumped by remove_body
  std::vector<std::uint8_t> body_alive;        ///< per body slot: 0 once removed
  std::unordered_map<std::string, int> body_by_name;
  std::unordered_map<std::string, int> joint_by_name;  ///< named joints (World::set_joint_name)
  std::vector<ShapeDef> shapes;
  std::vector<Real> friction;
  std::vector<Real> restitution;               ///< per body, in [0, 1]
  std::vector<std::uint32_t> collision_group;  ///< per body (BodyDef::collision_group)
  std::vector<std::uint32_t> collision_mask;   ///< per body (BodyDef::collision_mask)
  bool any_collision_filter = false;           ///< some body's filter is not the default
  /// Body pairs that never collide (World::disable_collision): contact pair
  /// keys, sorted, unique.
  std::vector<std::uint64_t> no_collision_pairs;
  bool any_restitution = false;  ///< some body has restitution > 0 (the stage runs)
  bool any_damping = false;      ///< some body has damping (the external velocity stage runs)
  bool any_applied = false;      ///< a force or torque waits for the next step
  BodyStorage bodies;            ///< mass, inertia, state and step scratch (model/body_storage.h)
  BondStorage bonds;             ///< every bond's arrays (model/bond_storage.h)
  /// Some hard point bond holds more than its own bodies (joint_carries_load).
  bool any_loaded_joint = false;

  JointTable joints;  ///< each joint's bonds, kind, handle generation, axis (joint_table.h)

  /// True when bodies or bonds were added since the adjacency was built.
  bool topology_dirty = true;
  /// Bumped by every change to the bodies' model (mass, inertia, static
  /// flag, bond-end adjacency, shape, friction, restitution, collision
  /// filter): a device uploads those arrays only after a change
  /// (StepContext::model_version).
  std::uint64_t model_version = 0;
  /// Bumped with the model version and by every change to the joints'
  /// limits and drives (the bonds' `hard` and axis model: set_joint_drive):
  /// a device uploads those arrays only after a change
  /// (StepContext::joint_settings_version).
  std::uint64_t joint_settings_version = 0;
  /// Bumped by every write of the host to the bodies' or bonds' state
  /// (poses, velocities, the bonds' anchors and multipliers) outside a
  /// device's pass: state_written (set_body_state, impulses, velocities, a
  /// moved world anchor), a new drive mode, the external velocity stage,
  /// model_changed (a body added or removed, a bond, a snapshot). A device
  /// keeps the state from its last step while it holds
  /// (ArrayMirror::Copy::Kept, StepContext::state_version).
  std::uint64_t state_version = 0;
  /// The divergence guard's reference and drive work (energy_audit.h);
  /// restarted by every edit that brings energy from outside.
  EnergyAudit energy_audit;

  int body_count() const { return bodies.count(); }
  int bond_count() const { return bonds.count(); }

  /// Rebuilds the body-to-bond-end adjacency and sizes all scratch arrays.
  void build_topology();
  /// The model changed (new arrays, bodies or bonds): a device uploads the
  /// model, the joints' settings and the state again.
  void model_changed() {
    ++model_version;
    ++joint_settings_version;
    ++state_version;
  }
  /// The host wrote the state between steps (a pose, a velocity, a world
  /// anchor): a device uploads it again, and the divergence guard starts
  /// from a new reference (energy from outside).
  void state_written() {
    ++state_version;
    energy_audit.restart();
  }
  /// Fills bond_mass_behind from the masses and the hard bonds (world_joint_loads.cpp).
  void find_mass_behind_joints();
  HardBondSettings hard_settings() const;

  /// Appends one bond between material points (body < 0: world point).
  int add_bond(BondKind kind, int body_a, Vec3 local_a, int body_b, Vec3 local_b, Real stiffness,
               Real rest_length, bool hard, Vec3 axis = Vec3{});
  /// Material point of body `body` at world point p (p itself for the world).
  Vec3 to_local(int body, Vec3 p) const;

  /// Runs one step (world/world_step.cpp): the PABD stage list
  /// (solver/step.h) or the AVBD baseline's (avbd/avbd_step.h) over a
  /// StepContext filled from these arrays.
  StepResult step();
  /// The context the stage lists run on: views of these arrays, the settings.
  StepContext step_context();
  /// Bodies coloured over the bonds, rebuilt when the bond topology changes.
  Colouring colouring;
  /// The AVBD baseline's own per-bond and per-body state (src/avbd/avbd_scratch.h).
  AvbdScratch avbd;
  /// Variational energy at the current iterate (src/solver/step.cpp).
  double variational_energy();

  // Contacts (src/world/world_contacts.cpp).
  /// This step's contacts and the previous step's (warm start); detection
  /// scratch. With a device, the host's copy of the device's: read it
  /// through host_contacts().
  ContactDetector contacts;
  /// The contacts for a host reader: the device's brought over first when
  /// they are newer (device/contact_handover.h). A reader that writes
  /// through arrays() calls contacts.mark_changed() after.
  ContactDetector& host_contacts();
  /// The last detection's contact count, wherever its contacts are.
  int contact_count();
  /// Scratch the stages size themselves (the restitution stage's).
  StepBuffers buffers;
  /// IterationOrder::Colored with contacts: bodies coloured over bonds and contacts, every step.
  Colouring contact_colouring;
  /// The last step's contact pairs in host memory (the divergence guard
  /// reads them after the step); valid until the next step.
  ContactGraph contact_graph;
  /// The contact detector's input: these bodies' shapes and state (world_contacts.cpp).
  ContactDetectInput contact_input();
  /// Finds contacts at the current state, or clears them when
  /// settings.collisions is false.
  void detect_contacts();
  /// The AVBD baseline has no contacts: with settings.collisions, throws
  /// pabd::Error naming the first pair of bodies within the contact margin;
  /// returns the milliseconds the check took.
  double reject_contacts_for_avbd();

  // Fields beside the bodies (world_fields.cpp, world_cloth.cpp).
  FieldState fields;
  /// Before the step: the water's and the wind's forces on the bodies.
  void fields_before_step();
  /// After the step: the sand pressed and slid, the wake raised and moved on.
  void fields_after_step();
  /// The wind's push on every cloth triangle, shared by its vertices.
  void apply_wind_forces();

  /// World::raycast's BVH over the current boxes, built by the first raycast
  /// after a change (world_raycast.cpp); invalidated by whatever moves or adds bodies.
  RaycastTree raycast_tree;
};

/// The storage behind a World, for the engine's own tests and tools.
WorldImpl& world_impl(World& world);

}  // namespace pabd
