// The World's storage: model, state and scratch arrays for bodies and bonds,
// plus the joint table that groups bonds. Arrays are std::vectors owned here;
// the step hands raw-pointer views (BodyArrays, BondArrays) to the kernels.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "avbd/avbd_scratch.h"
#include "model/body_arrays.h"
#include "model/bond_arrays.h"
#include "pabd/world.h"
#include "solver/colouring.h"
#include "solver/step_context.h"

namespace pabd {

/// A hinge's or slider's axis, fixed at creation, as its limit and drive bonds
/// (src/world/joint_axes.cpp) need it.
struct JointAxis {
  bool used = false;    ///< true for hinges and sliders
  bool hinge = false;   ///< a hinge (angle) or a slider (travel)
  int body_a = -1;      ///< first end's body, -1 = world
  int body_b = -1;      ///< second end's body, -1 = world
  Vec3 axis_a;          ///< unit axis, body_a's frame (world if body_a < 0)
  Vec3 pivot_a;         ///< the anchor, body_a's frame
  Vec3 pivot_b;         ///< the anchor, body_b's frame
  Vec3 radial_a;        ///< hinge: a unit direction across the axis, body_a's frame
  Vec3 radial_b;        ///< the same direction, body_b's frame
  Real lever = 1;       ///< hinge: reference points' distance from the axis [m]
  bool hard = true;     ///< the joint is hard, so are its limits
  Real stiffness = 0;   ///< the joint's bond stiffness when soft [N/m]
  int limit_bond = -1;  ///< first limit bond (a hinge has two, a slider one), -1 = none
  int drive_bond = -1;  ///< first drive bond (as many), -1 = none
};

class WorldImpl {
 public:
  explicit WorldImpl(const WorldDef& def);

  // Settings and counters.
  WorldDef settings;
  int threads = 1;  ///< resolved thread count
  std::int64_t steps_taken = 0;
  StageTimings timings;
  IterationObserver observer;

  // Bodies: model.
  std::vector<std::string> body_names;
  std::unordered_map<std::string, int> body_by_name;
  std::vector<ShapeDef> shapes;
  std::vector<Real> friction;
  std::vector<Real> restitution;  ///< per body, in [0, 1]
  bool any_restitution = false;   ///< some body has restitution > 0 (the stage runs)
  std::vector<Real> mass;
  std::vector<Mat3> affine_inertia;
  std::vector<std::uint8_t> is_static;
  // Bodies: state.
  std::vector<Vec3> position;
  std::vector<Mat3> affine;
  std::vector<Quat> orientation;
  std::vector<Vec3> velocity;
  std::vector<Vec3> angular_velocity;
  // Bodies: step scratch.
  std::vector<Vec3> start_position;
  std::vector<Quat> start_orientation;
  std::vector<Mat3> start_affine;
  std::vector<Vec3> target_position;
  std::vector<Mat3> target_affine;
  std::vector<Vec3> iterate_position;  // acceleration: q^k
  std::vector<Quat> iterate_orientation;
  std::vector<Vec3> previous_position;  // acceleration: q^(k-1)
  std::vector<Quat> previous_orientation;
  std::vector<Real> turn_norm;  ///< per body (BodyArrays::turn_norm)
  std::vector<int> end_begin;
  std::vector<int> end_index;

  // Bonds: model.
  std::vector<BondKind> bond_kind;
  std::vector<int> end_body;
  std::vector<Vec3> end_local;
  std::vector<Real> bond_stiffness;
  std::vector<Real> bond_rest_length;
  std::vector<Vec3> bond_axis;  ///< line bonds: direction in end a's body frame
  std::vector<std::uint8_t> bond_hard;
  std::vector<AxisBondModel> bond_axis_model;  ///< limit and drive bonds' settings
  std::vector<AxisBondState> bond_axis_state;  ///< limit and drive bonds' per-step state
  // Bonds: augmented-Lagrangian state and per-iteration output.
  /// Per bond: the mass it holds to the world along the joint graph
  /// (bonds/joint_load.h), rebuilt with the topology by find_mass_behind_joints.
  std::vector<Real> bond_mass_behind;
  /// Some hard point bond holds more than its own bodies (joint_carries_load).
  bool any_loaded_joint = false;
  std::vector<Real> bond_penalty;
  std::vector<Vec3> bond_lambda;
  std::vector<Real> end_weight;
  std::vector<Vec3> end_pull;

  // Joints: each joint owns bonds [joint_first_bond, +joint_bond_count).
  std::vector<int> joint_first_bond;
  std::vector<int> joint_bond_count;
  std::vector<JointKind> joint_kind;
  std::vector<std::uint32_t> joint_generation;  ///< bumped when a joint is removed
  std::vector<std::uint8_t> joint_alive;
  std::vector<JointAxis> joint_axis;  ///< hinges and sliders: axis, limit and drive bonds

  /// True when bodies or bonds were added since the adjacency was built.
  bool topology_dirty = true;

  int body_count() const { return static_cast<int>(mass.size()); }
  int bond_count() const { return static_cast<int>(bond_kind.size()); }

  /// Rebuilds the body-to-bond-end adjacency and sizes all scratch arrays.
  void build_topology();
  /// Fills bond_mass_behind from the masses and the hard bonds (world_joint_loads.cpp).
  void find_mass_behind_joints();
  /// Raw-pointer views for the kernels.
  BodyArrays body_arrays();
  BondArrays bond_arrays();
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
  /// This step's contacts and the previous step's (warm start); detection scratch.
  ContactDetector contacts;
  /// Scratch the stages size themselves (the restitution stage's).
  StepBuffers buffers;
  /// IterationOrder::Colored with contacts: bodies coloured over bonds and contacts, every step.
  Colouring contact_colouring;
  /// The contact detector's input: these bodies' shapes and state (world_contacts.cpp).
  ContactDetectInput contact_input();
  /// Finds contacts at the current state, or clears them when
  /// settings.collisions is false.
  void detect_contacts();
  /// The AVBD baseline has no contacts: with settings.collisions, throws
  /// pabd::Error naming the first pair of bodies within the contact margin;
  /// returns the milliseconds the check took.
  double reject_contacts_for_avbd();
};

}  // namespace pabd
