// OBJ files through tinyobjloader: positions and faces only (normals, texture
// coordinates and materials are not needed for collision).
//
// The file is someone else's input, so reading it is bounded:
// - the path must name a regular file (not /dev/zero, a FIFO, a directory) of at
//   most kMaxObjFileBytes; it is opened without blocking and read once;
// - the text is parsed from memory by tinyobjloader's callback reader with no
//   material reader, so `mtllib` lines open nothing;
// - faces are triangulated here, in time linear in their vertex count
//   (tinyobjloader's ear clipping is cubic in it): a triangle as it is, a quad
//   along its shorter diagonal (as tinyobjloader splits it), a larger polygon as
//   a fan from its first vertex (right for the convex faces meshes are made of).
#include <tiny_obj_loader.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "core/regular_file.h"
#include "shapes/triangle_mesh.h"

namespace pabd {

namespace {

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s.size() > 160 ? s.substr(0, 160) + "..." : s;
}

/// Receives tinyobjloader's callbacks: vertices, and faces as triangles.
struct ObjSink {
  std::vector<Vec3>& vertices;
  std::vector<int>& indices;

  /// An OBJ index (1-based, or negative: relative to the last vertex) as a 0-based
  /// one; 0 and indices past the vertices give -1, which the mesh builder refuses.
  int resolve(int raw) const {
    const long long n = static_cast<long long>(vertices.size());
    const long long i = raw > 0 ? raw - 1LL : n + raw;
    return raw != 0 && i >= 0 && i < n ? static_cast<int>(i) : -1;
  }

  /// Squared length of the diagonal between two vertices, in float (tinyobjloader's
  /// precision, so a quad splits as it always has); 0 for an invalid index.
  float diagonal2(int a, int b) const {
    if (a < 0 || b < 0) return 0;
    const float dx = float(vertices[b].x) - float(vertices[a].x);
    const float dy = float(vertices[b].y) - float(vertices[a].y);
    const float dz = float(vertices[b].z) - float(vertices[a].z);
    return dx * dx + dy * dy + dz * dz;
  }

  void triangle(int a, int b, int c) { indices.insert(indices.end(), {a, b, c}); }

  void face(const tinyobj::index_t* raw, int count) {
    if (count < 3) return;  // a point or a line: no area (tinyobjloader skips it too)
    const int v0 = resolve(raw[0].vertex_index), v1 = resolve(raw[1].vertex_index);
    const int v2 = resolve(raw[2].vertex_index);
    if (count == 4) {
      const int v3 = resolve(raw[3].vertex_index);
      if (diagonal2(v0, v2) < diagonal2(v1, v3)) {
        triangle(v0, v1, v2);
        triangle(v0, v2, v3);
      } else {
        triangle(v0, v1, v3);
        triangle(v1, v2, v3);
      }
      return;
    }
    int previous = v1;
    for (int k = 2; k < count; ++k) {
      const int next = k == 2 ? v2 : resolve(raw[k].vertex_index);
      triangle(v0, previous, next);
      previous = next;
    }
  }
};

}  // namespace

void read_obj_text(const std::string& text, const std::string& label, std::vector<Vec3>& vertices,
                   std::vector<int>& indices) {
  vertices.clear();
  indices.clear();
  ObjSink sink{vertices, indices};
  tinyobj::callback_t callbacks;
  callbacks.vertex_cb = [](void* user, tinyobj::real_t x, tinyobj::real_t y, tinyobj::real_t z,
                           tinyobj::real_t /*w*/) {
    static_cast<ObjSink*>(user)->vertices.push_back({x, y, z});
  };
  callbacks.index_cb = [](void* user, tinyobj::index_t* face, int count) {
    static_cast<ObjSink*>(user)->face(face, count);
  };
  std::istringstream in(text);
  std::string err;
  // No material reader: `mtllib` lines are skipped, nothing else is opened.
  if (!tinyobj::LoadObjWithCallback(in, callbacks, &sink, nullptr, nullptr, &err))
    throw Error(label + ": cannot read the OBJ file (" + one_line(err) + ")");
  if (indices.empty())
    throw Error(label + ": expected triangles (f lines) in the OBJ file, got none");
}

void read_obj(const std::string& path, std::vector<Vec3>& vertices, std::vector<int>& indices) {
  read_obj_text(read_regular_file(path, kMaxObjFileBytes, "OBJ file"), path, vertices, indices);
}

}  // namespace pabd
