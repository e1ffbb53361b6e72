// The public C++ API: create a world from a definition, add bodies and bonds
// from definitions, step it, read and set state through value handles.
//
//   pabd::World world(pabd::default_world_def());
//   pabd::BodyDef box = pabd::default_body_def();
//   box.shape = pabd::box_shape({1, 1, 1});
//   pabd::BodyId id = world.add_body(box);
//   world.step();
//   pabd::BodyState s = world.body_state(id);
//
// Errors in API use (an unknown handle, a zero mass, a non-finite value) throw
// pabd::Error with a one-line message; a state that becomes non-finite during
// a step is reported through StepResult, never silently.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "pabd/fields.h"
#include "pabd/math.h"

namespace pabd {

/// Error thrown for invalid API input; what() is a one-line message.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Handle of a body: index into the world's arrays plus a generation stamp.
struct BodyId {
  std::uint32_t index = 0xffffffffu;  ///< slot index; 0xffffffff = the fixed world frame
  std::uint32_t generation = 0;       ///< must match the world's slot stamp
  /// True for the handle that stands for the fixed world frame (bond ends only).
  bool is_world() const { return index == 0xffffffffu; }
};

/// Handle of the fixed world frame, usable as a bond end.
inline BodyId world_frame() { return BodyId{}; }

/// Handle of a joint or spring (a group of bonds).
struct JointId {
  std::uint32_t index = 0xffffffffu;  ///< slot index
  std::uint32_t generation = 0;       ///< must match the world's slot stamp
};

/// Shapes a body can carry (docs/collision.md, "Shapes").
enum class ShapeType {
  Plane,        ///< half-space n . x <= offset (static bodies only)
  Box,          ///< box of full edge lengths `size`
  Sphere,       ///< ball of `radius`
  Capsule,      ///< segment along local Y grown by `radius`
  ConvexHull,   ///< convex hull of a point list (convex_hull_shape)
  Compound,     ///< convex children at fixed poses (compound_shape)
  HeightField,  ///< grid of heights along local Y (static bodies only; height_field_shape)
  TriangleMesh  ///< triangle soup (static bodies only; triangle_mesh_shape)
};

/// A shape type's name, as scene files write it: "plane", "box", "sphere",
/// "capsule", "convex_hull", "compound", "heightfield", "triangle_mesh".
const char* shape_type_name(ShapeType type);

/// Built geometry of the shapes that need more than a few numbers (convex hull,
/// compound, height field, triangle mesh); defined in src/shapes/shape_data.h.
struct ShapeData;

/// Geometry of a body, in its own frame (origin at the centre of mass).
struct ShapeDef {
  ShapeType type = ShapeType::Box;  ///< which shape
  Vec3 size{1, 1, 1};               ///< box: full edge lengths [m]
  Real radius = 0.5;                ///< sphere, capsule: radius [m]
  Real half_height = 0.5;           ///< capsule: half length of the core segment along local Y [m]
  Vec3 normal{0, 1, 0};             ///< plane: unit normal (static bodies only)
  Real offset = 0;                  ///< plane: n . x = offset [m]
  /// Convex hull, compound, height field, triangle mesh: the built geometry, set
  /// by the builder functions below (immutable; copies of the ShapeDef share it).
  std::shared_ptr<const ShapeData> data;
  /// data.get() as a plain pointer, set by the same builders: what the collision
  /// kernels read (a device copy of the shapes would point it at device memory).
  const ShapeData* geometry = nullptr;
};

/// Box with full edge lengths `size` [m].
ShapeDef box_shape(Vec3 size);
/// Sphere of radius r [m].
ShapeDef sphere_shape(Real radius);
/// Capsule of radius r [m] around a segment of half length hh [m] along local Y.
ShapeDef capsule_shape(Real radius, Real half_height);
/// Plane n . x = offset (n need not be unit; add_body normalises n and offset).
ShapeDef plane_shape(Vec3 normal, Real offset);
/// Convex hull of `points` [m] (at least 4 not on one plane, all finite), built with
/// qhull. The hull is shifted so that its centre of mass (uniform density) is the
/// body origin (see shape_origin_shift). Throws Error.
ShapeDef convex_hull_shape(const std::vector<Vec3>& points);
/// Where the origin of the points given to convex_hull_shape (or the frame of a
/// compound's children) lies in the shape's frame, whose origin is the centre of
/// mass [m]; zero for the other shapes.
Vec3 shape_origin_shift(const ShapeDef& shape);

/// One child of a compound shape.
struct CompoundChild {
  ShapeDef shape;                ///< box, sphere, capsule or convex hull
  Vec3 position{0, 0, 0};        ///< the child's frame origin in the compound's frame [m]
  Quat orientation{1, 0, 0, 0};  ///< compound-from-child rotation
};
/// Rigid union of convex children (at least one; uniform density, children should
/// not overlap or the overlap counts twice). Shifted so that the centre of mass is
/// the body origin (shape_origin_shift). Throws Error.
ShapeDef compound_shape(const std::vector<CompoundChild>& children);
/// Compound whose children stay where they are given: the children's frame is
/// the body frame, not moved to the children's uniform-density centre of mass.
/// For bodies whose mass and inertia come from elsewhere (a robot link's
/// inertial): a body carrying it needs BodyDef::mass and BodyDef::inertia, with
/// the centre of mass at the frame's origin. Throws Error as compound_shape.
ShapeDef compound_shape_in_frame(const std::vector<CompoundChild>& children);

/// Height field (static bodies only): `columns` x `rows` grid vertices (each >= 2),
/// vertex (c, r) at local x = (c - (columns - 1) / 2) spacing_x, z = (r - (rows - 1) / 2)
/// spacing_z, y = heights[r * columns + c] [m]; solid below. Throws Error.
ShapeDef height_field_shape(int columns, int rows, Real spacing_x, Real spacing_z,
                            const std::vector<Real>& heights);

/// Static triangle mesh: vertices [m] and three vertex indices per triangle,
/// counter-clockwise seen from the front (contacts push toward the front).
/// Throws Error on out-of-range indices, non-finite vertices or no triangles.
ShapeDef triangle_mesh_shape(const std::vector<Vec3>& vertices, const std::vector<int>& indices);
/// Static triangle mesh read from a Wavefront OBJ file (tinyobjloader; faces are
/// triangulated). Throws Error if the file cannot be read or holds no triangles.
ShapeDef triangle_mesh_from_obj(const std::string& path);

/// Everything needed to create a body. Fill with default_body_def().
struct BodyDef {
  std::string name;                ///< unique name; empty = its index as a string
  ShapeDef shape;                  ///< geometry, also the source of mass properties
  Vec3 position{0, 0, 0};          ///< centre of mass, world frame [m]
  Quat orientation{1, 0, 0, 0};    ///< world-from-body rotation
  Vec3 velocity{0, 0, 0};          ///< linear velocity [m/s]
  Vec3 angular_velocity{0, 0, 0};  ///< angular velocity, world frame [rad/s]
  Real mass = 0;                   ///< [kg]; 0 means "from density"
  /// Inertia tensor about the centre of mass, body frame [kg m^2]; all zero
  /// means "from the shape" (scaled to `mass`). When given, `mass` must be too,
  /// and the tensor must be symmetric with principal moments > 0 that obey the
  /// triangle inequality (a + b >= c), as a real mass distribution's do.
  Mat3 inertia;
  Real density = 1000;  ///< [kg/m^3], used when mass == 0
  Real friction = 0.5;  ///< Coulomb coefficient (used by contacts)
  /// Coefficient of restitution in [0, 1] (a contact uses the larger of its
  /// bodies'); 0 = inelastic contacts. See docs/collision.md#restitution.
  Real restitution = 0;
  /// Velocity damping rates [1/s], >= 0: each step solves dv/dt = ... - c v
  /// implicitly, so a free fall tends to |g| / linear_damping and a free spin
  /// decays by 1 / (1 + h angular_damping) a step. 0 = none.
  Real linear_damping = 0;
  Real angular_damping = 0;
  /// Collision filtering: bodies a and b may touch only when
  /// (group_a & mask_b) != 0 and (group_b & mask_a) != 0. The defaults (group
  /// bit 0, every bit in the mask) let every pair touch.
  std::uint32_t collision_group = 1;
  std::uint32_t collision_mask = 0xffffffffu;
  bool is_static = false;  ///< a static body never moves
};

/// A body definition with every field at its documented default.
BodyDef default_body_def();

/// Custom parallel-for: call body(begin, end) over [0, count) split as you wish.
/// Each index must be visited exactly once; the chunks may run concurrently.
using ParallelFor = std::function<void(int count, const std::function<void(int, int)>& body)>;

/// Solver choices.
enum class PredictionMode {
  Exact,      ///< exponential map for prediction, logarithm for angular velocity (default)
  FirstOrder  ///< the paper's Algorithm 1: Q + h/2 [w,0] Q, and W = dA A^-1 / h
};

/// How the global and local steps meet (see docs/architecture.md).
enum class LocalStep {
  Rigid,  ///< minimise the global step's quadratic model over rigid poses exactly (default)
  Paper   ///< the paper: full 12x12 affine solve, then the rotation closest to A
};

/// Which solver advances the world (docs/avbd.md).
enum class SolverKind {
  Pabd,  ///< Projective Affine Body Dynamics: Jacobi global/local iterations (default)
  Avbd   ///< baseline: Augmented Vertex Block Descent (Giles et al. 2025), Gauss-Seidel
};

/// Order in which PABD's iterations update the bodies (docs/method.md).
enum class IterationOrder {
  Jacobi,  ///< every body from iterate k at once (the paper)
  Colored  ///< Gauss-Seidel over a body colouring: each colour sees the colours before it (default)
};

/// Where PABD's iterations run (docs/gpu.md).
enum class Device {
  Cpu,  ///< the CPU's threads (default)
  /// The first CUDA device: the predict, warm start and iteration loops run
  /// there on copies of the arrays. Needs a pabd built with PABD_CUDA and a
  /// CUDA device; World's constructor throws Error otherwise.
  Cuda
};

/// How the AVBD baseline keeps hard joints' drift out of the velocities (docs/avbd.md).
enum class AvbdStabilization {
  Post,   ///< keep old error in the solve, remove it after the velocities (AVBD demo; default)
  Alpha,  ///< solve C(x) - alpha C(x^n): each step removes (1 - alpha) of the old error (paper)
  Off     ///< solve C(x) = 0: old error becomes velocity (the baseline before stabilization)
};

/// World settings. Fill with default_world_def().
/// The largest WorldDef::relaxation: from 1.6 up a box resting on the ground
/// blows up within 60 steps (docs/method.md, "The divergence guard").
inline constexpr Real kMaxRelaxation = 1.5;

struct WorldDef {
  Real dt = 1.0 / 60.0;                               ///< time step h [s]
  int iterations = 20;                                ///< global/local iterations per step
  Vec3 gravity{0, -9.81, 0};                          ///< [m/s^2]
  int threads = 0;                                    ///< OpenMP threads; 0 = OpenMP's default
  Device device = Device::Cpu;                        ///< where the iterations run (solver pabd)
  PredictionMode prediction = PredictionMode::Exact;  ///< rotation prediction/recovery
  LocalStep local_step = LocalStep::Rigid;            ///< global/local coupling
  SolverKind solver = SolverKind::Pabd;               ///< PABD, or the AVBD baseline
  IterationOrder iteration_order =
      IterationOrder::Colored;  ///< PABD: colored (default) or Jacobi sweeps
  Real chebyshev_rho =
      0.95;  ///< PABD: Chebyshev acceleration's spectral radius estimate in [0, 1); 0 = off
  /// PABD: iterate relaxation gamma in (0, kMaxRelaxation]; 1 = none.
  Real relaxation = 1;
  /// PABD, colored sweeps: a scene with contacts, no joints or springs and at
  /// least this many bodies is swept by blocks of neighbouring bodies instead
  /// of by body colours, which keeps its contacts in the cache between their
  /// two evaluations (docs/method.md, "Block order"); >= 1. Both are
  /// Gauss-Seidel orders with the same thread-count independence; a very large
  /// value keeps every scene on the body colouring (to compare with it, or with
  /// a device that colours).
  int block_order_min_bodies = 4096;
  /// Largest turn of a body in one step [rad], in (0, pi]; pi = no cap. A
  /// step's rotation comes from a projection onto the rotations, which jumps
  /// when a body is squeezed hard; capped, a body cannot flip (and spin past
  /// its contacts) in one step. pi/4 is Box2D's cap (47 rad/s at 60 Hz).
  Real max_rotation_per_step = Real(0.25) * Real(3.141592653589793);
  /// Fail a step (StepFailure::EnergyGrowth) when the solver has created more
  /// energy than the scene can supply (docs/method.md, "The divergence
  /// guard"). Off only to study a divergence step by step.
  bool divergence_guard = true;
  bool augmented_lagrangian = true;    ///< false: hard joints are plain penalties of kappa_start
  Real hard_stiffness_start = 1e4;     ///< AL: start penalty kappa_start [N/m]
  Real hard_stiffness_growth = 1e4;    ///< AL: beta, kappa += beta |C| per iteration [N/m^2]
  Real hard_lambda_decay = 0.99;       ///< AL: alpha, warm-start factor for lambda
  Real hard_stiffness_decay = 0.999;   ///< AL: gamma, warm-start factor for kappa and lambda
  Real hard_stiffness_max = 1e12;      ///< AL: cap on kappa [N/m] (keeps H well conditioned)
  Real hard_stiffness_mass_ratio = 1;  ///< AL: point bonds start at >= this times m_eff / h^2 [-]
  /// Detect contacts between shapes (bodies joined by a joint or spring never collide).
  bool collisions = true;
  /// Contacts are made where shapes come within this distance plus their motion over the step [m].
  Real contact_margin = 0.01;
  /// AVBD: how hard joints' start-of-step error is kept out of the velocities.
  AvbdStabilization avbd_stabilization = AvbdStabilization::Post;
  ParallelFor parallel_for;  ///< optional user task system; empty = OpenMP
};

/// A world definition with every field at its documented default.
WorldDef default_world_def();

/// Two bodies pulled together by a linear spring between two points.
struct SpringDef {
  BodyId body_a = world_frame();  ///< first end's body, or world_frame()
  BodyId body_b = world_frame();  ///< second end's body, or world_frame()
  Vec3 anchor_a{0, 0, 0};         ///< first end, world frame at the current pose [m]
  Vec3 anchor_b{0, 0, 0};         ///< second end, world frame at the current pose [m]
  Real rest_length = 0;           ///< [m], >= 0
  Real stiffness = 1000;          ///< [N/m], > 0
};

/// Ball-and-socket joint: one point of each body kept coincident.
struct SphericalJointDef {
  BodyId body_a = world_frame();  ///< first body, or world_frame()
  BodyId body_b = world_frame();  ///< second body, or world_frame()
  Vec3 anchor{0, 0, 0};           ///< joint point, world frame at the current pose [m]
  Real stiffness = 0;             ///< [N/m]; 0 = hard constraint (augmented Lagrangian)
};

/// Kinds of joint a JointId can name.
enum class JointKind { Spring, Spherical, Hinge, Fixed, Slider, Distance };

/// A joint as seen from outside, at the current state (for drawing and tools).
struct JointInfo {
  JointKind kind = JointKind::Spherical;  ///< which joint
  BodyId body_a;                          ///< first body (or the world frame)
  BodyId body_b;                          ///< second body (or the world frame)
  Vec3 world_a;                           ///< first end's point, world frame, now [m]
  Vec3 world_b;                           ///< second end's point, world frame, now [m]
  bool hard = false;                      ///< true for a hard (augmented-Lagrangian) joint
  /// Hinge: angle of body_b about +axis relative to body_a [rad], 0 at creation; counted
  /// across whole turns when the hinge has limits or a drive, else in (-pi, pi].
  /// Slider: travel of body_b along +axis relative to body_a [m], 0 at creation.
  /// Other joints: 0.
  Real coordinate = 0;
  /// Hinge: the drive's torque on body_b about +axis [N m]; slider: its force on body_b
  /// along +axis [N] (body_a takes the opposite), in the last step; 0 without a drive.
  Real drive_force = 0;
  /// The limits' torque [N m] or force [N] on body_b, as drive_force; 0 without limits.
  Real limit_force = 0;
};

/// Range of a hinge's angle or a slider's travel, kept by one-sided bonds that
/// are hard when the joint is (docs/joints/limits.md).
struct JointLimits {
  bool enabled = false;  ///< false: no limits
  Real lower = 0;  ///< lowest angle [rad] (hinge) or travel [m] (slider); 0 = pose at creation
  Real upper = 0;  ///< highest angle [rad] or travel [m]; >= lower
};

/// What a hinge or slider drive does (docs/joints/drives.md).
enum class DriveMode {
  Off,       ///< no drive
  Velocity,  ///< a motor: the joint turns (moves) at `target`, torque (force) within max_force
  Position   ///< a spring and damper toward target + amplitude sin(2 pi frequency t + phase)
};

/// A hinge or slider drive. Hinge: angles [rad], torques [N m]; slider: travel
/// [m], forces [N]. Set at creation (HingeJointDef::drive) or between steps
/// (World::set_joint_drive).
struct JointDrive {
  DriveMode mode = DriveMode::Off;  ///< what the drive does
  /// Velocity: target speed [rad/s] or [m/s]. Position: target angle [rad] or travel [m],
  /// the offset of a periodic target.
  Real target = 0;
  /// Bound on the drive's |torque| [N m] or |force| [N]; > 0; infinity = unbounded.
  Real max_force = std::numeric_limits<Real>::infinity();
  Real stiffness = 0;  ///< Position: [N m/rad] or [N/m]; > 0
  Real damping = 0;    ///< Position: on the speed error, [N m s/rad] or [N s/m]; >= 0
  Real amplitude = 0;  ///< Position: amplitude of the periodic part [rad] or [m]; 0 = constant
  Real frequency = 0;  ///< Position: frequency of the periodic part [Hz]; >= 0
  Real phase = 0;      ///< Position: phase of the periodic part at time 0 [rad]
};

/// Hinge (revolute joint): the bodies keep a common axis through `anchor` and
/// turn freely about it. Built from two point bonds on the axis.
struct HingeJointDef {
  BodyId body_a = world_frame();  ///< first body, or world_frame()
  BodyId body_b = world_frame();  ///< second body, or world_frame()
  Vec3 anchor{0, 0, 0};           ///< a point on the axis, world frame at the current pose [m]
  Vec3 axis{0, 0, 1};             ///< axis direction, world frame (normalised; not zero)
  Real stiffness = 0;             ///< [N/m] per point bond; 0 = hard constraint
  JointLimits limits;             ///< angle range about +axis [rad], 0 = the pose at creation
  JointDrive drive;               ///< motor or position drive about +axis
};

/// Fixed (weld) joint: the bodies keep their relative pose. Built from three
/// non-collinear point bonds around `anchor`.
struct FixedJointDef {
  BodyId body_a = world_frame();  ///< first body, or world_frame()
  BodyId body_b = world_frame();  ///< second body, or world_frame()
  Vec3 anchor{0, 0, 0};           ///< weld point, world frame at the current pose [m]
  Real stiffness = 0;             ///< [N/m] per point bond; 0 = hard constraint
};

/// Slider (prismatic joint): the bodies keep their relative orientation and
/// body_b slides along `axis` (turning with body_a). Built from three
/// point-on-line bonds.
struct SliderJointDef {
  BodyId body_a = world_frame();  ///< body carrying the rail, or world_frame()
  BodyId body_b = world_frame();  ///< sliding body, or world_frame()
  Vec3 anchor{0, 0, 0};           ///< a point on the rail, world frame at the current pose [m]
  Vec3 axis{1, 0, 0};             ///< direction of free translation (normalised; not zero)
  Real stiffness = 0;             ///< [N/m] per bond; 0 = hard constraint
  JointLimits limits;             ///< travel range along +axis [m], 0 = the pose at creation
  JointDrive drive;               ///< motor or position drive along +axis
};

/// Distance joint (rigid rod): two points stay a fixed distance apart; all
/// rotations are free.
struct DistanceJointDef {
  BodyId body_a = world_frame();  ///< first body, or world_frame()
  BodyId body_b = world_frame();  ///< second body, or world_frame()
  Vec3 anchor_a{0, 0, 0};         ///< first end, world frame at the current pose [m]
  Vec3 anchor_b{0, 0, 0};         ///< second end, world frame at the current pose [m]
  Real length = 0;                ///< [m]; 0 = the anchors' current distance
  Real stiffness = 0;             ///< [N/m]; 0 = hard, > 0 = a spring of that rest length
};

/// Any joint's definition, by kind: what World::add_joint takes and a scene's
/// joints hold (pabd/scene.h).
using JointDef = std::variant<SpringDef, SphericalJointDef, HingeJointDef, FixedJointDef,
                              SliderJointDef, DistanceJointDef>;

/// The kind of joint a definition makes.
JointKind joint_kind(const JointDef& def);

/// A joint kind's name, as scene files write it: "spring", "spherical",
/// "hinge", "fixed", "slider", "distance" (the one place these names live).
const char* joint_kind_name(JointKind kind);

/// State of one body.
struct BodyState {
  Vec3 position;          ///< centre of mass [m]
  Quat orientation;       ///< world-from-body rotation
  Vec3 velocity;          ///< [m/s]
  Vec3 angular_velocity;  ///< world frame [rad/s]
};

/// Wall-clock milliseconds spent in each named stage of the last step.
struct StageTimings {
  double detect_ms = 0;  ///< collision detection: broadphase, narrowphase, contact arrays
  /// Parts of detect_ms: the swept boxes and the tree's candidate pairs.
  double broadphase_ms = 0;
  /// Parts of detect_ms: every candidate pair's manifold.
  double narrowphase_ms = 0;
  /// Parts of detect_ms: the contact arrays, warm starts and per-body adjacency.
  double contact_setup_ms = 0;
  /// Parts of detect_ms: the load-aware normal penalties (contacts/contact_load.h).
  double contact_load_ms = 0;
  double predict_ms = 0;  ///< inertial prediction
  /// Per-bond weights and targets, all iterations; with Jacobi sweeps the
  /// contact pairs' too.
  double bonds_ms = 0;
  /// Per-body global solve and local projection, all iterations; with
  /// colored sweeps it includes each body's evaluation of its contact pairs.
  double solve_ms = 0;
  double dual_ms = 0;        ///< augmented-Lagrangian updates, all iterations
  double velocities_ms = 0;  ///< velocity recovery and restitution
  double total_ms = 0;       ///< the whole step, the fields' part aside
  /// WorldDef::device other than the CPU: the copies between host and device
  /// memory (part of total_ms).
  double transfer_ms = 0;
  /// The step's copies' volume, those of the World's readers around the
  /// stages included (the fields', the divergence guard's): host to device
  /// and device to host [MB, 1e6 bytes].
  double uploaded_mb = 0;
  double downloaded_mb = 0;
  /// Their number, both ways: each waits for the device.
  double copies = 0;
  /// The fields' coupling (pabd/fields.h): water and wind forces before the
  /// step, the sand and the wake after it. Not in total_ms: the paper's
  /// Table 2 leaves the coupling out of its times too.
  double fields_ms = 0;
};

/// One contact point of the last step, as seen from outside (tests, tools).
struct ContactInfo {
  BodyId body_a;          ///< first body (the plane for a body-plane contact)
  BodyId body_b;          ///< second body
  Vec3 point_a;           ///< contact point on body_a's surface, world frame, now [m]
  Vec3 point_b;           ///< contact point on body_b's surface, world frame, now [m]
  Vec3 normal;            ///< unit normal from body_a toward body_b, world frame
  Real separation = 0;    ///< gap along the normal at detection [m]; < 0 = penetration
  Real gap = 0;           ///< gap along the normal now, normal . (point_b - point_a) [m]
  Real normal_force = 0;  ///< push on body_b along the normal (body_a gets the opposite) [N]
  Vec3 friction_force;    ///< tangential force on body_b (body_a gets the opposite) [N]
  bool sticking = false;  ///< static friction held (the anchors persist to the next step)
};

/// What a ray hit (World::raycast).
struct RayHit {
  BodyId body;        ///< the body hit
  Vec3 point;         ///< where: on its surface, world frame [m]; the origin for a ray from inside
  Vec3 normal;        ///< unit outward surface normal there, world frame; -direction from inside
  Real distance = 0;  ///< from the origin to the point [m]
};

/// Why a step failed (StepResult::failure).
enum class StepFailure {
  None,       ///< the step succeeded
  NonFinite,  ///< some body's state became non-finite (NaN or infinity)
  /// The solver created more energy than the scene can supply: the kinetic
  /// plus gravitational energy grew past the bound of docs/method.md
  /// ("The divergence guard"). The state is finite but not physical.
  EnergyGrowth,
  /// A body moves faster than anything in the scene can make it (the speed
  /// bound of docs/method.md, "The divergence guard"); the state is finite.
  SpeedGrowth,
  /// A body spins so fast that its rim (the spin times half its size) moves
  /// beyond the same bound; the state is finite.
  SpinGrowth,
};

/// Outcome of one step.
struct StepResult {
  bool ok = true;         ///< false when the step failed (failure says why)
  std::int64_t step = 0;  ///< 1-based index of the step just taken
  /// NonFinite: the first non-finite body; EnergyGrowth: the body with the most
  /// kinetic energy; -1 otherwise.
  int bad_body = -1;
  StepFailure failure = StepFailure::None;
  /// EnergyGrowth: the energy the solver created since the guard's reference
  /// (the first step, or the last edit of the world) [J], and the bound it
  /// passed [J]. SpeedGrowth: the body's speed [m/s] and the bound [m/s];
  /// SpinGrowth: its rim's speed [m/s] and the bound [m/s].
  double created_energy = 0;
  double energy_bound = 0;
};

/// Optional per-iteration observer, used to measure convergence: called with -1
/// once the prediction q^0 is in place, then after every iteration k (0-based).
using IterationObserver = std::function<void(int iteration)>;

class WorldImpl;

/// A simulated world. Not copyable; movable.
class World {
 public:
  /// Creates an empty world; throws Error on invalid settings.
  explicit World(const WorldDef& def = default_world_def());
  ~World();
  World(World&&) noexcept;
  World& operator=(World&&) noexcept;
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  /// Adds a body; throws Error on invalid input (non-positive size or mass, ...).
  BodyId add_body(const BodyDef& def);
  /// Removes a body: the joints and springs with an end on it are removed, it
  /// stops moving and colliding, its name is free again and its handle
  /// becomes invalid (is_valid). Its slot stays (body_count counts it, body_at
  /// returns its stale handle), so other handles and indices keep their
  /// meaning. Throws Error for an invalid handle.
  void remove_body(BodyId id);
  /// True while a body handle names a body that has not been removed.
  bool is_valid(BodyId id) const;
  /// Adds a spring; throws Error on invalid input.
  JointId add_spring(const SpringDef& def);
  /// Adds a spherical joint; throws Error on invalid input.
  JointId add_spherical_joint(const SphericalJointDef& def);
  /// Adds a hinge joint; throws Error on invalid input.
  JointId add_hinge_joint(const HingeJointDef& def);
  /// Adds a fixed joint; throws Error on invalid input.
  JointId add_fixed_joint(const FixedJointDef& def);
  /// Adds a slider joint; throws Error on invalid input.
  JointId add_slider_joint(const SliderJointDef& def);
  /// Adds a distance joint; throws Error on invalid input.
  JointId add_distance_joint(const DistanceJointDef& def);
  /// Adds a joint of any kind (the add_* function of its definition's kind).
  JointId add_joint(const JointDef& def);

  /// Moves the world end of a joint whose body_a or body_b is world_frame() (a
  /// mouse spring, a moving anchor); throws Error if it has no world end.
  void set_world_anchor(JointId id, Vec3 anchor);
  /// Removes a joint: it stops acting and its handle becomes invalid.
  void remove_joint(JointId id);
  /// Replaces the drive of a hinge or slider joint; acts from the next step. Throws
  /// Error for another joint kind, a removed joint or invalid drive values.
  void set_joint_drive(JointId id, const JointDrive& drive);
  /// Names a joint (unique among joints; "" = unnamed). Robot models name
  /// their joints as their files do. Throws Error for a name already used.
  void set_joint_name(JointId id, const std::string& name);
  /// A joint's name ("" if unnamed).
  const std::string& joint_name(JointId id) const;
  /// Handle of the joint with this name; throws Error if there is none.
  JointId find_joint(const std::string& name) const;
  /// The effort input of a hinge [N m] or slider [N]: from the next step on, and
  /// until changed, a torque about (force along) +axis on body_b, and the
  /// opposite on body_a; an actuator's command (an MJCF motor: gear x ctrl).
  /// Counted by the divergence guard as applied work. Throws Error for another
  /// joint kind or a non-finite effort.
  void set_joint_effort(JointId id, Real effort);
  /// The effort input last set (0 at creation).
  Real joint_effort(JointId id) const;

  /// Advances the world by one time step.
  StepResult step();

  /// Number of bodies (static ones included).
  int body_count() const;
  /// Number of joint slots, removed joints included (see is_valid).
  int joint_count() const;
  /// Handle of the joint in a slot (0..joint_count()-1), valid or not.
  JointId joint_at(int index) const;
  /// True while a joint handle names a joint that has not been removed.
  bool is_valid(JointId id) const;
  /// Kind, bodies and current world-space end points of a joint; for hinges and
  /// sliders also the angle or travel and the drive's and limits' torque or force.
  JointInfo joint_info(JointId id) const;
  /// Handle of the body at a slot index (0..body_count()-1).
  BodyId body_at(int index) const;
  /// Handle of the body with this name; throws Error if there is none.
  BodyId find_body(const std::string& name) const;
  /// Name of a body.
  const std::string& body_name(BodyId id) const;
  /// Shape of a body (plane normals normalised).
  const ShapeDef& body_shape(BodyId id) const;
  /// True for a static body.
  bool is_static(BodyId id) const;
  /// Mass of a body [kg] (0 for static bodies).
  Real body_mass(BodyId id) const;
  /// Affine inertia Pi = integral of rho x x^T over the body [kg m^2].
  Mat3 body_affine_inertia(BodyId id) const;

  /// Current state of a body.
  BodyState body_state(BodyId id) const;
  /// Overwrites a body's state (orientation is normalised); throws on non-finite input.
  void set_body_state(BodyId id, const BodyState& state);

  /// Pushing bodies. Forces and torques act during the next step() only (they
  /// add up until then and are cleared after it); impulses and velocities
  /// change the state at once. All take world-frame vectors; each throws Error
  /// for a static body, a bad handle or a non-finite value.
  /// A force [N] at a world point: the force on the centre plus the torque
  /// (point - centre) x force.
  void apply_force(BodyId id, Vec3 force, Vec3 world_point);
  /// A torque [N m] about the centre of mass.
  void apply_torque(BodyId id, Vec3 torque);
  /// An impulse [N s] at a world point: the velocity changes by impulse / m and
  /// the angular velocity by I^-1 ((point - centre) x impulse), now.
  void apply_impulse(BodyId id, Vec3 impulse, Vec3 world_point);
  /// Sets the linear [m/s] and angular [rad/s] velocity, keeping the pose.
  void set_velocity(BodyId id, Vec3 velocity, Vec3 angular_velocity);
  /// Sets the body's damping rates [1/s] (BodyDef::linear_damping, angular_damping).
  void set_damping(BodyId id, Real linear, Real angular);
  /// Exact snapshots. save_state returns everything the next step reads
  /// besides the model: poses, velocities, pending forces, the joints'
  /// multipliers and penalties, the contacts' warm starts, the step count
  /// and the divergence guard's reference. restore_state puts it back into
  /// this world or another built from the same scene (and settings), which
  /// then steps on with the same bits as a run that never stopped. It throws
  /// Error, changing nothing, for bytes that are not a snapshot, are cut
  /// short, or belong to another world. The bytes are for the same build on
  /// the same kind of machine.
  std::vector<std::uint8_t> save_state() const;
  void restore_state(const std::vector<std::uint8_t>& bytes);
  void restore_state(const std::uint8_t* data, std::size_t size);
  /// Sets the body's collision group and mask (BodyDef::collision_group,
  /// collision_mask), from the next step on; static bodies too.
  void set_collision_filter(BodyId id, std::uint32_t group, std::uint32_t mask);
  /// The two bodies never collide with each other from the next step on, as
  /// if joined (bodies joined by a joint or spring never do). For a robot's
  /// parent and child links joined through a chain of joints. Part of the
  /// model: a snapshot restores only into a world with the same pairs.
  void disable_collision(BodyId a, BodyId b);

  /// Current settings (dt, iterations, threads, ... may be changed between steps).
  const WorldDef& settings() const;
  /// Replaces the settings; throws Error on invalid values.
  void set_settings(const WorldDef& def);

  /// Timings of the last step, per stage.
  const StageTimings& last_timings() const;
  /// The device the iterations run on, in words ("CPU", or the CUDA card's
  /// name), and the most device memory its copies have held so far [bytes]
  /// (0 on the CPU).
  std::string device_name() const;
  std::size_t device_peak_memory() const;
  /// Number of steps taken.
  std::int64_t step_count() const;
  /// Simulated time [s].
  double time() const;

  /// Total energy of the last step's variational problem at the current iterate:
  /// 1/(2h^2) |q - s|_M^2 + sum of bond energies. Used to measure convergence.
  double variational_energy() const;
  /// Installs an observer called after each solver iteration (empty to remove).
  void set_iteration_observer(IterationObserver observer);

  /// Number of contact points of the last step (speculative ones included).
  int contact_count() const;
  /// Contact point `index` (0..contact_count()-1) of the last step; forces are the
  /// augmented-Lagrangian multipliers after its last iteration. Throws Error if out of range.
  ContactInfo contact(int index) const;

  /// The first body surface along the ray origin + t direction / |direction|,
  /// 0 <= t <= max_distance [m] (infinity: no limit), or nothing. Bodies whose
  /// collision_group & mask == 0 are skipped; equal distances go to the lower
  /// body index. Solids (planes' half-spaces, boxes, spheres, capsules, hulls,
  /// compounds' children) are hit at distance 0 by a ray that starts inside or
  /// on them, with the normal -direction / |direction|. Height fields and
  /// triangle meshes are one-sided, as for contacts: hit only on their front
  /// (a field's upper) side, passed through from behind. The first call after
  /// a step or a change of bodies or poses builds a tree over the bodies'
  /// boxes, which later calls share; concurrent calls are safe (not with
  /// calls that change the world). Throws Error on a non-finite origin or
  /// direction, a zero direction, or a max_distance < 0 or NaN.
  std::optional<RayHit> raycast(Vec3 origin, Vec3 direction, Real max_distance,
                                std::uint32_t mask = 0xffffffffu) const;

  /// Fields beside the bodies (pabd/fields.h, docs/fields.md), coupled each
  /// step: the bodies feel them at the start of a step, and they move on
  /// after it. One sand bed and one body of water at most.
  /// Adds the sand bed: a static height-field body named def.name, whose
  /// heights the bodies then press. Throws Error on invalid input or a second bed.
  BodyId add_sand(const SandDef& def);
  /// Adds the water. Throws Error on invalid input or a second body of water.
  void add_water(const WaterDef& def);
  /// Sets the wind on cloth (replaces the last). Throws Error on invalid input.
  void set_wind(const WindDef& def);
  /// Adds a cloth: its particle bodies and springs. Returns the body slot of
  /// its first particle (the others follow in vertex order). Throws Error on
  /// invalid input (no triangles, indices out of range, a degenerate triangle).
  int add_cloth(const ClothDef& def);
  /// The sand and water surfaces, as they stand now (sand first).
  int surface_count() const;
  SurfaceInfo surface(int index) const;
  /// The cloths, in the order added.
  int cloth_count() const;
  ClothInfo cloth(int index) const;
  /// Volume of sand above its floor [m^3]; 0 without sand.
  double sand_volume() const;
  /// Height of the water surface at world (x, z) now: waves plus wake [m].
  /// Throws Error without water.
  Real water_height(Real x, Real z) const;

  /// FNV-1a hash of the bit patterns of every body's state (determinism checks).
  std::uint64_t state_hash() const;

 private:
  std::unique_ptr<WorldImpl> impl_;
  /// The engine's own tests and tools reach the storage (world/world_impl.h).
  friend WorldImpl& world_impl(World& world);
};

}  // namespace pabd
