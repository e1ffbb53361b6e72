// The `pabd` program: a CLI11 app whose subcommands each live in their own file
// (run_command.cpp, ...). Parse errors become one line on stderr and exit status 2,
// so scripts see the same contract for a bad flag as for a bad scene file.

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>

#include "cli/bench_command.h"
#include "cli/converge_command.h"
#include "cli/run_command.h"
#include "cli/view_command.h"
int main(int argc, char** argv) {
  CLI::App app{"pabd: Projective Affine Body Dynamics", "pabd"};
  app.set_version_flag("--version", std::string("pabd ") + PABD_VERSION);
  app.require_subcommand(1);

  int exit_status = pabd::cli::kExitOk;
  pabd::cli::add_run_command(app, exit_status);
  pabd::cli::add_view_command(app, exit_status);
  pabd::cli::add_converge_command(app, exit_status);
  pabd::cli::add_bench_command(app, exit_status);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version are "errors" with status 0: let CLI11 print them.
    if (e.get_exit_code() == 0) return app.exit(e);
    std::string message = e.what();
    for (char& c : message)
      if (c == '\n' || c == '\r') c = ' ';
    std::fprintf(stderr, "pabd: %s (see pabd --help)\n", message.c_str());
    return pabd::cli::kExitBadInput;
  }
  return exit_status;
}
