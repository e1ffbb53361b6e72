#include "support/generators.h"

#include <vector>

namespace pabd {

int add_spring_grid(World& world, const SpringGridDef& def) {
  const int n = def.side;
  const Real gap = def.spacing * def.prestretch;
  const Real half = Real(0.5) * def.box_size;
  std::vector<BodyId> ids(static_cast<size_t>(n) * n);
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c) {
      BodyDef b = default_body_def();
      b.name = "box_" + std::to_string(r) + "_" + std::to_string(c);
      b.shape = box_shape({def.box_size, def.box_size, def.box_size});
      b.position = {c * gap, 0, r * gap};
      ids[static_cast<size_t>(r) * n + c] = world.add_body(b);
    }
  }
  // Springs join facing box faces, so they also carry torque.
  int springs = 0;
  auto spring = [&](int ra, int ca, int rb, int cb, Vec3 dir) {
    SpringDef s;
    s.body_a = ids[static_cast<size_t>(ra) * n + ca];
    s.body_b = ids[static_cast<size_t>(rb) * n + cb];
    const Vec3 pa = world.body_state(s.body_a).position;
    const Vec3 pb = world.body_state(s.body_b).position;
    s.anchor_a = pa + half * dir;
    s.anchor_b = pb - half * dir;
    s.rest_length = def.spacing - def.box_size;
    s.stiffness = def.stiffness;
    world.add_spring(s);
    ++springs;
  };
  for (int r = 0; r < n; ++r)
    for (int c = 0; c + 1 < n; ++c) spring(r, c, r, c + 1, {1, 0, 0});
  for (int r = 0; r + 1 < n; ++r)
    for (int c = 0; c < n; ++c) spring(r, c, r + 1, c, {0, 0, 1});
  if (def.pin_corners) {
    for (int c : {0, n - 1}) {
      SphericalJointDef j;
      j.body_b = ids[static_cast<size_t>(c)];
      j.anchor = world.body_state(j.body_b).position + Vec3{0, half, 0};
      world.add_spherical_joint(j);
    }
  }
  return springs;
}

}  // namespace pabd
