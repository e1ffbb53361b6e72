// `pabd view SCENE.json`: open a window that steps the live solver in real time
// (GLFW, OpenGL 3.3 core, Dear ImGui; see src/viewer/viewer_app.h).
//
// The testability flags (--frames, --screenshot, --drag, --drag-body, --report,
// --size, --fixed-step) let the viewer run unattended under xvfb-run; --threads
// and --contacts set what the panel can also change; --follow keeps one body
// in view.

#include "cli/view_command.h"

#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command_support.h"
#include "cli/device_flag.h"
#include "cli/run_command.h"
#ifdef PABD_HAVE_VIEWER
#include "viewer/viewer_app.h"
#endif

namespace pabd::cli {
namespace {

struct ViewArgs {
  std::string scene_path;
  std::string scenes_dir;
  long long frames = 0;
  std::string screenshot;
  std::string drag;
  std::string drag_body;
  std::string report;
  std::string size = "1280x720";
  bool fixed_step = false;
  long long threads = 0;
  CLI::Option* threads_opt = nullptr;  ///< given: overrides the scene's settings.threads
  DeviceFlag device;                   ///< --device
  bool contacts = false;
  std::string follow;
};

/// Splits "a<sep>b<sep>..." into exactly `count` numbers; false on anything else.
bool parse_numbers(const std::string& text, char sep, std::size_t count, std::vector<double>* out) {
  out->clear();
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, sep)) {
    try {
      std::size_t used = 0;
      const double v = std::stod(item, &used);
      if (used != item.size()) return false;
      out->push_back(v);
    } catch (const std::exception&) {
      return false;
    }
  }
  return out->size() == count;
}

int run_view(const ViewArgs& args) {
  std::vector<double> size, drag;
  if (!parse_numbers(args.size, 'x', 2, &size) || size[0] < 64 || size[1] < 64 || size[0] > 16384 ||
      size[1] > 16384 || size[0] != static_cast<int>(size[0]) ||
      size[1] != static_cast<int>(size[1])) {
    std::fprintf(stderr, "pabd view: --size: expected WxH with 64 <= W, H <= 16384, got '%s'\n",
                 args.size.c_str());
    return kExitBadInput;
  }
  if (!args.drag.empty() && !parse_numbers(args.drag, ',', 4, &drag)) {
    std::fprintf(stderr, "pabd view: --drag: expected \"x0,y0,x1,y1\" in pixels, got '%s'\n",
                 args.drag.c_str());
    return kExitBadInput;
  }
  if (args.frames < 0) {
    std::fprintf(stderr, "pabd view: --frames: expected N >= 0\n");
    return kExitBadInput;
  }
  // The same range as `pabd run --threads`.
  try {
    args.device.check("pabd view");
  } catch (const CommandFailure& e) {
    std::fprintf(stderr, "%s\n", e.message.c_str());
    return kExitBadInput;
  }
  const bool threads = args.threads_opt->count() > 0;
  if (threads && (args.threads < 0 || args.threads > 1'000'000)) {
    std::fprintf(stderr, "pabd view: --threads: expected an integer >= 0 (0 = OpenMP's default)\n");
    return kExitBadInput;
  }
#ifdef PABD_HAVE_VIEWER
  viewer::ViewerOptions opt;
  opt.scene_path = args.scene_path;
  opt.scenes_dir = args.scenes_dir;
  opt.frames = args.frames;
  opt.screenshot_path = args.screenshot;
  opt.report_path = args.report;
  opt.has_drag = !drag.empty();
  if (opt.has_drag) opt.drag = {drag[0], drag[1], drag[2], drag[3]};
  opt.drag_body = args.drag_body;
  opt.width = static_cast<int>(size[0]);
  opt.height = static_cast<int>(size[1]);
  opt.fixed_step = args.fixed_step;
  opt.threads = threads ? static_cast<int>(args.threads) : -1;
  opt.device = args.device.value;
  opt.contacts = args.contacts;
  opt.follow = args.follow;
  return viewer::run_viewer(opt);
#else
  std::fprintf(stderr,
               "pabd view: built without the viewer (install libglfw3-dev libgl-dev libimgui-dev "
               "via scripts/install-deps.sh)\n");
  return kExitFailure;
#endif
}

}  // namespace

void add_view_command(CLI::App& app, int& exit_status) {
  CLI::App* cmd = app.add_subcommand(
      "view",
      "Open a window that simulates a scene live (pause: space, step: S, reset: R, help: H; "
      "left drag pulls a body, right drag orbits, middle drag pans, wheel zooms)");
  auto args = std::make_shared<ViewArgs>();
  cmd->add_option(
         "scene", args->scene_path,
         "Scene file (JSON, see docs/scene-format.md), or a robot model (.urdf, MJCF .xml)")
      ->required();
  cmd->add_option("--scenes-dir", args->scenes_dir,
                  "Folder whose *.json files the scene picker lists (default: the scene's folder)");
  cmd->add_option("--frames", args->frames, "Quit after N frames (default: run until closed)");
  cmd->add_option("--screenshot", args->screenshot,
                  "Write the last frame as a PNG file before quitting (use with --frames)");
  cmd->add_option(
      "--drag", args->drag,
      "Scripted mouse drag \"x0,y0,x1,y1\" in window pixels: press at (x0,y0) on "
      "frame 10, move linearly to (x1,y1) over the next 100 frames, hold until the end");
  auto* drag_body = cmd->add_option(
      "--drag-body", args->drag_body,
      "Start the scripted drag at this body's centre as seen on frame 10; the drag then moves by "
      "(x1-x0, y1-y0) of --drag");
  cmd->add_option("--report", args->report,
                  "Write the final state of every body, and which body was dragged, as JSON");
  cmd->add_option("--size", args->size, "Window size WxH in pixels (default 1280x720)");
  cmd->add_flag("--fixed-step", args->fixed_step,
                "Exactly one simulation step per frame (deterministic; default: real time)");
  args->threads_opt = cmd->add_option(
      "--threads", args->threads,
      "Solver threads, 0 = OpenMP's default (default: settings.threads; the panel changes it)");
  args->device.add_to(*cmd);
  cmd->add_flag("--contacts", args->contacts,
                "Start with the contact points and normals shown (C toggles them)");
  cmd->add_option("--follow", args->follow,
                  "Keep this body in view: frame it closely and move the camera with it (orbit, "
                  "pan and zoom still work)");
  drag_body->needs(cmd->get_option("--drag"));
  cmd->callback([args, &exit_status] { exit_status = run_view(*args); });
}

}  // namespace pabd::cli
