// Built against an installed pabd (find_package or pkg-config) by
// tests/consumer/check_install.cmake. It loads a scene from text with
// pabd::scene, steps it with the engine and checks the fall against the
// closed form of the integrator; exits 0 when it matches.
//
// The shadowed `steps` below is on purpose: pabd builds itself with -Wshadow
// -Werror, and those flags must not reach code that links it.
#include <cmath>
#include <cstdio>

#include "pabd/scene.h"

int main() {
  const int steps = 60;
  const pabd::Scene scene = pabd::parse_scene(R"({
    "settings": {"dt": 0.016666666666666666, "gravity": [0, -9.81, 0]},
    "bodies": [{"name": "box", "shape": {"type": "box", "size": [1, 1, 1]},
                "position": [0, 10, 0], "mass": 2}]
  })",
                                              "consumer.json");
  pabd::World world = pabd::build_world(scene, scene.settings);
  const pabd::BodyId box = world.find_body("box");
  for (int steps_taken = 0; steps_taken < steps; ++steps_taken) {
    const int steps = world.step().ok ? 1 : 0;  // shadows the outer `steps`
    if (steps == 0) return 1;
  }
  // Implicit Euler under gravity g from rest: after n steps of h the body has
  // fallen g h^2 n (n + 1) / 2.
  const double h = scene.settings.dt, g = 9.81;
  const double expected = 10 - g * h * h * steps * (steps + 1) / 2;
  const double y = world.body_state(box).position.y;
  std::printf("consumer: y after %d steps = %.9f m (expected %.9f m)\n", steps, y, expected);
  // Rounding of 60 steps of metre-sized sums: far below a micrometre.
  return std::fabs(y - expected) < 1e-9 ? 0 : 1;
}
