// `pabd converge`: the solver's relative error per iteration for one step of a
// scene (Bouaziz et al. 2014; the paper's Figs. 5 and 6), as CSV and SVG.
#pragma once

#include <CLI/CLI.hpp>

namespace pabd::cli {

/// Registers `converge` on `app`. When the command runs, its exit status is
/// stored in `exit_status`, which must outlive app.parse().
void add_converge_command(CLI::App& app, int& exit_status);

}  // namespace pabd::cli
