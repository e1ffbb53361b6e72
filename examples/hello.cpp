// hello: the smallest program that embeds pabd. A 1 kg box hangs from a hard
// spherical joint 1 m above its centre, is released 30 degrees out, and swings.
//
//   build/hello
#include <cmath>
#include <cstdio>

#include "pabd/world.h"

int main() {
  pabd::WorldDef settings = pabd::default_world_def();  // 60 Hz, 20 iterations, g = -9.81 Y
  pabd::World world(settings);

  const double angle = 30.0 * 3.14159265358979 / 180.0;
  pabd::BodyDef bob = pabd::default_body_def();
  bob.name = "bob";
  bob.shape = pabd::box_shape({0.2, 0.2, 0.2});
  bob.mass = 1.0;
  bob.position = {std::sin(angle), 2.0 - std::cos(angle), 0.0};
  bob.orientation = {std::cos(angle / 2), 0, 0, std::sin(angle / 2)};
  const pabd::BodyId id = world.add_body(bob);

  pabd::SphericalJointDef pivot;  // stiffness 0: a hard constraint
  pivot.body_a = pabd::world_frame();
  pivot.body_b = id;
  pivot.anchor = {0.0, 2.0, 0.0};
  world.add_spherical_joint(pivot);

  std::printf("   t [s]      x [m]      y [m]\n");
  for (int step = 1; step <= 120; ++step) {
    const pabd::StepResult result = world.step();
    if (!result.ok) {
      std::fprintf(stderr, "hello: state became non-finite at step %lld\n",
                   static_cast<long long>(result.step));
      return 1;
    }
    if (step % 10 == 0) {
      const pabd::BodyState s = world.body_state(id);
      std::printf("%8.3f %10.4f %10.4f\n", world.time(), s.position.x, s.position.y);
    }
  }
  return 0;
}
