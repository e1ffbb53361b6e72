// Dear ImGui panel (see ui_panel.h).

#include "viewer/ui_panel.h"

#include <imgui.h>

#include <algorithm>
#include <filesystem>
#include <thread>

namespace pabd::viewer {
namespace {

constexpr std::size_t kPlotLength = 240;  // four seconds of steps at 60 Hz

std::string file_name(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

/// Applies new settings; a rejected value leaves the old ones and a message.
void apply(UiState& ui, World& world, const WorldDef& def) {
  try {
    world.set_settings(def);
  } catch (const Error& e) {
    ui.message = e.what();
  }
}

void run_section(UiState& ui, World& world, UiActions& actions) {
  if (ImGui::Button(ui.paused ? "Resume (space)" : "Pause (space)")) ui.paused = !ui.paused;
  ImGui::SameLine();
  if (ImGui::Button("Step (S)")) actions.step_once = true;
  ImGui::SameLine();
  if (ImGui::Button("Reset (R)")) actions.reset = true;
  ImGui::Text("t = %.3f s   step %lld   %s", world.time(),
              static_cast<long long>(world.step_count()), ui.paused ? "paused" : "running");
  ImGui::Text("frame %.1f ms, %d step(s) this frame", ui.frame_ms, ui.steps_last_frame);
  if (!ui.dragged_body.empty()) ImGui::Text("dragging: %s", ui.dragged_body.c_str());
}

void scene_section(UiState& ui, UiActions& actions) {
  const std::string current =
      ui.scene_index >= 0 ? file_name(ui.scenes[ui.scene_index]) : file_name(ui.scene_path);
  if (ImGui::BeginCombo("scene", current.c_str())) {
    for (int i = 0; i < static_cast<int>(ui.scenes.size()); ++i) {
      const bool selected = i == ui.scene_index;
      if (ImGui::Selectable(file_name(ui.scenes[i]).c_str(), selected)) actions.load_scene = i;
      if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }
  if (ui.scenes.empty()) ImGui::TextDisabled("(no *.json in the scenes folder)");
}

void solver_section(UiState& ui, World& world) {
  WorldDef def = world.settings();
  int iterations = def.iterations;
  if (ImGui::SliderInt("iterations", &iterations, 1, 100)) {
    def.iterations = iterations;
    apply(ui, world, def);
  }
  float dt_ms = static_cast<float>(def.dt * 1000);
  if (ImGui::SliderFloat("dt [ms]", &dt_ms, 1.0f, 50.0f, "%.2f")) {
    def = world.settings();
    def.dt = dt_ms / 1000.0;
    apply(ui, world, def);
  }
  int threads = def.threads;
  const int max_threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  if (ImGui::SliderInt("threads (0 = auto)", &threads, 0, max_threads)) {
    def = world.settings();
    def.threads = threads;
    apply(ui, world, def);
  }
  bool al = def.augmented_lagrangian;
  if (ImGui::Checkbox("augmented Lagrangian", &al)) {
    def = world.settings();
    def.augmented_lagrangian = al;
    apply(ui, world, def);
  }
}

void timing_section(UiState& ui, World& world) {
  const StageTimings& t = world.last_timings();
  if (ImGui::BeginTable("stages", 2, ImGuiTableFlags_SizingStretchProp)) {
    const std::pair<const char*, double> rows[] = {
        {"detect", t.detect_ms}, {"predict", t.predict_ms}, {"bonds", t.bonds_ms},
        {"solve", t.solve_ms},   {"dual", t.dual_ms},       {"velocities", t.velocities_ms},
        {"total", t.total_ms}};
    for (const auto& [name, ms] : rows) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(name);
      ImGui::TableNextColumn();
      ImGui::Text("%8.3f ms", ms);
    }
    ImGui::EndTable();
  }
  if (!ui.step_ms.empty()) {
    const std::vector<float> values(ui.step_ms.begin(), ui.step_ms.end());
    const float peak = *std::max_element(values.begin(), values.end());
    char overlay[64];
    std::snprintf(overlay, sizeof overlay, "step ms (max %.2f)", peak);
    ImGui::PlotLines("##steps", values.data(), static_cast<int>(values.size()), 0, overlay, 0.0f,
                     peak * 1.2f + 1e-3f, ImVec2(300, 60));
  }
}

void draw_section(UiState& ui, const World& world) {
  ImGui::Checkbox("joint frames (end points + lines)", &ui.draw_joints);
  ImGui::Checkbox("contact points and normals (C)", &ui.draw_contacts);
  // Pushing: a normal force in the last step; the rest are speculative.
  const int n = world.contact_count();
  int pushing = 0;
  for (int c = 0; c < n; ++c) pushing += world.contact(c).normal_force > 0 ? 1 : 0;
  ImGui::SameLine();
  ImGui::TextDisabled("%d (%d pushing)", n, pushing);
  ImGui::Checkbox("keyboard help (H)", &ui.show_help);
}

void help_window() {
  ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - 10, 10), ImGuiCond_Always, ImVec2(1, 0));
  ImGui::SetNextWindowBgAlpha(0.6f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav |
                                 ImGuiWindowFlags_NoMove;
  if (ImGui::Begin("help", nullptr, flags)) {
    ImGui::TextUnformatted(
        "space      pause / resume\n"
        "S or .     single step\n"
        "R          reset the scene\n"
        "C          toggle contacts\n"
        "H          toggle this help\n"
        "Esc        quit\n"
        "left drag  pull a body with a spring\n"
        "right drag orbit\n"
        "middle     pan\n"
        "wheel      zoom");
  }
  ImGui::End();
}

}  // namespace

void record_step_time(UiState& ui, double total_ms) {
  ui.step_ms.push_back(static_cast<float>(total_ms));
  while (ui.step_ms.size() > kPlotLength) ui.step_ms.pop_front();
}

std::vector<std::string> list_scenes(const std::string& folder) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
    if (entry.is_regular_file(ec) && entry.path().extension() == ".json")
      out.push_back(entry.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

UiActions draw_ui(UiState& ui, World& world) {
  UiActions actions;
  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowBgAlpha(0.85f);
  if (ImGui::Begin("pabd view", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::PushItemWidth(170);
    run_section(ui, world, actions);
    if (ImGui::CollapsingHeader("Scene", ImGuiTreeNodeFlags_DefaultOpen))
      scene_section(ui, actions);
    if (ImGui::CollapsingHeader("Solver", ImGuiTreeNodeFlags_DefaultOpen))
      solver_section(ui, world);
    if (ImGui::CollapsingHeader("Timings", ImGuiTreeNodeFlags_DefaultOpen))
      timing_section(ui, world);
    if (ImGui::CollapsingHeader("Draw", ImGuiTreeNodeFlags_DefaultOpen)) draw_section(ui, world);
    if (!ui.message.empty()) {
      ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "%s", ui.message.c_str());
      if (ImGui::SmallButton("dismiss")) ui.message.clear();
    }
    ImGui::PopItemWidth();
  }
  ImGui::End();
  if (ui.show_help) help_window();
  return actions;
}

}  // namespace pabd::viewer
