// Definition structs: their defaults, in one place, and their validation.
#include <cmath>
#include <string>

#include "pabd/world.h"
#include "shapes/mass_properties.h"
#include "world/world_validation.h"

namespace pabd {

ShapeDef box_shape(Vec3 size) {
  ShapeDef s;
  s.type = ShapeType::Box;
  s.size = size;
  return s;
}

ShapeDef sphere_shape(Real radius) {
  ShapeDef s;
  s.type = ShapeType::Sphere;
  s.radius = radius;
  return s;
}

ShapeDef capsule_shape(Real radius, Real half_height) {
  ShapeDef s;
  s.type = ShapeType::Capsule;
  s.radius = radius;
  s.half_height = half_height;
  return s;
}

ShapeDef plane_shape(Vec3 normal, Real offset) {
  ShapeDef s;
  s.type = ShapeType::Plane;
  s.normal = normal;
  s.offset = offset;
  return s;
}

BodyDef default_body_def() { return BodyDef{}; }

WorldDef default_world_def() { return WorldDef{}; }

namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw Error(what);
}

/// The message is put together only on failure: a scene of 125k bodies checks
/// each body's dozen rules, and building each message up front was most of
/// add_body's time.
void require(bool ok, const std::string& who, const char* what) {
  if (!ok) throw Error(who + what);
}

bool finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

}  // namespace

void validate_world_def(const WorldDef& d) {
  require(std::isfinite(d.dt) && d.dt > 0, "WorldDef.dt: expected a finite number > 0");
  require(d.iterations >= 1 && d.iterations <= kMaxIterations,
          "WorldDef.iterations: expected an integer from 1 to " + std::to_string(kMaxIterations));
  require(d.solver == SolverKind::Pabd || d.solver == SolverKind::Avbd,
          "WorldDef.solver: expected SolverKind::Pabd or SolverKind::Avbd");
  require(d.device == Device::Cpu || d.device == Device::Cuda,
          "WorldDef.device: expected Device::Cpu or Device::Cuda");
  require(d.device == Device::Cpu || d.solver == SolverKind::Pabd,
          "WorldDef.device: the AVBD baseline runs on the CPU only (Device::Cpu)");
  require(
      d.iteration_order == IterationOrder::Jacobi || d.iteration_order == IterationOrder::Colored,
      "WorldDef.iteration_order: expected IterationOrder::Jacobi or IterationOrder::Colored");
  require(d.chebyshev_rho >= 0 && d.chebyshev_rho < 1,
          "WorldDef.chebyshev_rho: expected a number in [0, 1) (0 = off)");
  require(d.relaxation > 0 && d.relaxation <= kMaxRelaxation,
          "WorldDef.relaxation: expected a number in (0, 1.5] (1 = none)");
  require(d.block_order_min_bodies >= 1,
          "WorldDef.block_order_min_bodies: expected a body count >= 1");
  require(d.max_rotation_per_step > 0 && d.max_rotation_per_step <= Real(3.141592653589793),
          "WorldDef.max_rotation_per_step: expected a number in (0, pi] [rad]");
  require(finite(d.gravity), "WorldDef.gravity: expected finite numbers");
  require(d.threads >= 0, "WorldDef.threads: expected an integer >= 0 (0 = default)");
  require(std::isfinite(d.hard_stiffness_start) && d.hard_stiffness_start > 0,
          "WorldDef.hard_stiffness_start: expected a finite number > 0");
  require(std::isfinite(d.hard_stiffness_growth) && d.hard_stiffness_growth >= 0,
          "WorldDef.hard_stiffness_growth: expected a finite number >= 0");
  require(d.hard_lambda_decay >= 0 && d.hard_lambda_decay <= 1,
          "WorldDef.hard_lambda_decay: expected a number in [0, 1]");
  require(d.hard_stiffness_decay >= 0 && d.hard_stiffness_decay <= 1,
          "WorldDef.hard_stiffness_decay: expected a number in [0, 1]");
  require(std::isfinite(d.hard_stiffness_max) && d.hard_stiffness_max >= d.hard_stiffness_start,
          "WorldDef.hard_stiffness_max: expected a finite number >= hard_stiffness_start");
  require(std::isfinite(d.hard_stiffness_mass_ratio) && d.hard_stiffness_mass_ratio >= 0,
          "WorldDef.hard_stiffness_mass_ratio: expected a finite number >= 0");
  require(std::isfinite(d.contact_margin) && d.contact_margin >= 0,
          "WorldDef.contact_margin: expected a finite number >= 0 [m]");
  require(d.avbd_stabilization == AvbdStabilization::Post ||
              d.avbd_stabilization == AvbdStabilization::Alpha ||
              d.avbd_stabilization == AvbdStabilization::Off,
          "WorldDef.avbd_stabilization: expected AvbdStabilization::Post, Alpha or Off");
}

void validate_joint_limits(const JointLimits& l, const std::string& who) {
  if (!l.enabled) return;
  require(std::isfinite(l.lower) && std::isfinite(l.upper), who,
          ": limits: expected finite lower and upper values");
  require(l.lower <= l.upper, who + ": limits: expected lower <= upper, got [" +
                                  std::to_string(l.lower) + ", " + std::to_string(l.upper) + "]");
}

void validate_joint_drive(const JointDrive& d, const std::string& who) {
  const std::string at = who + ": drive.";
  require(
      d.mode == DriveMode::Off || d.mode == DriveMode::Velocity || d.mode == DriveMode::Position,
      at, "mode: expected DriveMode::Off, Velocity or Position");
  require(std::isfinite(d.target), at, "target: expected a finite number");
  require(d.max_force > 0 && !std::isnan(d.max_force), at,
          "max_force: expected a number > 0 (infinity = unbounded)");
  require(std::isfinite(d.damping) && d.damping >= 0, at, "damping: expected a finite number >= 0");
  require(std::isfinite(d.amplitude), at, "amplitude: expected a finite number");
  require(std::isfinite(d.frequency) && d.frequency >= 0, at,
          "frequency: expected a finite number >= 0");
  require(std::isfinite(d.phase), at, "phase: expected a finite number");
  if (d.mode == DriveMode::Position)
    require(std::isfinite(d.stiffness) && d.stiffness >= 0 && d.stiffness + d.damping > 0, at,
            "stiffness: expected a finite number > 0 for a position drive (or >= 0 with a "
            "damping > 0: a damper)");
  else
    require(std::isfinite(d.stiffness) && d.stiffness >= 0, at,
            "stiffness: expected a finite number >= 0");
}

void validate_body_def(const BodyDef& d) {
  const std::string who = "body '" + d.name + "': ";
  const ShapeDef& s = d.shape;
  switch (s.type) {
    case ShapeType::Box:
      require(finite(s.size) && s.size.x > 0 && s.size.y > 0 && s.size.z > 0, who,
              "shape.size: expected three finite numbers > 0");
      break;
    case ShapeType::Sphere:
      require(std::isfinite(s.radius) && s.radius > 0, who,
              "shape.radius: expected a finite number > 0");
      break;
    case ShapeType::Capsule:
      require(std::isfinite(s.radius) && s.radius > 0, who,
              "shape.radius: expected a finite number > 0");
      require(std::isfinite(s.half_height) && s.half_height >= 0, who,
              "shape.half_height: expected a finite number >= 0");
      break;
    case ShapeType::Plane:
      require(d.is_static, who, "shape: expected a static body for a plane");
      require(finite(s.normal) && length(s.normal) > 0, who,
              "shape.normal: expected a finite, non-zero vector");
      require(std::isfinite(s.offset), who, "shape.offset: expected a finite number");
      break;
    case ShapeType::ConvexHull:
    case ShapeType::Compound:
    case ShapeType::HeightField:
    case ShapeType::TriangleMesh:
      validate_built_shape(s, d.is_static, who);  // src/world/shape_validation.cpp
      break;
  }
  require(finite(d.position), who, "position: expected finite numbers");
  const Quat q = d.orientation;
  const Real qn = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
  require(std::isfinite(qn) && qn > 0, who, "orientation: expected a finite, non-zero quaternion");
  require(finite(d.velocity), who, "velocity: expected finite numbers");
  require(finite(d.angular_velocity), who, "angular_velocity: expected finite numbers");
  require(std::isfinite(d.mass) && d.mass >= 0, who, "mass: expected a finite number > 0");
  const Mat3 zero;
  bool inertia_given = false;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) inertia_given = inertia_given || d.inertia.m[i][j] != zero.m[i][j];
  if (inertia_given && !d.is_static) {
    require(d.mass > 0, who, "mass: expected a finite number > 0 with an inertia");
    require(is_physical_inertia(d.inertia), who,
            "inertia: expected a symmetric, positive definite tensor whose principal moments "
            "obey a + b >= c");
  }
  require(std::isfinite(d.density) && d.density > 0, who, "density: expected a finite number > 0");
  require(std::isfinite(d.friction) && d.friction >= 0, who,
          "friction: expected a finite number >= 0");
  require(d.restitution >= 0 && d.restitution <= 1, who,
          "restitution: expected a number in [0, 1]");
  require(std::isfinite(d.linear_damping) && d.linear_damping >= 0, who,
          "linear_damping: expected a finite number >= 0");
  require(std::isfinite(d.angular_damping) && d.angular_damping >= 0, who,
          "angular_damping: expected a finite number >= 0");
}

}  // namespace pabd
