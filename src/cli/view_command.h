// `pabd view`: the interactive viewer (src/viewer/). Registered in every build;
// a build without GLFW, OpenGL or Dear ImGui prints a one-line error and exits 1.
#pragma once

#include <CLI/CLI.hpp>

namespace pabd::cli {

/// Registers `view` on `app`. When the command runs, its exit status is stored
/// in `exit_status`, which must outlive app.parse().
void add_view_command(CLI::App& app, int& exit_status);

}  // namespace pabd::cli
