// Sand, water and cloth in the outputs: the recording keeps each surface's
// grid (downsampled to at most 128 vertices a side) and thins its height
// frames to a budget; the glTF draws a surface and a cloth as meshes animated
// by morph targets whose keyframes reproduce the recording, and the Khronos
// glTF-Validator accepts the file. The HTML player's side is checked in the
// browser (web/tests/player_test.mjs), the viewer's under Xvfb (test_viewer).
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
#include "output/surface_mesh.h"
#include "support/glb_file.h"

namespace pabd {
namespace {

using nlohmann::json;

const std::string kOut = PABD_TEST_OUTPUT_DIR;
const std::string kSource = PABD_SOURCE_DIR;

/// A .glb's JSON and BIN chunk (test_gltf.cpp checks the container itself).
struct Glb {
  json doc;
  std::string bin;

  explicit Glb(const std::string& path) {
    const std::string raw = read_file(path);
    const std::uint32_t json_length = u32_at(raw, 12);
    doc = json::parse(raw.substr(20, json_length));
    if (20 + json_length + 8 <= raw.size()) bin = raw.substr(20 + json_length + 8);
  }

  /// Four bytes of bufferView `view` at `index` (4-byte elements).
  std::uint32_t word(int view, std::size_t index) const {
    return u32_at(bin, doc["bufferViews"][view].value("byteOffset", std::size_t(0)) + 4 * index);
  }

  /// A float accessor's values (components per element, element-major),
  /// sparse ones included (zeros, with the stored elements written over them).
  std::vector<float> floats(int index) const {
    const json& a = doc["accessors"][index];
    EXPECT_EQ(a["componentType"], 5126) << a;
    const std::size_t c = a["type"] == "SCALAR" ? 1 : a["type"] == "VEC3" ? 3 : 4;
    std::vector<float> out(a["count"].get<std::size_t>() * c, 0.0f);
    if (a.contains("bufferView"))
      for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = std::bit_cast<float>(word(a["bufferView"], i));
    if (a.contains("sparse")) {
      const json& s = a["sparse"];
      EXPECT_EQ(s["indices"]["componentType"], 5125) << s;
      for (std::size_t k = 0; k < s["count"].get<std::size_t>(); ++k) {
        const std::uint32_t e = word(s["indices"]["bufferView"], k);
        EXPECT_LT(e, a["count"].get<std::size_t>());
        for (std::size_t j = 0; j < c; ++j)
          out[e * c + j] = std::bit_cast<float>(word(s["values"]["bufferView"], k * c + j));
      }
    }
    return out;
  }

  /// The node named `name`, or a null json.
  json node(const std::string& name) const {
    for (const json& n : doc["nodes"])
      if (n["name"] == name) return n;
    return json();
  }
};

int validate(const std::string& path, std::string& report) {
  const std::string log = path + ".validator.txt";
  const std::string command =
      "node '" + kSource + "/web/tools/validate_gltf.mjs' '" + path + "' > '" + log + "' 2>&1";
  const int raw = std::system(command.c_str());
  report = read_file(log);
  std::cout << "glTF-Validator: " << report;
  return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

bool validator_available() {
  return std::system("command -v node > /dev/null 2>&1") == 0 &&
         std::filesystem::exists(kSource + "/web/node_modules/gltf-validator/package.json");
}

/// A 40 kg box dropped on a 21 x 21 sand bed, and beside it a 3 x 3 cloth
/// falling freely, recorded every step for `steps` steps.
Recording sand_and_cloth(int steps) {
  World world;
  SandDef sand;
  sand.columns = sand.rows = 21;
  sand.spacing = 0.05;
  sand.depth = 0.2;
  world.add_sand(sand);
  BodyDef box = default_body_def();
  box.name = "box";
  box.shape = box_shape({0.4, 0.2, 0.4});
  box.mass = 40;
  box.position = {0, sand.depth + 0.1 + 0.01, 0};
  world.add_body(box);
  ClothDef cloth;
  cloth.name = "flag";
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) cloth.vertices.push_back({2 + 0.2 * c, 1.5, 0.2 * r});
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 2; ++c) {
      const int v = r * 3 + c;
      cloth.triangles.insert(cloth.triangles.end(), {v, v + 3, v + 1, v + 1, v + 3, v + 4});
    }
  world.add_cloth(cloth);
  Recording rec = start_recording(world, "sand and cloth", 1);
  for (int s = 0; s < steps; ++s) {
    EXPECT_TRUE(world.step().ok);
    record_frame(rec, world);
  }
  return rec;
}

TEST(FieldOutputs, TheRecordingKeepsTheSandAndTheCloth) {
  const Recording rec = sand_and_cloth(60);
  ASSERT_EQ(rec.surfaces.size(), 1u);
  const RecordedSurface& s = rec.surfaces[0];
  EXPECT_EQ(s.name, "sand");
  EXPECT_EQ(s.kind, SurfaceKind::Sand);
  EXPECT_EQ(s.stride, 1);  // 21 vertices a side: kept whole
  EXPECT_EQ(s.columns, 21);
  EXPECT_EQ(s.rows, 21);
  EXPECT_DOUBLE_EQ(s.spacing, 0.05);
  ASSERT_GE(s.body, 0);
  EXPECT_EQ(rec.bodies[std::size_t(s.body)].name, "sand");
  // 61 frames of 441 heights are far under the budget: every frame is kept.
  ASSERT_EQ(s.frame_count(), 61);
  ASSERT_EQ(s.height.size(), 61 * s.vertex_count());
  for (int k = 0; k < 61; ++k) EXPECT_EQ(s.frame[std::size_t(k)], k);
  // The box pressed the sand under it: the middle vertex went down.
  const std::size_t middle = 10 * 21 + 10, last = 60 * s.vertex_count() + middle;
  EXPECT_LT(s.height[last], s.height[middle] - 1e-3f);

  ASSERT_EQ(rec.cloths.size(), 1u);
  const RecordedCloth& c = rec.cloths[0];
  EXPECT_EQ(c.name, "flag");
  ASSERT_EQ(c.particles.size(), 9u);
  for (int v = 0; v < 9; ++v)
    EXPECT_EQ(rec.bodies[std::size_t(c.particles[std::size_t(v)])].name,
              "flag_" + std::to_string(v));
  ASSERT_EQ(c.triangles.size(), 24u);  // recorded bodies, not cloth vertices
  EXPECT_EQ(c.triangles[0], c.particles[0]);
  EXPECT_EQ(c.triangles[1], c.particles[3]);

  // The outputs draw the sand's body and the particles as the surface and the cloth.
  const std::vector<bool> drawn = rec.drawn_by_field();
  for (int b = 0; b < rec.body_count(); ++b)
    EXPECT_EQ(drawn[std::size_t(b)], rec.bodies[std::size_t(b)].name != "box")
        << rec.bodies[std::size_t(b)].name;
}

TEST(FieldOutputs, LargeSurfacesAreDownsampledAndThinnedToTheBudget) {
  // 300 x 40 vertices: every 3rd is kept (ceil(299 / 127)), 100 x 14.
  World world;
  SandDef sand;
  sand.columns = 300;
  sand.rows = 40;
  world.add_sand(sand);
  Recording rec = start_recording(world, "large sand", 1);
  const RecordedSurface& s = rec.surfaces[0];
  EXPECT_EQ(s.stride, 3);
  EXPECT_EQ(s.columns, 100);
  EXPECT_EQ(s.rows, 14);
  EXPECT_NEAR(s.spacing, 3 * sand.spacing, 1e-15);
  // 1400 heights a frame: the budget holds 2857 frames. Record 7000 (the
  // world need not step: recording only reads it).
  const int frames = 7000;
  for (int f = 1; f < frames; ++f) record_frame(rec, world);
  ASSERT_EQ(rec.frame_count(), frames);
  EXPECT_LE(s.frame.size() * s.vertex_count(), kSurfaceSampleBudget);
  EXPECT_EQ(s.height.size(), s.frame.size() * s.vertex_count());
  // Halved twice (4 then 2 frames apart did not fit): every 4th frame kept,
  // evenly, and the latest one as well.
  EXPECT_EQ(s.every, 4);
  EXPECT_GE(s.frame.size() * s.vertex_count(), kSurfaceSampleBudget / 2);
  EXPECT_EQ(s.frame.front(), 0);
  EXPECT_EQ(s.frame.back(), frames - 1);
  for (std::size_t k = 1; k + 1 < s.frame.size(); ++k)
    EXPECT_EQ(s.frame[k], s.frame[k - 1] + s.every) << k;
}

TEST(FieldOutputs, GltfAnimatesTheSandAndTheClothByMorphTargets) {
  const int steps = 60;
  const Recording rec = sand_and_cloth(steps);
  const std::string path = kOut + "/field_outputs_sand_cloth.glb";
  write_gltf(rec, path);
  const Glb glb(path);
  const json& doc = glb.doc;

  // The sand's body and the particles keep their nodes, without meshes.
  EXPECT_FALSE(glb.node("sand").contains("mesh"));
  EXPECT_FALSE(glb.node("flag_4").contains("mesh"));
  EXPECT_TRUE(glb.node("box").contains("mesh"));

  const RecordedSurface& s = rec.surfaces[0];
  struct Expect {
    std::string node;
    std::size_t vertices, keyframes;
  };
  // 21 x 21 <= 64 x 64: the grid whole; 61 frames: 32 keyframes for the
  // sand, all 61 for the cloth (at most 120).
  for (const Expect& e : {Expect{"sand surface", 441, 32}, Expect{"flag", 9, 61}}) {
    SCOPED_TRACE(e.node);
    const json node = glb.node(e.node);
    ASSERT_TRUE(node.contains("mesh"));
    const int node_index =
        int(std::find(doc["nodes"].begin(), doc["nodes"].end(), node) - doc["nodes"].begin());
    const json& prim = doc["meshes"][node["mesh"].get<int>()]["primitives"][0];
    const std::vector<float> base = glb.floats(prim["attributes"]["POSITION"]);
    ASSERT_EQ(base.size(), 3 * e.vertices);
    ASSERT_EQ(prim["targets"].size(), e.keyframes);
    // The weights channel: keyframe k is target k alone, blended linearly.
    const json* channel = nullptr;
    for (const json& ch : doc["animations"][0]["channels"])
      if (ch["target"]["node"] == node_index) channel = &ch;
    ASSERT_NE(channel, nullptr);
    EXPECT_EQ((*channel)["target"]["path"], "weights");
    const json& sampler = doc["animations"][0]["samplers"][(*channel)["sampler"].get<int>()];
    EXPECT_EQ(sampler["interpolation"], "LINEAR");
    const std::vector<float> times = glb.floats(sampler["input"]);
    const std::vector<float> weights = glb.floats(sampler["output"]);
    ASSERT_EQ(times.size(), e.keyframes);
    ASSERT_EQ(weights.size(), e.keyframes * e.keyframes);
    for (std::size_t k = 0; k < e.keyframes; ++k)
      for (std::size_t j = 0; j < e.keyframes; ++j)
        EXPECT_EQ(weights[k * e.keyframes + j], k == j ? 1.0f : 0.0f);
    EXPECT_FLOAT_EQ(times.front(), 0.0f);
    EXPECT_NEAR(times.back(), rec.frame_time.back(), 1e-6);

    // The last keyframe is the last frame: base + its target = the recording.
    const std::vector<float> moved = glb.floats(prim["targets"][e.keyframes - 1]["POSITION"]);
    ASSERT_EQ(moved.size(), base.size());
    double worst = 0, most = 0;
    for (std::size_t v = 0; v < e.vertices; ++v) {
      Vec3 want;
      if (e.node == "flag") {
        const int body = rec.cloths[0].particles[v];
        want = rec.position[std::size_t(steps) * rec.bodies.size() + std::size_t(body)];
      } else {
        want = {s.x0 + double(v % 21) * s.spacing,
                s.height[std::size_t(steps) * s.vertex_count() + v],
                s.z0 + double(v / 21) * s.spacing};
      }
      const double got[3] = {base[3 * v] + moved[3 * v], base[3 * v + 1] + moved[3 * v + 1],
                             base[3 * v + 2] + moved[3 * v + 2]};
      worst = std::max(
          {worst, std::abs(got[0] - want.x), std::abs(got[1] - want.y), std::abs(got[2] - want.z)});
      most = std::max(most, std::abs(double(moved[3 * v + 1])));
    }
    EXPECT_LT(worst, 1e-5);  // float rounding of metres
    EXPECT_GT(most, 1e-3);   // and it did move: the box pressed, the cloth fell
  }

  // The sand moved only under and around the box: its targets are sparse.
  const json& sand_prim =
      doc["meshes"][glb.node("sand surface")["mesh"].get<int>()]["primitives"][0];
  const json& last = doc["accessors"][sand_prim["targets"][31]["POSITION"].get<int>()];
  ASSERT_TRUE(last.contains("sparse")) << last;
  EXPECT_LT(last["sparse"]["count"].get<int>(), 441 / 2);

  if (!validator_available()) GTEST_SKIP() << "node or gltf-validator missing";
  std::string report;
  EXPECT_EQ(validate(path, report), 0) << report;
  EXPECT_NE(report.find("numErrors=0 "), std::string::npos) << report;
  EXPECT_NE(report.find("numWarnings=0 "), std::string::npos) << report;
}

TEST(FieldOutputs, GltfOfTheSailboatIsValidWithin64By64AndItsKeyframeLimits) {
  // The scene's water grid is 160 x 160: recorded every 2nd vertex (80 x 80),
  // then every 2nd again for the glTF (40 x 40); 31 frames, all keyframes.
  const std::string path = kOut + "/field_outputs_sailboat.glb";
  const std::string command = std::string(PABD_CLI_PATH) + " run '" + kSource +
                              "/scenes/sailboat.json' --steps 30 --quiet --gltf '" + path +
                              "' > /dev/null";
  ASSERT_EQ(std::system(command.c_str()), 0);
  const Glb glb(path);
  const json water = glb.node("water surface");
  ASSERT_TRUE(water.contains("mesh"));
  const json& prim = glb.doc["meshes"][water["mesh"].get<int>()]["primitives"][0];
  EXPECT_EQ(glb.doc["accessors"][prim["attributes"]["POSITION"].get<int>()]["count"], 1600);
  EXPECT_EQ(prim["targets"].size(), 31u);
  const json& material = glb.doc["materials"][prim["material"].get<int>()];
  EXPECT_EQ(material["alphaMode"], "BLEND");  // translucent water
  for (const char* sail : {"main", "jib"}) {
    const json node = glb.node(sail);
    ASSERT_TRUE(node.contains("mesh")) << sail;
    const json& p = glb.doc["meshes"][node["mesh"].get<int>()]["primitives"][0];
    EXPECT_EQ(glb.doc["accessors"][p["attributes"]["POSITION"].get<int>()]["count"], 60);
    EXPECT_EQ(p["targets"].size(), 31u);
    EXPECT_TRUE(glb.doc["materials"][p["material"].get<int>()]["doubleSided"].get<bool>());
  }
  if (!validator_available()) GTEST_SKIP() << "node or gltf-validator missing";
  std::string report;
  EXPECT_EQ(validate(path, report), 0) << report;
  EXPECT_NE(report.find("numErrors=0 "), std::string::npos) << report;
}

TEST(FieldOutputs, GridHelpers) {
  EXPECT_EQ(grid_stride(128, 128), 1);
  EXPECT_EQ(grid_stride(129, 128), 2);
  EXPECT_EQ(grid_stride(256, 128), 3);  // ceil(255 / 127)
  EXPECT_EQ(strided_count(256, 3), 86);
  EXPECT_EQ(grid_stride(86, 64), 2);
  EXPECT_EQ(strided_count(86, 2), 43);
  // Two triangles a cell, both facing +y.
  const std::vector<std::uint32_t> t = grid_triangles(3, 2);
  ASSERT_EQ(t.size(), 12u);
  const float h[6] = {0, 0, 0, 0, 0, 0};
  float p[18], n[18];
  grid_vertices(GridLayout{3, 2, 0.5, 1, 2}, h, p, n, 3);
  for (std::size_t k = 0; k < t.size(); k += 3) {
    const auto at = [&](std::uint32_t v) { return Vec3{p[3 * v], p[3 * v + 1], p[3 * v + 2]}; };
    EXPECT_GT(cross(at(t[k + 1]) - at(t[k]), at(t[k + 2]) - at(t[k])).y, 0) << k;
  }
  EXPECT_FLOAT_EQ(p[3 * 5], 2.0f);      // vertex (2, 1): x0 + 2 * 0.5
  EXPECT_FLOAT_EQ(p[3 * 5 + 2], 2.5f);  // z0 + 1 * 0.5
  EXPECT_FLOAT_EQ(n[1], 1.0f);          // flat: +y
}

}  // namespace
}  // namespace pabd
