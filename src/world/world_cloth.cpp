// Cloth in the same solver as the bodies: each vertex a light sphere body,
// each triangle edge a stiff spring, each inner edge a weak bending spring
// between the two vertices across it (the classic mass-spring cloth; the
// springs are implicit in the step, so stiff ones stay stable). Wind pushes
// each triangle along its normal with the dynamic pressure of the wind
// across it, 0.5 rho C_D |u_n| u_n A, shared equally by its three vertices.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

#include "math/affine_system.h"
#include "world/world_impl.h"

namespace pabd {

namespace {

void check(bool ok, const std::string& message) {
  if (!ok) throw Error(message);
}

bool finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

}  // namespace

void World::set_wind(const WindDef& def) {
  check(finite(def.velocity), "wind: velocity: expected finite numbers");
  check(std::isfinite(def.air_density) && def.air_density >= 0,
        "wind: air_density: expected a finite number >= 0");
  check(std::isfinite(def.drag) && def.drag >= 0, "wind: drag: expected a finite number >= 0");
  impl_->fields.wind = def;
  impl_->fields.has_wind = true;
}

int World::add_cloth(const ClothDef& def) {
  WorldImpl& w = *impl_;
  const std::string at = "cloth '" + def.name + "': ";
  const int n = static_cast<int>(def.vertices.size());
  check(n >= 3, at + "vertices: expected at least 3");
  for (const Vec3& p : def.vertices) check(finite(p), at + "vertices: expected finite numbers");
  check(!def.triangles.empty() && def.triangles.size() % 3 == 0,
        at + "triangles: expected three vertex indices per triangle, at least one triangle");
  for (const int k : def.triangles)
    check(k >= 0 && k < n, at + "triangles: index " + std::to_string(k) + " out of range (" +
                               std::to_string(n) + " vertices)");
  check(std::isfinite(def.areal_density) && def.areal_density > 0,
        at + "areal_density: expected a finite number > 0");
  check(std::isfinite(def.stretch_stiffness) && def.stretch_stiffness >= 0,
        at + "stretch_stiffness: expected a finite number >= 0 (0 = inextensible)");
  check(std::isfinite(def.bend_stiffness) && def.bend_stiffness >= 0,
        at + "bend_stiffness: expected a finite number >= 0");
  check(std::isfinite(def.particle_radius) && def.particle_radius > 0,
        at + "particle_radius: expected a finite number > 0");
  check(std::isfinite(def.damping) && def.damping >= 0,
        at + "damping: expected a finite number >= 0");

  // Each vertex gets a third of its triangles' mass.
  std::vector<Real> mass(std::size_t(n), 0);
  const std::size_t triangles = def.triangles.size() / 3;
  for (std::size_t t = 0; t < triangles; ++t) {
    const int a = def.triangles[3 * t], b = def.triangles[3 * t + 1], c = def.triangles[3 * t + 2];
    const Vec3 pa = def.vertices[std::size_t(a)], pb = def.vertices[std::size_t(b)];
    const Vec3 pc = def.vertices[std::size_t(c)];
    const Real area = Real(0.5) * length(cross(pb - pa, pc - pa));
    check(area > 0, at + "triangle " + std::to_string(t) + " has no area");
    for (const int k : {a, b, c}) mass[std::size_t(k)] += def.areal_density * area / 3;
  }
  for (int k = 0; k < n; ++k)
    check(mass[std::size_t(k)] > 0, at + "vertex " + std::to_string(k) + " is in no triangle");

  ClothInfo cloth;
  cloth.name = def.name;
  cloth.triangles = def.triangles;
  for (int k = 0; k < n; ++k) {
    BodyDef body = default_body_def();
    body.name = def.name + "_" + std::to_string(k);
    body.shape = sphere_shape(def.particle_radius);
    body.position = def.vertices[std::size_t(k)];
    body.mass = mass[std::size_t(k)];
    body.linear_damping = def.damping;
    if (!def.collide) body.collision_group = body.collision_mask = 0;
    cloth.particles.push_back(static_cast<int>(add_body(body).index));
  }
  // Edges, each once, with the vertices across them (one for a border edge).
  std::map<std::pair<int, int>, std::vector<int>> across;
  for (std::size_t t = 0; t < triangles; ++t)
    for (int e = 0; e < 3; ++e) {
      const int a = def.triangles[3 * t + std::size_t(e)];
      const int b = def.triangles[3 * t + std::size_t((e + 1) % 3)];
      const int o = def.triangles[3 * t + std::size_t((e + 2) % 3)];
      across[{std::min(a, b), std::max(a, b)}].push_back(o);
    }
  // A stiffness of 0 makes a hard edge: a distance bond solved with the
  // augmented Lagrangian, whose multiplier carries the edge's tension from
  // step to step (a stiff spring gets no such memory, and a few iterations
  // leave it as soft as they can resolve).
  auto spring = [&](int a, int b, Real stiffness) {
    DistanceJointDef s;
    s.body_a = body_at(cloth.particles[std::size_t(a)]);
    s.body_b = body_at(cloth.particles[std::size_t(b)]);
    s.anchor_a = def.vertices[std::size_t(a)];
    s.anchor_b = def.vertices[std::size_t(b)];
    s.stiffness = stiffness;
    s.length = length(s.anchor_b - s.anchor_a);
    add_distance_joint(s);
  };
  for (const auto& [edge, others] : across) spring(edge.first, edge.second, def.stretch_stiffness);
  if (def.bend_stiffness > 0)
    for (const auto& [edge, others] : across)
      if (others.size() == 2 && others[0] != others[1])
        spring(others[0], others[1], def.bend_stiffness);
  w.fields.cloths.push_back(std::move(cloth));
  return w.fields.cloths.back().particles.front();
}

void WorldImpl::apply_wind_forces() {
  const WindDef& wind = fields.wind;
  const Real h = settings.dt;
  // Per particle: the wind's push F = K (w - v) near the current velocity,
  // K = sum over its triangles of c n n^T / 3 with c = 1/2 rho C_D A |u_n|
  // (F is then exactly the pressure formula at the current velocity). Taken
  // implicitly, m (v' - v) / h = K (w - v'): a light particle in a strong wind
  // (300 g/m^2 in 8 m/s: c / m of 40 1/s) would otherwise be pushed past the
  // wind's own speed in one step and flap. The force handed to the step is
  // m (v' - v) / h, so the divergence guard counts its work as applied work.
  std::vector<Mat3>& k_sum = fields.wind_k;
  k_sum.assign(std::size_t(body_count()), Mat3{});
  for (const ClothInfo& cloth : fields.cloths) {
    for (std::size_t t = 0; t + 2 < cloth.triangles.size(); t += 3) {
      std::size_t body[3];
      for (int k = 0; k < 3; ++k)
        body[k] = std::size_t(cloth.particles[std::size_t(cloth.triangles[t + std::size_t(k)])]);
      if (!body_alive[body[0]] || !body_alive[body[1]] || !body_alive[body[2]]) continue;
      const Vec3 p0 = bodies.position[body[0]], p1 = bodies.position[body[1]];
      const Vec3 p2 = bodies.position[body[2]];
      const Vec3 twice_area = cross(p1 - p0, p2 - p0);
      const Real len = length(twice_area);
      if (!(len > 0)) continue;
      const Vec3 n = (Real(1) / len) * twice_area;
      const Vec3 v = (Real(1) / 3) * (bodies.velocity[body[0]] + bodies.velocity[body[1]] +
                                      bodies.velocity[body[2]]);
      const Real u_n = dot(wind.velocity - v, n);
      const Real c = Real(0.5) * wind.air_density * wind.drag * std::abs(u_n) * Real(0.5) * len;
      const Mat3 share = (c / 3) * outer(n, n);
      for (int k = 0; k < 3; ++k) k_sum[body[k]] = k_sum[body[k]] + share;
    }
  }
  for (const ClothInfo& cloth : fields.cloths)
    for (const int i : cloth.particles) {
      const std::size_t b = std::size_t(i);
      const Mat3& k = k_sum[b];
      if (!body_alive[b] || (trace(k) == 0)) continue;
      const Real m_h = bodies.mass[b] / h;
      const Vec3 v = bodies.velocity[b];
      const Vec3 next = inverse_symmetric3(m_h * identity3() + k) * (m_h * v + k * wind.velocity);
      bodies.applied_force[b] += m_h * (next - v);
      any_applied = true;
    }
}

int World::cloth_count() const { return static_cast<int>(impl_->fields.cloths.size()); }

ClothInfo World::cloth(int index) const {
  const auto& cloths = impl_->fields.cloths;
  check(index >= 0 && index < cloth_count(), "cloth: index " + std::to_string(index) +
                                                 " out of range (" + std::to_string(cloth_count()) +
                                                 " cloths)");
  return cloths[std::size_t(index)];
}

}  // namespace pabd
