// `pabd view` end to end under a virtual X server: a scripted mouse drag must
// move the pendulum bob, the report must name it, and the screenshot must be a
// real picture of the scene. Skipped where xvfb-run is missing or the viewer
// was not built (no GLFW / OpenGL / Dear ImGui).

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

#include "output/shape_mesh.h"

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

/// Runs the viewer on scenes/pendulum.json; the drag only when `drag` is set.
Result run_viewer(bool drag, const std::string& png, const std::string& report) {
  // Under the sanitizer build, Mesa's GL drivers (loaded and unloaded by
  // libGL) leave allocations that LeakSanitizer reports without a module to
  // suppress them by; leaks in pabd's own code are covered by every other test,
  // so the viewer process alone runs without leak detection.
  const char* asan = std::getenv("ASAN_OPTIONS");
  std::string cmd = std::string("ASAN_OPTIONS=") + (asan ? asan : "") + ":detect_leaks=0 " +
                    "xvfb-run -a -s \"-screen 0 1280x720x24\" " + PABD_CLI_PATH + " view " +
                    PABD_SOURCE_DIR + "/scenes/pendulum.json --frames " + std::to_string(kFrames) +
                    " --fixed-step --size 1280x720 --screenshot " + png + " --report " + report;
  if (drag) cmd += std::string(" --drag-body bob --drag ") + kDrag;
  return run(cmd);
}

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

}  // namespace
