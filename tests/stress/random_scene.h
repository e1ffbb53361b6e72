// A seeded generator of valid random scenes for the stress run
// (tests/stress/stress_main.cpp): every shape a moving body may have, every
// joint kind with limits and drives, static ground of every kind but meshes,
// and every setting, each drawn within its documented range
// (docs/scene-format.md). The same seed gives the same scene text.
#pragma once

#include <cstdint>
#include <string>

namespace pabd::stress {

struct RandomSceneLimits {
  int min_bodies = 20;
  int max_bodies = 200;
  double max_mass_ratio = 1e5;  ///< largest over smallest mass
  double max_speed = 100;       ///< initial speed of the fastest bodies [m/s]
};

/// The scene of `seed`, as the JSON text of a scene file.
std::string random_scene_json(std::uint64_t seed, const RandomSceneLimits& limits = {});

}  // namespace pabd::stress
