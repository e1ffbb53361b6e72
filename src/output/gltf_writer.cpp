// Animated glTF 2.0 binary (.glb) of a recording: one mesh, material and node
// per body, one animation "simulation" that moves the non-static bodies.
// Specification: https://registry.khronos.org/glTF/specs/2.0/glTF-2.0.html
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "output/recording.h"
#include "shapes/shape_mesh.h"

namespace pabd {

namespace {

using nlohmann::json;

// glTF enumerations used here.
constexpr int kFloat = 5126;                // componentType FLOAT
constexpr int kUnsignedInt = 5125;          // componentType UNSIGNED_INT
constexpr int kArrayBuffer = 34962;         // bufferView target: vertex attributes
constexpr int kElementArrayBuffer = 34963;  // bufferView target: indices
constexpr int kTriangles = 4;               // primitive mode

// GLB container constants (little-endian uint32 values).
constexpr std::uint32_t kGlbMagic = 0x46546C67;  // "glTF"
constexpr std::uint32_t kGlbVersion = 2;
constexpr std::uint32_t kChunkJson = 0x4E4F534A;  // "JSON"
constexpr std::uint32_t kChunkBin = 0x004E4942;   // "BIN\0"

const char* type_name(int components) {
  switch (components) {
    case 1:
      return "SCALAR";
    case 3:
      return "VEC3";
    default:
      return "VEC4";
  }
}

/// Appends `v` as four little-endian bytes, whatever the host's byte order.
void append_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int shift = 0; shift < 32; shift += 8) out.push_back(std::uint8_t(v >> shift));
}

/// The BIN chunk under construction, with the bufferViews and accessors that
/// describe it. Every bufferView starts on a 4-byte boundary, which satisfies
/// the alignment glTF asks of FLOAT and UNSIGNED_INT accessors.
class BinaryBuilder {
 public:
  /// Adds a float accessor of `components` per element; min/max are taken from
  /// the float values actually stored, so they bound the data exactly.
  int add_floats(const std::vector<float>& values, int components, int target = 0) {
    const std::size_t count = values.size() / std::size_t(components);
    json min = json::array(), max = json::array();
    for (int c = 0; c < components; ++c) {
      float lo = std::numeric_limits<float>::infinity(), hi = -lo;
      for (std::size_t i = 0; i < count; ++i) {
        lo = std::min(lo, values[i * components + c]);
        hi = std::max(hi, values[i * components + c]);
      }
      min.push_back(double(lo));  // float -> double is exact, so JSON round-trips it
      max.push_back(double(hi));
    }
    const std::size_t view = begin_view();
    for (float f : values) append_u32(bin_, std::bit_cast<std::uint32_t>(f));
    return add_accessor(end_view(view, target), kFloat, count, type_name(components), min, max);
  }

  /// Adds an UNSIGNED_INT SCALAR index accessor.
  int add_indices(const std::vector<std::uint32_t>& indices) {
    const std::size_t view = begin_view();
    for (std::uint32_t i : indices) append_u32(bin_, i);
    return add_accessor(end_view(view, kElementArrayBuffer), kUnsignedInt, indices.size(), "SCALAR",
                        nullptr, nullptr);
  }

  const std::vector<std::uint8_t>& bytes() const { return bin_; }
  json& views() { return views_; }
  json& accessors() { return accessors_; }

 private:
  std::size_t begin_view() {
    bin_.resize((bin_.size() + 3) & ~std::size_t(3), 0);
    return bin_.size();
  }

  int end_view(std::size_t offset, int target) {
    json view = {{"buffer", 0}, {"byteOffset", offset}, {"byteLength", bin_.size() - offset}};
    if (target != 0) view["target"] = target;  // animation data has no GPU target
    views_.push_back(view);
    return int(views_.size()) - 1;
  }

  int add_accessor(int view, int component_type, std::size_t count, const char* type, json min,
                   json max) {
    json a = {
        {"bufferView", view}, {"componentType", component_type}, {"count", count}, {"type", type}};
    if (!min.is_null()) a["min"] = std::move(min);
    if (!max.is_null()) a["max"] = std::move(max);
    accessors_.push_back(std::move(a));
    return int(accessors_.size()) - 1;
  }

  std::vector<std::uint8_t> bin_;
  json views_ = json::array();
  json accessors_ = json::array();
};

void push_vec3(std::vector<float>& out, Vec3 v) {
  out.insert(out.end(), {float(v.x), float(v.y), float(v.z)});
}

/// glTF's quaternion order is [x, y, z, w].
json xyzw(Quat q) { return json::array({q.x, q.y, q.z, q.w}); }

/// Adds the body's mesh (positions, normals, indices) and returns its index.
int add_mesh(json& doc, BinaryBuilder& bin, const TriangleMesh& m, const std::string& name,
             int material) {
  std::vector<float> positions, normals;
  for (Vec3 p : m.positions) push_vec3(positions, p);
  for (Vec3 n : m.normals) push_vec3(normals, n);
  const int pos = bin.add_floats(positions, 3, kArrayBuffer);  // glTF requires POSITION min/max
  const int nrm = bin.add_floats(normals, 3, kArrayBuffer);
  const int idx = bin.add_indices(m.indices);
  json primitive = {{"attributes", {{"POSITION", pos}, {"NORMAL", nrm}}},
                    {"indices", idx},
                    {"material", material},
                    {"mode", kTriangles}};
  doc["meshes"].push_back({{"name", name}, {"primitives", json::array({primitive})}});
  return int(doc["meshes"].size()) - 1;
}

/// Frame times as strictly increasing floats: float rounding could merge two
/// close times late in a long run, and animation inputs must increase.
std::vector<float> keyframe_times(const std::vector<double>& t) {
  std::vector<float> out;
  for (double v : t) {
    float f = float(v);
    if (!out.empty() && !(f > out.back()))
      f = std::nextafter(out.back(), std::numeric_limits<float>::infinity());
    out.push_back(f);
  }
  return out;
}

/// Adds the animation "simulation": per moving body a translation and a
/// rotation channel, sharing one time accessor. No moving body, no animation
/// (glTF requires at least one channel).
void add_animation(json& doc, BinaryBuilder& bin, const Recording& rec) {
  const int n = rec.body_count(), frames = rec.frame_count();
  const bool any_moving =
      std::any_of(rec.bodies.begin(), rec.bodies.end(), [](const auto& b) { return !b.is_static; });
  if (!any_moving || frames == 0) return;

  const int input = bin.add_floats(keyframe_times(rec.frame_time), 1);  // min/max required
  json samplers = json::array(), channels = json::array();
  for (int b = 0; b < n; ++b) {
    if (rec.bodies[b].is_static) continue;  // one pose for all frames: the node's own
    std::vector<float> translation, rotation;
    Quat prev{};
    for (int f = 0; f < frames; ++f) {
      push_vec3(translation, rec.position[std::size_t(f) * n + b]);
      // Renormalised: validators reject rotations not unit within float precision.
      Quat q = normalized(rec.orientation[std::size_t(f) * n + b]);
      // q and -q are the same rotation; keep consecutive keys in one hemisphere
      // so linear interpolation takes the short way round.
      if (f > 0 && q.w * prev.w + q.x * prev.x + q.y * prev.y + q.z * prev.z < 0)
        q = {-q.w, -q.x, -q.y, -q.z};
      rotation.insert(rotation.end(), {float(q.x), float(q.y), float(q.z), float(q.w)});
      prev = q;
    }
    const std::pair<const char*, int> outputs[] = {{"translation", bin.add_floats(translation, 3)},
                                                   {"rotation", bin.add_floats(rotation, 4)}};
    for (const auto& [path, output] : outputs) {
      samplers.push_back({{"input", input}, {"output", output}, {"interpolation", "LINEAR"}});
      channels.push_back(
          {{"sampler", int(samplers.size()) - 1}, {"target", {{"node", b}, {"path", path}}}});
    }
  }
  doc["animations"] =
      json::array({{{"name", "simulation"}, {"samplers", samplers}, {"channels", channels}}});
}

/// The glTF document and its binary buffer for a recording.
json build_document(const Recording& rec, BinaryBuilder& bin) {
  json doc = {{"asset", {{"version", "2.0"}, {"generator", "pabd"}}},
              {"scene", 0},
              {"nodes", json::array()},
              {"meshes", json::array()},
              {"materials", json::array()}};
  json scene_nodes = json::array();
  for (int b = 0; b < rec.body_count(); ++b) {
    const RecordedBody& body = rec.bodies[b];
    const Vec3 c = body_color(b, body.is_static);
    doc["materials"].push_back({{"name", body.name},
                                {"pbrMetallicRoughness",
                                 {{"baseColorFactor", {c.x, c.y, c.z, 1.0}},
                                  {"metallicFactor", 0.0},
                                  {"roughnessFactor", 0.8}}},
                                {"doubleSided", false}});
    const int material = int(doc["materials"].size()) - 1;
    json node = {{"name", body.name}};
    const TriangleMesh m = shape_mesh(body.shape);
    if (!m.indices.empty()) node["mesh"] = add_mesh(doc, bin, m, body.name, material);
    if (rec.frame_count() > 0) {  // the pose at frame 0; static bodies keep it
      const Vec3 p = rec.position[std::size_t(b)];
      node["translation"] = {p.x, p.y, p.z};
      node["rotation"] = xyzw(normalized(rec.orientation[std::size_t(b)]));
    }
    doc["nodes"].push_back(std::move(node));
    scene_nodes.push_back(b);
  }
  doc["scenes"] = json::array({{{"name", rec.scene}, {"nodes", scene_nodes}}});
  add_animation(doc, bin, rec);
  doc["bufferViews"] = std::move(bin.views());
  doc["accessors"] = std::move(bin.accessors());
  if (!bin.bytes().empty()) doc["buffers"] = json::array({{{"byteLength", bin.bytes().size()}}});
  // glTF forbids empty arrays: drop any left empty (a recording without bodies).
  for (auto it = doc.begin(); it != doc.end();)
    it = (it->is_array() && it->empty()) ? doc.erase(it) : std::next(it);
  return doc;
}

/// Appends one GLB chunk: length, type, data padded to 4 bytes with `pad`.
void append_chunk(std::vector<std::uint8_t>& out, std::uint32_t type, const std::uint8_t* data,
                  std::size_t size, std::uint8_t pad) {
  const std::size_t padded = (size + 3) & ~std::size_t(3);
  append_u32(out, std::uint32_t(padded));
  append_u32(out, type);
  out.insert(out.end(), data, data + size);
  out.resize(out.size() + (padded - size), pad);
}

}  // namespace

void write_gltf(const Recording& rec, const std::string& path) {
  BinaryBuilder bin;
  const json doc = build_document(rec, bin);
  // Names come from scene files; replace invalid UTF-8 rather than fail.
  const std::string text = doc.dump(-1, ' ', false, json::error_handler_t::replace);

  std::vector<std::uint8_t> chunks;
  // JSON is padded with spaces and BIN with zeros, as the GLB format requires.
  append_chunk(chunks, kChunkJson, reinterpret_cast<const std::uint8_t*>(text.data()), text.size(),
               ' ');
  if (!bin.bytes().empty())
    append_chunk(chunks, kChunkBin, bin.bytes().data(), bin.bytes().size(), 0);
  if (chunks.size() + 12 > std::numeric_limits<std::uint32_t>::max())
    throw Error(path + ": cannot write file (larger than the 4 GiB a GLB can hold)");
  std::vector<std::uint8_t> glb;
  append_u32(glb, kGlbMagic);
  append_u32(glb, kGlbVersion);
  append_u32(glb, std::uint32_t(12 + chunks.size()));  // total length, header included
  glb.insert(glb.end(), chunks.begin(), chunks.end());

  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw Error(path + ": cannot write file (cannot open it)");
  out.write(reinterpret_cast<const char*>(glb.data()), std::streamsize(glb.size()));
  out.close();
  if (!out) throw Error(path + ": cannot write file (write failed)");
}

}  // namespace pabd
