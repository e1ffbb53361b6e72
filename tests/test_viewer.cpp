// `pabd view` end to end under a virtual X server: a scripted mouse drag must
// move the pendulum bob, the report must name it, and the screenshot must be a
// real picture of the scene; contacts are drawn when asked for, `--threads`
// sets the solver's threads, and a scene of a few centimetres fills the view;
// sand, water and cloth are drawn.
// Skipped where xvfb-run is missing or the viewer was not built (no GLFW /
// OpenGL / Dear ImGui).

#define STB_IMAGE_IMPLEMENTATION
#include <gtest/gtest.h>
#include <stb/stb_image.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "output/surface_mesh.h"
#include "shapes/shape_mesh.h"

namespace {

struct Result {
  int status = -1;
  std::string output;
};

/// Runs a shell command, returning its exit status and stdout + stderr.
Result run(const std::string& command) {
  Result r;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buf;
  std::size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) r.output.append(buf.data(), n);
  const int raw = pclose(pipe);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return r;
}

std::string out_path(const std::string& name) {
  return std::string(PABD_TEST_OUTPUT_DIR) + "/viewer_" + name;
}

/// Frames per run. The scripted drag presses on frame 10, moves for 100 frames
/// and then holds the mouse still until the run ends, so for the last 190
/// frames the spring holds the bob near the end of the drag.
constexpr int kFrames = 300;

/// Drag from the bob's centre 100 px left and 300 px up. Under the default
/// camera (framing the scene, looking along -Z) that lifts the bob above its
/// pivot's height, far from where the free pendulum is after 300 steps.
constexpr const char* kDrag = "0,0,-100,-300";

/// Runs `pabd view SCENE --fixed-step --size 1280x720 ARGS` under xvfb-run.
Result view(const std::string& scene, const std::string& args) {
  // Under the sanitizer build, Mesa's GL drivers (loaded and unloaded by
  // libGL) leave allocations that LeakSanitizer reports without a module to
  // suppress them by; leaks in pabd's own code are covered by every other test,
  // so the viewer process alone runs without leak detection.
  const char* asan = std::getenv("ASAN_OPTIONS");
  return run(std::string("ASAN_OPTIONS=") + (asan ? asan : "") + ":detect_leaks=0 " +
             "xvfb-run -a -s \"-screen 0 1280x720x24\" " + PABD_CLI_PATH + " view " + scene +
             " --fixed-step --size 1280x720 " + args);
}

/// Runs the viewer on scenes/pendulum.json; the drag only when `drag` is set.
Result run_viewer(bool drag, const std::string& png, const std::string& report) {
  std::string args =
      "--frames " + std::to_string(kFrames) + " --screenshot " + png + " --report " + report;
  if (drag) args += std::string(" --drag-body bob --drag ") + kDrag;
  return view(std::string(PABD_SOURCE_DIR) + "/scenes/pendulum.json", args);
}

/// A scene 5 cm across: three 1.5 cm cubes resting on the ground plane, 2 cm
/// apart. Each cube touches the ground with four corner contacts.
std::string small_scene() {
  const std::string path = out_path("small_scene.json");
  std::ofstream(path) << R"({
  "settings": {"dt": 0.016666666666666666, "iterations": 20, "gravity": [0, -9.81, 0]},
  "bodies": [
    {"name": "ground", "static": true, "shape": {"type": "plane"}},
    {"name": "left", "shape": {"type": "box", "size": [0.015, 0.015, 0.015]},
     "position": [-0.02, 0.0075, 0], "mass": 0.01},
    {"name": "middle", "shape": {"type": "box", "size": [0.015, 0.015, 0.015]},
     "position": [0, 0.0075, 0], "mass": 0.01},
    {"name": "right", "shape": {"type": "box", "size": [0.015, 0.015, 0.015]},
     "position": [0.02, 0.0075, 0], "mass": 0.01}
  ]
})";
  return path;
}

/// An RGB image read back from a PNG.
struct Image {
  int w = 0, h = 0;
  std::vector<unsigned char> px;
  explicit Image(const std::string& png) {
    int channels = 0;
    unsigned char* data = stbi_load(png.c_str(), &w, &h, &channels, 3);
    if (data) px.assign(data, data + std::size_t(w) * h * 3);
    stbi_image_free(data);
  }
  /// Pixels within `tolerance` levels, per channel, of the colour c (0..1 RGB).
  int count_near(pabd::Vec3 c, int tolerance) const {
    int n = 0;
    for (std::size_t i = 0; i + 2 < px.size(); i += 3)
      n += std::abs(px[i] - std::lround(255 * c.x)) <= tolerance &&
                   std::abs(px[i + 1] - std::lround(255 * c.y)) <= tolerance &&
                   std::abs(px[i + 2] - std::lround(255 * c.z)) <= tolerance
               ? 1
               : 0;
    return n;
  }
  /// Pixels that are the colour c times a light factor s > 0.3 (the mesh
  /// shader scales a body's colour by 0.22 to 1.05): within 12 levels.
  int count_lit(pabd::Vec3 c) const {
    int n = 0;
    const double cr = 255 * c.x, cg = 255 * c.y, cb = 255 * c.z;
    for (std::size_t i = 0; i + 2 < px.size(); i += 3) {
      const double r = px[i], g = px[i + 1], b = px[i + 2];
      const double s = (r * cr + g * cg + b * cb) / (cr * cr + cg * cg + cb * cb);
      const double er = r - s * cr, eg = g - s * cg, eb = b - s * cb;
      if (s > 0.3 && std::sqrt(er * er + eg * eg + eb * eb) < 12) ++n;
    }
    return n;
  }
};

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

std::array<double, 3> position_of(const nlohmann::json& report, const std::string& name) {
  for (const auto& b : report.at("bodies"))
    if (b.at("name") == name) return b.at("position").get<std::array<double, 3>>();
  ADD_FAILURE() << "no body " << name << " in the report";
  return {0, 0, 0};
}

class Viewer : public ::testing::Test {
 protected:
  void SetUp() override {
    if (run("command -v xvfb-run").status != 0) GTEST_SKIP() << "xvfb-run is not installed";
    // A build without the viewer says so and exits 1; one with it fails on the
    // missing scene file before opening a window.
    const Result probe = run(std::string(PABD_CLI_PATH) + " view /nonexistent/scene.json");
    if (probe.output.find("built without the viewer") != std::string::npos)
      GTEST_SKIP() << "pabd was built without the viewer";
  }
};

TEST_F(Viewer, ScriptedDragMovesTheBobAndTheScreenshotShowsIt) {
  const std::string png_drag = out_path("drag.png"), json_drag = out_path("drag.json");
  const std::string png_free = out_path("free.png"), json_free = out_path("free.json");
  for (const std::string& f : {png_drag, json_drag, png_free, json_free})
    std::filesystem::remove(f);

  const Result dragged = run_viewer(true, png_drag, json_drag);
  ASSERT_EQ(dragged.status, 0) << dragged.output;
  const Result free = run_viewer(false, png_free, json_free);
  ASSERT_EQ(free.status, 0) << free.output;

  // The report names the dragged body, and the undragged run names none.
  const nlohmann::json rd = read_json(json_drag), rf = read_json(json_free);
  ASSERT_TRUE(rd.at("dragged").is_object()) << rd.dump(2);
  EXPECT_EQ(rd["dragged"]["body"], "bob");
  EXPECT_TRUE(rf.at("dragged").is_null());
  EXPECT_EQ(rd.at("steps"), kFrames);  // --fixed-step: one step per frame
  EXPECT_EQ(rf.at("steps"), kFrames);

  // Displacement caused by the drag, along the world direction the cursor
  // moved in (grab point to the spring's last target). The pendulum keeps the
  // bob 1 m from its pivot and the 200 N/m spring on 1 kg pulls it within a
  // few centimetres of the target (gravity sags it by m g / k = 5 cm), so the
  // bob ends about 1.5 m further along the drag than the free pendulum does;
  // 0.3 m is far above any solver noise yet far below what a working drag gives.
  const auto pd = position_of(rd, "bob"), pf = position_of(rf, "bob");
  const auto grab = rd["dragged"]["grab_point"].get<std::array<double, 3>>();
  const auto target = rd["dragged"]["last_target"].get<std::array<double, 3>>();
  double dir[3], norm = 0, along = 0;
  for (int i = 0; i < 3; ++i) {
    dir[i] = target[i] - grab[i];
    norm += dir[i] * dir[i];
  }
  norm = std::sqrt(norm);
  ASSERT_GT(norm, 0.3) << "the drag target barely moved";
  for (int i = 0; i < 3; ++i) along += (pd[i] - pf[i]) * dir[i] / norm;
  EXPECT_GT(along, 0.3) << "dragged bob " << pd[0] << "," << pd[1] << "," << pd[2] << " vs free "
                        << pf[0] << "," << pf[1] << "," << pf[2];

  // Both screenshots: the requested size, and a real picture (the panel's
  // text, the grid and the shaded faces give hundreds of colours; a blank or
  // cleared-only frame has one or two).
  const pabd::Vec3 bob = pabd::body_color(0, false);
  for (const std::string& png : {png_drag, png_free}) {
    int w = 0, h = 0, channels = 0;
    unsigned char* px = stbi_load(png.c_str(), &w, &h, &channels, 3);
    ASSERT_NE(px, nullptr) << "cannot decode " << png;
    EXPECT_EQ(w, 1280);
    EXPECT_EQ(h, 720);
    std::set<int> colours;
    int bob_pixels = 0;
    for (int i = 0; i < w * h; ++i) {
      const double r = px[3 * i], g = px[3 * i + 1], b = px[3 * i + 2];
      colours.insert((px[3 * i] << 16) | (px[3 * i + 1] << 8) | px[3 * i + 2]);
      // Lit bob pixels are the bob's colour times a light factor s (the shader
      // scales the colour, 0.22 to 1.05); the grey background and grid fit no
      // such s within 12 levels. The dragged bob is highlighted (mixed with
      // white), so this check counts on the free run only.
      const double cr = 255 * bob.x, cg = 255 * bob.y, cb = 255 * bob.z;
      const double s = (r * cr + g * cg + b * cb) / (cr * cr + cg * cg + cb * cb);
      const double er = r - s * cr, eg = g - s * cg, eb = b - s * cb;
      if (s > 0.3 && std::sqrt(er * er + eg * eg + eb * eb) < 12) ++bob_pixels;
    }
    stbi_image_free(px);
    EXPECT_GT(colours.size(), 5u) << png << " looks blank";
    // The bob is a 0.25 m cube about 4 m from the camera: some 2000 pixels.
    // 100 leaves room for lighting and camera tweaks without passing a frame
    // that does not show it.
    if (png == png_free) {
      EXPECT_GT(bob_pixels, 100) << png << " does not show the bob";
    }
  }
}

TEST_F(Viewer, ContactsAreDrawnWhenAskedFor) {
  // The small scene after 5 steps: its cubes rest on the ground, so the last
  // step has contacts, and --contacts draws every one of them.
  const std::string scene = small_scene();
  const std::string png_on = out_path("contacts_on.png"), json_on = out_path("contacts_on.json");
  const std::string png_off = out_path("contacts_off.png"),
                    json_off = out_path("contacts_off.json");
  const Result on =
      view(scene, "--frames 5 --contacts --screenshot " + png_on + " --report " + json_on);
  ASSERT_EQ(on.status, 0) << on.output;
  const Result off = view(scene, "--frames 5 --screenshot " + png_off + " --report " + json_off);
  ASSERT_EQ(off.status, 0) << off.output;
  const nlohmann::json ron = read_json(json_on), roff = read_json(json_off);
  const int contacts = ron.at("contacts");
  // Three resting cubes, four corners each: 12; a corner may split or a
  // speculative one join, so 6 to 48 are accepted (0 would be the bug).
  EXPECT_GE(contacts, 6);
  EXPECT_LE(contacts, 48);
  EXPECT_EQ(ron.at("contacts_drawn"), contacts);
  EXPECT_EQ(roff.at("contacts"), contacts);  // the same steps: the same contacts
  EXPECT_EQ(roff.at("contacts_drawn"), 0);

  // On screen: the contact lines are drawn unlit in their own colours (orange
  // pushing, grey-blue speculative), which no lit cube has (body colours have
  // saturation 0.65 at any light, the ground is grey). Counted as the pixels
  // the run with contacts has beyond the run without (the same frame, so any
  // chance match elsewhere, in the panel say, cancels). Each contact is a
  // cross of ~14 px arms and a ~35 px normal; 10 pixels per contact leaves
  // room for crosses drawn over one another at a cube's corners.
  const Image img_on(png_on), img_off(png_off);
  ASSERT_FALSE(img_on.px.empty());
  ASSERT_FALSE(img_off.px.empty());
  const pabd::Vec3 pushing{1.0, 0.35, 0.12}, speculative{0.5, 0.61, 0.75};
  const int shown = img_on.count_near(pushing, 3) + img_on.count_near(speculative, 3);
  const int hidden = img_off.count_near(pushing, 3) + img_off.count_near(speculative, 3);
  EXPECT_GE(shown - hidden, 10 * contacts) << png_on << " vs " << png_off;
}

TEST_F(Viewer, ThreadsFlagSetsTheSolverThreads) {
  const std::string report = out_path("threads.json");
  std::filesystem::remove(report);
  const std::string pendulum = std::string(PABD_SOURCE_DIR) + "/scenes/pendulum.json";
  const Result r = view(pendulum, "--threads 2 --frames 3 --report " + report);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(read_json(report).at("threads"), 2);
  // Refused before a window opens, as `pabd run --threads` refuses it.
  const Result bad = view(pendulum, "--threads -1 --frames 3");
  EXPECT_EQ(bad.status, 2) << bad.output;
  EXPECT_NE(bad.output.find("--threads"), std::string::npos) << bad.output;
}

TEST_F(Viewer, SmallSceneFillsTheView) {
  // 5 cm of cubes framed from the default direction: the camera comes within
  // a few times the scene's size (it used to stop at 3 m), and the cubes cover
  // a good part of the 1280x720 frame.
  const std::string png = out_path("small.png"), report = out_path("small.json");
  const Result r = view(small_scene(), "--frames 2 --screenshot " + png + " --report " + report);
  ASSERT_EQ(r.status, 0) << r.output;
  const double distance = read_json(report).at("camera").at("distance");
  // The framed box is ~7 cm wide and 2.6 cm tall (the cubes' bounding spheres):
  // 1.15 * its radius / sin(22.5 deg) is ~0.13 m. 0.05 to 0.5 m is "framed".
  EXPECT_GT(distance, 0.05);
  EXPECT_LT(distance, 0.5);
  // Each 1.5 cm cube is then ~100 px across, ~10^4 pixels of its colour (the
  // lit faces); at 3 m it would be 4 px across, ~20 pixels. 2000 pixels of
  // the middle cube separates the two by a factor of 5 either way.
  const Image img(png);
  ASSERT_FALSE(img.px.empty());
  const int middle = img.count_lit(pabd::body_color(2, false));
  EXPECT_GT(middle, 2000) << png;
}

/// A 0.5 m box thrown along +x over a 20 m ground box: it slides and rolls
/// far from where it started within a second.
std::string thrown_box_scene() {
  const std::string path = out_path("thrown_box.json");
  std::ofstream(path) << R"({
  "settings": {"dt": 0.016666666666666666, "iterations": 20, "gravity": [0, -9.81, 0]},
  "bodies": [
    {"name": "ground", "static": true, "shape": {"type": "box", "size": [20, 1, 4]},
     "position": [0, -0.5, 0]},
    {"name": "box", "shape": {"type": "box", "size": [0.5, 0.5, 0.5]},
     "position": [-8, 1, 0], "velocity": [6, 0, 0], "mass": 1}
  ]
})";
  return path;
}

TEST_F(Viewer, FollowKeepsTheBodyFramedAsItMoves) {
  const std::string scene = thrown_box_scene();
  auto camera_offset = [&](const std::string& args, const std::string& name) {
    const std::string report = out_path(name);
    std::filesystem::remove(report);
    const Result r = view(scene, args + " --report " + report);
    EXPECT_EQ(r.status, 0) << r.output;
    const nlohmann::json j = read_json(report);
    const auto t = j.at("camera").at("target").get<std::array<double, 3>>();
    const auto p = position_of(j, "box");
    return std::array<double, 5>{t[0] - p[0], t[1] - p[1], t[2] - p[2], p[0],
                                 j.at("camera").at("distance").get<double>()};
  };
  const auto early = camera_offset("--follow box --frames 2", "follow_early.json");
  const auto late = camera_offset("--follow box --frames 60", "follow_late.json");
  const auto scene_framed = camera_offset("--frames 2", "follow_none.json");
  // In one second the box covers metres (6 m/s, slowed by friction)...
  ASSERT_GT(late[3] - early[3], 1.0);
  // ...and the camera's target moved with it by the same displacement: the
  // offsets agree to rounding (a sum of ~60 steps of metre-sized deltas).
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(late[k], early[k], 1e-9) << "axis " << k;
  // Framed close: a cube of 1.5 bounding radii (0.65 m) around the box, against
  // the whole 20 m ground when the scene is framed (ratio ~0.03; 0.5 is loose).
  EXPECT_LT(early[4], 0.5 * scene_framed[4]);
  // A name the scene lacks is refused before a window opens.
  const Result bad = view(scene, "--follow nobody --frames 2");
  EXPECT_EQ(bad.status, 2) << bad.output;
  EXPECT_NE(bad.output.find("--follow"), std::string::npos) << bad.output;
}

TEST_F(Viewer, SandWaterAndClothAreDrawn) {
  // The dog on its 256 x 256 sand bed: the surface is drawn (the report counts
  // it) in the sand's colour, lit. Framed on the whole bed (7.7 m), it is
  // some 9,000 pixels at 1280 x 720 (measured); the dog's torso, a saturated
  // yellow, is not within 12 levels of the sand's hue, and the bed's own
  // height field would be drawn grey, as static bodies are.
  const std::string png = out_path("sand.png"), report = out_path("sand.json");
  std::filesystem::remove(png);
  const Result sand = view(std::string(PABD_SOURCE_DIR) + "/scenes/robot_dog_sand.json",
                           "--frames 3 --screenshot " + png + " --report " + report);
  ASSERT_EQ(sand.status, 0) << sand.output;
  const nlohmann::json r = read_json(report);
  EXPECT_EQ(r.at("surfaces_drawn"), 1);
  EXPECT_EQ(r.at("cloths_drawn"), 0);
  const Image img(png);
  ASSERT_FALSE(img.px.empty());
  EXPECT_GT(img.count_lit(pabd::kSandColor), 5000) << png;

  // The sailboat: its water and its two sails.
  const std::string boat = out_path("sailboat.json");
  const Result sail =
      view(std::string(PABD_SOURCE_DIR) + "/scenes/sailboat.json", "--frames 3 --report " + boat);
  ASSERT_EQ(sail.status, 0) << sail.output;
  const nlohmann::json b = read_json(boat);
  EXPECT_EQ(b.at("surfaces_drawn"), 1);
  EXPECT_EQ(b.at("cloths_drawn"), 2);
}

}  // namespace
