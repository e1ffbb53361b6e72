// The scene format's fields (docs/scene-format.md, "Sand, water, wind and
// cloth"): "sand", "water", "wind" and "cloths", read into the Scene.
#pragma once

#include <cstddef>
#include <cstdint>

#include "scene/scene_arrays.h"
#include "scene/scene_limits.h"
#include "scene/scene_reader.h"

namespace pabd {

/// The name index of the sand body (it is not in Scene::bodies): static.
inline constexpr std::size_t kSandBodyIndex = SIZE_MAX;
/// The name index of a cloth particle (not in Scene::bodies): dynamic.
inline constexpr std::size_t kClothParticleIndex = SIZE_MAX - 1;

/// Reads the root's "sand", "water", "wind" and "cloths" into `scene`, and
/// adds the sand body's and the particles' names to `names` (joints may name
/// them). The grids and the particles count against `limits` (the particles
/// with the scene's bodies). Throws SceneError.
void read_fields(const scene_reader::Reader& r, const scene_reader::json& root, Scene& scene,
                 BodyNameIndex& names, const SceneLimits& limits);

}  // namespace pabd
