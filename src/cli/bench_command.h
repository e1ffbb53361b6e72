// `pabd bench`: the paper's Table 2 (bodies, joints, iterations, median
// collision and solve ms, ms per step) for scene files at several thread
// counts, with the machine, compiler and commit; a CSV of the same rows.
#pragma once

#include <CLI/CLI.hpp>

#include "cli/command_support.h"

namespace pabd::cli {

/// Registers `bench` on `app`. When the command runs, its exit status is stored in
/// `exit_status`, which must outlive app.parse().
void add_bench_command(CLI::App& app, int& exit_status);

}  // namespace pabd::cli
