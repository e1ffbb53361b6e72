// `pabd view`: a GLFW window (OpenGL 3.3 core, Dear ImGui) that steps the live
// solver in real time. The app loop owns the World, the camera, the renderer,
// the panel and the mouse spring; see docs in src/cli/view_command.cpp for the
// flags.
#pragma once

#include <array>
#include <string>

namespace pabd::viewer {

/// Everything `pabd view` takes from its command line.
struct ViewerOptions {
  std::string scene_path;        ///< scene file to open
  std::string scenes_dir;        ///< folder the scene picker lists (empty: the scene's folder)
  long long frames = 0;          ///< quit after this many frames; 0 = run until closed
  std::string screenshot_path;   ///< write the last frame here as PNG (empty: no)
  std::string report_path;       ///< write the final state here as JSON (empty: no)
  bool has_drag = false;         ///< run the scripted drag
  std::array<double, 4> drag{};  ///< x0, y0, x1, y1 in window pixels
  std::string drag_body;         ///< start the scripted drag at this body's centre (empty: x0, y0)
  int width = 1280;              ///< window width [pixels]
  int height = 720;              ///< window height [pixels]
  bool fixed_step = false;       ///< exactly one simulation step per frame
  int threads = -1;              ///< solver threads (0 = OpenMP's default); -1 = the scene's
  std::string device;            ///< "cpu" or "cuda"; empty = the scene's settings.device
  bool contacts = false;         ///< start with the contact display on
  std::string follow;            ///< keep this body in view, framed close (empty: frame the scene)
};

/// Frames of the scripted drag: press on kDragPressFrame, move linearly to
/// the end point over the next kDragMoveFrames frames, then hold it there until
/// the run ends (as a user holding the mouse button down).
inline constexpr long long kDragPressFrame = 10;
inline constexpr long long kDragMoveFrames = 100;

/// Runs the viewer; returns the process exit status (0 ok, 1 failure, 2 bad input).
int run_viewer(const ViewerOptions& options);

}  // namespace pabd::viewer
