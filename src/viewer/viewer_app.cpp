// The viewer's app loop (see viewer_app.h).
//
// Per frame: poll events, advance the scripted drag, step the simulation
// (real time: accumulate wall time and take fixed dt steps, at most
// kMaxStepsPerFrame; or exactly one step with --fixed-step), draw the world and
// the panel, and swap. The last frame can be saved as PNG and the final state
// written as JSON, so the whole thing runs under xvfb-run in tests.

#include "viewer/viewer_app.h"

#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>

#include "pabd/scene.h"
#include "shapes/mass_properties.h"
#include "viewer/camera.h"
#include "viewer/gl.h"
#include "viewer/mouse_spring.h"
#include "viewer/renderer.h"
#include "viewer/screenshot.h"
#include "viewer/ui_panel.h"
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace pabd::viewer {
namespace {

using Clock = std::chrono::steady_clock;

/// Real time: at most this many steps per frame, so a slow step cannot make
/// the backlog (and the next frame) grow without bound.
constexpr int kMaxStepsPerFrame = 4;

/// Width of the ImGui panel on the left [pixels], roughly.
constexpr int kPanelWidth = 330;

/// Frames the camera on the bodies and joints of a world, seen from the
/// default direction. A body hanging from a world anchor can swing anywhere
/// below it within its reach, so that region is framed too (in X and Y, the
/// plane the default camera sees). The scene is then shifted right by half the
/// panel's width so the panel does not cover it. Returns the size of the box
/// framed [m] (its diagonal; 0 for a world of planes only).
double frame_world(const World& world, OrbitCamera& camera, int window_height) {
  Vec3 lo{1e300, 1e300, 1e300}, hi{-1e300, -1e300, -1e300};
  bool any = false;
  auto grow = [&](Vec3 a, Vec3 b) {
    lo = {std::min(lo.x, a.x), std::min(lo.y, a.y), std::min(lo.z, a.z)};
    hi = {std::max(hi.x, b.x), std::max(hi.y, b.y), std::max(hi.z, b.z)};
    any = true;
  };
  for (int i = 0; i < world.body_count(); ++i) {
    const BodyId id = world.body_at(i);
    if (!world.is_valid(id) || world.body_shape(id).type == ShapeType::Plane) continue;
    const double r = shape_bounding_radius(world.body_shape(id));
    const Vec3 p = world.body_state(id).position;
    grow(p - Vec3{r, r, r}, p + Vec3{r, r, r});
  }
  if (!any) return 0;
  const Vec3 body_lo = lo, body_hi = hi;
  for (int j = 0; j < world.joint_count(); ++j) {
    if (!world.is_valid(world.joint_at(j))) continue;
    const JointInfo info = world.joint_info(world.joint_at(j));
    if (!info.body_a.is_world() && !info.body_b.is_world()) continue;
    const Vec3 a = info.body_a.is_world() ? info.world_a : info.world_b;
    double reach = 0;  // farthest corner of the bodies' box from the anchor
    for (int c = 0; c < 8; ++c) {
      const Vec3 corner{c & 1 ? body_hi.x : body_lo.x, c & 2 ? body_hi.y : body_lo.y,
                        c & 4 ? body_hi.z : body_lo.z};
      reach = std::max(reach, length(corner - a));
    }
    grow({a.x - reach, a.y - reach, a.z}, {a.x + reach, a.y, a.z});
  }
  camera.frame_bounds(lo, hi);
  camera.pan(kPanelWidth / 2.0, 0, window_height);
  return length(hi - lo);
}

/// Grid spacing for a scene of this size: the power of ten at or below a
/// fifth of it, at most 1 m (so 40 cells cover metre-sized scenes and more).
double grid_cell(double scene_size) {
  if (!(scene_size > 0)) return 1;
  return std::min(1.0, std::pow(10.0, std::floor(std::log10(scene_size / 5))));
}

/// How many of its bounding radii around the followed body the camera frames
/// (a cube of this half size): a 3.7 m jeep then fills a fifth of the window's
/// width, with the road ahead and behind in view.
constexpr double kFollowFrameRadii = 1.5;

/// Frames the camera on one body, kFollowFrameRadii of its bounding radius
/// around it, shifted as frame_world shifts for the panel.
void frame_body(const World& world, BodyId id, OrbitCamera& camera, int window_height) {
  const double r = kFollowFrameRadii * shape_bounding_radius(world.body_shape(id));
  const Vec3 p = world.body_state(id).position;
  camera.frame_bounds(p - Vec3{r, r, r}, p + Vec3{r, r, r});
  camera.pan(kPanelWidth / 2.0, 0, window_height);
}

nlohmann::json vec(Vec3 v) { return {v.x, v.y, v.z}; }

class App {
 public:
  explicit App(const ViewerOptions& options) : opt_(options) {}
  int run();

 private:
  bool open_scene(const std::string& path);
  void rebuild();
  void take_step();
  void simulate(double wall_seconds);
  void scripted_drag(long long frame);
  void find_followed();
  void track_followed();
  void handle_actions(const UiActions& actions);
  bool write_report(long long frames) const;
  void window_size(int* w, int* h) const { glfwGetWindowSize(window_, w, h); }

  static void on_key(GLFWwindow* w, int key, int scancode, int action, int mods);
  static void on_mouse_button(GLFWwindow* w, int button, int action, int mods);
  static void on_cursor(GLFWwindow* w, double x, double y);
  static void on_scroll(GLFWwindow* w, double dx, double dy);

  const ViewerOptions& opt_;
  GLFWwindow* window_ = nullptr;
  Scene scene_;
  std::optional<World> world_;
  OrbitCamera camera_;
  std::optional<Renderer> renderer_;  // lives while the GL context does
  UiState ui_;
  MouseSpring spring_;
  double accumulator_ = 0;
  double cursor_x_ = 0, cursor_y_ = 0;
  bool orbiting_ = false, panning_ = false;
  // What the report says about the drag (the last one, scripted or by hand).
  std::string report_dragged_;
  Vec3 report_grab_, report_target_;
  double script_x0_ = 0, script_y0_ = 0;
  bool quit_requested_ = false;
  double grid_cell_ = 1;  // [m], from the scene's size when it is opened
  // --follow: the body the camera's target moves with, and where it was when
  // the target last moved (so the user's orbit, pan and zoom are kept).
  std::optional<BodyId> followed_;
  Vec3 followed_at_;
};

bool App::open_scene(const std::string& path) {
  try {
    Scene s = load_scene(path);
    if (opt_.threads >= 0) s.settings.threads = opt_.threads;  // --threads wins over the file
    if (!opt_.device.empty())
      s.settings.device = opt_.device == "cuda" ? Device::Cuda : Device::Cpu;
    World w = build_world(s, s.settings);
    spring_.forget();
    scene_ = std::move(s);
    world_.emplace(std::move(w));
    if (renderer_) renderer_->clear_meshes();
    ui_.scene_path = path;
    ui_.scene_index = -1;
    for (int i = 0; i < static_cast<int>(ui_.scenes.size()); ++i)
      if (std::filesystem::equivalent(ui_.scenes[i], path)) ui_.scene_index = i;
    ui_.step_ms.clear();
    accumulator_ = 0;
    grid_cell_ = grid_cell(frame_world(*world_, camera_, opt_.height));
    find_followed();
    if (followed_) frame_body(*world_, *followed_, camera_, opt_.height);
    return true;
  } catch (const std::exception& e) {
    ui_.message = e.what();
    return false;
  }
}

void App::rebuild() {
  try {
    WorldDef settings = world_->settings();
    World w = build_world(scene_, settings);
    spring_.forget();
    world_.emplace(std::move(w));
    ui_.step_ms.clear();
    accumulator_ = 0;
    // The followed body is back at its start: the target jumps with it.
    if (followed_) {
      find_followed();
      track_followed();
    }
  } catch (const std::exception& e) {
    ui_.message = e.what();
  }
}

/// A scene picked from the panel may not have the followed body: the camera
/// then stays where the scene's framing put it.
void App::find_followed() {
  followed_.reset();
  if (opt_.follow.empty()) return;
  try {
    followed_ = world_->find_body(opt_.follow);
  } catch (const Error&) {
    return;
  }
  followed_at_ = world_->body_state(*followed_).position;
}

void App::track_followed() {
  if (!followed_) return;
  const Vec3 p = world_->body_state(*followed_).position;
  camera_.target = camera_.target + (p - followed_at_);
  followed_at_ = p;
}

void App::take_step() {
  const StepResult r = world_->step();
  record_step_time(ui_, world_->last_timings().total_ms);
  ++ui_.steps_last_frame;
  if (!r.ok) {
    ui_.paused = true;
    const char* what = r.failure != StepFailure::NonFinite ? " diverged (the solver created energy)"
                                                           : " became non-finite";
    ui_.message = "step " + std::to_string(r.step) + ": body " + std::to_string(r.bad_body) + what +
                  "; paused (R resets)";
  }
}

void App::simulate(double wall_seconds) {
  ui_.steps_last_frame = 0;
  if (ui_.paused) {
    accumulator_ = 0;
    return;
  }
  if (opt_.fixed_step) {
    take_step();
    return;
  }
  const double dt = world_->settings().dt;
  accumulator_ += std::min(wall_seconds, 0.25);
  int steps = 0;
  while (accumulator_ >= dt && steps < kMaxStepsPerFrame && !ui_.paused) {
    take_step();
    accumulator_ -= dt;
    ++steps;
  }
  if (steps == kMaxStepsPerFrame) accumulator_ = std::min(accumulator_, dt);  // drop the backlog
}

void App::scripted_drag(long long frame) {
  if (!opt_.has_drag) return;
  int w, h;
  window_size(&w, &h);
  const long long press = kDragPressFrame, arrive = kDragPressFrame + kDragMoveFrames;
  if (frame == press) {
    script_x0_ = opt_.drag[0];
    script_y0_ = opt_.drag[1];
    if (!opt_.drag_body.empty()) {
      const Vec3 c = world_->body_state(world_->find_body(opt_.drag_body)).position;
      if (!camera_.project(c, w, h, &script_x0_, &script_y0_))
        std::fprintf(stderr, "pabd view: --drag-body %s is behind the camera\n",
                     opt_.drag_body.c_str());
    }
    if (spring_.begin(*world_, camera_, script_x0_, script_y0_, w, h)) {
      report_dragged_ = spring_.body_name();
      report_grab_ = spring_.grab_point();
    } else {
      std::fprintf(stderr, "pabd view: scripted drag at (%.1f, %.1f) hit no movable body\n",
                   script_x0_, script_y0_);
    }
  } else if (frame > press) {
    // With --drag-body the end point keeps the offset (x1 - x0, y1 - y0); after
    // `arrive` the mouse holds still (the button stays down until the run ends).
    const double s = frame < arrive ? static_cast<double>(frame - press) / kDragMoveFrames : 1.0;
    const double x1 = script_x0_ + (opt_.drag[2] - opt_.drag[0]);
    const double y1 = script_y0_ + (opt_.drag[3] - opt_.drag[1]);
    spring_.move(*world_, camera_, script_x0_ + s * (x1 - script_x0_),
                 script_y0_ + s * (y1 - script_y0_), w, h);
    if (spring_.active()) report_target_ = spring_.target();
  }
}

void App::handle_actions(const UiActions& actions) {
  if (actions.load_scene >= 0) open_scene(ui_.scenes[actions.load_scene]);
  if (actions.reset) rebuild();
  if (actions.step_once) {
    ui_.paused = true;
    take_step();
  }
}

bool App::write_report(long long frames) const {
  nlohmann::json bodies = nlohmann::json::array();
  for (int i = 0; i < world_->body_count(); ++i) {
    const BodyId id = world_->body_at(i);
    if (!world_->is_valid(id)) continue;  // removed
    const BodyState s = world_->body_state(id);
    bodies.push_back(
        {{"name", world_->body_name(id)},
         {"static", world_->is_static(id)},
         {"position", vec(s.position)},
         {"orientation", {s.orientation.w, s.orientation.x, s.orientation.y, s.orientation.z}},
         {"velocity", vec(s.velocity)},
         {"angular_velocity", vec(s.angular_velocity)}});
  }
  nlohmann::json report = {
      {"scene", ui_.scene_path},
      {"frames", frames},
      {"steps", world_->step_count()},
      {"time", world_->time()},
      {"threads", world_->settings().threads},
      {"contacts", world_->contact_count()},
      {"contacts_drawn", renderer_ ? renderer_->contacts_drawn() : 0},
      {"surfaces_drawn", renderer_ ? renderer_->surfaces_drawn() : 0},
      {"cloths_drawn", renderer_ ? renderer_->cloths_drawn() : 0},
      {"camera", {{"target", vec(camera_.target)}, {"distance", camera_.distance}}},
      {"follow", followed_ ? nlohmann::json(world_->body_name(*followed_)) : nlohmann::json()},
      {"bodies", bodies}};
  if (report_dragged_.empty()) {
    report["dragged"] = nullptr;
  } else {
    report["dragged"] = {{"body", report_dragged_},
                         {"grab_point", vec(report_grab_)},
                         {"last_target", vec(report_target_)},
                         {"still_held", spring_.active()}};
  }
  std::ofstream out(opt_.report_path);
  out << report.dump(2) << '\n';
  return static_cast<bool>(out);
}

App* app_of(GLFWwindow* w) { return static_cast<App*>(glfwGetWindowUserPointer(w)); }

}  // namespace

namespace {

void App::on_key(GLFWwindow* w, int key, int /*scancode*/, int action, int /*mods*/) {
  App& app = *app_of(w);
  if (action != GLFW_PRESS || ImGui::GetIO().WantCaptureKeyboard) return;
  switch (key) {
    case GLFW_KEY_SPACE:
      app.ui_.paused = !app.ui_.paused;
      break;
    case GLFW_KEY_S:
    case GLFW_KEY_PERIOD:
      app.ui_.paused = true;
      app.take_step();
      break;
    case GLFW_KEY_R:
      app.rebuild();
      break;
    case GLFW_KEY_H:
      app.ui_.show_help = !app.ui_.show_help;
      break;
    case GLFW_KEY_C:
      app.ui_.draw_contacts = !app.ui_.draw_contacts;
      break;
    case GLFW_KEY_ESCAPE:
      app.quit_requested_ = true;
      break;
    default:
      break;
  }
}

void App::on_mouse_button(GLFWwindow* w, int button, int action, int /*mods*/) {
  App& app = *app_of(w);
  const bool press = action == GLFW_PRESS;
  if (press && ImGui::GetIO().WantCaptureMouse) return;
  int ww, wh;
  app.window_size(&ww, &wh);
  if (button == GLFW_MOUSE_BUTTON_LEFT) {
    if (press &&
        app.spring_.begin(*app.world_, app.camera_, app.cursor_x_, app.cursor_y_, ww, wh)) {
      app.report_dragged_ = app.spring_.body_name();
      app.report_grab_ = app.spring_.grab_point();
      app.report_target_ = app.spring_.target();
    }
    if (!press) app.spring_.end(*app.world_);
  } else if (button == GLFW_MOUSE_BUTTON_RIGHT) {
    app.orbiting_ = press;
  } else if (button == GLFW_MOUSE_BUTTON_MIDDLE) {
    app.panning_ = press;
  }
}

void App::on_cursor(GLFWwindow* w, double x, double y) {
  App& app = *app_of(w);
  const double dx = x - app.cursor_x_, dy = y - app.cursor_y_;
  app.cursor_x_ = x;
  app.cursor_y_ = y;
  int ww, wh;
  app.window_size(&ww, &wh);
  if (app.orbiting_) app.camera_.orbit(dx, dy);
  if (app.panning_) app.camera_.pan(dx, dy, wh);
  if (app.spring_.active()) {
    app.spring_.move(*app.world_, app.camera_, x, y, ww, wh);
    app.report_target_ = app.spring_.target();
  }
}

void App::on_scroll(GLFWwindow* w, double /*dx*/, double dy) {
  if (ImGui::GetIO().WantCaptureMouse) return;
  app_of(w)->camera_.zoom(dy);
}

void glfw_error(int code, const char* description) {
  std::fprintf(stderr, "pabd view: GLFW error %d: %s\n", code, description);
}

/// Start-up errors are reported once, by the caller, in a single line.
void glfw_error_quiet(int /*code*/, const char* /*description*/) {}

int App::run() {
  const std::string folder = !opt_.scenes_dir.empty()
                                 ? opt_.scenes_dir
                                 : std::filesystem::path(opt_.scene_path).parent_path().string();
  ui_.scenes = list_scenes(folder.empty() ? "." : folder);
  ui_.draw_contacts = opt_.contacts;
  if (!open_scene(opt_.scene_path)) {
    std::fprintf(stderr, "pabd view: %s\n", ui_.message.c_str());
    return 2;
  }
  // Bodies named on the command line must exist: one line and status 2 otherwise.
  for (const auto& [flag, name] :
       {std::pair{"--drag-body", &opt_.drag_body}, std::pair{"--follow", &opt_.follow}}) {
    if (name->empty()) continue;
    try {
      world_->find_body(*name);
    } catch (const Error& e) {
      std::fprintf(stderr, "pabd view: %s: %s\n", flag, e.what());
      return 2;
    }
  }

  glfwSetErrorCallback(glfw_error_quiet);
  if (!glfwInit()) {
    const char* why = nullptr;
    glfwGetError(&why);
    std::fprintf(stderr,
                 "pabd view: cannot open a window (%s); it needs a display, e.g. xvfb-run for "
                 "tests\n",
                 why ? why : "GLFW did not start");
    return 1;
  }
  glfwSetErrorCallback(glfw_error);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
  const std::string title =
      "pabd view - " + std::filesystem::path(opt_.scene_path).filename().string();
  window_ = glfwCreateWindow(opt_.width, opt_.height, title.c_str(), nullptr, nullptr);
  if (!window_) {
    std::fprintf(stderr, "pabd view: cannot open a %dx%d OpenGL 3.3 core window\n", opt_.width,
                 opt_.height);
    glfwTerminate();
    return 1;
  }
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(opt_.fixed_step ? 0 : 1);
  glfwSetWindowUserPointer(window_, this);
  // Installed before ImGui's, which chains to them.
  glfwSetKeyCallback(window_, on_key);
  glfwSetMouseButtonCallback(window_, on_mouse_button);
  glfwSetCursorPosCallback(window_, on_cursor);
  glfwSetScrollCallback(window_, on_scroll);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini in the working folder
  ImGui::StyleColorsDark();
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");

  int status = 0;
  std::string error;
  renderer_.emplace();
  if (!renderer_->init(&error)) {
    std::fprintf(stderr, "pabd view: %s\n", error.c_str());
    status = 1;
  }

  long long frame = 0;
  Clock::time_point last = Clock::now();
  while (status == 0 && !glfwWindowShouldClose(window_) && !quit_requested_) {
    glfwPollEvents();
    ++frame;
    const Clock::time_point now = Clock::now();
    const double wall = std::chrono::duration<double>(now - last).count();
    last = now;
    ui_.frame_ms = 1000 * wall;

    scripted_drag(frame);
    simulate(wall);
    track_followed();

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    ui_.dragged_body = spring_.active() ? spring_.body_name() : "";
    const UiActions actions = draw_ui(ui_, *world_);
    ImGui::Render();
    handle_actions(actions);

    int fw, fh;
    glfwGetFramebufferSize(window_, &fw, &fh);
    DrawOptions draw;
    draw.joints = ui_.draw_joints;
    draw.contacts = ui_.draw_contacts;
    draw.grid_cell = grid_cell_;
    if (spring_.active()) {
      draw.highlight_body = spring_.body_index();
      draw.has_drag = true;
      draw.drag_body_point = spring_.body_point(*world_);
      draw.drag_target = spring_.target();
    }
    renderer_->draw(*world_, camera_, fw, fh, draw);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

    const bool last_frame = opt_.frames > 0 && frame >= opt_.frames;
    if (last_frame && !opt_.screenshot_path.empty() &&
        !save_screenshot(opt_.screenshot_path, fw, fh, &error)) {
      std::fprintf(stderr, "pabd view: %s\n", error.c_str());
      status = 1;
    }
    glfwSwapBuffers(window_);
    if (last_frame) break;
  }

  if (status == 0 && !opt_.report_path.empty() && !write_report(frame)) {
    std::fprintf(stderr, "pabd view: cannot write %s\n", opt_.report_path.c_str());
    status = 1;
  }
  spring_.end(*world_);

  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  renderer_.reset();  // its GL objects need the context, which goes next
  glfwDestroyWindow(window_);
  glfwTerminate();
  return status;
}

}  // namespace

int run_viewer(const ViewerOptions& options) {
  App app(options);
  return app.run();
}

}  // namespace pabd::viewer
