// libFuzzer target: arbitrary bytes as an OBJ file, read and built into a
// triangle mesh as a scene's triangle_mesh shape is (read_obj_text, then
// triangle_mesh_shape). pabd::Error is the one way out for bad input; anything
// else (another exception, a crash, a sanitizer report, a hang) is a finding.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "pabd/world.h"
#include "shapes/triangle_mesh.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<pabd::Vec3> vertices;
  std::vector<int> indices;
  try {
    pabd::read_obj_text(text, "fuzz.obj", vertices, indices);
    const pabd::ShapeDef mesh = pabd::triangle_mesh_shape(vertices, indices);
  } catch (const pabd::Error&) {
    // The one way a bad mesh may end.
  }
  return 0;
}
