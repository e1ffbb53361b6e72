// Animated glTF 2.0 binary (.glb) of a recording: one mesh, material and node
// per body, one animation "simulation" that moves the non-static bodies.
// Specification: https://registry.khronos.org/glTF/specs/2.0/glTF-2.0.html
//
// Sand and water surfaces and cloth change shape, which a node's transform
// cannot show: each is one mesh animated by morph targets, one target per
// keyframe (its positions and normals minus those of keyframe 0), and a
// weights channel that is 1 for keyframe k at its time and blends linearly
// to keyframe k + 1. A surface keeps at most kSurfaceKeyframes of its
// recorded height frames on a grid of at most kSurfaceSide vertices a side,
// a cloth at most kClothKeyframes of the recording's frames (evenly spread,
// the first and last included). Sand changes only where something pressed it,
// so targets where most vertices stay put are sparse accessors. The bodies a
// surface or cloth draws (the sand's height field, the cloth particles) keep
// their nodes, without a mesh or animation.
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
#include "output/surface_mesh.h"
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

// Surfaces and cloth (see the top of this file).
constexpr int kSurfaceSide = 64;       // vertices along a surface's side, at most
constexpr int kSurfaceKeyframes = 32;  // morph targets of a surface, at most
constexpr int kClothKeyframes = 120;   // morph targets of a cloth, at most

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
    json min, max;
    bounds(values, components, min, max);
    const std::size_t view = begin_view();
    for (float f : values) append_u32(bin_, std::bit_cast<std::uint32_t>(f));
    return add_accessor(end_view(view, target), kFloat, count, type_name(components), min, max);
  }

  /// Adds a VEC3 morph target (displacements per vertex): sparse (only the
  /// vertices that move, and their indices) where that is smaller, without
  /// any data where nothing moves (an accessor without a bufferView is zeros).
  int add_displacements(const std::vector<float>& values) {
    const std::size_t count = values.size() / 3;
    std::vector<std::uint32_t> moved;
    for (std::size_t i = 0; i < count; ++i)
      if (values[3 * i] != 0 || values[3 * i + 1] != 0 || values[3 * i + 2] != 0)
        moved.push_back(std::uint32_t(i));
    if (moved.size() * 16 >= count * 12) return add_floats(values, 3, kArrayBuffer);  // dense
    json min, max;
    bounds(values, 3, min, max);
    const int a = add_accessor(-1, kFloat, count, "VEC3", min, max);
    if (moved.empty()) return a;
    std::size_t view = begin_view();
    for (std::uint32_t i : moved) append_u32(bin_, i);
    const int indices = end_view(view, 0);
    view = begin_view();
    for (std::uint32_t i : moved)
      for (std::size_t k = 0; k < 3; ++k)
        append_u32(bin_, std::bit_cast<std::uint32_t>(values[3 * i + k]));
    const int moved_values = end_view(view, 0);
    accessors_[std::size_t(a)]["sparse"] = {
        {"count", moved.size()},
        {"indices", {{"bufferView", indices}, {"componentType", kUnsignedInt}}},
        {"values", {{"bufferView", moved_values}}}};
    return a;
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

  /// min/max per component, from the float values stored, so they bound the data exactly.
  static void bounds(const std::vector<float>& values, int components, json& min, json& max) {
    const std::size_t count = values.size() / std::size_t(components);
    min = json::array();
    max = json::array();
    for (int c = 0; c < components; ++c) {
      float lo = std::numeric_limits<float>::infinity(), hi = -lo;
      for (std::size_t i = 0; i < count; ++i) {
        lo = std::min(lo, values[i * components + c]);
        hi = std::max(hi, values[i * components + c]);
      }
      min.push_back(double(lo));  // float -> double is exact, so JSON round-trips it
      max.push_back(double(hi));
    }
  }

  /// `view` -1: no bufferView (zeros, or a sparse accessor's base).
  int add_accessor(int view, int component_type, std::size_t count, const char* type, json min,
                   json max) {
    json a = {{"componentType", component_type}, {"count", count}, {"type", type}};
    if (view >= 0) a["bufferView"] = view;
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

/// The animation's samplers and channels, filled by bodies, surfaces and cloths.
struct Animation {
  json samplers = json::array();
  json channels = json::array();

  void add(int input, int output, int node, const char* path) {
    samplers.push_back({{"input", input}, {"output", output}, {"interpolation", "LINEAR"}});
    channels.push_back(
        {{"sampler", int(samplers.size()) - 1}, {"target", {{"node", node}, {"path", path}}}});
  }
};

/// Per moving body a translation and a rotation channel, sharing one time
/// accessor. Bodies a surface or cloth draws are left out.
void add_body_channels(BinaryBuilder& bin, const Recording& rec, const std::vector<bool>& drawn,
                       Animation& anim) {
  const int n = rec.body_count(), frames = rec.frame_count();
  int input = -1;
  for (int b = 0; b < n && frames > 0; ++b) {
    // Static bodies: one pose for all frames, the node's own.
    if (rec.bodies[b].is_static || drawn[std::size_t(b)]) continue;
    if (input < 0) input = bin.add_floats(keyframe_times(rec.frame_time), 1);  // min/max required
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
    anim.add(input, bin.add_floats(translation, 3), b, "translation");
    anim.add(input, bin.add_floats(rotation, 4), b, "rotation");
  }
}

/// Up to `most` (>= 2) of indices 0 .. n - 1, evenly spread, the first and last included.
std::vector<int> evenly_spread(int n, int most) {
  std::vector<int> out;
  const int k = std::min(n, most);
  if (k == 1) out.push_back(0);
  // (n - 1) / (k - 1) >= 1: the floors strictly increase.
  for (int i = 0; k > 1 && i < k; ++i) out.push_back(int(std::int64_t(i) * (n - 1) / (k - 1)));
  return out;
}

/// A mesh that changes shape: its triangles, and its positions and normals
/// (three floats a vertex) at each keyframe.
struct MorphMesh {
  std::string name;
  std::vector<std::uint32_t> indices;
  std::vector<std::vector<float>> positions, normals;  // per keyframe
  std::vector<double> times;                           // per keyframe [s]
};

/// `a - b`, element by element.
std::vector<float> minus(const std::vector<float>& a, const std::vector<float>& b) {
  std::vector<float> d(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) d[i] = a[i] - b[i];
  return d;
}

/// Adds a node drawing `m` at keyframe 0 with one morph target per keyframe,
/// and its weights channel; returns the node.
int add_morph_node(json& doc, BinaryBuilder& bin, const MorphMesh& m, json material,
                   Animation& anim) {
  doc["materials"].push_back(std::move(material));
  const int pos =
      bin.add_floats(m.positions[0], 3, kArrayBuffer);  // glTF requires POSITION min/max
  const int nrm = bin.add_floats(m.normals[0], 3, kArrayBuffer);
  json primitive = {{"attributes", {{"POSITION", pos}, {"NORMAL", nrm}}},
                    {"indices", bin.add_indices(m.indices)},
                    {"material", int(doc["materials"].size()) - 1},
                    {"mode", kTriangles}};
  const std::size_t keys = m.positions.size();
  if (keys > 1) {
    json targets = json::array();
    for (std::size_t k = 0; k < keys; ++k)
      targets.push_back({{"POSITION", bin.add_displacements(minus(m.positions[k], m.positions[0]))},
                         {"NORMAL", bin.add_displacements(minus(m.normals[k], m.normals[0]))}});
    primitive["targets"] = std::move(targets);
  }
  doc["meshes"].push_back({{"name", m.name}, {"primitives", json::array({primitive})}});
  doc["nodes"].push_back({{"name", m.name}, {"mesh", int(doc["meshes"].size()) - 1}});
  const int node = int(doc["nodes"].size()) - 1;
  if (keys > 1) {
    // Keyframe k's weights: 1 for target k, 0 for the others.
    std::vector<float> weights(keys * keys, 0.0f);
    for (std::size_t k = 0; k < keys; ++k) weights[k * keys + k] = 1;
    anim.add(bin.add_floats(keyframe_times(m.times), 1), bin.add_floats(weights, 1), node,
             "weights");
  }
  return node;
}

json field_material(const std::string& name, Vec3 c, double opacity, bool double_sided) {
  json m = {{"name", name},
            {"pbrMetallicRoughness",
             {{"baseColorFactor", {c.x, c.y, c.z, opacity}},
              {"metallicFactor", 0.0},
              {"roughnessFactor", opacity < 1 ? 0.2 : 0.9}}},
            {"doubleSided", double_sided}};
  if (opacity < 1) m["alphaMode"] = "BLEND";
  return m;
}

/// A surface's mesh on at most kSurfaceSide vertices a side, at up to
/// kSurfaceKeyframes of its recorded height frames.
MorphMesh surface_mesh(const Recording& rec, const RecordedSurface& s) {
  const int stride =
      std::max(grid_stride(s.columns, kSurfaceSide), grid_stride(s.rows, kSurfaceSide));
  const GridLayout g = strided_layout({s.columns, s.rows, s.spacing, s.x0, s.z0}, stride);
  // Named apart from the sand's own body (a node of its own, without a mesh).
  MorphMesh m{s.name + " surface", grid_triangles(g.columns, g.rows), {}, {}, {}};
  const std::size_t n = std::size_t(g.columns) * std::size_t(g.rows);
  std::vector<float> heights;
  for (int k : evenly_spread(s.frame_count(), kSurfaceKeyframes)) {
    heights.clear();
    append_strided(s.height.data() + std::size_t(k) * s.vertex_count(), s.columns, s.rows, stride,
                   heights);
    m.positions.emplace_back(3 * n);
    m.normals.emplace_back(3 * n);
    grid_vertices(g, heights.data(), m.positions.back().data(), m.normals.back().data(), 3);
    m.times.push_back(rec.frame_time[std::size_t(s.frame[std::size_t(k)])]);
  }
  return m;
}

/// A cloth's mesh (a vertex per particle) at up to kClothKeyframes frames.
MorphMesh cloth_mesh(const Recording& rec, const RecordedCloth& c) {
  MorphMesh m{c.name, {}, {}, {}, {}};
  std::vector<int> vertex(rec.bodies.size(), -1);  // recorded body -> cloth vertex
  std::vector<int> bodies;                         // the particles that are recorded
  for (int b : c.particles)
    if (b >= 0 && vertex[std::size_t(b)] < 0) {
      vertex[std::size_t(b)] = int(bodies.size());
      bodies.push_back(b);
    }
  for (int b : c.triangles) m.indices.push_back(std::uint32_t(vertex[std::size_t(b)]));
  const std::size_t n = rec.bodies.size();
  for (int f : evenly_spread(rec.frame_count(), kClothKeyframes)) {
    std::vector<float> p;
    for (int b : bodies) push_vec3(p, rec.position[std::size_t(f) * n + std::size_t(b)]);
    m.normals.emplace_back();
    mesh_normals(p, m.indices, m.normals.back());
    m.positions.push_back(std::move(p));
    m.times.push_back(rec.frame_time[std::size_t(f)]);
  }
  return m;
}

/// The glTF document and its binary buffer for a recording.
json build_document(const Recording& rec, BinaryBuilder& bin) {
  json doc = {{"asset", {{"version", "2.0"}, {"generator", "pabd"}}},
              {"scene", 0},
              {"nodes", json::array()},
              {"meshes", json::array()},
              {"materials", json::array()}};
  json scene_nodes = json::array();
  const std::vector<bool> drawn = rec.drawn_by_field();
  for (int b = 0; b < rec.body_count(); ++b) {
    const RecordedBody& body = rec.bodies[b];
    json node = {{"name", body.name}};
    const TriangleMesh m =
        drawn[std::size_t(b)] ? TriangleMesh{} : shape_mesh(body.shape);  // drawn as a field
    if (!m.indices.empty()) {
      const Vec3 c = body_color(b, body.is_static);
      doc["materials"].push_back({{"name", body.name},
                                  {"pbrMetallicRoughness",
                                   {{"baseColorFactor", {c.x, c.y, c.z, 1.0}},
                                    {"metallicFactor", 0.0},
                                    {"roughnessFactor", 0.8}}},
                                  {"doubleSided", false}});
      node["mesh"] = add_mesh(doc, bin, m, body.name, int(doc["materials"].size()) - 1);
    }
    if (rec.frame_count() > 0) {  // the pose at frame 0; static bodies keep it
      const Vec3 p = rec.position[std::size_t(b)];
      node["translation"] = {p.x, p.y, p.z};
      node["rotation"] = xyzw(normalized(rec.orientation[std::size_t(b)]));
    }
    doc["nodes"].push_back(std::move(node));
    scene_nodes.push_back(b);
  }
  Animation anim;
  add_body_channels(bin, rec, drawn, anim);
  for (const RecordedSurface& s : rec.surfaces) {
    if (s.frame_count() == 0 || s.columns < 2 || s.rows < 2) continue;
    const bool water = s.kind == SurfaceKind::Water;
    scene_nodes.push_back(add_morph_node(
        doc, bin, surface_mesh(rec, s),
        field_material(s.name, water ? kWaterColor : kSandColor, water ? kWaterOpacity : 1, water),
        anim));
  }
  for (const RecordedCloth& c : rec.cloths) {
    if (c.triangles.empty() || rec.frame_count() == 0) continue;
    scene_nodes.push_back(add_morph_node(doc, bin, cloth_mesh(rec, c),
                                         field_material(c.name, kClothColor, 1, true), anim));
  }
  doc["scenes"] = json::array({{{"name", rec.scene}, {"nodes", scene_nodes}}});
  // glTF requires at least one channel: no motion, no animation.
  if (!anim.channels.empty())
    doc["animations"] = json::array(
        {{{"name", "simulation"}, {"samplers", anim.samplers}, {"channels", anim.channels}}});
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
