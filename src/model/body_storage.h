// The bodies' arrays, owned: model, state and step scratch, one std::vector
// per BodyArrays field. view() is the one place they are wired into the
// raw-pointer view the kernels take (model/body_arrays.h); a device backend
// keeps its own copies and hands out the same view over device memory.
#pragma once

#include <cstdint>
#include <vector>

#include "model/body_arrays.h"

namespace pabd {

struct BodyStorage {
  // Model.
  std::vector<Real> mass;
  std::vector<Mat3> affine_inertia;
  std::vector<std::uint8_t> is_static;
  std::vector<Real> linear_damping;
  std::vector<Real> angular_damping;
  // Inputs for the next step (World::apply_force, apply_torque).
  std::vector<Vec3> applied_force;
  std::vector<Vec3> applied_torque;
  // State.
  std::vector<Vec3> position;
  std::vector<Mat3> affine;
  std::vector<Quat> orientation;
  std::vector<Vec3> velocity;
  std::vector<Vec3> angular_velocity;
  // Step scratch (sized by resize_scratch).
  std::vector<Vec3> start_position;
  std::vector<Quat> start_orientation;
  std::vector<Mat3> start_affine;
  std::vector<Vec3> target_position;
  std::vector<Mat3> target_affine;
  std::vector<Vec3> iterate_position;
  std::vector<Quat> iterate_orientation;
  std::vector<Vec3> previous_position;
  std::vector<Quat> previous_orientation;
  std::vector<BodyMotion> motion;
  // Body-to-bond-end adjacency (CSR), built with the topology.
  std::vector<int> end_begin;
  std::vector<int> end_index;

  int count() const { return static_cast<int>(mass.size()); }

  /// Sizes the step scratch for count() bodies; the targets start at the
  /// current poses.
  void resize_scratch() {
    const std::size_t n = mass.size();
    start_position.resize(n);
    start_orientation.resize(n);
    start_affine.resize(n);
    target_position = position;
    target_affine = affine;
    iterate_position.resize(n);
    iterate_orientation.resize(n);
    previous_position.resize(n);
    previous_orientation.resize(n);
    motion.assign(n, BodyMotion{});
  }

  BodyArrays view() {
    BodyArrays b;
    b.count = count();
    b.mass = mass.data();
    b.affine_inertia = affine_inertia.data();
    b.is_static = is_static.data();
    b.linear_damping = linear_damping.data();
    b.angular_damping = angular_damping.data();
    b.applied_force = applied_force.data();
    b.applied_torque = applied_torque.data();
    b.position = position.data();
    b.affine = affine.data();
    b.orientation = orientation.data();
    b.velocity = velocity.data();
    b.angular_velocity = angular_velocity.data();
    b.start_position = start_position.data();
    b.start_orientation = start_orientation.data();
    b.start_affine = start_affine.data();
    b.target_position = target_position.data();
    b.target_affine = target_affine.data();
    b.iterate_position = iterate_position.data();
    b.iterate_orientation = iterate_orientation.data();
    b.previous_position = previous_position.data();
    b.previous_orientation = previous_orientation.data();
    b.motion = motion.data();
    b.end_begin = end_begin.data();
    b.end_index = end_index.data();
    return b;
  }
};

}  // namespace pabd
