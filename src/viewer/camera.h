// Orbit camera of the viewer: a target point, yaw/pitch angles and a distance.
// Right mouse orbits, the scroll wheel zooms, the middle mouse pans. It also
// turns window pixels into world rays (picking) and world points into pixels
// (scripted drags), with the same matrices the renderer draws with.
#pragma once

#include <array>

#include "pabd/math.h"

namespace pabd::viewer {

/// A 4x4 matrix in OpenGL's column-major order (m[col * 4 + row]).
struct Mat4 {
  std::array<float, 16> m{};
};

/// a * b.
Mat4 multiply(const Mat4& a, const Mat4& b);

/// A half line origin + t dir, t >= 0 (dir need not be unit).
struct Ray {
  Vec3 origin;
  Vec3 dir;
};

/// Orbit camera; all angles in radians, lengths in metres.
class OrbitCamera {
 public:
  Vec3 target{0, 1, 0};     ///< the point orbited around
  double yaw = 0;           ///< rotation about +Y; 0 looks from +Z towards -Z
  double pitch = -0.25;     ///< elevation; negative looks down
  double distance = 8;      ///< eye to target [m]
  double fov_y = 0.785398;  ///< vertical field of view (45 degrees)

  /// Aims at the centre of the box [lo, hi] from far enough to see all of it
  /// (from the default direction, along -Z), however small the box.
  void frame_bounds(Vec3 lo, Vec3 hi);
  /// Eye position.
  Vec3 eye() const;
  /// Unit vector from the eye towards the target.
  Vec3 forward() const;
  /// World-to-camera matrix.
  Mat4 view() const;
  /// Perspective projection for a viewport of aspect width/height.
  Mat4 projection(double aspect) const;

  /// Ray from the eye through window pixel (px, py) of a width x height window
  /// (origin at the top-left corner, y down, as GLFW reports the cursor).
  Ray ray_through(double px, double py, int width, int height) const;
  /// Window pixel of a world point; false when it is behind the eye.
  bool project(Vec3 p, int width, int height, double* px, double* py) const;

  /// Orbits by a mouse motion of (dx, dy) pixels.
  void orbit(double dx, double dy);
  /// Zooms by scroll wheel clicks (positive: closer).
  void zoom(double clicks);
  /// Pans so that the target follows a mouse motion of (dx, dy) pixels.
  void pan(double dx, double dy, int height);

 private:
  /// Camera axes: right, up, and back (from target towards the eye).
  void axes(Vec3* right, Vec3* up, Vec3* back) const;
  double near_plane() const;
  double far_plane() const;
};

}  // namespace pabd::viewer
