// What every `pabd` subcommand shares: exit statuses, the one-line failure
// that ends a command, round-trip number formatting, output files opened
// before simulating, and the mapping of every way a command can end to one
// stderr line and a status (docs/scene-format.md).
#pragma once

#include <fstream>
#include <functional>
#include <memory>
#include <string>

namespace pabd::cli {

/// Exit statuses shared by every subcommand (see docs/scene-format.md).
enum ExitStatus : int {
  kExitOk = 0,        ///< success
  kExitFailure = 1,   ///< anything else: non-finite state, unwritable output, internal error
  kExitBadInput = 2,  ///< bad scene file or bad command-line flag; nothing was simulated
};

/// Thrown for a problem that ends a command; carries the one-line message and status.
struct CommandFailure {
  int status;
  std::string message;
};

/// Shortest text that reads back as the same double (std::to_chars round trip).
std::string format_number(double x);

/// Opens an output file now (nullptr for an empty path), so an unwritable path
/// fails with status 1 before any simulation; `command` prefixes the message.
std::unique_ptr<std::ofstream> open_output(const std::string& command, const std::string& path);

/// Runs `body` and turns every way it can end into a status, printing one
/// stderr line for failures: CommandFailure as given, SceneError (already
/// "FILE: PATH: expected ...") and pabd::Error (prefixed with the scene path)
/// as bad input, anything else as an internal error.
int run_reporting_failures(const std::string& command, const std::string& scene_path,
                           const std::function<int()>& body);

}  // namespace pabd::cli
