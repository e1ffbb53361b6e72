// `pabd run`: simulate a scene file and write states, statistics and timings.
//
// Each subcommand of the `pabd` program lives in its own file pair and exposes one
// add_*_command() that registers it on the top-level CLI11 app; main.cpp only
// calls these. A new command (bench, converge, view) is a new file pair plus one
// line in main.cpp.
#pragma once

#include <CLI/CLI.hpp>

#include "cli/command_support.h"

namespace pabd::cli {

/// Registers `run` on `app`. When the command runs, its exit status is stored in
/// `exit_status`, which must outlive app.parse().
void add_run_command(CLI::App& app, int& exit_status);

}  // namespace pabd::cli
