// Dragging a body with the mouse: pick the body under the cursor, attach a
// world spring at the hit point (stiffness proportional to the body's mass),
// move the spring's world end in the plane through the hit point that faces
// the camera, and remove the spring on release. Static bodies are not picked.
#pragma once

#include <string>

#include "pabd/world.h"
#include "viewer/camera.h"

namespace pabd::viewer {

class MouseSpring {
 public:
  /// Stiffness per kilogram [N/m/kg]: 200 gives every body the same pull
  /// frequency, sqrt(200) = 14 rad/s, stiff enough to follow the cursor and
  /// soft enough for the implicit solver at the default 1/60 s step.
  static constexpr double kStiffnessPerKg = 200;

  /// Picks at window pixel (px, py) and attaches the spring; false if nothing
  /// (or only static bodies) is under the cursor.
  bool begin(World& world, const OrbitCamera& camera, double px, double py, int width, int height);
  /// Moves the spring's world end under the cursor (no-op when not dragging).
  void move(World& world, const OrbitCamera& camera, double px, double py, int width, int height);
  /// Removes the spring (no-op when not dragging).
  void end(World& world);
  /// Forgets the spring without touching the World (when the World is replaced).
  void forget() { active_ = false; }

  bool active() const { return active_; }
  /// Index of the dragged body (valid while active()).
  int body_index() const { return body_index_; }
  /// Name of the dragged body (valid while active()).
  const std::string& body_name() const { return body_name_; }
  /// Spring end on the body, world frame, now.
  Vec3 body_point(const World& world) const;
  /// Spring end that follows the cursor, world frame.
  Vec3 target() const { return target_; }
  /// Point of the body where the spring was attached, at the time it was.
  Vec3 grab_point() const { return grab_point_; }

 private:
  bool active_ = false;
  JointId joint_;
  int body_index_ = -1;
  std::string body_name_;
  Vec3 grab_point_;
  Vec3 target_;
  Vec3 plane_normal_;  // the drag plane: through grab_point_, facing the camera
};

}  // namespace pabd::viewer
