// Mouse spring (see mouse_spring.h).

#include "viewer/mouse_spring.h"

#include <cmath>

#include "viewer/picking.h"

namespace pabd::viewer {

bool MouseSpring::begin(World& world, const OrbitCamera& camera, double px, double py, int width,
                        int height) {
  if (active_) end(world);
  const std::optional<Pick> pick = pick_body(world, camera.ray_through(px, py, width, height));
  if (!pick) return false;
  SpringDef def;
  def.body_a = pick->body;
  def.body_b = world_frame();
  def.anchor_a = pick->point;
  def.anchor_b = pick->point;
  def.rest_length = 0;
  def.stiffness = kStiffnessPerKg * world.body_mass(pick->body);
  joint_ = world.add_spring(def);
  active_ = true;
  body_index_ = pick->index;
  body_name_ = world.body_name(pick->body);
  grab_point_ = pick->point;
  target_ = pick->point;
  plane_normal_ = camera.forward();
  return true;
}

void MouseSpring::move(World& world, const OrbitCamera& camera, double px, double py, int width,
                       int height) {
  if (!active_) return;
  const Ray ray = camera.ray_through(px, py, width, height);
  const double denom = dot(ray.dir, plane_normal_);
  if (std::abs(denom) < 1e-9) return;  // ray parallel to the drag plane
  const double t = dot(grab_point_ - ray.origin, plane_normal_) / denom;
  if (t <= 0) return;  // plane behind the eye
  target_ = ray.origin + t * ray.dir;
  world.set_world_anchor(joint_, target_);
}

void MouseSpring::end(World& world) {
  if (!active_) return;
  if (world.is_valid(joint_)) world.remove_joint(joint_);
  active_ = false;
}

Vec3 MouseSpring::body_point(const World& world) const { return world.joint_info(joint_).world_a; }

}  // namespace pabd::viewer
