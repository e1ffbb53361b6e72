// The animated glTF 2.0 binary (.glb) output: the GLB container, the document
// against the recorded scene, every accessor against its data, and the Khronos
// glTF-Validator on files written from code and by `pabd run --gltf`.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "output/recording.h"
#include "shapes/shape_mesh.h"
#include "support/glb_file.h"

namespace pabd {
namespace {

using nlohmann::json;

const std::string kOut = PABD_TEST_OUTPUT_DIR;
const std::string kSource = PABD_SOURCE_DIR;

std::string quote(const std::string& s) { return "'" + s + "'"; }

/// A unique file in the test output directory (tests may run in parallel).
std::string out_path(const std::string& suffix) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return kOut + "/gltf_" + info->test_suite_name() + "_" + info->name() + suffix;
}

/// A .glb split into its parts.
struct Glb {
  json doc;
  std::string bin;  // the BIN chunk's data, padding included
};

/// Reads a .glb, checking the container against the GLB rules on the way.
void read_glb(const std::string& path, Glb& glb) {
  const std::string raw = read_file(path);
  ASSERT_GE(raw.size(), 20u) << path;      // header + one chunk header at least
  EXPECT_EQ(u32_at(raw, 0), 0x46546C67u);  // magic "glTF" read as a little-endian uint32
  EXPECT_EQ(u32_at(raw, 4), 2u);           // container version 2
  ASSERT_EQ(u32_at(raw, 8), raw.size());   // header's total length is the file's
  const std::uint32_t json_length = u32_at(raw, 12);
  EXPECT_EQ(u32_at(raw, 16), 0x4E4F534Au);  // first chunk must be JSON
  EXPECT_EQ(json_length % 4, 0u);           // chunks keep 4-byte alignment
  ASSERT_LE(20 + std::size_t(json_length), raw.size());
  const std::string text = raw.substr(20, json_length);
  // JSON padding is spaces: the text parses with them as trailing whitespace.
  glb.doc = json::parse(text);
  const std::size_t end = text.rfind('}') + 1;
  EXPECT_EQ(text.find_first_not_of(' ', end), std::string::npos);  // JSON is padded with spaces
  EXPECT_LT(text.size() - end, 4u);  // and only as far as alignment needs
  const std::size_t bin_header = 20 + json_length;
  if (bin_header == raw.size()) return;  // no BIN chunk (nothing to store)
  ASSERT_LE(bin_header + 8, raw.size());
  const std::uint32_t bin_length = u32_at(raw, bin_header);
  EXPECT_EQ(u32_at(raw, bin_header + 4), 0x004E4942u);  // second chunk must be BIN
  EXPECT_EQ(bin_length % 4, 0u);                        // 4-byte aligned
  ASSERT_EQ(bin_header + 8 + bin_length, raw.size());   // BIN is the last chunk and fills the file
  glb.bin = raw.substr(bin_header + 8, bin_length);
  ASSERT_EQ(glb.doc["buffers"].size(), 1u);  // the GLB-stored buffer
  const std::size_t byte_length = glb.doc["buffers"][0]["byteLength"];
  // The chunk may exceed the buffer only by its zero padding (< 4 bytes).
  ASSERT_LE(byte_length, glb.bin.size());
  EXPECT_LT(glb.bin.size() - byte_length, 4u);
  for (std::size_t i = byte_length; i < glb.bin.size(); ++i) EXPECT_EQ(glb.bin[i], '\0');
}

int components_of(const std::string& type) {
  return type == "SCALAR" ? 1 : type == "VEC3" ? 3 : type == "VEC4" ? 4 : 0;
}

/// The values of an accessor as doubles (element-major), after checking that it
/// lies inside its bufferView and the view inside the buffer.
void decode(const Glb& glb, int index, std::vector<double>& values) {
  const json& a = glb.doc["accessors"][index];
  const json& view = glb.doc["bufferViews"][a["bufferView"].get<int>()];
  const int components = components_of(a["type"]);
  ASSERT_GT(components, 0) << a;  // only the types the writer uses
  const int type = a["componentType"];
  ASSERT_TRUE(type == 5126 || type == 5125) << a;  // FLOAT or UNSIGNED_INT: 4 bytes each
  const std::size_t count = a["count"], view_offset = view.value("byteOffset", 0);
  const std::size_t offset = view_offset + a.value("byteOffset", std::size_t(0));
  EXPECT_GE(count, 1u);                       // glTF: an accessor has at least one element
  EXPECT_EQ(offset % 4, 0u);                  // 4-byte components must be 4-byte aligned
  EXPECT_FALSE(view.contains("byteStride"));  // tightly packed
  // The view holds exactly this accessor's elements, and lies inside the buffer.
  EXPECT_EQ(view["byteLength"].get<std::size_t>(), count * components * 4) << a;
  ASSERT_LE(view_offset + view["byteLength"].get<std::size_t>(),
            glb.doc["buffers"][0]["byteLength"].get<std::size_t>());
  values.clear();
  for (std::size_t i = 0; i < count * components; ++i) {
    const std::uint32_t bits = u32_at(glb.bin, offset + 4 * i);
    values.push_back(type == 5126 ? double(std::bit_cast<float>(bits)) : double(bits));
  }
}

/// Decodes an accessor that holds float `type` data.
std::vector<double> floats(const Glb& glb, int index, const char* type) {
  const json& a = glb.doc["accessors"][index];
  EXPECT_EQ(a["componentType"], 5126) << a;
  EXPECT_EQ(a["type"], type) << a;
  std::vector<double> v;
  decode(glb, index, v);
  return v;
}

/// Whether node and the validator package are here (they are in this project's
/// environment; elsewhere the validator checks are skipped, not failed).
bool validator_available() {
  return std::system("command -v node > /dev/null 2>&1") == 0 &&
         std::filesystem::exists(kSource + "/web/node_modules/gltf-validator/package.json");
}

/// Runs web/tools/validate_gltf.mjs on a file; prints and returns its report.
int validate(const std::string& path, std::string& report) {
  const std::string log = path + ".validator.txt";
  const std::string command = "node " + quote(kSource + "/web/tools/validate_gltf.mjs") + " " +
                              quote(path) + " > " + quote(log) + " 2>&1";
  const int raw = std::system(command.c_str());
  report = read_file(log);
  std::cout << "glTF-Validator: " << report;  // warnings, if any, show in the test log
  return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

void expect_valid(const std::string& path) {
  std::string report;
  // Exit 0 and zero errors: the Khronos validator accepts the file.
  EXPECT_EQ(validate(path, report), 0) << report;
  EXPECT_NE(report.find("numErrors=0 "), std::string::npos) << report;
}

/// A scene with every shape, static and moving bodies and a joint.
struct Scene {
  World world;
  std::vector<BodyId> ids;
  Recording rec;
};

void add(Scene& s, const std::string& name, ShapeDef shape, Vec3 position, bool is_static,
         Vec3 angular_velocity = {}, Vec3 velocity = {}) {
  BodyDef def = default_body_def();
  def.name = name;
  def.shape = shape;
  def.position = position;
  def.is_static = is_static;
  def.angular_velocity = angular_velocity;
  def.velocity = velocity;
  s.ids.push_back(s.world.add_body(def));
}

/// Builds the scene and records `steps` steps, a frame every `every`.
void simulate(Scene& s, int steps, int every) {
  add(s, "ground", plane_shape({0, 1, 0}, 0), {}, true);
  add(s, "pedestal", box_shape({1, 0.5, 1}), {3, 0.25, 0}, true);
  add(s, "hanging box", box_shape({0.5, 0.5, 0.5}), {0, 2, 0}, false, {0, 3, 0}, {1, 0, 0});
  add(s, "ball", sphere_shape(0.3), {-2, 3, 0}, false, {}, {0, 2, 1});
  // Fast spin: the orientation turns well past 180 degrees during the run.
  add(s, "rod", capsule_shape(0.2, 0.6), {2, 4, 1}, false, {0, 0, 20});
  SphericalJointDef joint;
  joint.body_b = s.ids[2];
  joint.anchor = {0, 2.25, 0};
  s.world.add_spherical_joint(joint);
  s.rec = start_recording(s.world, "gltf test", every);
  for (int k = 1; k <= steps; ++k) {
    ASSERT_TRUE(s.world.step().ok);
    if (k % every == 0) record_frame(s.rec, s.world);
  }
}

int dynamic_count(const Recording& rec) {
  return int(std::count_if(rec.bodies.begin(), rec.bodies.end(),
                           [](const RecordedBody& b) { return !b.is_static; }));
}

/// Checks that every accessor's min/max bound its data exactly.
void expect_accessor_bounds(const Glb& glb) {
  for (int i = 0; i < int(glb.doc["accessors"].size()); ++i) {
    SCOPED_TRACE("accessor " + std::to_string(i));
    const json& a = glb.doc["accessors"][i];
    std::vector<double> v;
    ASSERT_NO_FATAL_FAILURE(decode(glb, i, v));
    if (!a.contains("min")) continue;  // optional for indices and NORMAL
    const int c = components_of(a["type"]);
    ASSERT_EQ(a["min"].size(), std::size_t(c));
    for (int k = 0; k < c; ++k) {
      double lo = v[std::size_t(k)], hi = lo;
      for (std::size_t e = std::size_t(k); e < v.size(); e += std::size_t(c)) {
        lo = std::min(lo, v[e]);
        hi = std::max(hi, v[e]);
      }
      // glTF wants min/max equal to the data's extremes; the writer takes them
      // from the stored floats, and JSON carries a float exactly.
      EXPECT_EQ(a["min"][k].get<double>(), lo);
      EXPECT_EQ(a["max"][k].get<double>(), hi);
    }
  }
}

TEST(Gltf, SceneFromCodeMatchesTheWorld) {
  Scene s;
  ASSERT_NO_FATAL_FAILURE(simulate(s, 24, 4));
  const Recording& rec = s.rec;
  const std::string path = out_path(".glb");
  write_gltf(rec, path);
  Glb glb;
  ASSERT_NO_FATAL_FAILURE(read_glb(path, glb));
  const json& doc = glb.doc;
  const int n = rec.body_count(), frames = rec.frame_count();
  ASSERT_EQ(frames, 7);  // frame 0 plus one every 4 of 24 steps

  EXPECT_EQ(doc["asset"]["version"], "2.0");     // the glTF version written
  EXPECT_EQ(doc["asset"]["generator"], "pabd");  // as the brief asks
  EXPECT_EQ(doc["scene"], 0);                    // the default scene is the only one
  ASSERT_EQ(doc["scenes"].size(), 1u);
  EXPECT_EQ(doc["scenes"][0]["nodes"].size(), std::size_t(n));  // every body is drawn
  ASSERT_EQ(doc["nodes"].size(), std::size_t(n));               // one node per body
  ASSERT_EQ(doc["meshes"].size(), std::size_t(n));              // one mesh per body
  ASSERT_EQ(doc["materials"].size(), std::size_t(n));           // one material per body
  expect_accessor_bounds(glb);

  for (int b = 0; b < n; ++b) {
    SCOPED_TRACE(rec.bodies[b].name);
    const json& node = doc["nodes"][b];
    EXPECT_EQ(node["name"], rec.bodies[b].name);  // nodes are named after bodies
    const json& prim = doc["meshes"][node["mesh"].get<int>()]["primitives"][0];
    const TriangleMesh mesh = shape_mesh(rec.bodies[b].shape);
    // The glTF mesh is shape_mesh's, vertex for vertex.
    const std::vector<double> pos = floats(glb, prim["attributes"]["POSITION"], "VEC3");
    ASSERT_EQ(pos.size(), 3 * mesh.positions.size());
    EXPECT_EQ(pos[0], double(float(mesh.positions[0].x)));  // stored as float
    const std::vector<double> nrm = floats(glb, prim["attributes"]["NORMAL"], "VEC3");
    ASSERT_EQ(nrm.size(), pos.size());  // one normal per vertex
    const json& ia = doc["accessors"][prim["indices"].get<int>()];
    EXPECT_EQ(ia["componentType"], 5125);  // UNSIGNED_INT, as specified
    EXPECT_EQ(ia["type"], "SCALAR");
    std::vector<double> idx;
    decode(glb, prim["indices"], idx);
    EXPECT_EQ(idx.size(), mesh.indices.size());                        // same triangles
    for (double i : idx) ASSERT_LT(i, double(mesh.positions.size()));  // no index past the end

    const json& mat = doc["materials"][prim["material"].get<int>()];
    const Vec3 c = body_color(b, rec.bodies[b].is_static);
    const json& pbr = mat["pbrMetallicRoughness"];
    // The body's colour, opaque; a dielectric, fairly rough surface.
    EXPECT_EQ(pbr["baseColorFactor"], json::array({c.x, c.y, c.z, 1.0}));
    EXPECT_EQ(pbr["metallicFactor"], 0.0);
    EXPECT_NEAR(pbr["roughnessFactor"].get<double>(), 0.8, 1e-12);
    EXPECT_EQ(mat["doubleSided"], false);

    // Initial pose is frame 0; JSON doubles round-trip, glTF's order is xyzw.
    const Vec3 p = rec.position[std::size_t(b)];
    EXPECT_EQ(node["translation"], json::array({p.x, p.y, p.z}));
    const Quat q = normalized(rec.orientation[std::size_t(b)]);
    for (int k = 0; k < 4; ++k)
      EXPECT_NEAR(node["rotation"][k].get<double>(),
                  (k == 3   ? q.w
                   : k == 0 ? q.x
                   : k == 1 ? q.y
                            : q.z),
                  1e-15);
  }

  ASSERT_EQ(doc["animations"].size(), 1u);
  const json& anim = doc["animations"][0];
  EXPECT_EQ(anim["name"], "simulation");
  const int dynamic = dynamic_count(rec);
  ASSERT_EQ(dynamic, 3);
  // Translation and rotation per moving body; none for static ones.
  ASSERT_EQ(anim["samplers"].size(), std::size_t(2 * dynamic));
  ASSERT_EQ(anim["channels"].size(), std::size_t(2 * dynamic));
  const int input = anim["samplers"][0]["input"];
  const std::vector<double> times = floats(glb, input, "SCALAR");
  ASSERT_EQ(times.size(), std::size_t(frames));  // one key per recorded frame
  for (int f = 0; f < frames; ++f) {
    EXPECT_EQ(times[f], double(float(rec.frame_time[f])));  // the frame times, as floats
    if (f > 0) {
      EXPECT_GT(times[f], times[f - 1]);  // glTF: inputs strictly increasing
    }
  }
  EXPECT_TRUE(doc["accessors"][input].contains("min"));  // required for sampler inputs
  EXPECT_TRUE(doc["accessors"][input].contains("max"));

  std::vector<int> translation_of(std::size_t(n), -1), rotation_of(std::size_t(n), -1);
  for (const json& ch : anim["channels"]) {
    const json& sampler = anim["samplers"][ch["sampler"].get<int>()];
    EXPECT_EQ(sampler["input"], input);             // one shared time accessor
    EXPECT_EQ(sampler["interpolation"], "LINEAR");  // as specified
    const int node = ch["target"]["node"];
    EXPECT_FALSE(rec.bodies[node].is_static);  // static bodies have no channels
    auto& slot = ch["target"]["path"] == "translation" ? translation_of : rotation_of;
    EXPECT_EQ(slot[node], -1);  // one channel per body and path
    slot[node] = sampler["output"];
  }
  for (int b = 0; b < n; ++b) {
    if (rec.bodies[b].is_static) continue;
    SCOPED_TRACE(rec.bodies[b].name);
    ASSERT_GE(translation_of[b], 0);
    ASSERT_GE(rotation_of[b], 0);
    const std::vector<double> t = floats(glb, translation_of[b], "VEC3");
    const std::vector<double> r = floats(glb, rotation_of[b], "VEC4");
    ASSERT_EQ(t.size(), std::size_t(3 * frames));  // one key per input time
    ASSERT_EQ(r.size(), std::size_t(4 * frames));
    // Last key = the world's final state (the last frame is after the last step).
    const BodyState end = s.world.body_state(s.ids[b]);
    const std::size_t last = std::size_t(frames - 1);
    EXPECT_EQ(t[3 * last + 0], double(float(end.position.x)));  // float of the same double
    EXPECT_EQ(t[3 * last + 1], double(float(end.position.y)));
    EXPECT_EQ(t[3 * last + 2], double(float(end.position.z)));
    const Quat qe = normalized(end.orientation);
    // q and -q are the same rotation; the writer may have flipped the sign.
    const double sign = r[4 * last + 3] * qe.w >= 0 ? 1 : -1;
    EXPECT_NEAR(r[4 * last + 0], sign * qe.x, 1e-6);  // float precision
    EXPECT_NEAR(r[4 * last + 3], sign * qe.w, 1e-6);
    for (int f = 0; f < frames; ++f) {
      const double* q = &r[4 * std::size_t(f)];
      // Unit quaternions, to float precision (the validator's tolerance is wider).
      EXPECT_NEAR(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3], 1.0, 1e-6);
      // Consecutive keys in one hemisphere: LINEAR interpolation goes the short way.
      if (f > 0) {
        EXPECT_GE(q[0] * q[-4] + q[1] * q[-3] + q[2] * q[-2] + q[3] * q[-1], 0.0);
      }
    }
  }
  if (!validator_available()) GTEST_SKIP() << "node or gltf-validator missing";
  expect_valid(path);
}

TEST(Gltf, QuaternionSignFlipsAreUndone) {
  Scene s;
  ASSERT_NO_FATAL_FAILURE(simulate(s, 24, 4));
  Recording rec = s.rec;
  // Negate every other frame's orientations: the same rotations, opposite hemispheres.
  for (int f = 1; f < rec.frame_count(); f += 2)
    for (int b = 0; b < rec.body_count(); ++b) {
      Quat& q = rec.orientation[std::size_t(f * rec.body_count() + b)];
      q = {-q.w, -q.x, -q.y, -q.z};
    }
  const std::string path = out_path(".glb");
  write_gltf(rec, path);
  Glb glb;
  ASSERT_NO_FATAL_FAILURE(read_glb(path, glb));
  const json& anim = glb.doc["animations"][0];
  for (const json& ch : anim["channels"]) {
    if (ch["target"]["path"] != "rotation") continue;
    const std::vector<double> r =
        floats(glb, anim["samplers"][ch["sampler"].get<int>()]["output"], "VEC4");
    for (std::size_t k = 4; k < r.size(); k += 4)  // neighbours in one hemisphere
      EXPECT_GE(r[k] * r[k - 4] + r[k + 1] * r[k - 3] + r[k + 2] * r[k - 2] + r[k + 3] * r[k - 1],
                0.0);
  }
}

TEST(Gltf, SingleFrameIsValid) {
  Scene s;
  ASSERT_NO_FATAL_FAILURE(simulate(s, 0, 1));  // frame 0 only
  const std::string path = out_path(".glb");
  write_gltf(s.rec, path);
  Glb glb;
  ASSERT_NO_FATAL_FAILURE(read_glb(path, glb));
  expect_accessor_bounds(glb);
  const json& anim = glb.doc["animations"][0];
  const int input = anim["samplers"][0]["input"];
  EXPECT_EQ(glb.doc["accessors"][input]["count"], 1);  // a one-key animation, still glTF
  EXPECT_EQ(floats(glb, input, "SCALAR"), std::vector<double>{0.0});  // at time 0
  if (!validator_available()) GTEST_SKIP() << "node or gltf-validator missing";
  expect_valid(path);
}

TEST(Gltf, OnlyStaticBodiesHaveNoAnimation) {
  World world;
  BodyDef ground = default_body_def();
  ground.shape = plane_shape({0, 1, 0}, 0);
  ground.is_static = true;
  world.add_body(ground);
  const std::string path = out_path(".glb");
  write_gltf(start_recording(world, "static", 1), path);
  Glb glb;
  ASSERT_NO_FATAL_FAILURE(read_glb(path, glb));
  // glTF needs at least one channel per animation: with nothing moving, none.
  EXPECT_FALSE(glb.doc.contains("animations"));
  EXPECT_EQ(glb.doc["nodes"].size(), 1u);
  if (!validator_available()) GTEST_SKIP() << "node or gltf-validator missing";
  expect_valid(path);
}

TEST(Gltf, UnwritablePathThrowsNamingIt) {
  Scene s;
  ASSERT_NO_FATAL_FAILURE(simulate(s, 2, 1));
  const std::string path = kOut + "/no_such_directory/out.glb";
  try {
    write_gltf(s.rec, path);
    FAIL() << "expected pabd::Error";
  } catch (const Error& e) {
    // One-line error that starts with the path, like every file error of pabd.
    EXPECT_EQ(std::string(e.what()).rfind(path + ": cannot write", 0), 0u) << e.what();
  }
}

TEST(Gltf, CliWritesAValidFile) {
  const std::string path = out_path(".glb");
  std::filesystem::remove(path);
  const std::string command =
      quote(PABD_CLI_PATH) + " run " + quote(kSource + "/scenes/pendulum.json") +
      " --steps 30 --every 3 --gltf " + quote(path) + " --quiet > /dev/null 2>&1 < /dev/null";
  const int raw = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(raw) && WEXITSTATUS(raw) == 0) << command;  // a normal run succeeds
  Glb glb;
  ASSERT_NO_FATAL_FAILURE(read_glb(path, glb));
  expect_accessor_bounds(glb);
  EXPECT_EQ(glb.doc["nodes"].size(), 1u);  // the scene has one body, "bob"
  EXPECT_EQ(glb.doc["nodes"][0]["name"], "bob");
  const json& anim = glb.doc["animations"][0];
  EXPECT_EQ(anim["channels"].size(), 2u);  // bob moves: translation and rotation
  // Frames at steps 0, 3, ..., 30.
  EXPECT_EQ(glb.doc["accessors"][anim["samplers"][0]["input"].get<int>()]["count"], 11);
  if (!validator_available()) GTEST_SKIP() << "node or gltf-validator missing";
  expect_valid(path);
}

}  // namespace
}  // namespace pabd
