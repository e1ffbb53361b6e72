// The viewer's Dear ImGui panel: run controls, scene picker, live solver
// settings, per-stage timings with a plot of recent steps, drawing options and
// the keyboard help. It edits the World's settings directly (set_settings) and
// returns the actions that the app loop carries out.
#pragma once

#include <deque>
#include <string>
#include <vector>

#include "pabd/world.h"

namespace pabd::viewer {

/// Panel state that lives across frames.
struct UiState {
  bool paused = false;
  bool show_help = true;
  bool draw_joints = true;
  bool draw_contacts = false;       ///< the last step's contact points and normals
  std::vector<std::string> scenes;  ///< scene files offered by the picker
  int scene_index = -1;             ///< which one is loaded, or -1
  std::string scene_path;           ///< the loaded scene file
  std::deque<float> step_ms;        ///< total ms of recent steps, oldest first
  std::string message;              ///< last error or notice, shown in red
  std::string dragged_body;         ///< name of the body being dragged, or empty
  double frame_ms = 0;              ///< wall time of the last frame
  int steps_last_frame = 0;         ///< simulation steps taken in the last frame
};

/// What the user asked for this frame.
struct UiActions {
  bool reset = false;      ///< rebuild the World from the scene
  bool step_once = false;  ///< take one step while paused
  int load_scene = -1;     ///< index into UiState::scenes to load, or -1
};

/// Remembers a step's total time for the plot (keeps the last 240).
void record_step_time(UiState& ui, double total_ms);

/// Lists the *.json files of a folder, sorted; empty if it cannot be read.
std::vector<std::string> list_scenes(const std::string& folder);

/// Draws the panel (between ImGui::NewFrame and ImGui::Render).
UiActions draw_ui(UiState& ui, World& world);

}  // namespace pabd::viewer
