// libFuzzer target: arbitrary bytes as a scene file, through everything a scene
// goes through before the first step (parse, validate, build_world). The only
// way out the contract allows is SceneError; anything else (another exception,
// a crash, a sanitizer report, a hang, running out of memory) is a finding.
//
// The body limit is lowered from the format's 10,000,000 to 10,000: a valid
// scene of millions of generated bodies takes gigabytes by design
// (docs/scene-format.md, "Arrays of bodies") and is not what this looks for.
#include <cstddef>
#include <cstdint>
#include <string>

#include "pabd/scene.h"
#include "scene/scene_limits.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  pabd::SceneLimits limits;
  limits.max_bodies = 10'000;
  limits.max_grid_vertices = 256 * 256;  // sand and wake grids: memory, not coverage
  try {
    const pabd::Scene scene = pabd::parse_scene_with_limits(text, PABD_FUZZ_SCENE_LABEL, limits);
    const pabd::World world = pabd::build_world(scene, scene.settings);
  } catch (const pabd::SceneError&) {
    // The one way a bad scene may end.
  }
  return 0;
}
