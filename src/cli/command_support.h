// What every `pabd` subcommand shares: exit statuses, the one-line failure
// that ends a command, round-trip number formatting, CSV fields, output files
// opened before simulating, the mapping of every way a command can end to one
// stderr line and a status (docs/scene-format.md), and the per-step timing
// samples that `pabd run --stats` and `pabd bench` report as medians.
#pragma once

#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "pabd/world.h"

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

/// A text as a CSV field (RFC 4180 quoting when it holds , " or a line break).
std::string csv_field(const std::string& s);

/// Median of the samples (mean of the two middle ones for an even count); 0 when empty.
double median(std::vector<double> v);

/// Per-step samples of the wall time and of each of World::last_timings()' stages [ms].
struct StepSamples {
  std::vector<double> step_ms, detect, predict, bonds, solve, dual, velocities, total, solver;
  std::vector<double> broadphase, narrowphase, contact_setup, contact_load;  ///< parts of detect
  std::vector<double> fields;    ///< the fields' coupling (StageTimings::fields_ms)
  std::vector<double> contacts;  ///< contact points of each step

  void add(double wall_ms, const StageTimings& t, int contact_count);

  /// (name, samples) in the order of the step's stages.
  std::vector<std::pair<const char*, const std::vector<double>*>> stages() const;
};

/// Runs world.step() timed with a monotonic clock; a successful step is added to
/// `samples` (wall time, stage timings, contact count), a failed one is not.
StepResult timed_step(World& world, StepSamples& samples);
/// What went wrong in a failed step, after "SCENE: step N: ": `body` names the
/// body the result points at ("body 'box'").
std::string step_failure_text(const StepResult& result, const std::string& body);

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
