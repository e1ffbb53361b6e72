// STL files, binary or ASCII: the triangles' corners (normals are recomputed
// from the winding wherever they are needed, as every reader does).
//
// Binary STL: an 80-byte header, a little-endian uint32 triangle count, then 50
// bytes per triangle (normal, three corners as float32, a 2-byte attribute). A
// file is binary when its size is exactly 84 + 50 n; otherwise it is read as
// ASCII ("facet normal ... outer loop vertex x y z ... endloop endfacet"),
// which many binary files' headers also start with ("solid"), so the size
// decides, not the first word.
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "core/regular_file.h"
#include "shapes/triangle_mesh.h"

namespace pabd {
namespace {

constexpr std::size_t kHeaderBytes = 84;
constexpr std::size_t kTriangleBytes = 50;

float float_at(const std::string& bytes, std::size_t at) {
  float f;
  std::memcpy(&f, bytes.data() + at, sizeof f);  // x86-64 and aarch64 are little-endian
  return f;
}

bool read_binary(const std::string& bytes, std::vector<Vec3>& vertices) {
  if (bytes.size() < kHeaderBytes) return false;
  std::uint32_t count;
  std::memcpy(&count, bytes.data() + 80, sizeof count);
  if (bytes.size() != kHeaderBytes + kTriangleBytes * std::size_t(count)) return false;
  for (std::size_t t = 0; t < count; ++t)
    for (int corner = 0; corner < 3; ++corner) {
      const std::size_t at = kHeaderBytes + kTriangleBytes * t + 12 + 12 * std::size_t(corner);
      vertices.push_back({float_at(bytes, at), float_at(bytes, at + 4), float_at(bytes, at + 8)});
    }
  return true;
}

void read_ascii(const std::string& text, const std::string& path, std::vector<Vec3>& vertices) {
  std::istringstream in(text);
  std::string word;
  while (in >> word) {
    if (word != "vertex") continue;
    Vec3 v;
    if (!(in >> v.x >> v.y >> v.z))
      throw Error(path + ": expected three numbers after 'vertex' in the STL file");
    vertices.push_back(v);
  }
  if (vertices.size() % 3 != 0)
    throw Error(path + ": expected three vertices per facet in the STL file");
}

}  // namespace

void read_stl(const std::string& path, std::vector<Vec3>& vertices, std::vector<int>& indices) {
  const std::string bytes = read_regular_file(path, kMaxObjFileBytes, "STL file");
  vertices.clear();
  indices.clear();
  if (!read_binary(bytes, vertices)) read_ascii(bytes, path, vertices);
  if (vertices.empty()) throw Error(path + ": expected triangles in the STL file, found none");
  for (std::size_t i = 0; i < vertices.size(); ++i) indices.push_back(static_cast<int>(i));
}

}  // namespace pabd
