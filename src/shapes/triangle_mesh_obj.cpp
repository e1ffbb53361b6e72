// OBJ files through tinyobjloader: positions and triangulated faces only
// (normals, texture coordinates and materials are not needed for collision).
#include <tiny_obj_loader.h>

#include <fstream>
#include <string>
#include <vector>

#include "shapes/triangle_mesh.h"

namespace pabd {

namespace {

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s.size() > 160 ? s.substr(0, 160) + "..." : s;
}

}  // namespace

void read_obj(const std::string& path, std::vector<Vec3>& vertices, std::vector<int>& indices) {
  if (!std::ifstream(path)) throw Error(path + ": cannot open the OBJ file");
  tinyobj::attrib_t attrib;
  std::vector<tinyobj::shape_t> shapes;
  std::vector<tinyobj::material_t> materials;
  std::string warn, err;
  // No material directory: materials are not read (a missing .mtl is only a warning).
  if (!tinyobj::LoadObj(&attrib, &shapes, &materials, &warn, &err, path.c_str(), nullptr, true))
    throw Error(path + ": cannot read the OBJ file (" + one_line(err) + ")");
  vertices.clear();
  indices.clear();
  for (std::size_t i = 0; i + 2 < attrib.vertices.size(); i += 3)
    vertices.push_back({attrib.vertices[i], attrib.vertices[i + 1], attrib.vertices[i + 2]});
  for (const tinyobj::shape_t& s : shapes)
    for (const tinyobj::index_t& index : s.mesh.indices) indices.push_back(index.vertex_index);
  if (indices.empty())
    throw Error(path + ": expected triangles (f lines) in the OBJ file, got none");
}

}  // namespace pabd
