// Orbit camera maths (see camera.h).

#include "viewer/camera.h"

#include <algorithm>
#include <cmath>

namespace pabd::viewer {
namespace {

constexpr double kMaxPitch = 1.55;   // just under 90 degrees: keeps the up vector defined
constexpr double kMinRadius = 1e-3;  // [m]: the smallest scene framed (a 1 mm bead)

Vec3 normalize(Vec3 v) {
  const double n = length(v);
  return n > 0 ? (1.0 / n) * v : v;
}

}  // namespace

Mat4 multiply(const Mat4& a, const Mat4& b) {
  Mat4 r;
  for (int c = 0; c < 4; ++c)
    for (int rr = 0; rr < 4; ++rr) {
      float s = 0;
      for (int k = 0; k < 4; ++k) s += a.m[k * 4 + rr] * b.m[c * 4 + k];
      r.m[c * 4 + rr] = s;
    }
  return r;
}

void OrbitCamera::frame_bounds(Vec3 lo, Vec3 hi) {
  target = 0.5 * (lo + hi);
  // The default view looks along -Z: the X-Y extent must fit the vertical field
  // of view (with a margin); depth along Z matters less.
  // No floor in metres: a 5 cm scene is framed as closely as a 5 m one (the
  // near plane follows the distance, and the zoom goes down to 1 mm).
  const Vec3 d = hi - lo;
  const double radius = std::max(0.5 * std::hypot(d.x, d.y) + 0.25 * d.z, kMinRadius);
  distance = 1.15 * radius / std::sin(0.5 * fov_y);
}

void OrbitCamera::axes(Vec3* right, Vec3* up, Vec3* back) const {
  *back = {std::sin(yaw) * std::cos(pitch), -std::sin(pitch), std::cos(yaw) * std::cos(pitch)};
  *right = normalize(cross(Vec3{0, 1, 0}, *back));
  *up = cross(*back, *right);
}

Vec3 OrbitCamera::eye() const {
  Vec3 r, u, b;
  axes(&r, &u, &b);
  return target + distance * b;
}

Vec3 OrbitCamera::forward() const {
  Vec3 r, u, b;
  axes(&r, &u, &b);
  return -b;
}

// The near plane follows the distance (a floor in metres would clip a
// centimetre scene framed from a decimetre away).
double OrbitCamera::near_plane() const { return 0.01 * distance; }
double OrbitCamera::far_plane() const { return 100 * distance + 200; }

Mat4 OrbitCamera::view() const {
  Vec3 r, u, b;
  axes(&r, &u, &b);
  const Vec3 e = eye();
  Mat4 v;
  const Vec3 rows[3] = {r, u, b};
  for (int i = 0; i < 3; ++i) {
    v.m[0 * 4 + i] = static_cast<float>(rows[i].x);
    v.m[1 * 4 + i] = static_cast<float>(rows[i].y);
    v.m[2 * 4 + i] = static_cast<float>(rows[i].z);
    v.m[3 * 4 + i] = static_cast<float>(-dot(rows[i], e));
  }
  v.m[15] = 1;
  return v;
}

Mat4 OrbitCamera::projection(double aspect) const {
  const double f = 1.0 / std::tan(0.5 * fov_y);
  const double n = near_plane(), fa = far_plane();
  Mat4 p;
  p.m[0] = static_cast<float>(f / aspect);
  p.m[5] = static_cast<float>(f);
  p.m[10] = static_cast<float>((fa + n) / (n - fa));
  p.m[11] = -1;
  p.m[14] = static_cast<float>(2 * fa * n / (n - fa));
  return p;
}

Ray OrbitCamera::ray_through(double px, double py, int width, int height) const {
  Vec3 r, u, b;
  axes(&r, &u, &b);
  const double t = std::tan(0.5 * fov_y);
  const double aspect = static_cast<double>(width) / std::max(height, 1);
  const double ndc_x = 2 * (px + 0.5) / width - 1;   // pixel centres
  const double ndc_y = 1 - 2 * (py + 0.5) / height;  // window y points down
  return {eye(), normalize(-1.0 * b + (ndc_x * t * aspect) * r + (ndc_y * t) * u)};
}

bool OrbitCamera::project(Vec3 p, int width, int height, double* px, double* py) const {
  Vec3 r, u, b;
  axes(&r, &u, &b);
  const Vec3 d = p - eye();
  const double depth = -dot(d, b);
  if (depth <= 0) return false;
  const double t = std::tan(0.5 * fov_y);
  const double aspect = static_cast<double>(width) / std::max(height, 1);
  const double ndc_x = dot(d, r) / (depth * t * aspect);
  const double ndc_y = dot(d, u) / (depth * t);
  *px = 0.5 * (ndc_x + 1) * width - 0.5;
  *py = 0.5 * (1 - ndc_y) * height - 0.5;
  return true;
}

void OrbitCamera::orbit(double dx, double dy) {
  yaw -= 0.008 * dx;
  pitch = std::clamp(pitch - 0.008 * dy, -kMaxPitch, kMaxPitch);
}

void OrbitCamera::zoom(double clicks) {
  distance = std::clamp(distance * std::pow(0.88, clicks), 1e-3, 1e4);
}

void OrbitCamera::pan(double dx, double dy, int height) {
  Vec3 r, u, b;
  axes(&r, &u, &b);
  // Metres per pixel at the target's depth: the target moves with the cursor.
  const double scale = 2 * distance * std::tan(0.5 * fov_y) / std::max(height, 1);
  target = target + (-dx * scale) * r + (dy * scale) * u;
}

}  // namespace pabd::viewer
